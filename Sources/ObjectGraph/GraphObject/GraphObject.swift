import Observation

/// The base class of every object an ``ObjectGraph`` holds.
///
/// Subclass it with a `final class` whose properties use ``Attribute`` and ``Relationship``:
///
/// ```swift
/// final class Item: GraphObject {
///     @Attribute var name = ""
///     @Relationship(inverse: \Location.items) var location: Location?
/// }
/// ```
///
/// Give every wrapped property an initial value, so the class's `required init()` can make
/// the prototype the graph reflects once to learn the entity's properties.
///
/// Objects are classes with identity: two references are equal when they are the same
/// object. They are confined to their graph's isolation domain and are not `Sendable`;
/// pass an ``objectID`` across domains instead. Reads register with Observation, so reading
/// `item.name` inside `withObservationTracking` fires when the name changes.
open class GraphObject: Observable, Hashable {
    /// The graph's context, or the shared detached one. Read on every property access, so
    /// it is unowned and unchecked; the object keeps a graph's context alive with a manual
    /// retain (``_attach(to:)``), the detached one is immortal.
    @usableFromInline
    @exclusivity(unchecked)
    internal final unowned(unsafe) var _context: _GraphContext

    // The fields below are read and written only by the graph that owns the object (or
    // before it has one), in the graph's isolation domain, and never across a call that
    // could reach them again: the dynamic exclusivity checks are dropped.

    /// The packed ``ObjectID`` bits; 0 until the object is inserted and again once its
    /// insertion is rolled back: exactly while `_context` is the detached context.
    @usableFromInline
    @exclusivity(unchecked)
    internal final var _idBits: UInt64 = 0

    /// The entity, set on insertion; descriptions are immortal.
    @usableFromInline
    @exclusivity(unchecked)
    internal final unowned(unsafe) var _entity: EntityDescription?

    /// One plus the index of the object's entry in the graph's pending changes (0: none).
    /// An object inserted in the pending transaction has no entry: one plus the index of its
    /// deferred inverse members, if any. For a prototype: the storage offset its last read
    /// probed.
    @usableFromInline
    @exclusivity(unchecked)
    internal final var _pendingSlot: Int32 = 0

    /// ``_insertedFlag``, ``_deletedFlag``, ``_prototypeFlag``, ``_observedFlag``,
    /// ``_writtenAfterDeleteFlag``, ``_mayHoldInvalidTargetsFlag``, ``_staleInverseFlag``.
    @usableFromInline
    @exclusivity(unchecked)
    internal final var _flags: UInt8 = 0

    /// Inserted in the pending transaction.
    @usableFromInline static let _insertedFlag: UInt8 = 1
    /// Deleted (pending or committed).
    @usableFromInline static let _deletedFlag: UInt8 = 2
    /// A prototype made to learn the entity; never inserted.
    @usableFromInline static let _prototypeFlag: UInt8 = 4
    /// The object has an Observation registrar in its graph (made on its first observed read).
    @usableFromInline static let _observedFlag: UInt8 = 8
    /// An object inserted in the pending transaction was written after it was deleted (a
    /// committed object notes this in its pending entry).
    @usableFromInline static let _writtenAfterDeleteFlag: UInt8 = 16
    /// A relationship of an object inserted in the pending transaction was given an object of
    /// another graph or a deleted one (a committed object notes this in its pending entry).
    @usableFromInline static let _mayHoldInvalidTargetsFlag: UInt8 = 32
    /// A to-many relationship of the object (inserted in the pending transaction) has members
    /// its graph has not added yet; flush them before touching its relationships (see
    /// `ObjectGraph+DeferredInverses.swift`).
    @usableFromInline static let _staleInverseFlag: UInt8 = 64

    /// Makes an object that is in no graph yet; insert it with ``ObjectGraph/insert(_:)``.
    ///
    /// - Complexity: O(1), plus the initial values of the subclass's properties.
    public required init() {
        _context = _GraphContext.detached
    }

    deinit {
        // Non-zero ID bits: the object holds a graph's context (see `_attachDetached(to:)`).
        if _idBits != 0 { _Unretained(_context).release() }
    }

    /// The slow half of a wrapper's getter, in the object's current context.
    ///
    /// - Parameter offset: The storage offset of the property read.
    @usableFromInline
    @inline(never)
    internal final func _noteRead(offset: Int) {
        // Borrowed, not retained: the object keeps its context alive, and counting a
        // reference to a context a million objects share is the slow path of the runtime.
        _Unretained(_context).borrow { $0._noteRead(self, offset: offset) }
    }

    /// Moves the object to a context, keeping that context alive while the object points at it.
    internal final func _attach(to context: _GraphContext) {
        if context !== _GraphContext.detached { _Unretained(context).retain() }
        if _context !== _GraphContext.detached { _Unretained(_context).release() }
        _context = context
    }

    /// Moves an object that is in no graph to a graph's context (``_attach(to:)`` for the
    /// case where the current context is the detached one, which is never counted).
    @inline(__always)
    internal final func _attachDetached(to context: _GraphContext) {
        _Unretained(context).retain()
        _context = context
    }

    /// The entity name used in URIs, batches and change descriptions: the class's name by
    /// default. Override it to keep names stable when a class is renamed.
    open class var entityName: String { String(describing: self) }

    /// The description of the class's entity, built on first use.
    public static var entity: EntityDescription { _EntityRegistry.description(for: self) }

    /// The object's identity, stable for its life.
    ///
    /// The object must have been inserted into a graph (`precondition`).
    public final var objectID: ObjectID {
        guard let entity = _entity else {
            requirementFailure("\(type(of: self)) has no objectID before it is inserted into a graph")
        }
        return ObjectID(_bits: _idBits, entity: entity)
    }

    /// The graph the object belongs to, or `nil` before insertion, after its insertion is
    /// rolled back, or once the graph is gone.
    public final var graph: ObjectGraph? { _context.graph }

    /// Whether the object is deleted (the deletion may still be pending).
    ///
    /// A deleted object cannot change: setting one of its `@Attribute` or `@Relationship`
    /// properties is a programming error that stops the program where the write is made
    /// (`precondition`). Test this property first where an object may have been deleted
    /// meanwhile, such as in a callback that arrives late.
    public final var isDeleted: Bool { _flags & Self._deletedFlag != 0 }

    /// Whether the object was inserted in the pending transaction.
    public final var isInserted: Bool {
        _flags & Self._insertedFlag != 0 || (_context.graph?._isValidatedInsert(self) ?? false)
    }

    /// Checks the object before a commit; throw to make ``ObjectGraph/commit(author:)`` throw
    /// ``CommitError/validationFailed(_:_:)`` and keep every pending change.
    ///
    /// Called for each inserted or updated object that is not deleted. It must only read:
    /// inserting an object, or a write that would record a change to an object inserted in
    /// the same commit and already validated, is a precondition failure. While the commit validates, every object
    /// it inserts reports ``isInserted`` as `true`. The default implementation accepts
    /// everything.
    ///
    /// - Throws: Any error that says why the object is invalid.
    /// - Complexity: O(1) for the default implementation; an override's cost is paid once per
    ///   inserted or updated object at every commit.
    open func validateForCommit() throws {}

    /// A stand-in property whose key paths (one per property index) Observation tracks.
    internal final subscript(_observedProperty index: Int) -> Int { index }

    /// Identity: the same object.
    ///
    /// - Complexity: O(1).
    public static func == (lhs: GraphObject, rhs: GraphObject) -> Bool {
        lhs === rhs
    }

    /// Hashes the object's identity.
    ///
    /// - Complexity: O(1).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }

    /// The hash that sets of objects use: a fast mix of the object's address and the table's
    /// seed, so relationship sets hash in a few integer operations.
    ///
    /// - Complexity: O(1).
    public func _rawHashValue(seed: Int) -> Int {
        _mixHash(UInt64(UInt(bitPattern: ObjectIdentifier(self))), seed: seed)
    }
}

@available(*, unavailable, message: "objects are confined to their graph's isolation domain; pass an ObjectID")
extension GraphObject: Sendable {}
