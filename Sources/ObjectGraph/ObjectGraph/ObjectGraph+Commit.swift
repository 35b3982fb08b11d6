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
    /// - Throws: ``CommitError``: a `.deny` delete rule, a relationship to a deleted object
    ///   or to an object of another graph, a failed ``GraphObject/validateForCommit()``, a
    ///   commit from inside that validation (``CommitError/commitInProgress``), or a durable
    ///   store that could not write the commit (``CommitError/persistenceFailed(_:)``; for a
    ///   store shared by processes, also a conflict with another process's commit). When a
    ///   shared store's commit fails after applying other processes' commits, the observers
    ///   hear of those while this commit's changes stay pending; a `commit()` from such an
    ///   observer throws ``CommitError/commitInProgress`` (it would commit those changes).
    /// - Complexity: O(*k*) for *k* pending writes, plus each inserted or updated object's
    ///   ``GraphObject/validateForCommit()``, the journal record a durable store writes
    ///   (proportional to the changed values, plus a sync as its durability says) when the
    ///   graph has a store, and the observers. With an ``undoManager``, recording the step
    ///   is O(*k*) more; a commit it does not record is checked against its *s* steps,
    ///   O(*s* · *k*) at most.
    @discardableResult
    public func commit(author: String? = nil) throws(CommitError) -> GraphChanges? {
        // From `validateForCommit()`: the outer commit is half-way through its checks.
        guard !_isCommitting, _followUpsSuspended == 0 else { throw .commitInProgress }
        guard hasChanges else { return nil }
        // Deferred inverse members stay deferred (see `ObjectGraph+DeferredInverses.swift`):
        // nothing below reads the relationships of an inserted target but the rare target
        // checks, which flush.
        _isCommitting = true
        _rollbackDuringCommit = false
        let changes: GraphChanges
        do {
            let hook = _commitHook
            defer {
                _isCommitting = false
                hook?.graphDidEndCommit(self)
            }
            do {
                // A store shared with other processes applies their commits here; they are
                // published before this one, or after its failure.
                try _beginCommitHook()
                try _validatePending()
                changes = _collectChanges(inserted: _insertedIDs(), author: author)
            } catch {
                _isCommitting = false
                _publishExternalAfterFailedCommit()
                throw error
            }
            do {
                try _runCommitHook(changes)
            } catch {
                // As a failed validation leaves them: the inserted objects are pending again.
                _forEachInserted { object in object._flags |= GraphObject._insertedFlag }
                _isCommitting = false
                _publishExternalAfterFailedCommit()
                throw error
            }
        }
        _recordForUndo(changes)
        for position in _pending.indices {
            let object = _pending[position].object
            object._pendingSlot = 0
            if _pending[position].isDeleted && object._flags & GraphObject._observedFlag != 0 {
                // A deleted object leaves the graph: its registrar goes with it.
                _registrars[ObjectIdentifier(object)] = nil
                object._flags &= ~GraphObject._observedFlag
            }
        }
        // The validation pass cleared the inserted objects' `_insertedFlag` as it went.
        if _insertsMayHoldInvalidTargets {
            _forEachInserted { object in object._flags &= ~GraphObject._mayHoldInvalidTargetsFlag }
        }
        let transient = ~(GraphObject._insertedFlag | GraphObject._writtenAfterDeleteFlag | GraphObject._mayHoldInvalidTargetsFlag)
        for object in _deletedInserts {
            object._flags &= transient
            if object._flags & GraphObject._observedFlag != 0 {
                _registrars[ObjectIdentifier(object)] = nil
                object._flags &= ~GraphObject._observedFlag
            }
        }
        _noteCommittedDeferredLists()
        if !_pendingDeletions.isEmpty {
            // Kept registered until every observer has heard of the commit (see `_publish`).
            if _undeliveredDeletions.isEmpty {
                swap(&_undeliveredDeletions, &_pendingDeletions)
            } else {
                _undeliveredDeletions.merge(_pendingDeletions) { old, _ in old }
                _pendingDeletions.removeAll()
            }
        }
        _pending.removeAll()
        _insertRuns.removeAll()
        _deletedInserts.removeAll()
        _insertsMayHoldInvalidTargets = false
        _checkInvariants()
        var batch = _externalAwaitingPublication
        _externalAwaitingPublication.removeAll()
        guard !changes.isEmpty else {
            if batch.isEmpty && !_isDelivering { _undeliveredDeletions.removeAll() }
            _publish(contentsOf: batch)
            return nil
        }
        batch.append(changes)
        _publish(contentsOf: batch)
        return changes
    }

    /// Discards every pending change: written values and relationships get back the values
    /// they had at the last commit, deleted objects come back, inserted objects leave the
    /// graph (they keep their attribute values and lose their relationships).
    ///
    /// Called from ``GraphObject/validateForCommit()``, it discards nothing and the commit
    /// in progress throws ``CommitError/commitInProgress``.
    ///
    /// - Complexity: O(*k*) for *k* pending writes and inserted objects.
    public func rollback() {
        guard !_isCommitting else {
            // From `validateForCommit()`: changing the pending state under the commit's
            // feet would corrupt it. The commit fails instead, keeping everything pending.
            _rollbackDuringCommit = true
            return
        }
        _flushDeferredInverses()
        for entry in _pending.reversed() {
            let object = entry.object
            let entity = _state(of: object)
            for (index, saved) in entry.originals.reversed() {
                _notifying(object, entity, index) { saved.restore(into: object) }
            }
            if entry.isDeleted {
                object._flags &= ~GraphObject._deletedFlag
                entity.objects[object._serial] = object
                entity.liveCount += 1
            }
            object._pendingSlot = 0
        }
        for object in _deletedInserts { _detachInserted(object, _state(of: object)) }
        for run in _insertRuns.reversed() {
            let entity = run.entity
            for serial in (run.start..<run.end).reversed() {
                guard let object = entity.objects[serial] else { continue }
                entity.objects[serial] = nil
                entity.liveCount -= 1
                _detachInserted(object, entity)
            }
        }
        _pending.removeAll()
        _pendingDeletions.removeAll()
        _insertRuns.removeAll()
        _deletedInserts.removeAll()
        _insertsMayHoldInvalidTargets = false
        _checkInvariants()
    }

    /// Takes an object inserted in the pending transaction out of the graph (its entity
    /// table no longer holds it): it keeps its attributes and loses its relationships.
    private func _detachInserted(_ object: GraphObject, _ entity: _GraphEntity) {
        for (_, accessor) in entity.relationships { accessor.setObjects(object, []) }
        if object._flags & GraphObject._observedFlag != 0 { _registrars[ObjectIdentifier(object)] = nil }
        object._attach(to: _GraphContext.detached)
        object._idBits = 0
        object._entity = nil
        object._flags = 0
    }

    /// Calls `body` with each object inserted in the pending transaction and not deleted, in
    /// insertion order.
    @inline(__always)
    private func _forEachInserted<Failure: Error>(_ body: (GraphObject) throws(Failure) -> Void) throws(Failure) {
        // By position: `body` may run user code (validation), which only reads. The tables
        // hold the objects, so they are lent to `body` without counting references.
        var position = 0
        while position < _insertRuns.count {
            let run = _insertRuns[position]
            position += 1
            for serial in run.start..<run.end {
                guard let object = run.entity.objects.unretained(at: serial) else { continue }
                var failure: Failure?
                object.borrow { object in
                    do throws(Failure) { try body(object) } catch { failure = error }
                }
                if let failure { throw failure }
            }
        }
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
    /// - Complexity: The cost of `body`, then that of ``commit(author:)`` (O(*k*) for *k*
    ///   pending writes, plus the observers), or of ``rollback()`` when `body` throws.
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

    /// Throws the first reason the pending changes cannot be committed, changing nothing;
    /// otherwise the objects inserted in the transaction leave it validated and committed
    /// (their `_insertedFlag` cleared: one pass over them, not two).
    private func _validatePending() throws(CommitError) {
        // One scan of the entries (not the objects) says which rare checks are needed.
        var writtenAfterDelete = false
        var deletions = !_deletedInserts.isEmpty
        var mayHoldInvalidTargets = false
        for position in _pending.indices {
            writtenAfterDelete = writtenAfterDelete || _pending[position].writtenAfterDelete
            deletions = deletions || _pending[position].isDeleted
            mayHoldInvalidTargets = mayHoldInvalidTargets || _pending[position].mayHoldInvalidTargets
        }
        if writtenAfterDelete {
            for entry in _pending where entry.writtenAfterDelete {
                throw .writeToDeletedObject(entry.object.objectID)
            }
        }
        for object in _deletedInserts where object._flags & GraphObject._writtenAfterDeleteFlag != 0 {
            throw .writeToDeletedObject(object.objectID)
        }
        if deletions {
            for object in _pending.lazy.filter(\.isDeleted).map(\.object) + _deletedInserts {
                let entity = _state(of: object)
                for (index, accessor) in entity.relationships
                where entity.description.properties[index].relationship?.deleteRule == .deny && !accessor.isEmpty(object) {
                    throw .deleteDenied(object.objectID, relationship: entity.description.properties[index].name)
                }
            }
        }
        if mayHoldInvalidTargets || _insertsMayHoldInvalidTargets { _flushDeferredInverses() }
        if mayHoldInvalidTargets {
            for entry in _pending
            where entry.mayHoldInvalidTargets && !entry.isDeleted && entry.object._flags & GraphObject._deletedFlag == 0 {
                try _checkTargets(of: entry.object)
            }
        }
        if _insertsMayHoldInvalidTargets {
            try _forEachInserted { (object) throws(CommitError) in
                if object._flags & GraphObject._mayHoldInvalidTargetsFlag != 0 { try _checkTargets(of: object) }
            }
        }
        let mode = _context._readMode
        _context._readMode = .untracked
        defer { _context._readMode = mode }
        // By position, not through a buffer pointer: `validateForCommit()` is user code.
        for position in 0..<_pending.count {
            let object = _pending[position].object
            guard !_pending[position].isDeleted && !_pending[position].originals.isEmpty else { continue }
            do {
                try object.validateForCommit()
            } catch {
                throw .validationFailed(object.objectID, error)
            }
            if _rollbackDuringCommit { throw .commitInProgress }
        }
        // Each inserted object is validated, then marked committed. Meanwhile `isInserted`
        // still answers `true` for the objects already passed (see `_isValidatedInsert(_:)`),
        // and a write that would make a pending entry for one traps (validation only reads).
        _validatingInserts = true
        defer { _validatingInserts = false }
        do {
            try _forEachInserted { (object) throws(CommitError) in
                do {
                    try object.validateForCommit()
                } catch {
                    throw .validationFailed(object.objectID, error)
                }
                if _rollbackDuringCommit { throw .commitInProgress }
                object._flags &= ~GraphObject._insertedFlag
            }
        } catch {
            // The objects passed are a prefix of the runs; every object of the runs had the
            // flag, so setting it on all of them restores them exactly.
            _forEachInserted { object in object._flags |= GraphObject._insertedFlag }
            throw error
        }
    }

    /// Whether `object` is an inserted object the commit in progress has already validated
    /// (its `_insertedFlag` is cleared; ``GraphObject/isInserted`` still answers `true`).
    ///
    /// - Complexity: O(*r*) for *r* insert runs; O(1) outside a commit's validation.
    internal func _isValidatedInsert(_ object: GraphObject) -> Bool {
        guard _validatingInserts, object._context === _context, object._flags & GraphObject._deletedFlag == 0 else { return false }
        let serial = object._serial
        return _insertRuns.contains { $0.entity.description === object._entity && $0.start <= serial && serial < $0.end }
    }

    /// The objects inserted and not deleted in the pending transaction, as the runs the
    /// graph keeps (no ID is written until an observer asks).
    ///
    /// - Complexity: O(*r* + *d*) for *r* runs and *d* objects inserted and deleted.
    private func _insertedIDs() -> GraphChanges.InsertedIDs {
        let runs = _insertRuns.map { run in
            GraphChanges.InsertedIDs.Run(entity: run.entity.description, base: run.entity.idBase, start: run.start, end: run.end)
        }
        return GraphChanges.InsertedIDs(runs: runs, excluding: Set(_deletedInserts.lazy.map(\._idBits)))
    }

    /// Throws when a relationship of an object holds an object of another graph or a deleted one.
    private func _checkTargets(of object: GraphObject) throws(CommitError) {
        let entity = _state(of: object)
        for (index, accessor) in entity.relationships {
            if accessor.kind == .toOne {
                if let target = accessor.toOne(object) { try _checkTarget(target, of: object, entity, index) }
            } else {
                for target in accessor.objects(object) { try _checkTarget(target, of: object, entity, index) }
            }
        }
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
    ///   - inserted: The objects inserted and not deleted.
    ///   - author: The commit's author tag.
    private func _collectChanges(inserted: GraphChanges.InsertedIDs, author: String?) -> GraphChanges {
        var changes = GraphChanges(inserted: inserted, author: author)
        // Sized once: grown entry by entry, the tables are rebuilt at each doubling.
        var deletions = 0
        for entry in _pending where entry.isDeleted { deletions += 1 }
        changes.deleted.reserveCapacity(deletions)
        changes.updated.reserveCapacity(_pending.count - deletions)
        for position in _pending.indices {
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
