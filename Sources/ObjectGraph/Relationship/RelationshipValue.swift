/// A type a ``Relationship`` can hold: `T?` (to-one), `Set<T>` (to-many) or `[T]` (ordered
/// to-many), where `T` is a ``GraphObject`` subclass.
///
/// Only these three shapes conform; you do not conform other types.
public protocol RelationshipValue {
    /// The class of the related objects.
    associatedtype Destination: GraphObject
    /// Not for use: the graph's operations on this shape.
    ///
    /// It is public only because the inlinable property wrappers call it; its members are
    /// kept off the value itself so that they do not appear on every `Optional`, `Set` and
    /// `Array` in your code. Do not use it or rely on it: it may change in any release.
    associatedtype _Shape: _RelationshipShape where _Shape.Value == Self
}

/// Not for use: the operations the graph performs on one shape of ``RelationshipValue``.
///
/// It is public only because the inlinable property wrappers call it. Do not use it, conform
/// to it or rely on it: it may change in any release.
public protocol _RelationshipShape {
    /// The relationship value this shape operates on.
    associatedtype Value
    /// The shape.
    static var kind: RelationshipKind { get }
    /// No related object.
    static var empty: Value { get }
    /// Makes a value from distinct objects of the destination class, in order.
    static func make(_ objects: [GraphObject]) -> Value
    /// The related objects, in order.
    static func objects(of value: Value) -> [GraphObject]
    /// Whether no object is related.
    static func isEmpty(_ value: Value) -> Bool
    /// The first related object.
    static func first(of value: Value) -> GraphObject?
    /// The first related object, unretained: valid while `value` is alive.
    static func firstUnretained(of value: Value) -> Unmanaged<GraphObject>?
    /// Whether an object is related.
    static func contains(_ object: GraphObject, in value: Value) -> Bool
    /// Relates an object (to-one: replaces; ordered: appends when absent).
    static func add(_ object: GraphObject, to value: inout Value)
    /// Relates an object the caller retained once, taking that reference over (``add(_:to:)``
    /// without counting a reference).
    static func adopt(_ object: Unmanaged<GraphObject>, into value: inout Value)
    /// Unrelates an object.
    static func remove(_ object: GraphObject, from value: inout Value)
    /// Whether both values hold the same objects (in the same order when ordered).
    static func hasSameObjects(_ lhs: Value, _ rhs: Value) -> Bool
    /// Makes room for `count` more objects, before adding them one by one.
    static func reserveCapacity(adding count: Int, in value: inout Value)
}

/// Not for use: the operations of a to-one relationship (`T?`). Public only because the
/// inlinable property wrappers call it.
public enum _ToOneShape<Wrapped: GraphObject>: _RelationshipShape {
    public typealias Value = Wrapped?
    @inlinable public static var kind: RelationshipKind { .toOne }
    @inlinable public static var empty: Value { nil }

    @inlinable
    public static func make(_ objects: [GraphObject]) -> Value {
        assert(objects.count <= 1)
        return objects.first.map { unsafeDowncast($0, to: Wrapped.self) }
    }

    @inlinable public static func objects(of value: Value) -> [GraphObject] { value.map { [$0] } ?? [] }
    @inlinable public static func isEmpty(_ value: Value) -> Bool { value == nil }
    @inlinable public static func first(of value: Value) -> GraphObject? { value }
    @inlinable public static func firstUnretained(of value: Value) -> Unmanaged<GraphObject>? { value.map { Unmanaged.passUnretained($0) } }
    @inlinable public static func contains(_ object: GraphObject, in value: Value) -> Bool { value === object }
    @inlinable public static func add(_ object: GraphObject, to value: inout Value) { value = unsafeDowncast(object, to: Wrapped.self) }

    @inlinable
    public static func adopt(_ object: Unmanaged<GraphObject>, into value: inout Value) {
        value = unsafeDowncast(object.takeRetainedValue(), to: Wrapped.self)
    }

    @inlinable public static func remove(_ object: GraphObject, from value: inout Value) { if value === object { value = nil } }
    @inlinable public static func hasSameObjects(_ lhs: Value, _ rhs: Value) -> Bool { lhs === rhs }
    @inlinable public static func reserveCapacity(adding count: Int, in value: inout Value) {}
}

/// Not for use: the operations of a to-many relationship (`Set<T>`). Public only because the
/// inlinable property wrappers call it.
public enum _ToManyShape<Element: GraphObject>: _RelationshipShape {
    public typealias Value = Set<Element>
    @inlinable public static var kind: RelationshipKind { .toMany }
    @inlinable public static var empty: Value { [] }

    @inlinable
    public static func make(_ objects: [GraphObject]) -> Value {
        var value = Value(minimumCapacity: objects.count)
        for object in objects { value.insert(unsafeDowncast(object, to: Element.self)) }
        return value
    }

    @inlinable public static func objects(of value: Value) -> [GraphObject] { value.map { $0 } }
    @inlinable public static func isEmpty(_ value: Value) -> Bool { value.isEmpty }
    @inlinable public static func first(of value: Value) -> GraphObject? { value.first }
    @inlinable public static func firstUnretained(of value: Value) -> Unmanaged<GraphObject>? { value.first.map { Unmanaged.passUnretained($0) } }

    @inlinable
    public static func contains(_ object: GraphObject, in value: Value) -> Bool {
        value.contains(unsafeDowncast(object, to: Element.self))
    }

    @inlinable
    public static func add(_ object: GraphObject, to value: inout Value) {
        value.insert(unsafeDowncast(object, to: Element.self))
    }

    @inlinable
    public static func adopt(_ object: Unmanaged<GraphObject>, into value: inout Value) {
        // `update(with:)`, not `insert(_:)`: it returns no copy of the new member, so adding one
        // touches only the table, not the member's reference count.
        value.update(with: unsafeDowncast(object.takeRetainedValue(), to: Element.self))
    }

    @inlinable
    public static func remove(_ object: GraphObject, from value: inout Value) {
        value.remove(unsafeDowncast(object, to: Element.self))
    }

    @inlinable public static func hasSameObjects(_ lhs: Value, _ rhs: Value) -> Bool { lhs == rhs }
    @inlinable public static func reserveCapacity(adding count: Int, in value: inout Value) { value.reserveCapacity(value.count + count) }
}

/// Not for use: the operations of an ordered to-many relationship (`[T]`). Public only
/// because the inlinable property wrappers call it.
public enum _OrderedToManyShape<Element: GraphObject>: _RelationshipShape {
    public typealias Value = [Element]
    @inlinable public static var kind: RelationshipKind { .orderedToMany }
    @inlinable public static var empty: Value { [] }
    @inlinable public static func make(_ objects: [GraphObject]) -> Value { objects.map { unsafeDowncast($0, to: Element.self) } }
    @inlinable public static func objects(of value: Value) -> [GraphObject] { value.map { $0 } }
    @inlinable public static func isEmpty(_ value: Value) -> Bool { value.isEmpty }
    @inlinable public static func first(of value: Value) -> GraphObject? { value.first }
    @inlinable public static func firstUnretained(of value: Value) -> Unmanaged<GraphObject>? { value.first.map { Unmanaged.passUnretained($0) } }
    @inlinable public static func contains(_ object: GraphObject, in value: Value) -> Bool { value.contains { $0 === object } }

    @inlinable
    public static func add(_ object: GraphObject, to value: inout Value) {
        if !contains(object, in: value) { value.append(unsafeDowncast(object, to: Element.self)) }
    }

    @inlinable
    public static func adopt(_ object: Unmanaged<GraphObject>, into value: inout Value) {
        add(object.takeRetainedValue(), to: &value)
    }

    @inlinable
    public static func remove(_ object: GraphObject, from value: inout Value) {
        if let index = value.firstIndex(where: { $0 === object }) { value.remove(at: index) }
    }

    @inlinable public static func hasSameObjects(_ lhs: Value, _ rhs: Value) -> Bool { lhs.elementsEqual(rhs, by: ===) }
    @inlinable public static func reserveCapacity(adding count: Int, in value: inout Value) { value.reserveCapacity(value.count + count) }
}

extension Optional: RelationshipValue where Wrapped: GraphObject {
    public typealias Destination = Wrapped
    public typealias _Shape = _ToOneShape<Wrapped>
}

extension Set: RelationshipValue where Element: GraphObject {
    public typealias Destination = Element
    public typealias _Shape = _ToManyShape<Element>
}

extension Array: RelationshipValue where Element: GraphObject {
    public typealias Destination = Element
    public typealias _Shape = _OrderedToManyShape<Element>
}
