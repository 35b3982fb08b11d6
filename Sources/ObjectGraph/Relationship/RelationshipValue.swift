/// A type a ``Relationship`` can hold: `T?` (to-one), `Set<T>` (to-many) or `[T]` (ordered
/// to-many), where `T` is a ``GraphObject`` subclass.
///
/// The requirements are the graph's internal view of the three shapes; you do not conform
/// other types.
public protocol RelationshipValue {
    /// The class of the related objects.
    associatedtype Destination: GraphObject
    /// The shape.
    static var _relationshipKind: RelationshipKind { get }
    /// No related object.
    static var _empty: Self { get }
    /// Makes a value from distinct objects of class `Destination`, in order.
    init(_graphObjects: [GraphObject])
    /// The related objects, in order.
    var _graphObjects: [GraphObject] { get }
    /// Whether no object is related.
    var _isEmpty: Bool { get }
    /// The first related object.
    var _first: GraphObject? { get }
    /// The first related object, unretained: valid while this value is alive.
    var _firstUnretained: Unmanaged<GraphObject>? { get }
    /// Whether an object is related.
    func _contains(_ object: GraphObject) -> Bool
    /// Relates an object (to-one: replaces; ordered: appends when absent).
    mutating func _add(_ object: GraphObject)
    /// Relates an object the caller retained once, taking that reference over (``_add(_:)``
    /// without counting a reference).
    mutating func _adopt(_ object: Unmanaged<GraphObject>)
    /// Unrelates an object.
    mutating func _remove(_ object: GraphObject)
    /// Whether both values hold the same objects (in the same order when ordered).
    func _hasSameObjects(as other: Self) -> Bool
    /// Makes room for `count` more objects, before adding them one by one.
    mutating func _reserveCapacity(adding count: Int)
}

extension Optional: RelationshipValue where Wrapped: GraphObject {
    public typealias Destination = Wrapped
    @inlinable public static var _relationshipKind: RelationshipKind { .toOne }
    public static var _empty: Self { nil }

    public init(_graphObjects objects: [GraphObject]) {
        assert(objects.count <= 1)
        self = objects.first.map { unsafeDowncast($0, to: Wrapped.self) }
    }

    public var _graphObjects: [GraphObject] { map { [$0] } ?? [] }
    public var _isEmpty: Bool { self == nil }
    @inlinable public var _first: GraphObject? { self }
    @inlinable public var _firstUnretained: Unmanaged<GraphObject>? { map { Unmanaged.passUnretained($0) } }
    public func _contains(_ object: GraphObject) -> Bool { self === object }
    public mutating func _add(_ object: GraphObject) { self = unsafeDowncast(object, to: Wrapped.self) }
    public mutating func _adopt(_ object: Unmanaged<GraphObject>) { self = unsafeDowncast(object.takeRetainedValue(), to: Wrapped.self) }
    public mutating func _remove(_ object: GraphObject) { if self === object { self = nil } }
    @inlinable public func _hasSameObjects(as other: Self) -> Bool { self === other }
    public mutating func _reserveCapacity(adding count: Int) {}
}

extension Set: RelationshipValue where Element: GraphObject {
    public typealias Destination = Element
    @inlinable public static var _relationshipKind: RelationshipKind { .toMany }
    public static var _empty: Self { [] }

    public init(_graphObjects objects: [GraphObject]) {
        self.init(minimumCapacity: objects.count)
        for object in objects { insert(unsafeDowncast(object, to: Element.self)) }
    }

    public var _graphObjects: [GraphObject] { map { $0 } }
    public var _isEmpty: Bool { isEmpty }
    public var _first: GraphObject? { first }
    public var _firstUnretained: Unmanaged<GraphObject>? { first.map { Unmanaged.passUnretained($0) } }
    public func _contains(_ object: GraphObject) -> Bool { contains(unsafeDowncast(object, to: Element.self)) }
    public mutating func _add(_ object: GraphObject) { insert(unsafeDowncast(object, to: Element.self)) }
    public mutating func _adopt(_ object: Unmanaged<GraphObject>) {
        // `update(with:)`, not `insert(_:)`: it returns no copy of the new member, so adding one
        // touches only the table, not the member's reference count.
        update(with: unsafeDowncast(object.takeRetainedValue(), to: Element.self))
    }
    public mutating func _remove(_ object: GraphObject) { remove(unsafeDowncast(object, to: Element.self)) }
    public func _hasSameObjects(as other: Self) -> Bool { self == other }
    public mutating func _reserveCapacity(adding count: Int) { reserveCapacity(self.count + count) }
}

extension Array: RelationshipValue where Element: GraphObject {
    public typealias Destination = Element
    @inlinable public static var _relationshipKind: RelationshipKind { .orderedToMany }
    public static var _empty: Self { [] }

    public init(_graphObjects objects: [GraphObject]) {
        self = objects.map { unsafeDowncast($0, to: Element.self) }
    }

    public var _graphObjects: [GraphObject] { map { $0 } }
    public var _isEmpty: Bool { isEmpty }
    public var _first: GraphObject? { first }
    public var _firstUnretained: Unmanaged<GraphObject>? { first.map { Unmanaged.passUnretained($0) } }
    public func _contains(_ object: GraphObject) -> Bool { contains { $0 === object } }

    public mutating func _add(_ object: GraphObject) {
        if !_contains(object) { append(unsafeDowncast(object, to: Element.self)) }
    }

    public mutating func _adopt(_ object: Unmanaged<GraphObject>) { _add(object.takeRetainedValue()) }

    public mutating func _remove(_ object: GraphObject) {
        if let index = firstIndex(where: { $0 === object }) { remove(at: index) }
    }

    public func _hasSameObjects(as other: Self) -> Bool { elementsEqual(other, by: ===) }
    public mutating func _reserveCapacity(adding count: Int) { reserveCapacity(self.count + count) }
}
