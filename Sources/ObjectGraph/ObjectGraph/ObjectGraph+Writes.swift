import Observation

extension ObjectGraph {
    // MARK: Wrapper entry points

    /// The property index of a storage offset in an object of this graph.
    @usableFromInline
    internal func _index(of object: GraphObject, offset: Int) -> Int {
        _index(of: object, offset: offset, in: _state(of: object))
    }

    /// The property index of a storage offset in an object of an entity.
    @inline(__always)
    internal func _index(of object: GraphObject, offset: Int, in entity: _GraphEntity) -> Int {
        guard let index = entity.description.index(ofOffset: offset) else {
            requirementFailure("\(type(of: object)) must be a final class that declares its @Attribute and @Relationship properties itself")
        }
        return index
    }

    /// Before an attribute setter stores a new value: records the old one and tells
    /// Observation. Returns the property index for ``_didWrite(_:index:)``.
    @usableFromInline
    @inline(never)
    internal func _willWrite(_ object: GraphObject, offset: Int) -> Int {
        let entity = _state(of: object)
        let index = _index(of: object, offset: offset, in: entity)
        _preconditionNotDeleted(object, index: index, in: entity)
        _willWrite(object, entity, index, direct: true)
        if let registrar = _registrar(of: object) {
            registrar.willSet(object, keyPath: entity.description.observationKeyPaths[index])
        }
        return index
    }

    /// After an attribute setter stored a new value: tells Observation.
    @usableFromInline
    @inline(never)
    internal func _didWrite(_ object: GraphObject, index: Int) {
        if let registrar = _registrar(of: object) {
            registrar.didSet(object, keyPath: _state(of: object).description.observationKeyPaths[index])
        }
        _checkInvariants(around: object)
    }

    /// A setter of a deleted object stored an equal value: still a write to a deleted object,
    /// a programming error caught here, where it happens.
    @usableFromInline
    @inline(never)
    internal func _noteWriteToDeleted(_ object: GraphObject, offset: Int) {
        let entity = _state(of: object)
        _preconditionNotDeleted(object, index: _index(of: object, offset: offset), in: entity)
    }

    /// Stops a setter that writes to a deleted object, where the write happens: the object
    /// left the graph (or leaves it at the next commit), so the write could never be
    /// committed. ``GraphObject/isDeleted`` is the test that does not trap.
    @inline(__always)
    internal func _preconditionNotDeleted(_ object: GraphObject, index: Int, in entity: _GraphEntity) {
        if _slowPath(object._flags & GraphObject._deletedFlag != 0) {
            _writeToDeletedObject(object, property: entity.description.properties[index].name)
        }
    }

    /// The trap of ``_preconditionNotDeleted(_:index:in:)``, out of line.
    @inline(never)
    private func _writeToDeletedObject(_ object: GraphObject, property: String) -> Never {
        requirementFailure(
            "\(object.objectID).\(property) was set after the object was deleted; a deleted object cannot change (test isDeleted first)")
    }

    /// A to-one relationship setter, given its new target unretained (the setter's value
    /// keeps it alive), so the call counts no reference but the one the relationship keeps.
    @usableFromInline
    @inline(never)
    internal func _setToOne(_ object: GraphObject, offset: Int, unretained target: _Unretained<GraphObject>?) {
        guard let target else {
            _setToOne(object, offset: offset, nil)
            return
        }
        target.borrow { _setToOne(object, offset: offset, $0) }
    }

    /// A to-one relationship write (a setter's, or a batch's to an object it inserted).
    @inline(__always)
    internal func _setToOne(_ object: GraphObject, offset: Int, _ target: GraphObject?) {
        if let target, object._flags == GraphObject._insertedFlag,
            target._flags & ~GraphObject._staleInverseFlag == GraphObject._insertedFlag,
            target._context === _context, _relateInserted(object, offset: offset, target)
        {
            _checkInvariants(around: object)
            return
        }
        _keepingAlive {
            _flushDeferredInverses()
            let entity = _state(of: object)
            let index = _index(of: object, offset: offset, in: entity)
            _preconditionNotDeleted(object, index: index, in: entity)
            _assignToOne(object, entity, index, target, direct: true)
            _checkInvariants(around: object)
        }
    }

    /// Runs `body` with the graph retained. Setters reach the graph unretained, and a write
    /// that notifies Observation runs change handlers, which may drop the graph's last
    /// reference while the write is under way.
    @inline(__always)
    internal func _keepingAlive(_ body: () -> Void) {
        let retained = _Unretained(self).retain()
        body()
        retained.release()
    }

    /// The bulk-insert case of a to-one setter: both objects were inserted in this
    /// transaction, are not deleted and were never observed, and the owner's relationship
    /// is empty. Nothing is saved (inserted objects keep no old values) or notified, and
    /// the inverse, if any, is a to-many that simply gains the owner (deferred: see
    /// `ObjectGraph+DeferredInverses.swift`).
    ///
    /// - Returns: `false`, having changed nothing, when the case does not apply.
    @inline(__always)
    private func _relateInserted(_ owner: GraphObject, offset: Int, _ target: GraphObject) -> Bool {
        // Unretained: the graph keeps its entities, the descriptions their accessors, so the
        // fast path counts no references but the two the relationships keep.
        guard let link = _unretainedState(of: owner).borrow({ $0.bulkToOne(at: offset) }) else { return false }
        // Tested and filled directly instead of through the accessor's closures.
        let slot = _ToOneSlot(owner, offset: offset)
        guard slot.isEmpty else { return false }
        slot.fill(with: target)
        if let inverse = link.inverse, !_deferInverseAdd(target, inverse, owner: owner) {
            inverse.borrow { $0.add(target, owner) }
        }
        return true
    }

    /// A to-many or ordered relationship setter.
    @usableFromInline
    @inline(never)
    internal func _setRelationship(_ object: GraphObject, offset: Int, _ targets: [GraphObject]) {
        require(
            Set(targets.lazy.map(ObjectIdentifier.init)).count == targets.count,
            "an ordered relationship cannot hold the same object twice"
        )
        _keepingAlive {
            _flushDeferredInverses()
            let entity = _state(of: object)
            let index = _index(of: object, offset: offset, in: entity)
            _preconditionNotDeleted(object, index: index, in: entity)
            _assign(object, entity, index, targets, direct: true)
            _checkInvariants(around: object)
        }
    }

    /// A read in observed or tracking mode, by property index.
    internal func _noteRead(_ object: GraphObject, index: Int) {
        switch _context._readMode {
        case .tracking:
            _context._track(object, index: index)
        case .observed:
            _makeRegistrar(of: object).access(object, keyPath: _state(of: object).description.observationKeyPaths[index])
        case .untracked, .detached:
            break
        }
    }

    // MARK: Observation

    /// The object's registrar, if it was ever read while observed.
    @inline(__always)
    internal func _registrar(of object: GraphObject) -> ObservationRegistrar? {
        guard object._flags & GraphObject._observedFlag != 0 else { return nil }
        return _registrars[ObjectIdentifier(object)]
    }

    /// The object's registrar, made on first use.
    internal func _makeRegistrar(of object: GraphObject) -> ObservationRegistrar {
        if let registrar = _registrar(of: object) { return registrar }
        let registrar = ObservationRegistrar()
        _registrars[ObjectIdentifier(object)] = registrar
        object._flags |= GraphObject._observedFlag
        return registrar
    }

    // MARK: Recording

    /// The position of the pending entry of a committed object (not one inserted in the
    /// pending transaction), made if needed.
    @inline(__always)
    internal func _entryIndex(for object: GraphObject) -> Int {
        assert(object._flags & GraphObject._insertedFlag == 0, "internal inconsistency: a pending entry for an inserted object")
        // Before the slot is read: a validated insert's slot may number a deferred list.
        if _slowPath(_validatingInserts) {
            require(!_isValidatedInsert(object), "validateForCommit() must only read: it wrote to \(object.objectID), inserted in the commit")
        }
        let slot = Int(object._pendingSlot)
        if slot != 0 { return slot - 1 }
        _pending.append(_PendingEntry(object: object))
        require(_pending.count < Int(Int32.max), "too many objects written in one transaction")
        object._pendingSlot = Int32(_pending.count)
        return _pending.count - 1
    }

    /// Records that a property is about to be written: keeps its old value (or, for a
    /// to-many relationship, an empty delta) the first time in the transaction, not for
    /// objects inserted in it, and notes writes to deleted objects.
    ///
    /// - Returns: What is kept for the property, so a to-many write can note its members in
    ///   the delta; `nil` for an object inserted in the transaction.
    @inline(__always)
    @discardableResult
    internal func _willWrite(_ object: GraphObject, _ entity: _GraphEntity, _ index: Int, direct: Bool) -> (any _SavedValue)? {
        if object._flags & GraphObject._insertedFlag != 0 {
            if direct && object._flags & GraphObject._deletedFlag != 0 { object._flags |= GraphObject._writtenAfterDeleteFlag }
            return nil
        }
        let position = _entryIndex(for: object)
        if direct && object._flags & GraphObject._deletedFlag != 0 {
            _pending[position].writtenAfterDelete = true
        }
        if let saved = _pending[position].original(index) { return saved }
        let saved = entity.description.accessors[index].save(object)
        _pending[position].originals.append((index, saved))
        return saved
    }

    /// Runs a write to a property between the registrar's will-set and did-set, when the
    /// object has a registrar.
    @inline(__always)
    internal func _notifying(_ object: GraphObject, _ entity: _GraphEntity, _ index: Int, _ write: () -> Void) {
        // The flag is tested first, so an object never observed (every object being
        // inserted in bulk) does not even make an optional registrar.
        guard object._flags & GraphObject._observedFlag != 0 else {
            write()
            return
        }
        if let registrar = _registrars[ObjectIdentifier(object)] {
            let keyPath = entity.description.observationKeyPaths[index]
            registrar.willSet(object, keyPath: keyPath)
            write()
            registrar.didSet(object, keyPath: keyPath)
        } else {
            write()
        }
    }

    // MARK: Relationships and inverses

    /// Replaces a relationship's objects and keeps the inverses in step. Objects in no
    /// graph are inserted; objects of another graph are stored but their side is not
    /// touched (the commit refuses them).
    internal func _assign(_ owner: GraphObject, _ entity: _GraphEntity, _ index: Int, _ targets: [GraphObject], direct: Bool) {
        _flushDeferredInverses()
        guard let accessor = entity.description.relationshipAccessors[index] else {
            requirementFailure("internal inconsistency: property \(index) is not a relationship")
        }
        if accessor.kind == .toOne {
            assert(targets.count <= 1)
            _assignToOne(owner, entity, index, targets.first, direct: direct)
            return
        }
        for target in targets where target._context === _GraphContext.detached {
            _insertRelated(target)
        }
        let old = accessor.objects(owner)
        let oldIDs = Set(old.lazy.map(ObjectIdentifier.init))
        let newIDs = Set(targets.lazy.map(ObjectIdentifier.init))
        if let saved = _willWrite(owner, entity, index, direct: direct) {
            for before in old where !newIDs.contains(ObjectIdentifier(before)) { saved.noteRemoved(before) }
            for after in targets where !oldIDs.contains(ObjectIdentifier(after)) { saved.noteAdded(after) }
        }
        _notifying(owner, entity, index) { accessor.setObjects(owner, targets) }
        if targets.contains(where: { !_isValidTarget($0) }) { _noteMayHoldInvalidTargets(owner) }
        guard let link = entity.inverses[index] else { return }
        for before in old where !newIDs.contains(ObjectIdentifier(before)) && before._context === _context {
            _remove(owner, from: before, link.entity, link.index)
        }
        for after in targets where !oldIDs.contains(ObjectIdentifier(after)) && after._context === _context {
            _inverseAdd(after, link, owner: owner, entity, index)
        }
    }

    /// Sets a to-one relationship and keeps the inverses in step.
    internal func _assignToOne(_ owner: GraphObject, _ entity: _GraphEntity, _ index: Int, _ target: GraphObject?, direct: Bool) {
        _flushDeferredInverses()
        guard let accessor = entity.description.relationshipAccessors[index] else {
            requirementFailure("internal inconsistency: property \(index) is not a relationship")
        }
        if let target, target._context === _GraphContext.detached { _insertRelated(target) }
        let before = accessor.toOne(owner)
        if before === target {
            if direct && owner._flags & GraphObject._deletedFlag != 0 { _willWrite(owner, entity, index, direct: true) }
            return
        }
        _willWrite(owner, entity, index, direct: direct)
        if let target, !_isValidTarget(target) { _noteMayHoldInvalidTargets(owner) }
        _notifying(owner, entity, index) {
            if let target {
                accessor.add(owner, target)
            } else if let before {
                accessor.remove(owner, before)
            }
        }
        guard let link = entity.inverses[index] else { return }
        if let before, before._context === _context { _remove(owner, from: before, link.entity, link.index) }
        if let target, target._context === _context { _inverseAdd(target, link, owner: owner, entity, index) }
    }

    /// Notes that a relationship of `object` was given an object of another graph or a
    /// deleted one, so the commit checks its relationships again.
    internal func _noteMayHoldInvalidTargets(_ object: GraphObject) {
        if object._flags & GraphObject._insertedFlag != 0 {
            object._flags |= GraphObject._mayHoldInvalidTargetsFlag
            _insertsMayHoldInvalidTargets = true
        } else {
            _pending[_entryIndex(for: object)].mayHoldInvalidTargets = true
        }
    }

    /// Whether an object can be related to objects of this graph: it is in this graph and
    /// not deleted.
    @inline(__always)
    internal func _isValidTarget(_ target: GraphObject) -> Bool {
        target._context === _context && target._flags & GraphObject._deletedFlag == 0
    }

    /// Inserts an object in no graph that is being related to one of this graph.
    private func _insertRelated(_ object: GraphObject) {
        require(object._flags & GraphObject._prototypeFlag == 0, "internal inconsistency: relating a prototype")
        _insert(object)
    }

    /// Adds `owner` to `target`'s inverse relationship; when that side is to-one and held
    /// another object, that object's forward relationship lets go of `target`.
    private func _inverseAdd(_ target: GraphObject, _ link: _InverseLink, owner: GraphObject, _ ownerEntity: _GraphEntity, _ forward: Int) {
        guard let accessor = link.entity.description.relationshipAccessors[link.index] else {
            requirementFailure("internal inconsistency: an inverse that is not a relationship")
        }
        if target._flags & (GraphObject._insertedFlag | GraphObject._observedFlag) == GraphObject._insertedFlag && accessor.kind == .toMany {
            // Nothing to save or notify for a new object: adding is idempotent.
            accessor.add(target, owner)
            if !_isValidTarget(owner) { _noteMayHoldInvalidTargets(target) }
            return
        }
        if accessor.kind == .toOne {
            let previous = accessor.toOne(target)
            if previous === owner { return }
            if let previous, previous._context === _context { _remove(target, from: previous, ownerEntity, forward) }
        } else if accessor.contains(target, owner) {
            return
        }
        let saved = _willWrite(target, link.entity, link.index, direct: false)
        if !_isValidTarget(owner) { _noteMayHoldInvalidTargets(target) }
        _notifying(target, link.entity, link.index) { accessor.add(target, owner) }
        saved?.noteAdded(owner)
    }

    /// Removes `member` from `object`'s relationship `index`, if it holds it (no further
    /// inverse maintenance: the caller is the other side).
    private func _remove(_ member: GraphObject, from object: GraphObject, _ entity: _GraphEntity, _ index: Int) {
        guard let accessor = entity.description.relationshipAccessors[index] else {
            requirementFailure("internal inconsistency: an inverse that is not a relationship")
        }
        guard accessor.contains(object, member) else { return }
        let saved = _willWrite(object, entity, index, direct: false)
        _notifying(object, entity, index) { accessor.remove(object, member) }
        saved?.noteRemoved(member)
    }

    // MARK: Insert and delete

    internal func _insert(_ object: GraphObject) {
        // The one-pass validation would neither validate nor commit the new object.
        if _slowPath(_validatingInserts) {
            requirementFailure("validateForCommit() must only read: it inserted a \(type(of: object))")
        }
        if let last = _lastEntity, ObjectIdentifier(type(of: object)) == _lastEntityType {
            // The graph keeps its entities: lend the cached one without counting references.
            last.borrow { _insert(object, into: $0) }
        } else {
            _insert(object, into: _entity(for: type(of: object)))
        }
    }

    @inline(__always)
    private func _insert(_ object: GraphObject, into entity: _GraphEntity) {
        let serial = entity.objects.count
        require(UInt64(serial) < 1 << ObjectID.serialBits, "an entity of one graph holds at most 2^32 objects")
        object._idBits = entity.idBase | UInt64(serial)
        object._entity = entity.description
        object._attachDetached(to: _context)
        object._flags = GraphObject._insertedFlag
        entity.objects.append(object)
        entity.liveCount += 1
        if let last = _insertRuns.indices.last, _insertRuns[last].entity === entity, _insertRuns[last].end == serial {
            _insertRuns[last].end = serial + 1
        } else {
            _insertRuns.append(_InsertRun(entity: entity, start: serial, end: serial + 1))
        }
        // Relationships set before insertion: store them again, with their inverses. A
        // to-one slot is tested without the accessor.
        var anySet = false
        for offset in entity.toOneOffsets where !_ToOneSlot(object, offset: offset).isEmpty { anySet = true }
        for (_, accessor) in entity.manyRelationships where !accessor.isEmpty(object) { anySet = true }
        guard anySet else { return }
        for (index, accessor) in entity.relationships where !accessor.isEmpty(object) {
            if accessor.kind == .toOne, let target = accessor.toOne(object) {
                accessor.remove(object, target)
                _assignToOne(object, entity, index, target, direct: false)
            } else {
                let targets = accessor.objects(object)
                accessor.setObjects(object, [])
                _assign(object, entity, index, targets, direct: false)
            }
        }
    }

    internal func _delete(_ object: GraphObject) {
        _flushDeferredInverses()
        let entity = _state(of: object)
        if object._flags & GraphObject._insertedFlag != 0 {
            _deletedInserts.append(object)
        } else {
            _pending[_entryIndex(for: object)].isDeleted = true
        }
        object._flags |= GraphObject._deletedFlag
        _pendingDeletions[object._idBits] = object
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
