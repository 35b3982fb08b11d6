/// What one graph keeps about one entity: its objects and its inverse links.
internal final class _GraphEntity {
    let description: EntityDescription

    /// The objects by serial (the ``ObjectID`` serial); `nil` once deleted (even pending) or
    /// rolled back. Serials are never reused.
    let objects = _ObjectTable()
    /// The non-`nil` entries of `objects`.
    @exclusivity(unchecked) var liveCount = 0

    /// The relationships: index and accessor.
    let relationships: [(index: Int, accessor: _PropertyAccessor)]

    /// Each relationship's inverse, by property index, once resolved.
    @exclusivity(unchecked) var inverses: [_InverseLink?]

    /// The ID bits of the entity's objects in this graph with serial 0 (graph tag and
    /// entity number); an object's bits are these ORed with its serial.
    let idBase: UInt64

    /// The storage offsets of the to-one relationships (one nullable reference each), and
    /// the other relationships: what an insert checks for relationships set beforehand.
    let toOneOffsets: [Int]
    let manyRelationships: [(index: Int, accessor: _PropertyAccessor)]

    /// The to-one relationships a bulk insert can relate directly (see
    /// ``ObjectGraph/_relateInserted(_:offset:_:)``), made on first use after the inverses
    /// are resolved; dropped again whenever an inverse of this entity is resolved. A frozen
    /// buffer of plain values, so the bulk path reads it without counting references.
    @exclusivity(unchecked) private var bulkLinks: _FrozenBuffer<_BulkToOne>?

    init(_ description: EntityDescription, graphTag: UInt64) {
        self.description = description
        relationships = description.relationshipAccessors.enumerated().compactMap { index, accessor in
            accessor.map { (index, $0) }
        }
        inverses = Array(repeating: nil, count: description.properties.count)
        idBase = ObjectID(graphTag: graphTag, entity: description, serial: 0)._bits
        toOneOffsets = relationships.filter { $0.accessor.kind == .toOne }.map {
            require($0.accessor.storageSize == MemoryLayout<UInt>.size, "internal inconsistency: a to-one relationship stored in more than one word")
            return $0.accessor.offset
        }
        manyRelationships = relationships.filter { $0.accessor.kind != .toOne }
    }

    deinit {
        bulkLinks?.deallocate()
    }
}

/// Objects inserted in the pending transaction: serials `start..<end` of one entity, in
/// insertion order. Consecutive inserts of one class extend one run, so a bulk insert keeps
/// one run, not one record per object.
internal struct _InsertRun {
    /// The entity; `_entityByType` keeps every entity for the graph's life.
    unowned(unsafe) let entity: _GraphEntity
    let start: Int
    var end: Int
}

/// A to-one relationship whose inverse is a to-many or none: what relating two objects
/// inserted in the pending transaction needs, resolved once.
internal struct _BulkToOne {
    /// The storage offset of the to-one relationship in the owner.
    let offset: Int
    /// The to-one relationship. The entity descriptions keep their accessors for the
    /// process's life.
    unowned(unsafe) let accessor: _PropertyAccessor
    /// The to-many inverse, or `nil` when the relationship has none (unretained, so reading
    /// it counts no reference; the entity descriptions keep their accessors).
    let inverse: _Unretained<_PropertyAccessor>?
}

extension _GraphEntity {
    /// The bulk description of the to-one relationship stored at `offset`; `nil` when that is
    /// not a to-one relationship whose inverse is a to-many or none.
    @inline(__always)
    func bulkToOne(at offset: Int) -> _BulkToOne? {
        if _slowPath(bulkLinks == nil) { makeBulkLinks() }
        for link in bulkLinks.unsafelyUnwrapped where link.offset == offset { return link }
        return nil
    }

    /// Forgets the bulk links (an inverse of the entity was just resolved).
    func resetBulkToOne() {
        bulkLinks?.deallocate()
        bulkLinks = nil
    }

    @inline(never)
    private func makeBulkLinks() {
        bulkLinks = _FrozenBuffer(makeBulkToOne())
    }

    private func makeBulkToOne() -> [_BulkToOne] {
        relationships.compactMap { index, accessor in
            guard accessor.kind == .toOne else { return nil }
            guard let link = inverses[index] else { return _BulkToOne(offset: accessor.offset, accessor: accessor, inverse: nil) }
            guard let inverse = link.entity.description.relationshipAccessors[link.index], inverse.kind == .toMany else { return nil }
            return _BulkToOne(offset: accessor.offset, accessor: accessor, inverse: _Unretained(inverse))
        }
    }
}

/// The inverse of a relationship: a property of an entity in the same graph.
internal struct _InverseLink {
    unowned(unsafe) let entity: _GraphEntity
    let index: Int
}

/// One committed object written in the pending transaction. (Objects inserted in it have
/// no entry: their values are their pending state, see ``ObjectGraph/_insertRuns``.)
internal struct _PendingEntry {
    let object: GraphObject
    /// Deleted in this transaction.
    var isDeleted = false
    /// A setter wrote to the object after it was deleted.
    var writtenAfterDelete = false
    /// A relationship of the object was given an object of another graph or a deleted
    /// one (the commit checks the object's relationships again).
    var mayHoldInvalidTargets = false
    /// The value of each written property before the transaction's first write to it.
    var originals = _Originals()

    init(object: GraphObject) {
        self.object = object
    }

    /// What is kept for property `index`, if it was written.
    func original(_ index: Int) -> (any _SavedValue)? {
        for original in originals where original.index == index { return original.saved }
        return nil
    }
}

/// The values a pending entry keeps, in the order of the first writes: the first in place,
/// the others in an array. Most entries keep one (an object's one written property), and
/// then the entry allocates nothing for them, nor frees anything but the value at commit.
internal struct _Originals: Sequence {
    typealias Element = (index: Int, saved: any _SavedValue)

    private var first: Element?
    private var rest: [Element] = []

    /// Whether no value is kept.
    var isEmpty: Bool { first == nil }

    /// Keeps a property's value.
    mutating func append(_ element: Element) {
        if first == nil {
            first = element
        } else {
            rest.append(element)
        }
    }

    /// Replaces the value kept for property `index` (which must be kept).
    mutating func replace(_ index: Int, with saved: any _SavedValue) {
        if first?.index == index {
            first = (index, saved)
        } else if let position = rest.firstIndex(where: { $0.index == index }) {
            rest[position] = (index, saved)
        }
    }

    /// The values, in the order of the first writes.
    var array: [Element] {
        guard let first else { return [] }
        return [first] + rest
    }

    func makeIterator() -> Iterator {
        Iterator(first: first, rest: rest.makeIterator())
    }

    struct Iterator: IteratorProtocol {
        fileprivate var first: Element?
        fileprivate var rest: IndexingIterator<[Element]>

        mutating func next() -> Element? {
            if let element = first {
                first = nil
                return element
            }
            return rest.next()
        }
    }
}

extension ObjectGraph {
    /// The graph's state for a class, registering the entity (and the entities it relates
    /// to, and its inverses) on first use.
    internal func _entity(for type: GraphObject.Type) -> _GraphEntity {
        let key = ObjectIdentifier(type)
        if key == _lastEntityType, let last = _lastEntity { return last.object }
        if let known = _entityByType[key] {
            _lastEntity = _Unretained(known)
            _lastEntityType = key
            return known
        }
        let description = type.entity
        require(
            _entitiesByName[description.name] == nil,
            "two classes use the entity name \(description.name) in one graph"
        )
        let entity = _GraphEntity(description, graphTag: tag)
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
                requirementFailure("\(description.name).\(description.properties[index].name): its inverse must be a relationship to \(description.name)")
            }
            let existing = destination.inverses[inverseIndex]
            require(
                existing == nil || (existing!.entity === entity && existing!.index == index),
                "\(destination.description.name).\(destination.description.properties[inverseIndex].name) is declared the inverse of two relationships"
            )
            entity.inverses[index] = _InverseLink(entity: destination, index: inverseIndex)
            destination.inverses[inverseIndex] = _InverseLink(entity: entity, index: index)
            entity.resetBulkToOne()
            destination.resetBulkToOne()
        }
        return entity
    }

    /// The property index a key path to a wrapped property names.
    private func _probe(_ keyPath: AnyKeyPath, in entity: _GraphEntity) -> Int {
        guard let index = entity.description.index(probing: keyPath) else {
            requirementFailure("\(keyPath) is not a @Relationship of \(entity.description.name)")
        }
        return index
    }

    /// The graph's state for an object of the graph, unretained (the graph keeps its entities
    /// for its life): for paths that must not count references.
    @inline(__always)
    internal func _unretainedState(of object: GraphObject) -> _Unretained<_GraphEntity> {
        guard let entity = _Unretained.element(at: object._entityNumber, of: _entities) else {
            requirementFailure("internal inconsistency: an object of an unregistered entity")
        }
        return entity
    }

    /// The graph's state for an object of the graph.
    @inline(__always)
    internal func _state(of object: GraphObject) -> _GraphEntity {
        guard let entity = _entities[object._entityNumber] else {
            requirementFailure("internal inconsistency: an object of an unregistered entity")
        }
        return entity
    }
}
