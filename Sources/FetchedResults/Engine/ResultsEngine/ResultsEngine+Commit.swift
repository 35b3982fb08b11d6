extension ResultsEngine {
    /// Notes an object of the entity that a commit wrote as pending re-evaluation: `true` when
    /// its row must refresh (it is fetched and a displayed property changed), `false` when only
    /// its keys must be re-read (it wrote a property its evaluation reads).
    ///
    /// - Parameters:
    ///   - id: The written object.
    ///   - properties: What the commit wrote of it.
    ///   - pending: The objects to re-evaluate, with whether their own write refreshes them.
    func notePending(_ id: ObjectID, wrote properties: ChangedProperties, in pending: inout [ObjectID: Bool]) {
        let flags = pendingFlags(wrote: properties)
        if flags & PendingFlags.refreshesIfFetched != 0 && index.contains(id) {
            pending[id] = true
        } else if flags & PendingFlags.evaluates != 0 {
            pending[id] = pending[id] ?? false
        }
    }

    /// What a commit's write of `properties` of an object of the entity asks of it, as
    /// ``PendingFlags``: re-evaluation when an evaluation reads one of them, a refresh of its
    /// row (when it is fetched) when one is displayed.
    func pendingFlags(wrote properties: ChangedProperties) -> UInt8 {
        // The sets asked about are small; `properties.indexes` would build an array per call.
        let reads = dependencies.ownReads.contains { properties.contains($0) }
        // Until an object has been evaluated the displayed keys are unresolved, and every
        // write refreshes its row.
        let displayed = displayedProperties.map { displayed in displayed.contains { properties.contains($0) } } ?? true
        return (reads ? PendingFlags.evaluates : 0) | (displayed ? PendingFlags.refreshesIfFetched : 0)
    }

    /// Brings the results up to date with one commit of the graph and delivers the changes.
    ///
    /// - Complexity: O(k log n) for k re-evaluated objects (``applyCommit(_:derived:)``).
    func graphDidCommit(_ changes: GraphChanges) {
        guard hasFetched else { return }
        applyCommit(changes, derived: nil)
    }

    /// Brings the results up to date with one commit and delivers the changes, in four
    /// phases: ``collectPending(_:derived:)`` (what the commit asks to re-evaluate),
    /// ``readPendingRows(_:derived:)`` (each object's row and dependency entry),
    /// ``evaluatePending(_:derived:updates:)`` (the objects' keys), and
    /// ``applyAndDeliver(_:)``.
    ///
    /// Only objects the commit touched are re-evaluated: inserted and deleted objects of the
    /// entity, updated ones whose written properties an evaluation read (or that are fetched,
    /// whose rows must refresh), and the objects whose evaluation read a written property of
    /// another object.
    ///
    /// The middle phases are two passes. The first reads every pending object's row slot and
    /// section in the index and its entry in the dependency index, and asks for the object's
    /// first lines (without retaining it): a tight loop, so that these reads (each a cache
    /// miss in a large index or object table, once other work has evicted them) overlap,
    /// where inside an evaluation they would wait one after the other. The second evaluates
    /// the objects, finding those lines cached, and applying the changes reads the same rows
    /// again.
    ///
    /// - Parameters:
    ///   - changes: The commit.
    ///   - derived: For an engine that shows another's rows filtered (a search), what that
    ///     engine, current with the commit, lets it reuse; `nil` for an engine of its own.
    /// - Complexity: O(k log n) for k re-evaluated objects.
    func applyCommit(_ changes: GraphChanges, derived: DerivedCommit?) {
        beginTotalsCommit()
        var collected = collectPending(changes, derived: derived)
        // A commit that only renamed what whole sections are named after moves them as
        // blocks, when it has that shape.
        if derived == nil, movesWholeSections, let key = collected.sectionRenameKey,
           commitSectionRenames(collected.sectionRenames, key: key) {
            return
        }
        let evaluations = readPendingRows(collected.pending, derived: derived)
        evaluatePending(evaluations, derived: derived, updates: &collected.updates)
        // A follower shows its source's rows: the source applied this commit to the shared
        // index already (the evaluations above kept the dependencies current).
        if followsSource { return deliverSourceChanges() }
        applyAndDeliver(collected.updates)
    }

    /// The first phase of a commit: the deleted rows, and the objects to re-evaluate with why.
    ///
    /// - Complexity: O(c) for c changes of the commit, plus the dependents of its writes.
    private func collectPending(_ changes: GraphChanges, derived: DerivedCommit?) -> CollectedCommit {
        let entity = Object.entity
        let shortcut = derived?.shortcut
        var collected = CollectedCommit()
        // Each deletion reads the object's dependency entry and slot, a cache miss each in a
        // large index: asked for at once, they overlap.
        dependencies.prefetchEntries(of: changes.deleted)
        index.slots.prefetch(changes.deleted)
        for id in changes.deleted {
            dependencies.remove(id)
            if id.entity === entity, index.contains(id) {
                collected.updates.append(.init(id: id, keys: nil, reportsUpdate: false))
            }
        }
        // The array, not `inserted`: that set is hashed on first use.
        let inserted = changes.insertedIDs
        collected.pending.reserveCapacity(inserted.count + changes.updated.count)
        // Deleted objects are dropped once the pending set is complete (a hash each), not
        // looked up for each object that enters it.
        for id in inserted where id.entity === entity {
            collected.pending[id] = PendingFlags.evaluates | PendingFlags.mustEvaluate
        }
        for (id, properties) in changes.updated where id.entity === entity {
            var flags = pendingFlags(wrote: properties)
            guard flags != 0 else { continue }
            if let shortcut, shortcut.writesSearched(properties) { flags |= PendingFlags.mustEvaluate }
            collected.pending[id, default: 0] |= flags
        }
        // One call for the whole commit: each call through the property may copy the index.
        let dependents = dependencies.dependentsBySection(ofWritesIn: changes)
        if collected.pending.isEmpty && collected.updates.isEmpty && dependents.serials.isEmpty && dependents.sectionOnlyKeyCount == 1,
           let key = dependents.sectionOnlyKey {
            collected.sectionRenameKey = key
            collected.sectionRenames = dependents.sectionOnly
        }
        let sectionOnly = derived.map {
            $0.source.sectionRereadsNeeded(dependents.sectionOnly, besides: dependents.serials, collected.pending, in: self)
        } ?? dependents.sectionOnly
        if !dependents.serials.isEmpty || !sectionOnly.isEmpty {
            collected.pending.reserveCapacity(collected.pending.count + dependents.serials.count + sectionOnly.count)
            for serial in dependents.serials {
                collected.pending[graph.objectID(of: entity, entitySerial: Int(serial)), default: 0] |= PendingFlags.evaluates
            }
            for serial in sectionOnly {
                collected.pending[graph.objectID(of: entity, entitySerial: Int(serial)), default: 0] |= PendingFlags.readsSectionAgain
            }
        }
        for id in changes.deleted where id.entity === entity { collected.pending.removeValue(forKey: id) }
        return collected
    }

    /// The second phase, the first pass: each pending object's row slot and section, its
    /// dependency entry, and its first lines asked for. A row a derived engine leaves alone
    /// (``ExcludedRowsShortcut``) is marked to copy its source's entry instead.
    ///
    /// The index and the dependencies are read through locals: a non-mutating call on a
    /// class's stored structure copies it (a retain and a release of each of its arrays) per
    /// call. The locals end with the pass, before anything changes them.
    ///
    /// - Complexity: O(k) for k pending objects: look-ups and prefetches.
    private func readPendingRows(_ pending: [ObjectID: UInt8], derived: DerivedCommit?) -> [PendingEvaluation] {
        var evaluations: [PendingEvaluation] = []
        evaluations.reserveCapacity(pending.count)
        var adopts = false
        do {
            let index = index
            let dependencies = dependencies
            let shortcut = derived?.shortcut
            // The foldings are read here only: nothing folds until the pass ends.
            let folded = shortcut?.store.folded
            let needle = shortcut?.store.needle
            for (id, flags) in pending {
                let row = index.slotAndSection(of: id)
                // An object whose only reason is a refresh of its row waits for nothing else.
                if flags & (PendingFlags.evaluates | PendingFlags.readsSectionAgain) == 0 && row.slot < 0 { continue }
                let entry = dependencies.entry(of: id)
                if row.slot < 0, flags & PendingFlags.mustEvaluate == 0, let shortcut, let folded, let needle,
                   shortcut.staysExcluded(id, folded: folded, needle: needle) {
                    adopts = true
                    evaluations.append(PendingEvaluation(
                        id: id, ownWrite: false, sectionOnly: false, adoptsSourceEntry: true, slot: row.slot, section: row.section,
                        dependencyEntry: entry, dependencyKey: nil))
                    continue
                }
                // The object's first lines, not the object: a reference would be retained, an
                // atomic write that waits for the line and holds back the next objects' reads.
                graph.prefetchObject(with: id, lines: 2)
                let sectionOnly = flags & PendingFlags.evaluates == 0 && flags & PendingFlags.readsSectionAgain != 0
                evaluations.append(PendingEvaluation(
                    id: id, ownWrite: flags & PendingFlags.refreshesIfFetched != 0 && row.slot >= 0,
                    sectionOnly: sectionOnly, adoptsSourceEntry: false, slot: row.slot, section: row.section, dependencyEntry: entry,
                    dependencyKey: sectionOnly ? dependencies.key(ofEntry: entry) : nil))
            }
        }
        // Objects whose entries are copied re-evaluate here on the writes that re-evaluate
        // them in the source.
        if adopts, let derived { dependencies.recordOwnReads(of: derived.source.dependencies) }
        return evaluations
    }

    /// The third phase, the second pass: each pending object's keys, appended to `updates`
    /// as changes of the index (new keys, or `nil` for a row no longer fetched). The index
    /// does not change until they are all known.
    ///
    /// - Complexity: O(k) evaluations for k pending objects, each O(r log r) for r reads.
    private func evaluatePending(
        _ evaluations: [PendingEvaluation], derived: DerivedCommit?, updates: inout [ResultsIndex<ObjectID>.Change]
    ) {
        let extractors = extractors
        let needsSection = extractors.section != nil
        // A derived engine's rows are its source's rows with the source's keys, and the
        // source is current with this commit.
        let source = needsSection ? derived?.source : nil
        var reads: [PropertyRead] = []
        // Every row of a renamed section names the same new section: named once.
        var lastNamed: SortValue?
        let index = index
        let sectionValues = index.keys.sectionValues
        for pending in evaluations {
            let id = pending.id
            if pending.adoptsSourceEntry, let derived,
               dependencies.adoptEntry(of: id, entry: pending.dependencyEntry, from: derived.source.dependencies) {
                // Not shown, and the commit cannot show it: only its entry changes.
                adoptedEntryCount += 1
                continue
            }
            if pending.sectionOnly, let source, let section = source.sectionValue(of: id, readingOnly: pending.dependencyKey) {
                // The source fetches the object and its evaluation, current with this
                // commit, read only the key this engine recorded: so does the section key
                // here, whose value is the source's, and the dependencies stand.
                guard pending.slot >= 0 else { continue }
                let sameSection = sectionValues[Int(pending.section)] == section
                if !sameSection && lastNamed != section && sectionNames[section] == nil, let name = source.sectionNames[section] {
                    sectionNames[section] = name
                }
                if !sameSection { lastNamed = section }
                updates.append(sectionChange(of: pending, to: section, sameSection: sameSection))
                continue
            }
            guard let object = graph.object(with: id) as? Object else {
                dependencies.remove(id)
                if pending.slot >= 0 { updates.append(.init(id: id, keys: nil, reportsUpdate: false)) }
                continue
            }
            if pending.sectionOnly,
               let section = sectionKeyAgain(object, id: id, key: pending.dependencyKey, reads: &reads, extractors: extractors) {
                // Only section keys read what changed: the predicate's result and the sort
                // keys stand, so a row that is not fetched stays out, and a fetched one keeps
                // its sort keys where they are.
                guard pending.slot >= 0 else { continue }
                let sameSection = sectionValues[Int(pending.section)] == section
                if needsSection && !sameSection && lastNamed != section {
                    nameSectionIfNew(section, of: object, extractors: extractors)
                    lastNamed = section
                }
                updates.append(sectionChange(of: pending, to: section, sameSection: sameSection))
                continue
            }
            let keys = evaluateKeys(object, id: id, reads: &reads, extractors: extractors, dependencyEntry: pending.dependencyEntry)
            guard let keys else {
                updates.append(.init(id: id, keys: nil, reportsUpdate: pending.ownWrite))
                continue
            }
            // A section the row is in already has a name. A row whose keys changed because of
            // a related object refreshes too: its cell shows what the keys were made from.
            let sameSection = pending.section >= 0 && sectionValues[Int(pending.section)] == keys.section
            if needsSection && !sameSection { nameSectionIfNew(keys.section, of: object, extractors: extractors) }
            let keysChanged = !pending.ownWrite && displayedProperties == nil && pending.slot >= 0
                && !(sameSection && index.keys.keys(of: pending.slot, equal: keys))
            updates.append(.init(id: id, keys: keys, reportsUpdate: pending.ownWrite || keysChanged))
        }
    }

    /// The change of a fetched row whose section key alone was read again: its sort keys
    /// stay. It refreshes for its own write, or, when the request does not say what its
    /// cells display, for a move to another section.
    @inline(__always)
    private func sectionChange(of pending: PendingEvaluation, to section: SortValue, sameSection: Bool) -> ResultsIndex<ObjectID>.Change {
        let keysChanged = !pending.ownWrite && displayedProperties == nil && !sameSection
        return .init(
            id: pending.id, keys: RowKeys(section: section, sort: SortValues([])), reportsUpdate: pending.ownWrite || keysChanged,
            keepsSortKeys: true)
    }

    /// The last phase: applies the changes to the index, in place (followers give the shared
    /// index back while it changes), and delivers the difference.
    ///
    /// - Complexity: O(k log n) for k changes, plus the delivery.
    private func applyAndDeliver(_ updates: [ResultsIndex<ObjectID>.Change]) {
        guard !updates.isEmpty else { return }
        // The totals read each changed row's old section before the index changes.
        let totalsRowByRow = appliesCommitsToTotals
        if totalsRowByRow { applyCommitToTotals(updates) }
        let holders = takeIndexFromFollowers()
        let undo = holders.isEmpty ? [] : undoing(updates)
        let diff = index.apply(updates)
        if totalsRowByRow { resolveStaleTotals() }
        returnIndex(to: holders, diff: diff, undo: undo)
        if totals != nil && !totalsRowByRow { settleTotals() }
        // A change of totals alone (a row's sum input that its cell does not show) is
        // delivered too: the headers that show them refresh.
        guard !diff.isEmpty || totalsChanged else {
            totals?.isSettled = false
            return
        }
        deliver(diff)
    }
}

/// What the first phase of a commit found.
private struct CollectedCommit {
    /// Objects to re-evaluate, as ``PendingFlags``.
    var pending: [ObjectID: UInt8] = [:]
    /// The changes of the index known so far: the deleted rows.
    var updates: [ResultsIndex<ObjectID>.Change] = []
    /// When the commit's only effect is a write of one key that only section keys read: that
    /// key, and the serials of the objects whose section key read it
    /// (``ResultsEngine/commitSectionRenames(_:key:)``).
    var sectionRenameKey: DependencyKey?
    var sectionRenames: [UInt32] = []
}

/// Why a commit re-evaluates an object.
private enum PendingFlags {
    /// It must be re-evaluated: inserted, or it wrote (or depends on) what an evaluation reads.
    static let evaluates: UInt8 = 1
    /// Its row must refresh if it is fetched: it wrote a displayed property.
    static let refreshesIfFetched: UInt8 = 2
    /// It depends on a key that only section keys read, and a commit wrote it: its section
    /// key must be read again (without ``evaluates``, its predicate's result and sort keys
    /// stand).
    static let readsSectionAgain: UInt8 = 4
    /// It must be evaluated even where the engine could copy its dependency entry
    /// (``ExcludedRowsShortcut``): it was inserted, or it wrote what its searched string
    /// reads.
    static let mustEvaluate: UInt8 = 8
}

/// An object a commit re-evaluates, with what the first pass read for it.
private struct PendingEvaluation {
    /// The object's ID.
    var id: ObjectID
    /// Whether its own write refreshes its row.
    var ownWrite: Bool
    /// Whether only its section key must be read again (``PendingFlags/readsSectionAgain``).
    var sectionOnly: Bool
    /// Whether it is a row the engine does not show and the commit cannot show, whose
    /// dependency entry it copies from its source (``ExcludedRowsShortcut``).
    var adoptsSourceEntry: Bool
    /// Its row's slot in the index, or -1 when it is not fetched.
    var slot: Int32
    /// Its row's section handle, or -1 when it is not fetched.
    var section: Int32
    /// Its entry in the dependency index (``DependencyIndex/entry(of:)``).
    var dependencyEntry: DependencyIndex.Entry
    /// For a section-only re-read, the one key of other objects its entry names, if any
    /// (``DependencyIndex/key(ofEntry:)``).
    var dependencyKey: DependencyKey?
}

extension ResultsIndex {
    /// A row's slot and section handle, or -1 for both when it is not fetched.
    ///
    /// - Complexity: O(1).
    fileprivate func slotAndSection(of id: ID) -> (slot: Int32, section: Int32) {
        guard let slot = slots[id] else { return (-1, -1) }
        return (slot, keys.sectionOf[Int(slot)])
    }
}
