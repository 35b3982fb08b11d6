/// Commits made elsewhere — by another graph on the same store, usually in another process —
/// that a store applies to this graph: through the restore API, beside whatever this graph
/// has pending, and published to the observers as ordinary ``GraphChanges`` with
/// ``GraphChanges/isExternal`` set. They are never recorded for undo; a step they touch can
/// no longer be undone (``UndoError``), as for any commit not recorded.
///
/// A store calls ``beginExternalCommit()``, the restore functions
/// (``restoreObject(of:serial:)``, ``restoreAttribute(_:_:_:)``, ``restoreRelationship(_:_:_:)``,
/// ``restoreMembership(_:_:added:removed:)``, ``restoreDeletion(_:)``,
/// ``restoreSerialCount(_:of:)``), then ``finishExternalCommit()``. Before it applies anything
/// it asks ``externalConflict(on:property:added:removed:)`` about each object and property the
/// commit touches, so that a commit is applied whole or not at all.

/// What the graph collects while a commit made elsewhere is applied.
internal final class _ExternalCommit {
    var inserted: [ObjectID] = []
    var deleted: Set<ObjectID> = []
    var updated: [ObjectID: ChangedProperties] = [:]
    var moves: [OrderedMove] = []
    /// What a step recorded for undo conflicts with (only kept with an undo manager).
    var undoKeys: Set<_UndoKey> = []
    let keepsUndoKeys: Bool

    init(keepsUndoKeys: Bool) {
        self.keepsUndoKeys = keepsUndoKeys
    }

    /// The ID bits of the objects the commit inserted: their values are not updates.
    var insertedBits: Set<UInt64> = []

    func noteInsert(_ object: GraphObject) {
        inserted.append(object.objectID)
        insertedBits.insert(object._idBits)
    }

    func isInserted(_ object: GraphObject) -> Bool {
        !insertedBits.isEmpty && insertedBits.contains(object._idBits)
    }

    func noteUpdate(_ object: GraphObject, _ entity: EntityDescription, _ index: Int) {
        guard !isInserted(object) else { return }
        let id = object.objectID
        updated[id, default: ChangedProperties(entity: entity)].insert(PropertyIndex(index))
        guard keepsUndoKeys else { return }
        undoKeys.insert(_UndoKey(objectID: id, property: -2))
        undoKeys.insert(_UndoKey(objectID: id, property: index))
    }
}

/// Why a commit made elsewhere cannot be applied beside this graph's pending changes.
package enum ExternalConflict: Equatable, Sendable {
    /// Both changed the property (for a to-many relationship: both added or removed the
    /// same member, or this graph keeps a copy of the relationship rather than its changes).
    case bothChanged
    /// The other commit deletes an object this graph has pending writes to.
    case deletedElsewhere
    /// The other commit changes an object this graph deletes.
    case deletedHere
}

extension ObjectGraph {
    /// Starts applying a commit made elsewhere. Until ``finishExternalCommit()``, the restore
    /// functions may run while changes are pending, and what they do is collected as the
    /// commit's changes.
    ///
    /// - Complexity: O(1).
    package func beginExternalCommit() {
        require(_external == nil, "internal inconsistency: an external commit is already being applied")
        _flushDeferredInverses()
        _external = _ExternalCommit(keepsUndoKeys: _undoManager != nil)
    }

    /// Ends the commit begun with ``beginExternalCommit()`` and publishes it: at once
    /// when nothing is pending, or — inside a commit of this graph, from its
    /// ``CommitHook/graphWillBeginCommit(_:)`` — just before that commit's own changes.
    ///
    /// - Parameter author: The author the other graph gave its commit.
    /// - Returns: The changes (``GraphChanges/isExternal`` set), or `nil` when the commit
    ///   changed nothing here.
    /// - Complexity: O(*c*) for *c* changed objects, plus the observers.
    @discardableResult
    package func finishExternalCommit(author: String?) -> GraphChanges? {
        guard let external = _external else { requirementFailure("internal inconsistency: no external commit is being applied") }
        _external = nil
        var changes = GraphChanges(
            inserted: Set(external.inserted), deleted: external.deleted, updated: external.updated, moves: external.moves,
            author: author)
        changes.isExternal = true
        guard !changes.isEmpty else { return nil }
        var keys = external.undoKeys
        for id in external.deleted { keys.insert(_UndoKey(objectID: id, property: -1)) }
        for id in external.inserted { keys.insert(_UndoKey(objectID: id, property: -1)) }
        _undoManager?.noteUnrecorded(keys)
        _checkInvariants()
        if _isCommitting {
            _externalAwaitingPublication.append(changes)
        } else {
            require(!hasChanges, "internal inconsistency: an external commit published over pending changes")
            _publish(changes)
        }
        return changes
    }

    /// Publishes the external commits applied at the start of a commit of this graph that
    /// failed: the observers hear of them while the failed commit's changes stay pending, and
    /// what an observer writes joins those changes (no follow-up commit is made for it, and an
    /// observer's own `commit()` throws ``CommitError/commitInProgress``).
    internal func _publishExternalAfterFailedCommit() {
        guard !_externalAwaitingPublication.isEmpty else { return }
        let awaiting = _externalAwaitingPublication
        _externalAwaitingPublication.removeAll()
        _followUpsSuspended += 1
        defer { _followUpsSuspended -= 1 }
        _publish(contentsOf: awaiting)
    }

    /// Whether a commit made elsewhere that writes `property` of `object` (or deletes it,
    /// for `nil`) conflicts with this graph's pending changes.
    ///
    /// For a to-many relationship written as members `added` and `removed`, the other
    /// commit merges with this graph's pending changes to the same relationship unless
    /// they share a member.
    ///
    /// - Complexity: O(*p* + *m*) for *p* pending properties of the object and *m* members.
    package func externalConflict(
        on object: GraphObject, property: PropertyIndex?, added: [GraphObject] = [], removed: [GraphObject] = [],
        replacement: [GraphObject]? = nil
    ) -> ExternalConflict? {
        guard object._pendingSlot > 0 else { return nil }
        let entry = _pending[Int(object._pendingSlot) - 1]
        if entry.isDeleted { return .deletedHere }
        guard let property else {
            // A deletion elsewhere conflicts with any write here.
            return entry.originals.isEmpty ? nil : .deletedElsewhere
        }
        guard let saved = entry.original(property.rawValue) else { return nil }
        guard let local = saved.membershipChange else {
            // A value both wrote (or a relationship this graph keeps whole), unless this
            // graph set it back to what it was.
            let accessor = _state(of: object).description.accessors[property.rawValue]
            return accessor.isUnchanged(since: saved, in: object) ? nil : .bothChanged
        }
        var theirs = added + removed
        if let replacement {
            let delta = _externalDelta(of: object, property.rawValue, local, replacement)
            theirs = delta.added + delta.removed
        }
        let mine = Set((local.added + local.removed).map(ObjectIdentifier.init))
        for member in theirs where mine.contains(ObjectIdentifier(member)) { return .bothChanged }
        return nil
    }

    /// The members a commit made elsewhere that sets a to-many relationship to `replacement`
    /// adds to and removes from its committed value (the current one without this graph's
    /// pending changes `local`).
    internal func _externalDelta(
        of object: GraphObject, _ index: Int, _ local: (added: [GraphObject], removed: [GraphObject]), _ replacement: [GraphObject]
    ) -> (added: [GraphObject], removed: [GraphObject]) {
        let accessor = _state(of: object).description.accessors[index]
        let localAdded = Set(local.added.map(ObjectIdentifier.init))
        var committed = accessor.objects(object).filter { !localAdded.contains(ObjectIdentifier($0)) } + local.removed
        let committedIDs = Set(committed.map(ObjectIdentifier.init))
        let replacementIDs = Set(replacement.map(ObjectIdentifier.init))
        committed.removeAll { replacementIDs.contains(ObjectIdentifier($0)) }
        return (replacement.filter { !committedIDs.contains(ObjectIdentifier($0)) }, committed)
    }

    /// Whether a commit made elsewhere is being applied (between ``beginExternalCommit()``
    /// and ``finishExternalCommit(author:)``).
    package var isApplyingExternalCommit: Bool { _external != nil }

    /// Runs `write`, which stores property `index` of `object` without recording it (as the
    /// restore functions do), as a write of the commit made elsewhere being applied: its
    /// observers hear of it, and it is published as a change.
    ///
    /// - Complexity: O(1) beyond `write`.
    package func externalWrite<Result>(_ object: GraphObject, _ index: PropertyIndex, _ write: () throws -> Result) rethrows -> Result {
        guard let external = _external else { return try write() }
        let entity = _state(of: object)
        let registrar = object._flags & GraphObject._observedFlag != 0 ? _registrars[ObjectIdentifier(object)] : nil
        let keyPath = registrar.map { _ in entity.description.observationKeyPaths[index.rawValue] }
        if let registrar, let keyPath { registrar.willSet(object, keyPath: keyPath) }
        let result = try write()
        if let registrar, let keyPath { registrar.didSet(object, keyPath: keyPath) }
        _rebaseOriginal(of: object, index.rawValue)
        external.noteUpdate(object, entity.description, index.rawValue)
        return result
    }

    /// The object of a class with a serial that the pending transaction deletes, if any.
    ///
    /// - Complexity: O(1).
    package func pendingDeletion(of type: GraphObject.Type, serial: Int) -> GraphObject? {
        guard !_pendingDeletions.isEmpty else { return nil }
        return _pendingDeletions[_entity(for: type).idBase | UInt64(serial)]
    }

    /// After a commit made elsewhere wrote property `index` of `object`: when this graph
    /// keeps a copy of the property's value from before its own writes (the conflict check
    /// found its value unchanged since), the copy becomes one of the new committed value, so
    /// that a rollback, or this graph's next commit, keeps what the other commit wrote. A
    /// to-many relationship's members gained and lost need nothing: they are relative to the
    /// committed value whatever it is.
    internal func _rebaseOriginal(of object: GraphObject, _ index: Int) {
        guard object._pendingSlot > 0 else { return }
        let position = Int(object._pendingSlot) - 1
        guard let saved = _pending[position].original(index), saved.membershipChange == nil else { return }
        let accessor = _state(of: object).description.accessors[index]
        _pending[position].originals.replace(index, with: accessor.save(object))
    }

    /// Makes room for an object committed elsewhere with `serial`: when an object inserted
    /// in the pending transaction holds that serial, its run of inserts and every later run of
    /// the entity move to serials past the table's end, in order, and their objects get new
    /// ``ObjectID``s (an inserted object's ID is final once its commit returns).
    ///
    /// Only pending inserts move. Objects committed elsewhere and restored between or after
    /// the runs keep their serials: they are named by them in the store.
    ///
    /// - Complexity: O(*m* + *d*) for *m* objects moved and *d* inserted and deleted objects.
    internal func _movePendingInserts(of entity: _GraphEntity, from serial: Int) {
        guard serial < entity.objects.count else { return }
        // The entity's runs are in increasing order of serial (an invariant): the first that
        // ends past `serial` holds it, or `serial` lies between runs and nothing moves.
        let positions = _insertRuns.indices.filter { _insertRuns[$0].entity === entity && _insertRuns[$0].end > serial }
        guard let first = positions.first, _insertRuns[first].start <= serial else { return }
        var moved: [(old: Range<Int>, newStart: Int)] = []
        for position in positions {
            let run = _insertRuns[position]
            let newStart = entity.objects.count
            for old in run.start..<run.end {
                if let object = entity.objects[old] {
                    entity.objects.append(object)
                    object._idBits = entity.idBase | UInt64(newStart + old - run.start)
                    entity.objects[old] = nil
                } else {
                    entity.objects.appendEmpty()
                }
            }
            moved.append((run.start..<run.end, newStart))
            _insertRuns[position] = _InsertRun(entity: entity, start: newStart, end: newStart + run.end - run.start)
        }
        for object in _deletedInserts where object._entity === entity.description {
            let old = object._serial
            if let run = moved.first(where: { $0.old.contains(old) }) {
                object._idBits = entity.idBase | UInt64(run.newStart + old - run.old.lowerBound)
            }
        }
    }
}
