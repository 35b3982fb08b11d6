import Foundation
import ObjectGraph

/// The classes a store saves, how each attribute is written, and the renames that map names
/// found in an older file to the current ones.
///
/// ```swift
/// let schema = try StoreSchema([Item.self, Location.self],
///                              renamedEntities: ["Place": "Location"],
///                              renamedProperties: ["Item": ["title": "name"]])
/// ```
public struct StoreSchema: Sendable {
    /// One saved class.
    struct Entity: Sendable {
        let description: EntityDescription
        let properties: [Property]
    }

    /// One saved property: an attribute and how it is written, or a relationship.
    struct Property: Sendable {
        let name: String
        let index: PropertyIndex
        /// The attribute's kind; `nil` for a relationship.
        let kind: StoredValueKind?
        let relationship: RelationshipKind?
        let destination: String?
    }

    let entities: [Entity]
    let entityIndex: [String: Int]
    let renamedEntities: [String: String]
    let renamedProperties: [String: [String: String]]
    /// Entities (by their name in the file) whose saved objects may be dropped.
    let droppedEntities: Set<String>
    /// Entity name in the file → properties (by their name in the file) whose saved values
    /// may be dropped.
    let droppedProperties: [String: Set<String>]
    /// By entity position: the positions of the attributes whose values a deleted object's
    /// tombstone keeps in the history.
    let preserved: [[Int]]
    /// Whether any entity keeps tombstone values.
    let keepsTombstones: Bool

    /// Describes the classes a store saves.
    ///
    /// - Parameters:
    ///   - types: Every `GraphObject` class of the graph, and every class its relationships
    ///     reach.
    ///   - renamedEntities: Old entity name → current name, for a file written before a class
    ///     was renamed.
    ///   - renamedProperties: Current entity name → (old property name → current name).
    ///   - droppedEntities: Entities, by the name a file saved them under, that this schema
    ///     leaves out on purpose: their saved objects are dropped when a file that has them
    ///     is opened. Any other entity a file holds and this schema lacks makes opening throw
    ///     ``GraphStoreError/omittedFromSchema(entity:property:)``.
    ///   - droppedProperties: Entity name in the file → properties, by their name in the
    ///     file, that this schema leaves out on purpose: their saved values are dropped. Any
    ///     other property a file holds and this schema lacks makes opening throw.
    ///   - preservedOnDeletion: Entity name → attributes whose values the store keeps when an
    ///     object is deleted, in its tombstone in the history
    ///     (`GraphStore.history(after:)`), as SwiftData's
    ///     `preserveValueOnDeletion` does: what a sync engine needs to find the deleted object
    ///     elsewhere (a server-side identifier, say).
    /// - Throws: ``GraphStoreError/unsupportedAttribute(entity:property:type:)`` naming the
    ///   first attribute whose type the store cannot write, and
    ///   ``GraphStoreError/missingEntity(_:referencedBy:)`` for a relationship to a class
    ///   that is not listed, or for an entity or attribute `preservedOnDeletion` names that
    ///   the schema does not have.
    /// - Complexity: O(*p*) for *p* properties in all.
    public init(
        _ types: [GraphObject.Type],
        renamedEntities: [String: String] = [:],
        renamedProperties: [String: [String: String]] = [:],
        droppedEntities: Set<String> = [],
        droppedProperties: [String: Set<String>] = [:],
        preservedOnDeletion: [String: Set<String>] = [:]
    ) throws(GraphStoreError) {
        var entities: [Entity] = []
        var index: [String: Int] = [:]
        for type in types {
            let description = type.entity
            guard index[description.name] == nil else { continue }
            var properties: [Property] = []
            for property in description.properties {
                if let relationship = property.relationship {
                    properties.append(Property(
                        name: property.name, index: property.index, kind: nil,
                        relationship: relationship.kind, destination: relationship.destinationName))
                } else {
                    let valueType = description.valueType(of: property.index)
                    guard let kind = StoredValueKind.resolve(valueType) else {
                        throw .unsupportedAttribute(entity: description.name, property: property.name, type: String(describing: valueType))
                    }
                    properties.append(Property(name: property.name, index: property.index, kind: kind, relationship: nil, destination: nil))
                }
            }
            index[description.name] = entities.count
            entities.append(Entity(description: description, properties: properties))
        }
        for entity in entities {
            for property in entity.properties {
                if let destination = property.destination, index[destination] == nil {
                    throw .missingEntity(destination, referencedBy: "\(entity.description.name).\(property.name)")
                }
            }
        }
        for (name, attributes) in preservedOnDeletion {
            guard let position = index[name] else { throw .missingEntity(name, referencedBy: "preservedOnDeletion") }
            for attribute in attributes where !entities[position].properties.contains(where: { $0.name == attribute && $0.kind != nil }) {
                throw .missingEntity("\(name).\(attribute)", referencedBy: "preservedOnDeletion (it must name an attribute)")
            }
        }
        preserved = entities.map { entity in
            let names = preservedOnDeletion[entity.description.name] ?? []
            return entity.properties.indices.filter { names.contains(entity.properties[$0].name) }
        }
        keepsTombstones = preserved.contains { !$0.isEmpty }
        self.entities = entities
        entityIndex = index
        self.renamedEntities = renamedEntities
        self.renamedProperties = renamedProperties
        self.droppedEntities = droppedEntities
        self.droppedProperties = droppedProperties
    }

    /// The schema's text form, saved at the start of every file: one line per property.
    var text: String {
        var lines: [String] = []
        for entity in entities {
            lines.append("entity \(entity.description.name)")
            for property in entity.properties {
                if let kind = property.kind {
                    lines.append("attribute \(property.name) \(kind)")
                } else if let relationship = property.relationship, let destination = property.destination {
                    let shape = switch relationship {
                    case .toOne: "to-one"
                    case .toMany: "to-many"
                    case .orderedToMany: "ordered"
                    }
                    lines.append("relationship \(property.name) \(shape) \(destination)")
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// A 64-bit FNV-1a hash of ``text``: equal schemas have equal fingerprints.
    var fingerprint: UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}

/// The schema a file was written with, read from its first record, and how each of its
/// entities and properties maps onto the current schema.
struct FileSchema {
    // Classes, not structs: decoding looks entities and properties up for every value, and
    // a copy of a class costs one reference count, where a copy of a struct of strings,
    // arrays and a metatype cost one per field.

    final class Entity {
        let name: String
        let properties: [Property]
        /// The current entity, or `nil` when the entity was removed.
        let current: StoreSchema.Entity?

        init(name: String, properties: [Property], current: StoreSchema.Entity?) {
            self.name = name
            self.properties = properties
            self.current = current
        }
    }

    final class Property {
        let name: String
        let kind: StoredValueKind?
        let relationship: RelationshipKind?
        /// A relationship's destination entity, by its name in the file.
        let destination: String?
        /// The current property's index, or `nil` when it was removed.
        let current: PropertyIndex?
        /// The current property's kind (attributes).
        let currentKind: StoredValueKind?
        let currentType: (any Any.Type)?

        init(
            name: String, kind: StoredValueKind?, relationship: RelationshipKind?, destination: String? = nil,
            current: PropertyIndex?, currentKind: StoredValueKind?, currentType: (any Any.Type)?
        ) {
            self.name = name
            self.kind = kind
            self.relationship = relationship
            self.destination = destination
            self.current = current
            self.currentKind = currentKind
            self.currentType = currentType
        }
    }

    let entities: [Entity]
    /// Whether the file's schema is the current one, word for word.
    let isCurrent: Bool

    /// Reads a schema's text form and maps it onto `schema`.
    ///
    /// - Throws: ``GraphStoreError/incompatibleSchema(_:)`` when a property changed between
    ///   an attribute and a relationship, or to a type its values do not convert to.
    init(text: String, current schema: StoreSchema) throws(GraphStoreError) {
        var entities: [Entity] = []
        var name: String?
        var properties: [Property] = []
        // Data the schema leaves out is dropped only when the schema names it: a class
        // forgotten in the list, an attribute removed, a rename without its mapping or an
        // older app opening a newer store must not erase what was saved.
        var omitted: (entity: String, property: String?)?
        func finish() {
            guard let name else { return }
            let currentName = schema.renamedEntities[name] ?? name
            let current = schema.entityIndex[currentName].map { schema.entities[$0] }
            if current == nil, !schema.droppedEntities.contains(name), omitted == nil { omitted = (name, nil) }
            if current != nil, omitted == nil,
               let property = properties.first(where: { $0.current == nil && !(schema.droppedProperties[name]?.contains($0.name) ?? false) }) {
                omitted = (name, property.name)
            }
            entities.append(Entity(name: name, properties: properties, current: current))
        }
        func currentProperty(_ entityName: String, _ propertyName: String) -> StoreSchema.Property? {
            let currentEntityName = schema.renamedEntities[entityName] ?? entityName
            guard let entity = schema.entityIndex[currentEntityName].map({ schema.entities[$0] }) else { return nil }
            let renamed = schema.renamedProperties[currentEntityName]?[propertyName] ?? propertyName
            return entity.properties.first { $0.name == renamed }
        }
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ")
            switch (words.first, words.count) {
            case ("entity", 2):
                finish()
                name = String(words[1])
                properties = []
            case ("attribute", 3):
                guard let entityName = name, let kind = StoredValueKind(name: words[2]) else {
                    throw .incompatibleSchema("unreadable schema line \"\(line)\"")
                }
                let propertyName = String(words[1])
                let current = currentProperty(entityName, propertyName)
                if let current {
                    guard let currentKind = current.kind else {
                        throw .incompatibleSchema("\(entityName).\(propertyName) was an attribute and is now a relationship")
                    }
                    guard kind.converts(to: currentKind) else {
                        throw .incompatibleSchema("\(entityName).\(propertyName) was saved as \(kind) and cannot be read as \(currentKind)")
                    }
                }
                let entity = current.flatMap { _ in schema.entityIndex[schema.renamedEntities[entityName] ?? entityName].map { schema.entities[$0] } }
                properties.append(Property(
                    name: propertyName, kind: kind, relationship: nil, current: current?.index, currentKind: current?.kind,
                    currentType: current.flatMap { property in entity?.description.valueType(of: property.index) }))
            case ("relationship", 4):
                guard let entityName = name else { throw .incompatibleSchema("unreadable schema line \"\(line)\"") }
                let shape: RelationshipKind
                switch words[2] {
                case "to-one": shape = .toOne
                case "to-many": shape = .toMany
                case "ordered": shape = .orderedToMany
                default: throw .incompatibleSchema("unreadable schema line \"\(line)\"")
                }
                let propertyName = String(words[1])
                let current = currentProperty(entityName, propertyName)
                if let current, current.relationship == nil {
                    throw .incompatibleSchema("\(entityName).\(propertyName) was a relationship and is now an attribute")
                }
                properties.append(Property(
                    name: propertyName, kind: nil, relationship: shape, destination: String(words[3]), current: current?.index,
                    currentKind: nil, currentType: nil))
            default:
                throw .incompatibleSchema("unreadable schema line \"\(line)\"")
            }
        }
        finish()
        if let omitted { throw .omittedFromSchema(entity: omitted.entity, property: omitted.property) }
        self.entities = entities
        isCurrent = text == schema.text
    }
}

extension StoredValueKind {
    /// Whether every value saved as `self` can be read as `other` (exactly, or converted
    /// where no information is lost in the values that fit).
    func converts(to other: StoredValueKind) -> Bool {
        if self == other { return true }
        switch (self, other) {
        case (.signed, .signed), (.unsigned, .unsigned), (.signed, .unsigned), (.unsigned, .signed): return true
        case (.signed, .double), (.unsigned, .double), (.float, .double), (.double, .float): return true
        case (.optional(let a), .optional(let b)): return a.converts(to: b)
        case (let a, .optional(let b)) where a.isPlain: return a.converts(to: b)
        case (.raw(let a), .raw(let b)): return a.converts(to: b)
        case (.raw(let a), let b) where b.isPlain: return a.converts(to: b)
        case (let a, .raw(let b)) where a.isPlain: return a.converts(to: b)
        default: return false
        }
    }
}
