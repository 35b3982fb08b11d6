/// A recorded property (or, for `property` −1, the object's existence; −2, any property of
/// an object the step inserted): what a step recorded and what a later commit touched. A
/// to-many relationship is recorded member by member, since reversing it touches only the
/// members it gained or lost: another commit may add other members without a conflict.
internal struct _UndoKey: Hashable {
    let objectID: ObjectID
    let property: Int
    var member: ObjectID? = nil
}

/// What reversing one commit needs.
internal struct _UndoRecord {
    /// The objects the commit inserted: deleted again by the reverse.
    var inserted: [ObjectID] = []
    /// The objects the commit deleted, with the values their properties had before it.
    var deleted: [(object: GraphObject, originals: [(index: Int, saved: any _SavedValue)])] = []
    /// The objects it updated, with the old values of the properties that changed.
    var updated: [(object: GraphObject, originals: [(index: Int, saved: any _SavedValue)])] = []
}

/// One undo (or redo) step: the records of one commit, or of a group of commits.
internal final class _UndoStep {
    var actionName: String?
    var records: [_UndoRecord]
    var keys: Set<_UndoKey>
    /// Objects that commits which were not recorded touched since: the step cannot replay.
    var conflicts: Set<ObjectID> = []

    init(actionName: String?, record: _UndoRecord, keys: Set<_UndoKey>) {
        self.actionName = actionName
        records = [record]
        self.keys = keys
    }

    /// A step that changes nothing: the reverse of a step whose replay changed nothing.
    init(actionName: String?) {
        self.actionName = actionName
        records = []
        keys = []
    }

    /// Adds a later commit's records to this group.
    func append(_ other: _UndoStep) {
        records += other.records
        keys.formUnion(other.keys)
        conflicts.formUnion(other.conflicts)
        if other.actionName != nil { actionName = other.actionName }
    }

    /// Roughly what the step holds, in bytes.
    var approximateBytes: Int {
        records.reduce(0) { total, record in
            total + record.inserted.count * MemoryLayout<ObjectID>.stride
                + (record.deleted + record.updated).reduce(0) { $0 + 48 + $1.originals.count * 64 }
        } + keys.count * (MemoryLayout<_UndoKey>.stride + 8)
    }
}

extension ObjectGraph {
    /// Records every commit for undo, or `nil` (the default) to record nothing.
    ///
    /// - Precondition: A manager serves one graph.
    public var undoManager: GraphUndoManager? {
        get { _undoManager }
        set {
            if let newValue {
                require(newValue.graph == nil || newValue.graph === self, "a GraphUndoManager serves one graph")
                newValue.graph = self
            }
            _undoManager = newValue
        }
    }

    /// Commits every pending change, naming the undo step it makes.
    ///
    /// - Parameters:
    ///   - author: The commit's author tag.
    ///   - actionName: The undo step's name (``GraphUndoManager/undoActionName``), such as
    ///     "Delete Milk".
    /// - Returns: The changes, as ``commit(author:)``.
    /// - Throws: ``CommitError``, as ``commit(author:)``.
    /// - Complexity: As ``commit(author:)``: O(*k*) for *k* pending writes, plus validation,
    ///   the durable store's write and the observers.
    @discardableResult
    public func commit(author: String? = nil, actionName: String) throws(CommitError) -> GraphChanges? {
        _pendingActionName = actionName
        defer { _pendingActionName = nil }
        return try commit(author: author)
    }

    /// Hands the commit being made to the undo manager: recorded as a step, or noted as a
    /// change that steps touching the same properties conflict with.
    internal func _recordForUndo(_ changes: GraphChanges) {
        guard let manager = _undoManager, !changes.isEmpty else { return }
        let recorded = manager.replaying != nil
            || (manager.isUndoRegistrationEnabled && !_applyingBatch && !(changes.author.map(manager.nonUndoableAuthors.contains) ?? false))
        guard recorded else {
            var keys = Set<_UndoKey>()
            for id in changes.deleted { keys.insert(_UndoKey(objectID: id, property: -1)) }
            for entry in _pending where !entry.isDeleted {
                let id = entry.object.objectID
                guard let changed = changes.updated[id] else { continue }
                keys.insert(_UndoKey(objectID: id, property: -2))
                for (index, saved) in entry.originals where changed.contains(PropertyIndex(index)) {
                    _insertKeys(id, index, saved, into: &keys)
                }
            }
            manager.noteUnrecorded(keys)
            return
        }
        var record = _UndoRecord()
        var keys = Set<_UndoKey>()
        record.inserted = changes.insertedIDs
        for id in record.inserted {
            keys.insert(_UndoKey(objectID: id, property: -1))
            keys.insert(_UndoKey(objectID: id, property: -2))
        }
        for entry in _pending {
            let id = entry.object.objectID
            if entry.isDeleted {
                record.deleted.append((entry.object, entry.originals.array))
                keys.insert(_UndoKey(objectID: id, property: -1))
            } else if let changed = changes.updated[id] {
                let originals = entry.originals.filter { changed.contains(PropertyIndex($0.index)) }
                record.updated.append((entry.object, originals))
                keys.insert(_UndoKey(objectID: id, property: -1))
                for (index, saved) in originals { _insertKeys(id, index, saved, into: &keys) }
            }
        }
        manager.record(_UndoStep(actionName: _pendingActionName, record: record, keys: keys))
    }

    /// The keys of one changed property: the property, or for a to-many relationship each
    /// member it gained or lost.
    private func _insertKeys(_ id: ObjectID, _ index: Int, _ saved: any _SavedValue, into keys: inout Set<_UndoKey>) {
        guard let delta = saved as? any _MembershipChange else {
            keys.insert(_UndoKey(objectID: id, property: index))
            return
        }
        for member in delta.addedMembers + delta.removedMembers {
            keys.insert(_UndoKey(objectID: id, property: index, member: member.objectID))
        }
    }

    /// Applies the reverse of a step and commits it; on failure the graph is as it was.
    internal func _reverse(_ step: _UndoStep) throws(CommitError) {
        var resurrected: [(object: GraphObject, bits: UInt64)] = []
        for record in step.records.reversed() {
            // The objects the commit inserted leave at the end; members they are of need
            // no restoring for them.
            let inserted = record.inserted.compactMap { object(with: $0) }
            let leaving = Set(inserted.lazy.map(ObjectIdentifier.init))
            // The deleted objects come back first, with the same IDs, so the relationships
            // restored next can name them.
            for (object, originals) in record.deleted {
                resurrected.append((object, object._idBits))
                _resurrect(object)
                let entity = _state(of: object)
                for (index, saved) in originals where entity.description.accessors[index].kind == nil {
                    saved.restore(into: object)
                }
            }
            // Then the old values, inverses kept in step; ordered relationships last, so
            // their members end at their old positions. The attributes of the objects this
            // record deleted are back already; those of an object a later commit of a group
            // deleted (back, as inserted, since an earlier record) are set like any other, so
            // a group gives back the values from before its first commit.
            var ordered: [(GraphObject, _GraphEntity, Int, [GraphObject])] = []
            let changed = record.deleted.map { ($0.object, $0.originals, true) } + record.updated.map { ($0.object, $0.originals, false) }
            for (object, originals, deletedHere) in changed {
                let entity = _state(of: object)
                for (index, saved) in originals.reversed() {
                    let accessor = entity.description.accessors[index]
                    switch accessor.kind {
                    case nil:
                        if !deletedHere {
                            _setAttribute(object, index: index, accessor.savedAttribute(saved), direct: true)
                        }
                    case .toOne:
                        _assignToOne(object, entity, index, accessor.objects(saved: saved).first, direct: true)
                    case .orderedToMany:
                        ordered.append((object, entity, index, accessor.objects(saved: saved)))
                    case .toMany:
                        guard let delta = saved as? any _MembershipChange else { continue }
                        let added = delta.addedMembers
                        let removed = delta.removedMembers
                        // Usually the other sides' restores have put the members back already
                        // (and inserted members leave with their objects): O(change), not
                        // O(members).
                        let addedStay = added.contains { accessor.contains(object, $0) && !leaving.contains(ObjectIdentifier($0)) }
                        if !addedStay && removed.allSatisfy({ accessor.contains(object, $0) }) {
                            continue
                        }
                        let drop = Set(added.map(ObjectIdentifier.init))
                        var members = accessor.objects(object).filter { !drop.contains(ObjectIdentifier($0)) }
                        for member in removed where !accessor.contains(object, member) { members.append(member) }
                        _assign(object, entity, index, members, direct: true)
                    }
                }
            }
            for (object, entity, index, members) in ordered { _assign(object, entity, index, members, direct: true) }
            // The inserted objects go, after leaving every relationship (so no delete rule
            // reaches an object that was there before the commit).
            for object in inserted.reversed() where !object.isDeleted {
                let entity = _state(of: object)
                for (index, accessor) in entity.relationships where !accessor.isEmpty(object) {
                    _assign(object, entity, index, [], direct: true)
                }
                delete(object)
            }
        }
        do {
            let author = switch _undoManager?.replaying {
            case .redo: GraphUndoManager.redoAuthor
            default: GraphUndoManager.undoAuthor
            }
            try commit(author: author)
        } catch {
            rollback()
            for (object, bits) in resurrected { _rebury(object, bits: bits) }
            throw error
        }
    }

    /// Brings a deleted object back at its serial, as an object inserted in the pending
    /// transaction.
    private func _resurrect(_ object: GraphObject) {
        let entity = _state(of: object)
        let serial = object._serial
        require(entity.objects[serial] == nil, "internal inconsistency: undoing the deletion of \(object.objectID), which is in the graph")
        _flushDeferredInverses()
        object._flags = GraphObject._insertedFlag
        entity.objects[serial] = object
        entity.liveCount += 1
        _insertRuns.append(_InsertRun(entity: entity, start: serial, end: serial + 1))
    }

    /// Puts an object back in its deleted state after a failed undo rolled its resurrection
    /// back (which took it out of the graph), so the step can be tried again.
    private func _rebury(_ object: GraphObject, bits: UInt64) {
        guard object._idBits == 0 else { return }
        object._idBits = bits
        object._entity = _entities[Int(truncatingIfNeeded: (bits >> ObjectID.serialBits) & (1 << ObjectID.entityBits - 1))]?.description
        object._attachDetached(to: _context)
        object._flags = GraphObject._deletedFlag
    }
}
