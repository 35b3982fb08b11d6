import Observation

/// What one graph keeps about one entity: its objects, its inverse links, and the key paths
/// its wrappers have been called with.
internal final class _GraphEntity {
    let description: EntityDescription

    /// The objects by serial (the ``ObjectID`` serial); `nil` once deleted (even pending) or
    /// rolled back. Serials are never reused.
    var objects: [GraphObject?] = []
    /// The non-`nil` entries of `objects`.
    var liveCount = 0

    /// The relationships: index and accessor.
    let relationships: [(index: Int, accessor: any _RelationshipAccessing)]

    /// Each relationship's inverse, by property index, once resolved.
    var inverses: [_InverseLink?]

    /// Storage key paths the wrappers were called with, and their property index.
    var keyPaths: [(keyPath: AnyKeyPath, index: Int)] = []

    /// How to notify Observation of a write, by property index; learned from the wrapped
    /// key paths that observed reads and writes pass (a property nobody read through a
    /// getter has no observer to notify).
    var notifiers: [(any _Notifying)?]
    var learnedNotifiers = 0

    init(_ description: EntityDescription) {
        self.description = description
        relationships = description.relationshipAccessors.enumerated().compactMap { index, accessor in
            accessor.map { (index, $0) }
        }
        inverses = Array(repeating: nil, count: description.properties.count)
        notifiers = Array(repeating: nil, count: description.properties.count)
    }

    /// The property index of a wrapper's storage key path.
    ///
    /// - Complexity: O(*p*) identity comparisons for *p* properties; the first call for a key
    ///   path projects it once to find its offset.
    @inline(__always)
    func index<Object: GraphObject, Storage>(
        of storage: ReferenceWritableKeyPath<Object, Storage>,
        in object: Object
    ) -> Int {
        for entry in keyPaths where entry.keyPath === storage { return entry.index }
        return resolve(storage, in: object)
    }

    @inline(never)
    func resolve<Object: GraphObject, Storage>(
        _ storage: ReferenceWritableKeyPath<Object, Storage>,
        in object: Object
    ) -> Int {
        for entry in keyPaths where entry.keyPath == storage { return entry.index }
        let offset = _storageOffset(object, storage)
        guard let index = description.indexByOffset[offset] else {
            preconditionFailure("\(Object.self) must be a final class that declares its @Attribute and @Relationship properties itself")
        }
        keyPaths.append((storage, index))
        return index
    }

    /// Remembers how to notify Observation of writes to a property.
    @inline(__always)
    func learn<Object: GraphObject, Value>(_ index: Int, _ wrapped: ReferenceWritableKeyPath<Object, Value>) {
        if notifiers[index] == nil {
            notifiers[index] = _KeyPathNotifier(keyPath: wrapped)
            learnedNotifiers += 1
        }
    }
}

/// The inverse of a relationship: a property of an entity in the same graph.
internal struct _InverseLink {
    unowned(unsafe) let entity: _GraphEntity
    let index: Int
}

/// Tells an object's Observation registrar about a write to one property.
internal protocol _Notifying {
    func willSet(_ registrar: ObservationRegistrar, _ object: GraphObject)
    func didSet(_ registrar: ObservationRegistrar, _ object: GraphObject)
    func access(_ registrar: ObservationRegistrar, _ object: GraphObject)
}

internal struct _KeyPathNotifier<Object: GraphObject, Member>: _Notifying {
    let keyPath: KeyPath<Object, Member>

    func willSet(_ registrar: ObservationRegistrar, _ object: GraphObject) {
        registrar.willSet(unsafeDowncast(object, to: Object.self), keyPath: keyPath)
    }

    func didSet(_ registrar: ObservationRegistrar, _ object: GraphObject) {
        registrar.didSet(unsafeDowncast(object, to: Object.self), keyPath: keyPath)
    }

    func access(_ registrar: ObservationRegistrar, _ object: GraphObject) {
        registrar.access(unsafeDowncast(object, to: Object.self), keyPath: keyPath)
    }
}

/// One object written in the pending transaction.
internal struct _PendingEntry {
    let object: GraphObject
    /// Inserted in this transaction (no old values are kept for it).
    var wasInserted: Bool
    /// Deleted in this transaction.
    var isDeleted = false
    /// A setter wrote to the object after it was deleted.
    var writtenAfterDelete = false
    /// The value of each written property before the transaction's first write to it.
    var originals: [(index: Int, saved: any _SavedValue)] = []

    init(object: GraphObject, wasInserted: Bool) {
        self.object = object
        self.wasInserted = wasInserted
    }

    func hasOriginal(_ index: Int) -> Bool {
        originals.contains { $0.index == index }
    }
}

extension ObjectGraph {
    /// The graph's state for a class, registering the entity (and the entities it relates
    /// to, and its inverses) on first use.
    internal func _entity(for type: GraphObject.Type) -> _GraphEntity {
        if let known = _entityByType[ObjectIdentifier(type)] { return known }
        let description = type.entity
        precondition(
            _entitiesByName[description.name] == nil,
            "two classes use the entity name \(description.name) in one graph"
        )
        let entity = _GraphEntity(description)
        _entityByType[ObjectIdentifier(type)] = entity
        _entitiesByName[description.name] = entity
        if _entities.count <= description.number {
            _entities.append(contentsOf: repeatElement(nil, count: description.number + 1 - _entities.count))
        }
        _entities[description.number] = entity
        for (index, _) in entity.relationships {
            guard let destinationType = description.destinations[index] else { continue }
            let destination = _entity(for: destinationType)
            guard let inverse = description.declaredInverses[index] else { continue }
            let inverseIndex = _probe(inverse, in: destination)
            guard let inverseRelationship = destination.description.properties[inverseIndex].relationship,
                inverseRelationship.destinationName == description.name
            else {
                preconditionFailure("\(description.name).\(description.properties[index].name): its inverse must be a relationship to \(description.name)")
            }
            let existing = destination.inverses[inverseIndex]
            precondition(
                existing == nil || (existing!.entity === entity && existing!.index == index),
                "\(destination.description.name).\(destination.description.properties[inverseIndex].name) is declared the inverse of two relationships"
            )
            entity.inverses[index] = _InverseLink(entity: destination, index: inverseIndex)
            destination.inverses[inverseIndex] = _InverseLink(entity: entity, index: index)
        }
        return entity
    }

    /// The property index a key path to a wrapped property names, found by reading it on a
    /// prototype whose getters report the storage they read.
    private func _probe(_ keyPath: AnyKeyPath, in entity: _GraphEntity) -> Int {
        let prototype = entity.description.objectType.init()
        prototype._flags = GraphObject._prototypeFlag
        _ = prototype[keyPath: keyPath]
        guard prototype._pendingSlot != 0, let index = entity.description.indexByOffset[Int(prototype._pendingSlot)] else {
            preconditionFailure("\(keyPath) is not a @Relationship of \(entity.description.name)")
        }
        return index
    }

    /// The graph's state for an object of the graph.
    @inline(__always)
    internal func _state(of object: GraphObject) -> _GraphEntity {
        guard let entity = _entities[object._entityNumber] else {
            preconditionFailure("internal inconsistency: an object of an unregistered entity")
        }
        return entity
    }
}
