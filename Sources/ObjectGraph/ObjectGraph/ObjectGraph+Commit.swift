extension ObjectGraph {
    /// Commits every pending change at once and publishes them as one ``GraphChanges``.
    ///
    /// The commit is atomic: either it throws and every pending change stays pending exactly
    /// as it was, or it empties the pending changes, delivers the changes to the observers
    /// and returns them. Observers run synchronously, in registration order, before this
    /// returns — unless the commit is made by an observer during a delivery, in which case
    /// it is delivered after the current delivery finishes.
    ///
    /// - Parameter author: A tag carried by the changes, so an observer can skip its own writes.
    /// - Returns: The changes, or `nil` when nothing changed (values set back to what they
    ///   were count as no change).
    /// - Throws: ``CommitError``: a write to a deleted object, a `.deny` delete rule, a
    ///   relationship to a deleted object or to an object of another graph, or a failed
    ///   ``GraphObject/validateForCommit()``.
    /// - Complexity: O(*k*) for *k* pending writes, plus the observers.
    @discardableResult
    public func commit(author: String? = nil) throws(CommitError) -> GraphChanges? {
        guard !_pending.isEmpty else { return nil }
        let inserted = try _validatePending()
        let changes = _collectChanges(inserted: inserted, author: author)
        _pending.withUnsafeBufferPointer { entries in
            for position in entries.indices {
                let object = entries[position].object
                object._pendingSlot = 0
                object._flags &= ~GraphObject._insertedFlag
                if entries[position].isDeleted && object._flags & GraphObject._observedFlag != 0 {
                    // A deleted object leaves the graph: its registrar goes with it.
                    _registrars[ObjectIdentifier(object)] = nil
                    object._flags &= ~GraphObject._observedFlag
                }
            }
        }
        _pending.removeAll()
        _checkInvariants()
        guard !changes.isEmpty else { return nil }
        _publish(changes)
        return changes
    }

    /// Discards every pending change: written values and relationships get back the values
    /// they had at the last commit, deleted objects come back, inserted objects leave the
    /// graph (they keep their attribute values and lose their relationships).
    ///
    /// - Complexity: O(*k*) for *k* pending writes.
    public func rollback() {
        for entry in _pending.reversed() {
            let object = entry.object
            let entity = _state(of: object)
            for (index, saved) in entry.originals.reversed() {
                _notifying(object, entity, index) { saved.restore(into: object) }
            }
            if entry.wasInserted {
                if !entry.isDeleted {
                    entity.objects[object._serial] = nil
                    entity.liveCount -= 1
                }
                for (_, accessor) in entity.relationships { accessor.setObjects(object, []) }
                if object._flags & GraphObject._observedFlag != 0 { _registrars[ObjectIdentifier(object)] = nil }
                object._attach(to: _GraphContext.detached)
                object._idBits = 0
                object._entity = nil
                object._flags = 0
            } else if entry.isDeleted {
                object._flags &= ~GraphObject._deletedFlag
                entity.objects[object._serial] = object
                entity.liveCount += 1
            }
            object._pendingSlot = 0
        }
        _pending.removeAll()
        _checkInvariants()
    }

    /// Runs `body` and commits what it did; rolls everything pending back if it throws.
    ///
    /// Changes pending before the call are part of the transaction.
    ///
    /// - Parameters:
    ///   - author: The commit's author tag.
    ///   - body: The writes.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw (after rolling back), or the ``CommitError`` of the
    ///   commit (the changes then stay pending, as with ``commit(author:)``).
    @discardableResult
    public func transaction<Result>(author: String? = nil, _ body: () throws -> Result) throws -> Result {
        let result: Result
        do {
            result = try body()
        } catch {
            rollback()
            throw error
        }
        try commit(author: author)
        return result
    }

    // MARK: Checks

    /// Throws the first reason the pending changes cannot be committed; changes nothing.
    ///
    /// - Returns: The IDs of the objects inserted and not deleted, in pending order (read
    ///   while validation visits every object anyway).
    private func _validatePending() throws(CommitError) -> [ObjectID] {
        // One scan of the entries (not the objects) says which rare checks are needed.
        var writtenAfterDelete = false
        var deletions = false
        var mayHoldInvalidTargets = false
        var insertCount = 0
        _pending.withUnsafeBufferPointer { entries in
            for position in entries.indices {
                writtenAfterDelete = writtenAfterDelete || entries[position].writtenAfterDelete
                deletions = deletions || entries[position].isDeleted
                mayHoldInvalidTargets = mayHoldInvalidTargets || entries[position].mayHoldInvalidTargets
                if entries[position].wasInserted { insertCount += 1 }
            }
        }
        if writtenAfterDelete {
            for entry in _pending where entry.writtenAfterDelete {
                throw .writeToDeletedObject(entry.object.objectID)
            }
        }
        if deletions {
            for entry in _pending where entry.isDeleted {
                let entity = _state(of: entry.object)
                for (index, accessor) in entity.relationships
                where entity.description.properties[index].relationship?.deleteRule == .deny && !accessor.isEmpty(entry.object) {
                    throw .deleteDenied(entry.object.objectID, relationship: entity.description.properties[index].name)
                }
            }
        }
        if mayHoldInvalidTargets {
            for entry in _pending
            where entry.mayHoldInvalidTargets && !entry.isDeleted && entry.object._flags & GraphObject._deletedFlag == 0 {
                let entity = _state(of: entry.object)
                for (index, accessor) in entity.relationships {
                    if accessor.kind == .toOne {
                        if let target = accessor.toOne(entry.object) { try _checkTarget(target, of: entry.object, entity, index) }
                    } else {
                        for target in accessor.objects(entry.object) { try _checkTarget(target, of: entry.object, entity, index) }
                    }
                }
            }
        }
        let mode = _context._readMode
        _context._readMode = .untracked
        defer { _context._readMode = mode }
        var inserted: [ObjectID] = []
        inserted.reserveCapacity(insertCount)
        // By position, not through a buffer pointer: `validateForCommit()` is user code.
        for position in 0..<_pending.count {
            let object = _pending[position].object
            guard !_pending[position].isDeleted && object._flags & GraphObject._deletedFlag == 0 else { continue }
            if _pending[position].wasInserted {
                inserted.append(ObjectID(_bits: object._idBits, entity: object._entity.unsafelyUnwrapped))
            } else if _pending[position].originals.isEmpty {
                continue
            }
            do {
                try object.validateForCommit()
            } catch {
                throw .validationFailed(object.objectID, error)
            }
        }
        return inserted
    }

    /// Throws when a relationship holds an object of another graph or a deleted one.
    @inline(__always)
    private func _checkTarget(_ target: GraphObject, of owner: GraphObject, _ entity: _GraphEntity, _ index: Int) throws(CommitError) {
        guard target._context === _context else {
            throw .objectFromAnotherGraph(owner.objectID, relationship: entity.description.properties[index].name)
        }
        if target._flags & GraphObject._deletedFlag != 0 {
            throw .relationshipToDeletedObject(owner.objectID, relationship: entity.description.properties[index].name, target: target.objectID)
        }
    }

    /// The changes the pending entries amount to.
    ///
    /// - Parameters:
    ///   - inserted: The IDs of the objects inserted and not deleted (distinct: each object
    ///     has one pending entry).
    ///   - author: The commit's author tag.
    private func _collectChanges(inserted: [ObjectID], author: String?) -> GraphChanges {
        var changes = GraphChanges(insertedDistinct: inserted, author: author)
        guard inserted.count < _pending.count else { return changes }
        for position in _pending.indices where !_pending[position].wasInserted {
            let entry = _pending[position]
            let object = entry.object
            if entry.isDeleted {
                changes.deleted.insert(object.objectID)
                continue
            }
            let entity = _state(of: object)
            var changed = ChangedProperties(entity: entity.description)
            for (index, saved) in entry.originals {
                let accessor = entity.description.accessors[index]
                if accessor.isUnchanged(since: saved, in: object) { continue }
                changed.insert(PropertyIndex(index))
                guard accessor.kind == .orderedToMany else { continue }
                let before = accessor.objects(saved: saved).map(ObjectIdentifier.init)
                let afterObjects = accessor.objects(object)
                let after = afterObjects.map(ObjectIdentifier.init)
                for move in OrderedMove.movedPositions(from: before, to: after) {
                    changes.moves.append(
                        OrderedMove(
                            owner: object.objectID,
                            relationship: entity.description.properties[index].name,
                            object: afterObjects[move.to].objectID,
                            from: move.from,
                            to: move.to
                        )
                    )
                }
            }
            if !changed.isEmpty { changes.updated[object.objectID] = changed }
        }
        return changes
    }
}
