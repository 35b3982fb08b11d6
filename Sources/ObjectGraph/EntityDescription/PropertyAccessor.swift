/// The address of a property's storage inside an object: `offset` bytes past its start.
///
/// Entity classes are `final` classes whose wrappers are stored properties at fixed
/// offsets (found once per class by reflection), so the graph reads and writes any property
/// by index without a key path — the way a stored-property key path projects its address.
@inline(__always)
internal func _storagePointer<Storage>(
    _ object: GraphObject,
    at offset: Int,
    as type: Storage.Type
) -> UnsafeMutablePointer<Storage> {
    UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque())
        .advanced(by: offset)
        .assumingMemoryBound(to: Storage.self)
}

/// The byte offset of a stored property of a final class, found by projecting its key path.
internal func _storageOffset<Object: AnyObject, Storage>(
    _ object: Object,
    _ keyPath: ReferenceWritableKeyPath<Object, Storage>
) -> Int {
    let start = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
    return withUnsafeMutablePointer(to: &object[keyPath: keyPath]) { UnsafeRawPointer($0) - start }
}

/// A property value saved before the first write of a transaction, to roll it back.
internal protocol _SavedValue: AnyObject {
    /// Puts the saved value back into the object's storage (no inverse maintenance).
    func restore(into object: GraphObject)
}

/// A saved copy of one wrapper's storage.
internal final class _SavedStorage<Storage>: _SavedValue {
    let offset: Int
    let value: Storage

    init(offset: Int, value: Storage) {
        self.offset = offset
        self.value = value
    }

    func restore(into object: GraphObject) {
        _storagePointer(object, at: offset, as: Storage.self).pointee = value
    }
}

/// Whether two values are equal, when their type is `Equatable`; `nil` when it is not.
@inlinable
internal func _equalIfEquatable<Value>(_ lhs: Value, _ rhs: Value) -> Bool? {
    guard let lhs = lhs as? any Equatable else { return nil }
    return lhs._isEqual(toAny: rhs)
}

extension Equatable {
    @usableFromInline
    internal func _isEqual(toAny other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}

/// Type-erased access to one property of an entity.
internal protocol _PropertyAccessor: Sendable {
    /// The byte offset of the wrapper's storage in the object.
    var offset: Int { get }
    /// The stored value, as `Any` (relationships: the object, set or array of objects).
    func readAny(_ object: GraphObject) -> Any
    /// A copy of the storage, for rollback.
    func save(_ object: GraphObject) -> any _SavedValue
    /// Whether the object's value equals a saved one (`false` for a non-Equatable attribute
    /// that was written).
    func isUnchanged(since saved: any _SavedValue, in object: GraphObject) -> Bool
}

/// Access to one attribute.
internal struct _AttributeAccessor<Value>: _PropertyAccessor {
    let offset: Int

    func pointer(_ object: GraphObject) -> UnsafeMutablePointer<Attribute<Value>> {
        _storagePointer(object, at: offset, as: Attribute<Value>.self)
    }

    func readAny(_ object: GraphObject) -> Any { pointer(object).pointee._value }

    func save(_ object: GraphObject) -> any _SavedValue {
        _SavedStorage(offset: offset, value: pointer(object).pointee)
    }

    func isUnchanged(since saved: any _SavedValue, in object: GraphObject) -> Bool {
        let saved = unsafeDowncast(saved, to: _SavedStorage<Attribute<Value>>.self)
        return _equalIfEquatable(saved.value._value, pointer(object).pointee._value) ?? false
    }

    /// The value as a dictionary key, when the attribute's type is `Hashable`.
    func hashable(_ object: GraphObject) -> AnyHashable? {
        (pointer(object).pointee._value as? any Hashable).map { AnyHashable($0) }
    }
}

/// Type-erased attribute operations the graph needs beyond ``_PropertyAccessor``.
internal protocol _AttributeAccessing: _PropertyAccessor {
    /// Casts a value to the attribute's type, or returns `nil`.
    func cast(_ value: Any) -> Any?
    /// Stores a value already cast by ``cast(_:)``.
    func store(_ object: GraphObject, _ value: Any)
    /// Whether `value` equals the stored value (`false` when not `Equatable`).
    func isEqual(_ object: GraphObject, to value: Any) -> Bool
    /// The value as a dictionary key, when the attribute's type is `Hashable`.
    func hashable(_ object: GraphObject) -> AnyHashable?
    /// The same for a loose value.
    func hashable(value: Any) -> AnyHashable?
}

extension _AttributeAccessor: _AttributeAccessing {
    func cast(_ value: Any) -> Any? { value as? Value }

    func store(_ object: GraphObject, _ value: Any) {
        guard let value = value as? Value else { preconditionFailure("internal inconsistency: storing a value of the wrong type") }
        pointer(object).pointee._value = value
    }

    func isEqual(_ object: GraphObject, to value: Any) -> Bool {
        guard let value = value as? Value else { return false }
        return _equalIfEquatable(pointer(object).pointee._value, value) ?? false
    }

    func hashable(value: Any) -> AnyHashable? {
        (value as? any Hashable).map { AnyHashable($0) }
    }
}

/// Type-erased relationship operations.
internal protocol _RelationshipAccessing: _PropertyAccessor {
    var kind: RelationshipKind { get }
    /// The related objects, in order for an ordered relationship.
    func objects(_ object: GraphObject) -> [GraphObject]
    /// The related objects of a saved value.
    func objects(saved: any _SavedValue) -> [GraphObject]
    func isEmpty(_ object: GraphObject) -> Bool
    func toOne(_ object: GraphObject) -> GraphObject?
    func contains(_ object: GraphObject, _ target: GraphObject) -> Bool
    /// Adds a target (to-one: replaces; ordered: appends).
    func add(_ object: GraphObject, _ target: GraphObject)
    /// Removes a target if present (to-one: clears only when it holds `target`).
    func remove(_ object: GraphObject, _ target: GraphObject)
    /// Replaces the related objects (distinct, in order).
    func setObjects(_ object: GraphObject, _ targets: [GraphObject])
}

/// Access to one relationship whose wrapper stores a `Value` (`T?`, `Set<T>` or `[T]`).
internal struct _RelationshipAccessor<Value: RelationshipValue>: _RelationshipAccessing {
    let offset: Int

    var kind: RelationshipKind { Value._relationshipKind }

    func pointer(_ object: GraphObject) -> UnsafeMutablePointer<Relationship<Value>> {
        _storagePointer(object, at: offset, as: Relationship<Value>.self)
    }

    func readAny(_ object: GraphObject) -> Any { pointer(object).pointee._value }

    func save(_ object: GraphObject) -> any _SavedValue {
        _SavedStorage(offset: offset, value: pointer(object).pointee)
    }

    func isUnchanged(since saved: any _SavedValue, in object: GraphObject) -> Bool {
        let saved = unsafeDowncast(saved, to: _SavedStorage<Relationship<Value>>.self)
        return saved.value._value._hasSameObjects(as: pointer(object).pointee._value)
    }

    func objects(_ object: GraphObject) -> [GraphObject] { pointer(object).pointee._value._graphObjects }

    func objects(saved: any _SavedValue) -> [GraphObject] {
        unsafeDowncast(saved, to: _SavedStorage<Relationship<Value>>.self).value._value._graphObjects
    }

    func isEmpty(_ object: GraphObject) -> Bool { pointer(object).pointee._value._isEmpty }

    func toOne(_ object: GraphObject) -> GraphObject? { pointer(object).pointee._value._first }

    func contains(_ object: GraphObject, _ target: GraphObject) -> Bool {
        pointer(object).pointee._value._contains(target)
    }

    func add(_ object: GraphObject, _ target: GraphObject) { pointer(object).pointee._value._add(target) }

    func remove(_ object: GraphObject, _ target: GraphObject) { pointer(object).pointee._value._remove(target) }

    func setObjects(_ object: GraphObject, _ targets: [GraphObject]) {
        pointer(object).pointee._value = Value(_graphObjects: targets)
    }
}
