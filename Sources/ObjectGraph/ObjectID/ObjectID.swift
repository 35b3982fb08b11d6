/// The identity of an object in an ``ObjectGraph``, stable for the object's whole life.
///
/// An `ObjectID` is a value: it is `Sendable`, so it can cross isolation domains where the
/// object itself cannot, and its hash and equality are a couple of integer operations, so
/// controllers can key dictionaries of a million entries by it.
///
/// The identifier packs the graph that issued it, the object's entity and a serial number
/// that the graph never reuses. IDs compare by that packed value: within one entity of one
/// graph, an older object orders before a newer one.
///
/// Limits, chosen so an ID stays two words and its hash one multiplication:
/// - An entity of one graph issues at most 2^32 serials over the graph's life. Serials are
///   never reused, so a stale ID (a restoration identifier, a URI) never names another
///   object; the price is that each deleted object keeps a slot of 8 bytes in its entity's
///   table, and a few bytes in each controller's tables, for the graph's life.
/// - A process holds at most 1,048,575 graphs alive at once, and may make any number over
///   its life: once that many have been made, the numbers of deallocated graphs are used
///   again, the longest-freed first. An ID kept after its graph was deallocated may then
///   look like an ID of a newer graph; do not keep IDs of a graph past its life (keep the
///   ``uriRepresentation``, which names the graph's ``ObjectGraph/identifier``).
public struct ObjectID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Graph tag (20 bits) | entity number (12 bits) | serial within the entity (32 bits).
    @usableFromInline
    internal let _bits: UInt64

    /// The entity of the object; descriptions are immortal, so an unowned reference is safe
    /// and keeps copies of the ID free of reference counting.
    @usableFromInline
    internal unowned(unsafe) let _entity: EntityDescription

    @inlinable
    internal init(_bits: UInt64, entity: EntityDescription) {
        self._bits = _bits
        self._entity = entity
    }

    internal static let serialBits: UInt64 = 32

    /// How many serials an entity of one graph can issue: every serial is below this.
    ///
    /// A store checks the serials it reads against it, so a damaged record is refused
    /// rather than trapping when the object is made.
    package static let serialLimit = 1 << Int(serialBits)
    internal static let entityBits: UInt64 = 12
    internal static let graphBits: UInt64 = 20

    internal init(graphTag: UInt64, entity: EntityDescription, serial: Int) {
        assert(graphTag < 1 << Self.graphBits && UInt64(entity.number) < 1 << Self.entityBits)
        require(serial >= 0 && UInt64(serial) < 1 << Self.serialBits, "an entity of one graph holds at most 2^32 objects")
        let bits = graphTag << (Self.serialBits + Self.entityBits)
            | UInt64(entity.number) << Self.serialBits
            | UInt64(serial)
        self.init(_bits: bits, entity: entity)
    }

    /// The tag of the graph that issued this ID.
    internal var graphTag: UInt64 { _bits >> (Self.serialBits + Self.entityBits) }

    /// The position of the object in its entity's table, in its graph.
    internal var serial: Int { Int(truncatingIfNeeded: _bits & (1 << Self.serialBits - 1)) }

    /// The name of the object's entity (``GraphObject/entityName``).
    public var entityName: String { _entity.name }

    /// The description of the object's entity.
    public var entity: EntityDescription { _entity }

    /// A short form for debugging, such as `Item/p42`.
    public var description: String { "\(_entity.name)/p\(serial)" }

    /// Two IDs are equal when they name the same object.
    ///
    /// - Complexity: O(1), one integer comparison.
    @inlinable
    public static func == (lhs: ObjectID, rhs: ObjectID) -> Bool {
        lhs._bits == rhs._bits
    }

    /// Hashes the packed identity.
    ///
    /// - Complexity: O(1), one integer.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(_bits)
    }

    /// The hash that sets and dictionaries use: a few multiplies and shifts of the packed
    /// bits and the table's seed (a SplitMix64 finalizer), instead of a full SipHash.
    ///
    /// IDs are issued by the graph, not chosen by a user, so a fast mixer is safe here.
    ///
    /// - Complexity: O(1).
    @inlinable
    public func _rawHashValue(seed: Int) -> Int {
        _mixHash(_bits, seed: seed)
    }

    /// Orders IDs by graph, then entity, then age (older first).
    ///
    /// - Complexity: O(1).
    @inlinable
    public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool {
        lhs._bits < rhs._bits
    }
}
