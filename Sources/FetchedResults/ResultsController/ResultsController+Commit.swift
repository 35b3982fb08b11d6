extension ResultsController {
    /// Notes an object of the entity that a commit wrote as pending re-evaluation: `true` when
    /// its row must refresh (it is fetched and a displayed property changed), `false` when only
    /// its keys must be re-read (it wrote a property its evaluation reads).
    ///
    /// - Parameters:
    ///   - id: The written object.
    ///   - properties: What the commit wrote of it.
    ///   - pending: The objects to re-evaluate, with whether their own write refreshes them.
    func notePending(_ id: ObjectID, wrote properties: ChangedProperties, in pending: inout [ObjectID: Bool]) {
        // The sets asked about are small; `properties.indexes` would build an array per call.
        let reads = dependencies.ownReads.contains { properties.contains($0) }
        // Until an object has been evaluated the displayed keys are unresolved, and every
        // write refreshes its row.
        let refreshes = index.contains(id)
            && (displayedProperties.map { displayed in displayed.contains { properties.contains($0) } } ?? true)
        if refreshes {
            pending[id] = true
        } else if reads {
            pending[id] = pending[id] ?? false
        }
    }

    /// Brings the results up to date with one commit and delivers the changes.
    ///
    /// Only objects the commit touched are re-evaluated: inserted and deleted objects of the
    /// entity, updated ones whose written properties an evaluation read (or that are fetched,
    /// whose rows must refresh), and the objects whose evaluation read a written property of
    /// another object.
    ///
    /// - Complexity: O(k log n) for k re-evaluated objects.
    func graphDidCommit(_ changes: GraphChanges) {
        guard hasFetched else { return }
        let entity = Object.entity
        // Objects to re-evaluate, with whether their own write must refresh their row.
        var pending: [ObjectID: Bool] = [:]
        var updates: [ResultsIndex<ObjectID>.Change] = []

        for id in changes.deleted {
            dependencies.remove(id)
            if id.entity === entity, index.contains(id) {
                updates.append(.init(id: id, keys: nil, reportsUpdate: false))
            }
        }
        // The array, not `inserted`: that set is hashed on first use.
        let inserted = changes.insertedIDs
        pending.reserveCapacity(inserted.count + changes.updated.count)
        for id in inserted where id.entity === entity && !changes.deleted.contains(id) {
            pending[id] = false
        }
        for (id, properties) in changes.updated where !changes.deleted.contains(id) {
            if id.entity === entity { notePending(id, wrote: properties, in: &pending) }
            if dependencies.hasCrossReads {
                properties.forEachIndex { addDependents(of: id, $0, to: &pending) }
            }
        }
        if dependencies.hasCrossReads {
            for move in changes.moves {
                guard let property = move.owner.entity.index(of: move.relationship) else { continue }
                addDependents(of: move.owner, property, to: &pending)
            }
        }

        let extractors = extractors
        var reads: [PropertyRead] = []
        for (id, ownWrite) in pending where !changes.deleted.contains(id) {
            guard let object = graph.object(with: id) as? Object else {
                dependencies.remove(id)
                if index.contains(id) { updates.append(.init(id: id, keys: nil, reportsUpdate: false)) }
                continue
            }
            let keys = evaluateKeys(object, id: id, reads: &reads, extractors: extractors)
            guard let keys else {
                updates.append(.init(id: id, keys: nil, reportsUpdate: ownWrite))
                continue
            }
            // The row's keys in the index: a section it is in already has a name, and a row
            // whose keys changed because of a related object refreshes too (its cell shows
            // what the keys were made from). They are read only when that decides: each read
            // is a cache miss in a large index (which applying the change then reuses).
            let needsSection = extractors.section != nil
            let needsKeys = displayedProperties == nil && !ownWrite
            var sameSection = false
            var keysChanged = false
            if needsSection || needsKeys, let indexed = index.compareKeys(of: id, with: keys, wholeKeys: needsKeys) {
                sameSection = indexed.sameSection
                keysChanged = needsKeys && !indexed.equal
            }
            if needsSection && !sameSection { nameSectionIfNew(keys.section, of: object, extractors: extractors) }
            updates.append(.init(id: id, keys: keys, reportsUpdate: ownWrite || keysChanged))
        }
        guard !updates.isEmpty else { return }
        let diff = index.apply(updates)
        guard !diff.isEmpty else { return }
        deliver(diff)
    }

    /// Adds to `pending` (as not written themselves) the objects whose evaluation read
    /// `property` of `object`.
    private func addDependents(of object: ObjectID, _ property: PropertyIndex, to pending: inout [ObjectID: Bool]) {
        let count = dependencies.dependentCount(of: object, property)
        guard count > 0 else { return }
        pending.reserveCapacity(pending.count + count)
        let entity = Object.entity
        dependencies.forEachDependent(of: object, property) { serial in
            let dependent = graph.objectID(of: entity, entitySerial: serial)
            if pending[dependent] == nil { pending[dependent] = false }
        }
    }
}

extension ResultsIndex {
    /// How a row's new keys compare with those the index holds for it, or `nil` when it is
    /// not fetched.
    ///
    /// - Parameters:
    ///   - id: The row.
    ///   - keys: Its new keys.
    ///   - wholeKeys: Whether to compare the sort keys too (`equal` is `false` otherwise).
    /// - Returns: Whether its section value is the same, and whether all its keys are.
    /// - Complexity: O(number of sort keys).
    fileprivate func compareKeys(of id: ID, with keys: RowKeys, wholeKeys: Bool) -> (sameSection: Bool, equal: Bool)? {
        guard let slot = slots[id] else { return nil }
        let sameSection = self.keys.sectionValues[Int(self.keys.sectionOf[Int(slot)])] == keys.section
        return (sameSection, wholeKeys && sameSection && self.keys.keys(of: slot, equal: keys))
    }
}
