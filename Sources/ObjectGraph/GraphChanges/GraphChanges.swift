/// What one commit changed: the objects inserted, deleted and updated, and the reorders of
/// ordered relationships.
///
/// Published once per ``ObjectGraph/commit(author:)`` to every observer, in commit order.
/// An object inserted and deleted in the same transaction appears nowhere.
public struct GraphChanges: Sendable, Equatable, CustomStringConvertible {
    /// The objects inserted by the commit.
    ///
    /// A commit keeps its inserted objects as runs of serials and builds this set the first
    /// time it is read (then keeps it); ``insertedIDs`` lists them without hashing them.
    ///
    /// - Complexity: Reading is O(*n*) for *n* inserted objects the first time, O(1) after.
    public var inserted: Set<ObjectID> {
        get { _inserted.set }
        set { _inserted = newValue.isEmpty ? .empty : InsertedIDs(newValue) }
    }

    /// The objects inserted by the commit, each once: the same IDs as ``inserted``, as an
    /// array (in insertion order when the changes come from a commit).
    ///
    /// - Complexity: O(*n*) for *n* inserted objects the first time, O(1) after.
    public var insertedIDs: [ObjectID] { _inserted.ids }

    /// The inserted IDs, with the set built on demand.
    internal var _inserted: InsertedIDs

    /// The objects deleted by the commit (committed objects only).
    public var deleted: Set<ObjectID>

    /// The committed objects, neither inserted nor deleted, whose attributes or
    /// relationships changed, with the names of those properties. A relationship that only
    /// changed order is listed here too, and its reorder is described in ``moves``.
    public var updated: [ObjectID: ChangedProperties]

    /// The reorders of ordered relationships of updated objects.
    public var moves: [OrderedMove]

    /// The tag given to ``ObjectGraph/commit(author:)``, so an observer can skip its own
    /// writes.
    public var author: String?

    /// Whether the commit was made elsewhere — by another graph on the same durable store,
    /// usually in another process — and applied to this graph by the store. Its ``author`` is
    /// the one the other graph gave it. Such a commit is never recorded for undo.
    public var isExternal = false

    /// Makes a set of changes.
    ///
    /// - Parameters:
    ///   - inserted: The objects inserted.
    ///   - deleted: The objects deleted.
    ///   - updated: The objects updated and their changed properties.
    ///   - moves: The reorders of ordered relationships.
    ///   - author: The commit's author tag.
    /// - Complexity: O(*n*) for *n* inserted objects.
    public init(
        inserted: Set<ObjectID> = [],
        deleted: Set<ObjectID> = [],
        updated: [ObjectID: ChangedProperties] = [:],
        moves: [OrderedMove] = [],
        author: String? = nil
    ) {
        self._inserted = inserted.isEmpty ? .empty : InsertedIDs(inserted)
        self.deleted = deleted
        self.updated = updated
        self.moves = moves
        self.author = author
    }

    /// Makes the changes of a commit from the objects it inserted.
    internal init(inserted: InsertedIDs, author: String?) {
        _inserted = inserted.count == 0 ? .empty : inserted
        deleted = []
        updated = [:]
        moves = []
        self.author = author
    }

    /// The number of objects the commit inserted, without listing them.
    ///
    /// - Complexity: O(1).
    package var insertedCount: Int { _inserted.count }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        _inserted.count == 0 && deleted.isEmpty && updated.isEmpty && moves.isEmpty
    }

    /// Equal when the same objects were inserted, deleted and updated, with the same moves
    /// and author.
    ///
    /// - Complexity: O(*n*) for *n* changed objects.
    public static func == (lhs: GraphChanges, rhs: GraphChanges) -> Bool {
        lhs.author == rhs.author && lhs.isExternal == rhs.isExternal && lhs.moves == rhs.moves && lhs.deleted == rhs.deleted
            && lhs.updated == rhs.updated
            && (lhs._inserted === rhs._inserted
                || (lhs._inserted.count == rhs._inserted.count && lhs.inserted == rhs.inserted))
    }

    /// A summary with counts.
    public var description: String {
        "GraphChanges(inserted: \(_inserted.count), deleted: \(deleted.count), updated: \(updated.count), moves: \(moves.count)\(author.map { ", author: \($0)" } ?? "")\(isExternal ? ", external" : ""))"
    }
}

/// The attributes and relationships of one object that a commit changed.
public struct ChangedProperties: Sendable, Hashable, CustomStringConvertible {
    /// The object's entity, which names the indexes.
    public let entity: EntityDescription

    /// Bit `i` set: property `i` changed (for `i` < 64).
    @usableFromInline
    internal var _low: UInt64 = 0
    /// Changed indexes from 64 up, sorted.
    @usableFromInline
    internal var _high: [Int] = []

    /// An empty set of changed properties of an entity.
    ///
    /// - Parameter entity: The entity the indexes belong to.
    /// - Complexity: O(1).
    public init(entity: EntityDescription) {
        self.entity = entity
    }

    /// Marks a property as changed.
    ///
    /// - Parameter index: A property index of ``entity``.
    /// - Complexity: O(1) for the first 64 properties of an entity; O(*h* log *h*) beyond,
    ///   for *h* changed properties from index 64 up.
    public mutating func insert(_ index: PropertyIndex) {
        if index.rawValue < 64 {
            _low |= 1 << UInt64(index.rawValue)
        } else if !_high.contains(index.rawValue) {
            _high.append(index.rawValue)
            _high.sort()
        }
    }

    /// Whether the property at an index changed.
    ///
    /// - Complexity: O(1) for the first 64 properties of an entity.
    @inlinable
    public func contains(_ index: PropertyIndex) -> Bool {
        index.rawValue < 64 ? _low & (1 << UInt64(index.rawValue)) != 0 : _high.contains(index.rawValue)
    }

    /// Whether the property with a name changed.
    ///
    /// - Complexity: Expected O(1) for the first 64 properties of an entity (a name look-up,
    ///   then a bit test).
    public func contains(_ name: String) -> Bool {
        entity.index(of: name).map(contains) ?? false
    }

    /// The indexes of the changed properties, ascending.
    ///
    /// - Complexity: O(*c*) for *c* changed properties; ``forEachIndex(_:)`` visits them
    ///   without making the array.
    public var indexes: [PropertyIndex] {
        var result: [PropertyIndex] = []
        result.reserveCapacity(_low.nonzeroBitCount + _high.count)
        forEachIndex { result.append($0) }
        return result
    }

    /// Calls `body` with the index of each changed property, ascending.
    ///
    /// - Parameter body: What to do with each index.
    /// - Complexity: O(*c*) for *c* changed properties; no allocation.
    @inlinable
    public func forEachIndex(_ body: (PropertyIndex) throws -> Void) rethrows {
        var bits = _low
        while bits != 0 {
            try body(PropertyIndex(bits.trailingZeroBitCount))
            bits &= bits - 1
        }
        for index in _high { try body(PropertyIndex(index)) }
    }

    /// The names of the changed properties.
    public var names: Set<String> { Set(indexes.map { entity[$0].name }) }

    /// Whether no property changed.
    public var isEmpty: Bool { _low == 0 && _high.isEmpty }

    /// The sorted names.
    public var description: String { names.sorted().joined(separator: ", ") }

    /// Equal when the same properties of the same entity changed.
    ///
    /// - Complexity: O(1) for entities of at most 64 properties; O(*h*) for *h* changed
    ///   properties from index 64 up.
    public static func == (lhs: ChangedProperties, rhs: ChangedProperties) -> Bool {
        lhs.entity === rhs.entity && lhs._low == rhs._low && lhs._high == rhs._high
    }

    /// Hashes the changed indexes.
    ///
    /// - Complexity: O(1) for entities of at most 64 properties; O(*h*) for *h* changed
    ///   properties from index 64 up.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(entity))
        hasher.combine(_low)
        hasher.combine(_high)
    }
}

/// One object moved within an ordered to-many relationship by a commit.
///
/// Like a list view's move: `from` is the object's position in the relationship before the
/// commit, `to` its position after. Objects that were added or removed are not moves; the
/// moves are a minimal set (the objects outside a longest run that kept its order).
public struct OrderedMove: Sendable, Hashable, CustomStringConvertible {
    /// The object that owns the relationship.
    public var owner: ObjectID
    /// The relationship's name.
    public var relationship: String
    /// The moved object.
    public var object: ObjectID
    /// Its position before the commit (old index space).
    public var from: Int
    /// Its position after the commit (new index space).
    public var to: Int

    /// Makes a move.
    ///
    /// - Parameters:
    ///   - owner: The relationship's owner.
    ///   - relationship: The relationship's name.
    ///   - object: The moved object.
    ///   - from: Its position before (old index space).
    ///   - to: Its position after (new index space).
    /// - Complexity: O(1).
    public init(owner: ObjectID, relationship: String, object: ObjectID, from: Int, to: Int) {
        self.owner = owner
        self.relationship = relationship
        self.object = object
        self.from = from
        self.to = to
    }

    /// A summary such as `Playlist/p0.songs: 3 → 0`.
    public var description: String { "\(owner).\(relationship): \(from) → \(to)" }
}

extension OrderedMove {
    /// The positions (before, after) of the elements that moved between two orders of
    /// distinct elements, in order of `after`.
    ///
    /// Elements present in both keep their place if they belong to a longest subsequence
    /// whose relative order did not change; the others moved.
    ///
    /// - Complexity: O(*n* log *n*).
    internal static func movedPositions<ID: Hashable>(from before: [ID], to after: [ID]) -> [(from: Int, to: Int)] {
        var oldPosition: [ID: Int] = [:]
        oldPosition.reserveCapacity(before.count)
        for (position, id) in before.enumerated() { oldPosition[id] = position }
        var survivors: [(from: Int, to: Int)] = []
        for (position, id) in after.enumerated() {
            if let old = oldPosition[id] { survivors.append((old, position)) }
        }
        // Longest increasing subsequence of the old positions, in patience-sort form.
        var tails: [Int] = []
        var previous = Array(repeating: -1, count: survivors.count)
        for (i, survivor) in survivors.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let mid = (low + high) / 2
                if survivors[tails[mid]].from < survivor.from { low = mid + 1 } else { high = mid }
            }
            previous[i] = low > 0 ? tails[low - 1] : -1
            if low == tails.count { tails.append(i) } else { tails[low] = i }
        }
        var kept = Array(repeating: false, count: survivors.count)
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            kept[cursor] = true
            cursor = previous[cursor]
        }
        return survivors.indices.filter { !kept[$0] }.map { survivors[$0] }
    }
}
