import Foundation

/// One attribute's value in place in the objects of one class, for a store's loops
/// specialized for `Value`: they read a snapshot's column from the objects and restore a
/// loaded column into them without the graph's typed accessors (which are not specialized
/// across modules, and would copy every value through its type's metadata).
///
/// **Invariant:** the slot is made from an ``AttributeStorage`` of the class's own
/// `EntityDescription`, so `offset` is where an `Attribute<Value>`'s value lies in every object
/// of `objectClass`; each method checks that the object it is given is of that class
/// (`require`), and its caller holds the object alive for the call. A write records nothing,
/// notifies nothing and marks nothing pending: the store writes only while it loads a graph
/// (no pending change, no observer yet, as ``ObjectGraph/restoreAttribute(_:_:_:)``), or
/// reads while it does not change the graph.
package struct AttributeValueSlot<Value> {
    /// Where the value lies: this many bytes past an object's address.
    @usableFromInline internal let offset: Int
    /// The class of the objects the slot is in.
    @usableFromInline internal let objectClass: ObjectIdentifier

    @usableFromInline
    internal init(offset: Int, objectClass: ObjectIdentifier) {
        self.offset = offset
        self.objectClass = objectClass
    }

    /// The slot of the attribute `storage` gives access to.
    ///
    /// - Complexity: O(1).
    package init(_ storage: AttributeStorage<Value>) {
        self.init(
            offset: storage.offset + (MemoryLayout<Attribute<Value>>.offset(of: \Attribute<Value>._value) ?? 0),
            objectClass: storage.objectType)
    }

    /// The same slot, seen as holding values of `type`, which must be `Value` (`precondition`):
    /// for a loop reached through a protocol's metatype, which names the type `Self`.
    ///
    /// - Complexity: O(1).
    @inlinable
    package func retyped<Other>(as type: Other.Type) -> AttributeValueSlot<Other> {
        require(Other.self == Value.self, "internal inconsistency: an attribute slot read as another type")
        return AttributeValueSlot<Other>(offset: offset, objectClass: objectClass)
    }

    /// The value's address in the object whose reference is `object` (`precondition`: of the
    /// slot's class).
    @inlinable
    @inline(__always)
    internal func address(in object: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Value> {
        require(
            Unmanaged<GraphObject>.fromOpaque(object)._withUnsafeGuaranteedRef { ObjectIdentifier(type(of: $0)) } == objectClass,
            "internal inconsistency: an attribute of another class")
        return (object + offset).assumingMemoryBound(to: Value.self)
    }

    /// The value stored in `object`, untracked.
    ///
    /// - Complexity: O(1).
    @inlinable
    @inline(__always)
    package func value(in object: GraphObject) -> Value {
        address(in: Unmanaged.passUnretained(object).toOpaque()).pointee
    }

    /// The value stored in an unretained object, untracked.
    ///
    /// - Complexity: O(1).
    @inlinable
    @inline(__always)
    package func value(in object: Unmanaged<GraphObject>) -> Value {
        address(in: object.toOpaque()).pointee
    }

    /// Stores `value` into `object`, recording nothing.
    ///
    /// - Complexity: O(1).
    @inlinable
    @inline(__always)
    package func write(_ value: Value, into object: GraphObject) {
        address(in: Unmanaged.passUnretained(object).toOpaque()).pointee = value
    }

    /// Whether two unretained objects hold values with the same bits (so with the same bytes
    /// in a snapshot), compared without copying either value.
    ///
    /// - Complexity: O(1).
    @inlinable
    @inline(__always)
    package func sameBits(in first: Unmanaged<GraphObject>, and second: Unmanaged<GraphObject>) -> Bool {
        let left = UnsafeRawPointer(address(in: first.toOpaque()))
        let right = UnsafeRawPointer(address(in: second.toOpaque()))
        let size = MemoryLayout<Value>.size
        if size == 16 && MemoryLayout<Value>.alignment >= 8 {
            return left.load(as: UInt64.self) == right.load(as: UInt64.self)
                && left.load(fromByteOffset: 8, as: UInt64.self) == right.load(fromByteOffset: 8, as: UInt64.self)
        }
        return memcmp(left, right, size) == 0
    }

    /// Stores one value into each of `objects`, in order, the value `nextValue` gives for
    /// its position, recording nothing; stops at the first position it gives `nil` for.
    ///
    /// The objects are reached without counting a reference: the array holds one reference
    /// word per object and keeps each alive.
    ///
    /// `nextValue` does not throw: a closure generic over its error is not specialized into
    /// the store's loops, and would copy every value through its type's metadata. A caller
    /// whose reads throw keeps the error and returns `nil`.
    ///
    /// - Returns: `false` when `nextValue` gave `nil` (the objects from that position on keep
    ///   their values).
    /// - Complexity: O(*k*) calls of `nextValue` for *k* objects.
    @inlinable
    @inline(__always)
    package func restoreValues(of objects: [GraphObject], _ nextValue: (_ position: Int) -> Value?) -> Bool {
        objects.withUnsafeBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }
            let words = UnsafeRawPointer(base)
            for position in buffer.indices {
                guard let value = nextValue(position) else { return false }
                let object = words.load(fromByteOffset: position * MemoryLayout<UInt>.stride, as: UnsafeMutableRawPointer.self)
                address(in: object).pointee = value
            }
            return true
        }
    }
}
