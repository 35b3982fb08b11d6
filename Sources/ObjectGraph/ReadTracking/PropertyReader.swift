/// Reads one property of objects of one class as fast as a stored property: no Observation,
/// no read tracking, no key path applied per read.
///
/// The fast path for extracting keys from many objects (sorting, sectioning, filtering a
/// million rows). Make one per property, then call it per object:
///
/// ```swift
/// let quantity = PropertyReader(\Item.quantity)!
/// let total = items.reduce(0) { $0 + quantity($1) }
/// ```
///
/// A reader records nothing; it knows the ``property`` it reads, so a caller can record the
/// dependency itself.
public struct PropertyReader<Object: GraphObject, Value> {
    /// The property read, an index in ``entity``.
    public let property: PropertyIndex

    /// The entity of `Object`.
    public let entity: EntityDescription

    /// The storage offset of the property in `Object`.
    @usableFromInline
    internal let offset: Int

    /// The property is a to-many or ordered relationship, whose members a bulk insert may
    /// not have added yet.
    @usableFromInline
    internal let isToMany: Bool

    /// A reader for an `@Attribute` or `@Relationship` property.
    ///
    /// - Parameter keyPath: A key path to a wrapped property of `Object`, such as
    ///   `\Item.quantity` or `\Item.location`.
    /// - Returns: `nil` when the key path does not name exactly one attribute or relationship
    ///   of `Object` (a computed property, a chain through a relationship, a plain property).
    /// - Complexity: O(*p*) for *p* properties: it makes and reads one prototype.
    public init?(_ keyPath: KeyPath<Object, Value>) {
        let entity = Object.entity
        guard entity.objectType == Object.self, let index = entity.index(probing: keyPath),
            entity.valueTypes[index] == Value.self
        else { return nil }
        self.property = PropertyIndex(index)
        self.entity = entity
        self.offset = entity.offsets[index]
        self.isToMany = entity.relationshipAccessors[index].map { $0.kind != .toOne } ?? false
    }

    /// The property's name.
    public var name: String { entity.properties[property.rawValue].name }

    /// Reads the property of an object.
    ///
    /// - Parameter object: An object of class `Object`.
    /// - Returns: The property's current value (pending writes included).
    /// - Complexity: O(1): one load.
    @inlinable
    @inline(__always)
    public func callAsFunction(_ object: Object) -> Value {
        // The to-many case is out of line, so the common one is a plain load with no call
        // (a call in the loop would make the caller count references to each object).
        if _slowPath(isToMany) { return _readToMany(object) }
        // Attribute<Value> and Relationship<Value> store exactly one Value.
        return _storagePointer(object, at: offset, as: Value.self).pointee
    }

    /// Reads a to-many relationship, adding the members a bulk insert deferred first.
    @usableFromInline
    @inline(never)
    internal func _readToMany(_ object: Object) -> Value {
        if object._flags & GraphObject._staleInverseFlag != 0 { object._flushStaleInverses() }
        return _storagePointer(object, at: offset, as: Value.self).pointee
    }
}

extension PropertyReader: Sendable {}
