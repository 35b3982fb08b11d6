import ObjectGraph

extension OrderedResultsEngine {
    /// Receives one commit of the graph.
    func relationshipDidCommit(_ changes: GraphChanges) {
        guard hasFetched else { return }
        apply(changes)
    }

    /// Brings the rows up to date with one commit and delivers the changes.
    ///
    /// A user-driven edit whose commit this is (``userEdit``) is applied to the rows first
    /// and its changes are not delivered: the view shows them already. What is delivered is
    /// the rest of the commit, relative to the rows with that edit.
    ///
    /// - Complexity: O(k log n) for k members that arrived, left, moved or were re-evaluated,
    ///   plus the relabelled neighbourhoods; O(n log n) when the relationship has no usable inverse
    ///   and its membership changed.
    package func apply(_ changes: GraphChanges) {
        // A row the user dropped sorts by its neighbour's label for now: it needs its own.
        var dropped: ObjectID?
        beginTotalsCommit()
        // The view moved a row already: the totals are recomputed from the rows then.
        let totalsRowByRow = appliesCommitsToTotals && userEdit == nil
        if let edit = userEdit {
            userEdit = nil
            applyDisplayed(edit)
            if case .move(let id, _) = edit { dropped = id }
        }
        if changes.deleted.contains(ownerID) || owner.isDeleted {
            removeEveryMember(changes)
            return
        }
        let (membership, list) = membershipChange(in: changes)
        var updates: [ResultsIndex<ObjectID>.Change] = []
        for id in changes.deleted { dependencies.remove(id) }
        for id in membership.removed {
            labels[id] = nil
            dependencies.remove(id)
            if index.contains(id) { updates.append(.init(id: id, keys: nil, reportsUpdate: false)) }
        }
        let newLabels = membership.unstable.isEmpty ? [:] : relabel(membership.unstable, in: list)
        for (id, label) in newLabels { labels[id] = label }

        // Members to re-evaluate, with whether their own write must refresh their row.
        var pending: [ObjectID: Bool] = [:]
        for id in membership.added { pending[id] = false }
        if let dropped, labels[dropped] != nil { pending[dropped] = false }
        let entity = Member.entity
        for (id, properties) in changes.updated where id.entity === entity && !changes.deleted.contains(id) {
            if labels[id] != nil, !membership.added.contains(id) {
                notePending(id, wrote: properties, in: &pending)
            }
        }
        // Members whose evaluation read what the commit wrote of other objects, in one call.
        for serial in dependencies.dependents(ofWritesIn: changes) {
            let dependent = graph.objectID(of: entity, entitySerial: Int(serial))
            if pending[dependent] == nil, labels[dependent] != nil { pending[dependent] = false }
        }

        var reads: [PropertyRead] = []
        for (id, ownWrite) in pending {
            guard let label = labels[id], let member = graph.object(with: id) as? Member else { continue }
            let evaluated = evaluate(member, id: id, reads: &reads)
            let keys = evaluated.map { Self.keys($0, label: label) }
            // The dropped row's keys change from its neighbour's label to its own: no refresh.
            let keysChanged = id != dropped && (keys.map { index.hasKeys(id, differentFrom: $0) } ?? false)
            updates.append(.init(id: id, keys: keys, reportsUpdate: ownWrite || keysChanged && displayedProperties == nil))
        }
        // Relabelled members that were not re-evaluated keep their section.
        for (id, label) in newLabels where pending[id] == nil {
            guard let current = index.keys(of: id) else { continue }
            updates.append(.init(id: id, keys: RowKeys(section: current.section, sort: [.int(label), .int(0)]), reportsUpdate: false))
        }
        if totalsRowByRow { applyCommitToTotals(updates) }
        let diff = updates.isEmpty ? IndexDiff<ObjectID>() : index.apply(updates)
        if totalsRowByRow { resolveStaleTotals() }
        if totalsRowByRow { resolveStaleTotals() }
        finishDelivery(diff)
    }

    /// Delivers a commit's changes, first telling the view to drop a section the user's edit
    /// left empty on screen.
    func finishDelivery(_ diff: IndexDiff<ObjectID>) {
        var diff = diff
        if let empty = displayedEmptySection {
            displayedEmptySection = nil
            diff.deleteDisplayedEmptySection(at: empty.index, value: empty.value)
        }
        _checkOrderedInvariants()
        // A change of totals alone (a sum's input that no cell shows, a row the user moved
        // to another section) is delivered too.
        if totals?.isSettled == false { settleTotals() }
        guard !diff.isEmpty || totalsChanged else {
            totals?.isSettled = false
            return
        }
        deliver(diff)
        _checkOrderedInvariants()
    }

    /// The owner was deleted: every row leaves.
    private func removeEveryMember(_ changes: GraphChanges) {
        let updates = index.visibleIDs.map { ResultsIndex<ObjectID>.Change(id: $0, keys: nil, reportsUpdate: false) }
        for id in labels.keys { dependencies.remove(id) }
        for id in changes.deleted { dependencies.remove(id) }
        labels = [:]
        let diff = updates.isEmpty ? IndexDiff<ObjectID>() : index.apply(updates)
        finishDelivery(diff)
    }
}
