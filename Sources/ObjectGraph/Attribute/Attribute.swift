/// A stored value of a ``GraphObject``: any type; writes are recorded in the owning graph.
///
/// ```swift
/// final class Item: GraphObject {
///     @Attribute var name = ""
///     @Attribute(unique: true) var sku = ""
/// }
/// ```
///
/// Setting an `Equatable` value to an equal value records nothing. Reads register with
/// Observation, or with ``ObjectGraph/trackReads(_:)``, or with neither inside
/// ``ObjectGraph/withoutObservation(_:)`` — one branch decides. The wrapper stores only
/// the value; names and indexes live in the entity's ``EntityDescription``.
@propertyWrapper
public struct Attribute<Value>: _GraphPropertyStorage {
    @usableFromInline
    internal var _value: Value

    /// Declares an attribute with its initial value.
    ///
    /// - Parameters:
    ///   - wrappedValue: The value a new object starts with.
    ///   - name: The attribute's name in the entity; by default the property's name.
    ///   - unique: Whether the attribute identifies objects for ``GraphBatch`` upserts (at
    ///     most one per entity).
    /// - Complexity: O(1).
    @inlinable
    public init(wrappedValue: Value, name: String? = nil, unique: Bool = false) {
        _value = wrappedValue
        if _slowPath(_EntityCapture.isActive) {
            _EntityCapture.record(
                _CapturedProperty(
                    storageType: Attribute<Value>.self,
                    valueType: Value.self,
                    name: name,
                    isUnique: unique,
                    relationship: nil,
                    operations: .attribute(Value.self)
                )
            )
        }
    }

    /// Unavailable: an attribute lives only in a ``GraphObject`` subclass.
    @available(*, unavailable, message: "@Attribute can only be used in a GraphObject subclass")
    public var wrappedValue: Value {
        get { fatalError("unavailable") }
        set { fatalError("unavailable") }
    }

    /// Reads and writes the attribute of `object`.
    ///
    /// - Complexity: A read is O(1): one branch, then the stored value. A write to an object
    ///   of a graph records the old value in the graph the first time in a transaction.
    @inlinable
    public static subscript<Object: GraphObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Attribute<Value>>
    ) -> Value {
        @inline(__always)
        get {
            // No context is held across the slow call, so the fast path counts no references.
            if _slowPath(object._context._readMode != .untracked) {
                object._noteRead(offset: _storageOffset(object, storageKeyPath))
            }
            return object[keyPath: storageKeyPath]._value
        }
        @inline(__always)
        set {
            // Unretained until a write that notifies: the object's graph is alive when its
            // setter starts, so the fast paths count no reference to it.
            guard let graph = object._context._unretainedGraph else {
                object[keyPath: storageKeyPath]._value = newValue
                return
            }
            let offset = _storageOffset(object, storageKeyPath)
            // Through the storage's address: the graph is confined, so no dynamic exclusivity
            // check is needed for this read and write.
            let storage = _storagePointer(object, at: offset, as: Attribute<Value>.self)
            if object._flags == GraphObject._insertedFlag {
                // Inserted in the pending transaction, not deleted, never observed: its values
                // are its pending state, so there is nothing to record or notify.
                storage.pointee._value = newValue
                return
            }
            if _equalIfEquatable(storage.pointee._value, newValue) == true {
                if object._flags & GraphObject._deletedFlag != 0 {
                    graph.borrow { $0._noteWriteToDeleted(object, offset: offset) }
                }
                return
            }
            // Retained from here: the write notifies Observation, whose change handlers may
            // drop the graph's last reference before `_didWrite`.
            let retained = graph.object
            withExtendedLifetime(retained) {
                let index = retained._willWrite(object, offset: offset)
                storage.pointee._value = newValue
                retained._didWrite(object, index: index)
            }
        }
    }
}
