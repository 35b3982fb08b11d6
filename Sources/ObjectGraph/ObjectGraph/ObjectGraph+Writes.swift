extension ObjectGraph {
    // MARK: Wrapper entry points

    /// A setter of `@Attribute` on an object of this graph.
    @usableFromInline
    @inline(never)
    internal func _setAttribute<Object: GraphObject, Value>(
        _ object: Object,
        _ newValue: Value,
        wrapped: ReferenceWritableKeyPath<Object, Value>,
        storage: ReferenceWritableKeyPath<Object, Attribute<Value>>
    ) {
        if _equalIfEquatable(object[keyPath: storage]._value, newValue) == true { return }
        let entity = _state(of: object)
        let index = entity.index(of: storage, in: object)
        _willWrite(object, entity, index, direct: true)
        if let registrar = object._registrar {
            entity.learn(index, wrapped)
            registrar.willSet(object, keyPath: wrapped)
            object[keyPath: storage]._value = newValue
            registrar.didSet(object, keyPath: wrapped)
        } else {
            object[keyPath: storage]._value = newValue
        }
    }

    /// A setter of `@Relationship` on an object of this graph.
    @usableFromInline
    @inline(never)
    internal func _setRelationship<Object: GraphObject, Value: RelationshipValue>(
        _ object: Object,
        _ newValue: Value,
        wrapped: ReferenceWritableKeyPath<Object, Value>,
        storage: ReferenceWritableKeyPath<Object, Relationship<Value>>
    ) {
        let entity = _state(of: object)
        let index = entity.index(of: storage, in: object)
        if object._registrar != nil { entity.learn(index, wrapped) }
        if object[keyPath: storage]._value._hasSameObjects(as: newValue) {
            if object._flags & GraphObject._deletedFlag != 0 { _willWrite(object, entity, index, direct: true) }
            return
        }
        let targets = newValue._graphObjects
        if Value._relationshipKind == .orderedToMany {
            precondition(
                Set(targets.lazy.map(ObjectIdentifier.init)).count == targets.count,
                "an ordered relationship cannot hold the same object twice"
            )
        }
        _assign(object, entity, index, targets, direct: true)
        _checkInvariants(around: object)
    }

    /// An observed read: register with the object's registrar.
    @usableFromInline
    internal func _noteObservedRead<Object: GraphObject, Value, Storage>(
        _ object: Object,
        wrapped: ReferenceWritableKeyPath<Object, Value>,
        storage: ReferenceWritableKeyPath<Object, Storage>
    ) {
        object._makeRegistrar().access(object, keyPath: wrapped)
        let entity = _state(of: object)
        if entity.learnedNotifiers < entity.notifiers.count {
            entity.learn(entity.index(of: storage, in: object), wrapped)
        }
    }

    /// A tracked read: record the (object, property) pair.
    @usableFromInline
    internal func _noteTrackedRead<Object: GraphObject, Storage>(
        _ object: Object,
        storage: ReferenceWritableKeyPath<Object, Storage>
    ) {
        let entity = _state(of: object)
        let index = entity.index(of: storage, in: object)
        _readBuffer.append(PropertyRead(objectID: ObjectID(_bits: object._idBits, entity: entity.description), property: PropertyIndex(index)))
    }

    // MARK: Recording

    /// The position of the object's pending entry, made if needed.
    @inline(__always)
    internal func _entryIndex(for object: GraphObject) -> Int {
        let slot = Int(object._pendingSlot)
        if slot != 0 { return slot - 1 }
        _pending.append(_PendingEntry(object: object, wasInserted: false))
        precondition(_pending.count < Int(Int32.max), "too many objects written in one transaction")
        object._pendingSlot = Int32(_pending.count)
        return _pending.count - 1
    }

    /// Records that a property is about to be written: keeps its old value the first time
    /// in the transaction (not for objects inserted in it) and notes writes to deleted objects.
    @inline(__always)
    internal func _willWrite(_ object: GraphObject, _ entity: _GraphEntity, _ index: Int, direct: Bool) {
        let position = _entryIndex(for: object)
        if direct && object._flags & GraphObject._deletedFlag != 0 {
            _pending[position].writtenAfterDelete = true
        }
        if object._flags & GraphObject._insertedFlag != 0 { return }
        if !_pending[position].hasOriginal(index) {
            _pending[position].originals.append((index, entity.description.accessors[index].save(object)))
        }
    }

    /// Runs a write to a property between the registrar's will-set and did-set, when the
    /// object has a registrar and the property's key path is known.
    @inline(__always)
    internal func _notifying(_ object: GraphObject, _ entity: _GraphEntity, _ index: Int, _ write: () -> Void) {
        if let registrar = object._registrar, let notifier = entity.notifiers[index] {
            notifier.willSet(registrar, object)
            write()
            notifier.didSet(registrar, object)
        } else {
            write()
        }
    }

    // MARK: Relationships and inverses

    /// Replaces a relationship's objects and keeps the inverses in step. Objects in no
    /// graph are inserted; objects of another graph are stored but their side is not
    /// touched (the commit refuses them).
    internal func _assign(_ owner: GraphObject, _ entity: _GraphEntity, _ index: Int, _ targets: [GraphObject], direct: Bool) {
        guard let accessor = entity.description.relationshipAccessors[index] else {
            preconditionFailure("internal inconsistency: property \(index) is not a relationship")
        }
        for target in targets where target._context === _GraphContext.detached {
            precondition(target._flags & GraphObject._prototypeFlag == 0, "internal inconsistency: relating a prototype")
            _insert(target)
        }
        let old = accessor.objects(owner)
        _willWrite(owner, entity, index, direct: direct)
        _notifying(owner, entity, index) { accessor.setObjects(owner, targets) }
        guard let link = entity.inverses[index] else { return }
        if old.count <= 1 && targets.count <= 1 {
            let before = old.first, after = targets.first
            if before === after { return }
            if let before, before._context === _context { _remove(owner, from: before, link.entity, link.index) }
            if let after, after._context === _context { _inverseAdd(after, link, owner: owner, entity, index) }
            return
        }
        let oldIDs = Set(old.lazy.map(ObjectIdentifier.init))
        let newIDs = Set(targets.lazy.map(ObjectIdentifier.init))
        for before in old where !newIDs.contains(ObjectIdentifier(before)) && before._context === _context {
            _remove(owner, from: before, link.entity, link.index)
        }
        for after in targets where !oldIDs.contains(ObjectIdentifier(after)) && after._context === _context {
            _inverseAdd(after, link, owner: owner, entity, index)
        }
    }

    /// Adds `owner` to `target`'s inverse relationship; when that side is to-one and held
    /// another object, that object's forward relationship lets go of `target`.
    private func _inverseAdd(_ target: GraphObject, _ link: _InverseLink, owner: GraphObject, _ ownerEntity: _GraphEntity, _ forward: Int) {
        guard let accessor = link.entity.description.relationshipAccessors[link.index] else {
            preconditionFailure("internal inconsistency: an inverse that is not a relationship")
        }
        if accessor.kind == .toOne {
            let previous = accessor.toOne(target)
            if previous === owner { return }
            if let previous, previous._context === _context { _remove(target, from: previous, ownerEntity, forward) }
        } else if accessor.contains(target, owner) {
            return
        }
        _willWrite(target, link.entity, link.index, direct: false)
        _notifying(target, link.entity, link.index) { accessor.add(target, owner) }
    }

    /// Removes `member` from `object`'s relationship `index`, if it holds it (no further
    /// inverse maintenance: the caller is the other side).
    private func _remove(_ member: GraphObject, from object: GraphObject, _ entity: _GraphEntity, _ index: Int) {
        guard let accessor = entity.description.relationshipAccessors[index] else {
            preconditionFailure("internal inconsistency: an inverse that is not a relationship")
        }
        guard accessor.contains(object, member) else { return }
        _willWrite(object, entity, index, direct: false)
        _notifying(object, entity, index) { accessor.remove(object, member) }
    }

    // MARK: Insert and delete

    internal func _insert(_ object: GraphObject) {
        let entity = _entity(for: type(of: object))
        let serial = entity.objects.count
        let id = ObjectID(graphTag: tag, entity: entity.description, serial: serial)
        object._idBits = id._bits
        object._entity = entity.description
        object._context = _context
        object._flags = GraphObject._insertedFlag
        entity.objects.append(object)
        entity.liveCount += 1
        _pending.append(_PendingEntry(object: object, wasInserted: true))
        object._pendingSlot = Int32(_pending.count)
        for (index, accessor) in entity.relationships where !accessor.isEmpty(object) {
            let targets = accessor.objects(object)
            accessor.setObjects(object, [])
            _assign(object, entity, index, targets, direct: false)
        }
    }

    internal func _delete(_ object: GraphObject) {
        let entity = _state(of: object)
        let position = _entryIndex(for: object)
        _pending[position].isDeleted = true
        object._flags |= GraphObject._deletedFlag
        entity.objects[object._serial] = nil
        entity.liveCount -= 1
        var cascade: [GraphObject] = []
        for (index, accessor) in entity.relationships where !accessor.isEmpty(object) {
            switch entity.description.properties[index].relationship?.deleteRule ?? .nullify {
            case .deny:
                continue
            case .nullify:
                _assign(object, entity, index, [], direct: false)
            case .cascade:
                cascade.append(contentsOf: accessor.objects(object))
                _assign(object, entity, index, [], direct: false)
            }
        }
        for target in cascade where target._context === _context && target._flags & GraphObject._deletedFlag == 0 {
            _delete(target)
        }
    }
}
