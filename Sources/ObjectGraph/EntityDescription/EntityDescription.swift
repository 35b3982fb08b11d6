/// What a ``GraphObject`` subclass declares: its name, attributes and relationships.
///
/// A description is built once per class, from one prototype instance (made with the
/// class's `required init()`), and lives for the rest of the process; every graph shares it.
/// It is immutable and `Sendable`. Obtain one with `Item.entity` or
/// ``ObjectGraph/entity(for:)``.
public final class EntityDescription: Sendable, CustomStringConvertible {
    /// The entity's name: ``GraphObject/entityName`` of its class.
    public let name: String

    /// The class the entity describes.
    public let objectType: GraphObject.Type

    /// The attributes and relationships, in declaration order; element `i` has index `i`.
    public let properties: [PropertyDescription]

    /// The number of this entity in the process, used inside ``ObjectID``.
    internal let number: Int

    /// Reads and writes each property's storage at its offset in the object. The
    /// accessors are immutable after the description is built; their closures capture
    /// nothing but their value type, so sharing them across threads is safe.
    nonisolated(unsafe) internal let accessors: [_PropertyAccessor]

    /// The relationship accessors by property index (`nil` for attributes).
    nonisolated(unsafe) internal let relationshipAccessors: [_PropertyAccessor?]

    /// The attribute accessors by property index (`nil` for relationships).
    nonisolated(unsafe) internal let attributeAccessors: [_PropertyAccessor?]

    /// The storage offset of each property, by index (scanned: entities are small).
    internal let offsets: [Int]

    /// The key path Observation sees for each property, by index: a stand-in on
    /// ``GraphObject`` (each object has its own registrar, so entities need no distinct ones).
    nonisolated(unsafe) internal let observationKeyPaths: [KeyPath<GraphObject, Int>]

    /// Each relationship's inverse as its wrapper declared it (a key path to the
    /// destination's wrapped property); resolved per graph.
    internal let declaredInverses: [(any AnyKeyPath & Sendable)?]

    /// Each property's value type (`V` of `Attribute<V>` or `Relationship<V>`).
    internal let valueTypes: [any Any.Type]

    /// Each relationship's destination class.
    internal let destinations: [GraphObject.Type?]

    /// Property index by storage offset in the object (for key-path resolution).
    internal let indexByOffset: [Int: Int]

    /// Property index by name.
    internal let indexByName: [String: Int]

    internal init(
        name: String,
        objectType: GraphObject.Type,
        number: Int,
        properties: [PropertyDescription],
        accessors: [_PropertyAccessor],
        declaredInverses: [(any AnyKeyPath & Sendable)?],
        destinations: [GraphObject.Type?],
        valueTypes: [any Any.Type]
    ) {
        self.valueTypes = valueTypes
        self.name = name
        self.objectType = objectType
        self.number = number
        self.properties = properties
        self.accessors = accessors
        self.relationshipAccessors = accessors.map { $0.isRelationship ? $0 : nil }
        self.attributeAccessors = accessors.map { $0.isRelationship ? nil : $0 }
        self.offsets = accessors.map(\.offset)
        self.observationKeyPaths = accessors.indices.map { \GraphObject.[_observedProperty: $0] }
        self.declaredInverses = declaredInverses
        self.destinations = destinations
        var byOffset: [Int: Int] = [:]
        var byName: [String: Int] = [:]
        for (index, accessor) in accessors.enumerated() {
            byOffset[accessor.offset] = index
            byName[properties[index].name] = index
        }
        indexByOffset = byOffset
        indexByName = byName
    }

    /// The index of the property stored at an offset in the object.
    ///
    /// - Complexity: O(*p*) for *p* properties.
    @inline(__always)
    internal func index(ofOffset offset: Int) -> Int? {
        offsets.firstIndex(of: offset)
    }

    /// The index of the property a key path to a wrapped property names, found by reading
    /// it on a prototype whose getters report the storage they read; `nil` when the key path
    /// reads no property, or more than one.
    ///
    /// Each relationship of the prototype holds a prototype of its destination, so a key
    /// path that goes on through a relationship (`\Item.location?.name`) reads that second
    /// prototype too, and is refused.
    internal func index(probing keyPath: AnyKeyPath) -> Int? {
        let prototype = objectType.init()
        prototype._flags = GraphObject._prototypeFlag
        var related: [GraphObject] = []
        for (index, accessor) in relationshipAccessors.enumerated() {
            guard let accessor, let destination = destinations[index] else { continue }
            let next = destination.init()
            next._flags = GraphObject._prototypeFlag
            accessor.setObjects(prototype, [next])
            related.append(next)
        }
        defer {
            for accessor in relationshipAccessors { accessor?.setObjects(prototype, []) }
        }
        guard prototype[keyPath: keyPath] != nil, prototype._pendingSlot > 0,
            related.allSatisfy({ $0._pendingSlot == 0 })
        else { return nil }
        return index(ofOffset: Int(prototype._pendingSlot))
    }

    /// The attributes, in declaration order.
    public var attributes: [PropertyDescription] { properties.filter { $0.relationship == nil } }

    /// The relationships, in declaration order.
    public var relationships: [PropertyDescription] { properties.filter { $0.relationship != nil } }

    /// The attribute declared `unique`, which upserts in a ``GraphBatch`` match on.
    public var uniqueAttribute: PropertyDescription? { properties.first { $0.isUnique } }

    /// The index of the property with a name.
    ///
    /// - Parameter name: An attribute or relationship name.
    /// - Returns: Its index, or `nil` when the entity has no such property.
    /// - Complexity: O(1).
    public func index(of name: String) -> PropertyIndex? {
        indexByName[name].map(PropertyIndex.init)
    }

    /// The property at an index.
    ///
    /// - Parameter index: An index of this entity (`precondition`).
    /// - Complexity: O(1).
    public subscript(index: PropertyIndex) -> PropertyDescription {
        require(properties.indices.contains(index.rawValue), "property index \(index.rawValue) out of range for entity \(name)")
        return properties[index.rawValue]
    }

    /// A summary such as `Item(name, quantity, location→Location)`.
    public var description: String {
        let list = properties.map { property in
            property.relationship.map { "\(property.name)→\($0.destinationName)" } ?? property.name
        }
        return "\(name)(\(list.joined(separator: ", ")))"
    }
}

/// One attribute or relationship of an entity.
public struct PropertyDescription: Sendable, Hashable, CustomStringConvertible {
    /// The property's name: the declared name without the wrapper's underscore, or the
    /// `name:` given to the wrapper.
    public let name: String

    /// The property's position in its entity.
    public let index: PropertyIndex

    /// Whether the attribute is declared `unique` (always `false` for relationships).
    public let isUnique: Bool

    /// The relationship's shape, or `nil` for an attribute.
    public let relationship: RelationshipDescription?

    /// The name.
    public var description: String { name }
}

/// The shape of a relationship.
public struct RelationshipDescription: Sendable, Hashable {
    /// To-one, to-many or ordered to-many.
    public let kind: RelationshipKind

    /// What happens to the related objects when the owner is deleted.
    public let deleteRule: DeleteRule

    /// The entity name of the related objects.
    public let destinationName: String

    /// Whether this side declared its inverse (`@Relationship(inverse:)`). The other side
    /// of a declared pair reports `false`; both are maintained.
    public let declaresInverse: Bool
}
