/// A reference from a ``GraphObject`` to others: to-one (`T?`), to-many (`Set<T>`) or
/// ordered to-many (`[T]`).
///
/// Declare the inverse on one side only; the graph keeps both sides in step:
///
/// ```swift
/// final class Location: GraphObject {
///     @Relationship var items: Set<Item>
/// }
/// final class Item: GraphObject {
///     @Relationship(inverse: \Location.items) var location: Location?
/// }
/// ```
///
/// Setting `item.location = home` adds `item` to `home.items` and removes it from the old
/// location's; relating an object that is in no graph inserts it into the owner's graph.
/// An ordered relationship holds distinct objects; reordering it is reported as
/// ``OrderedMove``s.
@propertyWrapper
public struct Relationship<Value: RelationshipValue>: _GraphPropertyStorage {
    @usableFromInline
    internal var _value: Value

    /// Declares a relationship with no declared inverse (the other side may declare it).
    ///
    /// - Parameters:
    ///   - deleteRule: What deleting the owner does to the related objects.
    ///   - name: The relationship's name in the entity; by default the property's name.
    /// - Complexity: O(1).
    @inlinable
    public init(deleteRule: DeleteRule = .nullify, name: String? = nil) {
        _value = Value._Shape.empty
        Self.capture(deleteRule: deleteRule, name: name, inverse: nil)
    }

    /// Declares a relationship and its inverse on the destination class.
    ///
    /// - Parameters:
    ///   - inverse: The destination's property that holds the owner, such as
    ///     `\Location.items`. Declare it on one side only. Evaluated only while the
    ///     entity is being described, so making an object does not make the key path.
    ///   - deleteRule: What deleting the owner does to the related objects.
    ///   - name: The relationship's name in the entity; by default the property's name.
    /// - Complexity: O(1).
    @inlinable
    public init<Inverse: RelationshipValue>(
        inverse: @autoclosure () -> KeyPath<Value.Destination, Inverse> & Sendable,
        deleteRule: DeleteRule = .nullify,
        name: String? = nil
    ) {
        _value = Value._Shape.empty
        if _slowPath(_EntityCapture.isActive) {
            Self.capture(deleteRule: deleteRule, name: name, inverse: inverse())
        }
    }

    @inlinable
    internal static func capture(deleteRule: DeleteRule, name: String?, inverse: (any AnyKeyPath & Sendable)?) {
        if _slowPath(_EntityCapture.isActive) {
            _EntityCapture.record(
                _CapturedProperty(
                    storageType: Relationship<Value>.self,
                    valueType: Value.self,
                    name: name,
                    isUnique: false,
                    relationship: _CapturedRelationship(
                        kind: Value._Shape.kind,
                        deleteRule: deleteRule,
                        destination: Value.Destination.self,
                        inverse: inverse
                    ),
                    operations: .relationship(Value.self)
                )
            )
        }
    }

    /// Unavailable: a relationship lives only in a ``GraphObject`` subclass.
    @available(*, unavailable, message: "@Relationship can only be used in a GraphObject subclass")
    public var wrappedValue: Value {
        get { fatalError("unavailable") }
        set { fatalError("unavailable") }
    }

    /// Reads and writes the relationship of `object`, keeping inverses in step.
    ///
    /// - Complexity: A read is O(1). A write is O(*m*) for *m* objects added or removed,
    ///   plus the copy of the old value the first time in a transaction.
    @inlinable
    public static subscript<Object: GraphObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Relationship<Value>>
    ) -> Value {
        @inline(__always)
        get {
            // No context is held across the slow call, so the fast path counts no references.
            if _slowPath(object._context._readMode != .untracked) {
                object._noteRead(offset: _storageOffset(object, storageKeyPath))
            }
            if _slowPath(object._flags & GraphObject._staleInverseFlag != 0) { object._flushStaleInverses() }
            return object[keyPath: storageKeyPath]._value
        }
        @inline(__always)
        set {
            // Unretained: the object's graph is alive when its setter starts, so the bulk path
            // counts no reference to it; the graph retains itself before a write that may
            // notify Observation (whose handlers may drop its last reference).
            guard let graph = object._context._unretainedGraph else {
                object[keyPath: storageKeyPath]._value = newValue
                return
            }
            let offset = _storageOffset(object, storageKeyPath)
            if _slowPath(object._flags & GraphObject._staleInverseFlag != 0) { object._flushStaleInverses() }
            // Through the storage's address: the graph is confined, so no dynamic exclusivity
            // check is needed for this read.
            if Value._Shape.hasSameObjects(_storagePointer(object, at: offset, as: Relationship<Value>.self).pointee._value, newValue) {
                if object._flags & GraphObject._deletedFlag != 0 {
                    graph.borrow { $0._noteWriteToDeleted(object, offset: offset) }
                }
                return
            }
            if Value._Shape.kind == .toOne {
                // The target unretained: `newValue` keeps it alive for the call.
                graph.borrow { $0._setToOne(object, offset: offset, unretained: Value._Shape.firstUnretained(of: newValue).map(_Unretained.init)) }
            } else {
                graph.borrow { $0._setRelationship(object, offset: offset, Value._Shape.objects(of: newValue)) }
            }
        }
    }
}
