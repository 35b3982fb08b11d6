/// What a transaction keeps about one written property, to roll it back and to tell
/// whether it changed: a copy of the value before the first write (``_SavedStorage``), or,
/// for a to-many relationship, the members added and removed since (``_MembershipDelta``),
/// so a write to a relationship of thousands of objects costs O(1), not a copy of its set.
@usableFromInline
internal protocol _SavedValue: AnyObject {
    /// Puts the value before the transaction back into the object's storage (no inverse
    /// maintenance).
    func restore(into object: GraphObject)
    /// Records that `member` joined the relationship (it was not in it): a no-op for a copy.
    func noteAdded(_ member: GraphObject)
    /// Records that `member` left the relationship (it was in it): a no-op for a copy.
    func noteRemoved(_ member: GraphObject)
    /// For a delta, whether the membership is what it was before the transaction; `nil` for
    /// a copy (compare it with the current value instead).
    var isNetUnchanged: Bool? { get }
    /// For a delta, the members gained and lost; `nil` for a copy. A requirement rather than
    /// a cast to a protocol, which costs thousands of instructions per call.
    var membershipChange: (added: [GraphObject], removed: [GraphObject])? { get }
}

/// A saved copy of one wrapper's storage.
@usableFromInline
internal final class _SavedStorage<Storage>: _SavedValue {
    @usableFromInline let offset: Int
    @usableFromInline let value: Storage

    @inlinable
    init(offset: Int, value: Storage) {
        self.offset = offset
        self.value = value
    }

    @inlinable
    func restore(into object: GraphObject) {
        _storagePointer(object, at: offset, as: Storage.self).pointee = value
    }

    @inlinable
    func noteAdded(_ member: GraphObject) {}

    @inlinable
    func noteRemoved(_ member: GraphObject) {}

    @inlinable
    var isNetUnchanged: Bool? { nil }

    @inlinable
    var membershipChange: (added: [GraphObject], removed: [GraphObject])? { nil }
}

/// The members a to-many relationship gained and lost since the transaction's first write
/// to it: `added` and `removed` are disjoint, and the relationship before the transaction is
/// the current one minus `added` plus `removed`.
///
/// Every change of the relationship's membership after the first write must be noted, once,
/// with ``noteAdded(_:)`` or ``noteRemoved(_:)``.
@usableFromInline
internal final class _MembershipDelta<Value: RelationshipValue>: _SavedValue {
    @usableFromInline let offset: Int
    /// Members that were not in the relationship before the transaction.
    @usableFromInline var added: Set<GraphObject> = []
    /// Former members that are not in it now (kept alive to be restored).
    @usableFromInline var removed: Set<GraphObject> = []

    @inlinable
    init(offset: Int) {
        self.offset = offset
    }

    @inlinable
    func restore(into object: GraphObject) {
        let storage = _storagePointer(object, at: offset, as: Relationship<Value>.self)
        for member in added { Value._Shape.remove(member, from: &storage.pointee._value) }
        for member in removed { Value._Shape.add(member, to: &storage.pointee._value) }
        added = []
        removed = []
    }

    @inlinable
    func noteAdded(_ member: GraphObject) {
        if removed.remove(member) == nil { added.insert(member) }
    }

    @inlinable
    func noteRemoved(_ member: GraphObject) {
        if added.remove(member) == nil { removed.insert(member) }
    }

    @inlinable
    var isNetUnchanged: Bool? { added.isEmpty && removed.isEmpty }

    @usableFromInline
    var membershipChange: (added: [GraphObject], removed: [GraphObject])? { (Array(added), Array(removed)) }
}

/// Whether two values are equal, when their type is `Equatable`; `nil` when it is not.
///
/// When `Value` itself is `Equatable`, the test is on the type (specialized for a concrete
/// type, it folds away) and both values are compared as that type. Otherwise the first
/// value's dynamic type decides (an existential or a class whose values may be of an
/// `Equatable` type), at the cost of a cast of each value.
@inlinable
internal func _equalIfEquatable<Value>(_ lhs: Value, _ rhs: Value) -> Bool? {
    if let type = Value.self as? any Equatable.Type { return type._isEqual(lhs, rhs) }
    guard let lhs = lhs as? any Equatable else { return nil }
    return lhs._isEqual(toAny: rhs)
}

extension Equatable {
    @inlinable
    internal func _isEqual(toAny other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }

    /// `lhs == rhs` for values of a type that is `Self`.
    @inlinable
    internal static func _isEqual<Value>(_ lhs: Value, _ rhs: Value) -> Bool {
        guard let lhs = lhs as? Self, let rhs = rhs as? Self else { return false }
        return lhs == rhs
    }
}

/// Reads and writes one property of an entity by its storage offset.
///
/// The operations are closures made in the wrapper's inlinable initializer, so they are
/// compiled in the module that declares the entity, specialized for its value type (a set
/// of `Item`s hashes and compares without generic dispatch).
@usableFromInline
internal final class _PropertyAccessor {
    /// The byte offset of the wrapper's storage in the object.
    let offset: Int
    /// The relationship's shape, or `nil` for an attribute.
    let kind: RelationshipKind?
    /// The size of the wrapper's storage (a to-one relationship: one nullable reference).
    let storageSize: Int
    private let ops: _PropertyOperations

    init(offset: Int, operations: _PropertyOperations) {
        self.offset = offset
        self.kind = operations.kind
        self.storageSize = operations.storageSize
        self.ops = operations
    }

    var isRelationship: Bool { kind != nil }

    // Both kinds.

    /// The stored value, as `Any` (relationships: the object, set or array of objects).
    func readAny(_ object: GraphObject) -> Any { ops.readAny(object, offset) }
    /// What rollback needs: a copy of the storage, or for a to-many relationship an empty
    /// ``_MembershipDelta`` that the writes that follow fill in.
    func save(_ object: GraphObject) -> any _SavedValue { ops.save(object, offset) }
    /// Whether the object's value equals a saved one (`false` for a non-Equatable attribute).
    func isUnchanged(since saved: any _SavedValue, in object: GraphObject) -> Bool {
        saved.isNetUnchanged ?? ops.isUnchanged(saved, object, offset)
    }

    // Attributes.

    /// Casts a value to the attribute's type, or returns `nil`.
    func cast(_ value: Any) -> Any? { ops.cast(value) }
    /// Stores a value already cast by ``cast(_:)``.
    func store(_ object: GraphObject, _ value: Any) { ops.store(object, offset, value) }
    /// Casts a value to the attribute's type and stores it, in one step and with no
    /// recording (for an object inserted in the transaction and never observed).
    ///
    /// - Returns: Whether the value had the attribute's type; nothing is stored otherwise.
    func storeIfCast(_ object: GraphObject, _ value: Any) -> Bool { ops.storeIfCast(object, offset, value) }
    /// Whether `value` equals the stored value (`false` when not `Equatable`).
    func isEqual(_ object: GraphObject, to value: Any) -> Bool { ops.isEqual(object, offset, value) }
    /// The stored value as a dictionary key, when its type is `Hashable`.
    func hashable(_ object: GraphObject) -> AnyHashable? { ops.hashable(ops.readAny(object, offset)) }
    /// A loose value as a dictionary key, when it is `Hashable`.
    func hashable(value: Any) -> AnyHashable? { ops.hashable(value) }
    /// The value of an attribute kept by ``save(_:)``.
    func savedAttribute(_ saved: any _SavedValue) -> Any { ops.savedValue(saved) }

    // Relationships.

    /// The related objects, in order for an ordered relationship.
    func objects(_ object: GraphObject) -> [GraphObject] { ops.objects(object, offset) }
    /// The related objects of a saved copy (ordered and to-one relationships only; a to-many
    /// relationship keeps a delta).
    func objects(saved: any _SavedValue) -> [GraphObject] { ops.savedObjects(saved) }
    /// Whether no object is related.
    func isEmpty(_ object: GraphObject) -> Bool { ops.isEmpty(object, offset) }
    /// The first related object (the object of a to-one relationship).
    func toOne(_ object: GraphObject) -> GraphObject? { ops.first(object, offset) }
    /// Whether `target` is related.
    func contains(_ object: GraphObject, _ target: GraphObject) -> Bool { ops.contains(object, offset, target) }
    /// Adds a target (to-one: replaces; ordered: appends).
    func add(_ object: GraphObject, _ target: GraphObject) { ops.add(object, offset, target) }
    /// Removes a target if present (to-one: clears only when it holds `target`).
    func remove(_ object: GraphObject, _ target: GraphObject) { ops.remove(object, offset, target) }
    /// Replaces the related objects (distinct, in order).
    func setObjects(_ object: GraphObject, _ targets: [GraphObject]) { ops.setObjects(object, offset, targets) }
    /// Adds targets the caller retained once each, taking those references over, after
    /// reserving room for them (to-one: the last one stays).
    func adoptAll(_ object: GraphObject, _ targets: _AdoptedMembers) { ops.adoptAll(object, offset, targets) }
}

/// The closures behind a ``_PropertyAccessor``; each takes the storage offset.
@usableFromInline
internal struct _PropertyOperations {
    @usableFromInline var kind: RelationshipKind?
    @usableFromInline var storageSize = 0
    @usableFromInline var readAny: (GraphObject, Int) -> Any
    @usableFromInline var save: (GraphObject, Int) -> any _SavedValue
    @usableFromInline var isUnchanged: (any _SavedValue, GraphObject, Int) -> Bool
    @usableFromInline var cast: (Any) -> Any? = { _ in nil }
    @usableFromInline var store: (GraphObject, Int, Any) -> Void = { _, _, _ in requirementFailure("internal inconsistency: not an attribute") }
    @usableFromInline var isEqual: (GraphObject, Int, Any) -> Bool = { _, _, _ in false }
    @usableFromInline var storeIfCast: (GraphObject, Int, Any) -> Bool = { _, _, _ in false }
    @usableFromInline var hashable: (Any) -> AnyHashable? = { _ in nil }
    @usableFromInline var savedValue: (any _SavedValue) -> Any = { _ in requirementFailure("internal inconsistency: not an attribute") }
    @usableFromInline var objects: (GraphObject, Int) -> [GraphObject] = { _, _ in [] }
    @usableFromInline var savedObjects: (any _SavedValue) -> [GraphObject] = { _ in [] }
    @usableFromInline var isEmpty: (GraphObject, Int) -> Bool = { _, _ in true }
    @usableFromInline var first: (GraphObject, Int) -> GraphObject? = { _, _ in nil }
    @usableFromInline var contains: (GraphObject, Int, GraphObject) -> Bool = { _, _, _ in false }
    @usableFromInline var add: (GraphObject, Int, GraphObject) -> Void = { _, _, _ in requirementFailure("internal inconsistency: not a relationship") }
    @usableFromInline var remove: (GraphObject, Int, GraphObject) -> Void = { _, _, _ in requirementFailure("internal inconsistency: not a relationship") }
    @usableFromInline var setObjects: (GraphObject, Int, [GraphObject]) -> Void = { _, _, _ in requirementFailure("internal inconsistency: not a relationship") }
    @usableFromInline var adoptAll: (GraphObject, Int, _AdoptedMembers) -> Void = { _, _, _ in requirementFailure("internal inconsistency: not a relationship") }

    @usableFromInline
    init(
        kind: RelationshipKind?,
        readAny: @escaping (GraphObject, Int) -> Any,
        save: @escaping (GraphObject, Int) -> any _SavedValue,
        isUnchanged: @escaping (any _SavedValue, GraphObject, Int) -> Bool
    ) {
        self.kind = kind
        self.readAny = readAny
        self.save = save
        self.isUnchanged = isUnchanged
    }

    /// The operations of an `@Attribute` holding `Value`.
    @inlinable
    static func attribute<Value>(_ type: Value.Type) -> _PropertyOperations {
        typealias Storage = Attribute<Value>
        var ops = _PropertyOperations(
            kind: nil,
            readAny: { object, offset in _storagePointer(object, at: offset, as: Storage.self).pointee._value },
            save: { object, offset in _SavedStorage(offset: offset, value: _storagePointer(object, at: offset, as: Storage.self).pointee) },
            isUnchanged: { saved, object, offset in
                let saved = unsafeDowncast(saved, to: _SavedStorage<Storage>.self)
                return _equalIfEquatable(saved.value._value, _storagePointer(object, at: offset, as: Storage.self).pointee._value) ?? false
            }
        )
        ops.cast = { $0 as? Value }
        ops.store = { object, offset, value in
            guard let value = value as? Value else { requirementFailure("internal inconsistency: storing a value of the wrong type") }
            _storagePointer(object, at: offset, as: Storage.self).pointee._value = value
        }
        ops.storeIfCast = { object, offset, value in
            guard let value = value as? Value else { return false }
            _storagePointer(object, at: offset, as: Storage.self).pointee._value = value
            return true
        }
        ops.isEqual = { object, offset, value in
            guard let value = value as? Value else { return false }
            return _equalIfEquatable(_storagePointer(object, at: offset, as: Storage.self).pointee._value, value) ?? false
        }
        ops.hashable = { value in (value as? any Hashable).map { AnyHashable($0) } }
        ops.savedValue = { saved in unsafeDowncast(saved, to: _SavedStorage<Storage>.self).value._value }
        ops.storageSize = MemoryLayout<Storage>.size
        return ops
    }

    /// The operations of a `@Relationship` holding `Value`.
    @inlinable
    static func relationship<Value: RelationshipValue>(_ type: Value.Type) -> _PropertyOperations {
        typealias Storage = Relationship<Value>
        // A to-many relationship keeps a delta (its isUnchanged is answered by the delta);
        // the other shapes keep a copy, which an ordered one needs to find moves.
        let keepsDelta = Value._Shape.kind == .toMany
        var ops = _PropertyOperations(
            kind: Value._Shape.kind,
            readAny: { object, offset in _storagePointer(object, at: offset, as: Storage.self).pointee._value },
            save: { object, offset -> any _SavedValue in
                if keepsDelta { return _MembershipDelta<Value>(offset: offset) }
                return _SavedStorage(offset: offset, value: _storagePointer(object, at: offset, as: Storage.self).pointee)
            },
            isUnchanged: { saved, object, offset in
                guard !keepsDelta else { requirementFailure("internal inconsistency: a delta compared as a copy") }
                let saved = unsafeDowncast(saved, to: _SavedStorage<Storage>.self)
                return Value._Shape.hasSameObjects(saved.value._value, _storagePointer(object, at: offset, as: Storage.self).pointee._value)
            }
        )
        ops.objects = { object, offset in Value._Shape.objects(of: _storagePointer(object, at: offset, as: Storage.self).pointee._value) }
        ops.savedObjects = { saved in
            guard !keepsDelta else { requirementFailure("internal inconsistency: the old members of a to-many relationship asked of a delta") }
            return Value._Shape.objects(of: unsafeDowncast(saved, to: _SavedStorage<Storage>.self).value._value)
        }
        ops.isEmpty = { object, offset in Value._Shape.isEmpty(_storagePointer(object, at: offset, as: Storage.self).pointee._value) }
        ops.first = { object, offset in Value._Shape.first(of: _storagePointer(object, at: offset, as: Storage.self).pointee._value) }
        ops.contains = { object, offset, target in Value._Shape.contains(target, in: _storagePointer(object, at: offset, as: Storage.self).pointee._value) }
        ops.add = { object, offset, target in Value._Shape.add(target, to: &_storagePointer(object, at: offset, as: Storage.self).pointee._value) }
        ops.remove = { object, offset, target in Value._Shape.remove(target, from: &_storagePointer(object, at: offset, as: Storage.self).pointee._value) }
        ops.setObjects = { object, offset, targets in
            _storagePointer(object, at: offset, as: Storage.self).pointee._value = Value._Shape.make(targets)
        }
        ops.adoptAll = { object, offset, targets in
            let storage = _storagePointer(object, at: offset, as: Storage.self)
            Value._Shape.reserveCapacity(adding: targets.count, in: &storage.pointee._value)
            for target in targets { Value._Shape.adopt(target, into: &storage.pointee._value) }
        }
        ops.storageSize = MemoryLayout<Storage>.size
        return ops
    }
}
