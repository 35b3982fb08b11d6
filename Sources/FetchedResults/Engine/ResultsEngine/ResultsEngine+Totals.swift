import ListUpdates
import ObjectGraph

extension ResultsEngine {
    /// Whether a commit's changes can be applied to the totals row by row: the engine shows
    /// every row it fetches (no window).
    var appliesCommitsToTotals: Bool {
        totals != nil && _request.fetchLimit == nil && _request.fetchOffset == 0
    }

    /// Forgets which inputs the last commit replaced, before this engine applies a commit
    /// to the table it owns.
    func beginTotalsCommit() {
        guard let totals, totals.ownsInputs, !totals.table.replaced.isEmpty else { return }
        totals.table.replaced = [:]
    }

    /// Applies one commit's changes of the index to the totals, before the index applies
    /// them: each changed row's old contribution leaves its old section and its new one joins
    /// its new section. An engine that owns its table stores the inputs its evaluations read;
    /// one that reads another's (a search) finds there the inputs that engine's commit
    /// replaced.
    ///
    /// - Parameter updates: The commit's changes of the index.
    /// - Complexity: O(c t) for c changed rows and t totals, plus O(log n) per minimum or
    ///   maximum.
    func applyCommitToTotals(_ updates: [ResultsIndex<ObjectID>.Change]) {
        guard var totals else { return }
        self.totals = nil
        defer { self.totals = totals }
        // Read out of the index once: each read through the property would copy the index.
        let sectionValues = index.keys.sectionValues
        let sectionOf = index.keys.sectionOf
        let slots = index.slots
        for update in updates {
            let id = update.id
            let oldSection = slots[id].map { sectionValues[Int(sectionOf[Int($0)])] }
            let newSection = update.keys?.section
            let old: [TotalInput]
            var new: [TotalInput]?
            let inputsChanged: Bool
            if totals.ownsInputs {
                old = totals.table.row(id.entitySerial)
                new = totals.evaluated.removeValue(forKey: id)
                inputsChanged = new.map { totals.store($0, of: id, old: old) } ?? false
            } else {
                (old, inputsChanged) = totals.inputsBeforeCommit(of: id)
            }
            guard oldSection != newSection || (inputsChanged && oldSection != nil) else { continue }
            // The whole results change when a row comes or goes, or its inputs change.
            let wholeChanges = oldSection == nil || newSection == nil || inputsChanged
            // The row's inputs now: those its evaluation read, or the shared table's.
            let current = newSection == nil ? [] : totals.ownsInputs ? (new ?? old) : totals.table.row(id.entitySerial)
            if let section = oldSection, section == newSection {
                // New inputs in the same section, the usual case: one look-up of the section.
                totals.replace(old, with: current, of: id, section: section)
            } else {
                if let oldSection { totals.add(old, of: id, section: oldSection, sign: -1, toWhole: wholeChanges) }
                if let newSection { totals.add(current, of: id, section: newSection, sign: 1, toWhole: wholeChanges) }
            }
            if wholeChanges { totals.wholeChanged = true }
        }
        // Inputs read for rows the commit leaves out of the index (excluded before and after).
        totals.storeEvaluatedInputs()
        totals.isSettled = true
    }

    /// After a commit applied to the totals row by row, once the index has it: rebuilds each
    /// minimum or maximum whose extreme row left or changed, from its section's rows.
    ///
    /// - Complexity: O(m) for the m rows of each such section; nothing when none.
    func resolveStaleTotals() {
        guard var totals, !totals.staleSections.isEmpty || totals.whole.hasStaleExtreme else { return }
        self.totals = nil
        defer { self.totals = totals }
        totals.resolveStaleExtremes { index.ids(inSection: $0) }
    }

    /// After a commit that renamed whole sections (each taking a value no section had): each
    /// section's totals follow it to its new value, unchanged.
    ///
    /// - Parameter renamed: The sections' values before and after.
    /// - Complexity: O(r) for r renamed sections; with a window, the delivery recomputes.
    func moveTotals(ofRenamedSections renamed: [(old: SortValue, new: SortValue)]) {
        guard appliesCommitsToTotals, var totals else { return }
        self.totals = nil
        defer { self.totals = totals }
        let moved = renamed.map { (totals.sections.removeValue(forKey: $0.old), $0.new) }
        for case let (sectionTotals?, value) in moved { totals.sections[value] = sectionTotals }
        totals.isSettled = true
    }

    /// For a follower (an engine that shows its source's index): takes the source's totals,
    /// current with the commit, when they are the same totals over the same rows, and notes
    /// the sections whose totals changed; otherwise recomputes them from the rows.
    ///
    /// - Complexity: O(s t) for s sections and t totals; O(m t) for m rows when recomputed.
    func followSourceTotals() {
        guard var totals, let source = sharing.source, let sourceTotals = source.totals, sourceTotals.ids == totals.ids,
              _request.fetchLimit == nil, _request.fetchOffset == 0
        else { return settleTotals() }
        self.totals = nil
        defer { self.totals = totals }
        totals.storeEvaluatedInputs()
        var old = totals.sections
        totals.sections = sourceTotals.sections
        totals.whole = sourceTotals.whole
        // The source's marks are its own delivery's.
        totals.clearMarks(everySection: true)
        for (value, new) in totals.sections {
            if let before = old.removeValue(forKey: value) {
                if !new.hasSameValues(as: before) { totals.changedSections.insert(value) }
            } else {
                totals.changedSections.insert(value)
            }
        }
        for value in old.keys { totals.changedSections.insert(value) }
        totals.wholeChanged = totals.wholeChanged || !totals.changedSections.isEmpty
        totals.isSettled = true
    }

    /// Brings the totals up to date with the rows shown after a change that was not applied
    /// to them row by row: stores the inputs evaluations read, and recomputes every
    /// total from the rows shown, noting the sections whose totals changed.
    ///
    /// - Complexity: O(m t) for m rows shown and t totals.
    func settleTotals() {
        guard var totals else { return }
        self.totals = nil
        defer { self.totals = totals }
        totals.storeEvaluatedInputs()
        let old = totals
        let rows = rowsForTotals()
        totals.recompute(serials: rows.serials, sectionOf: rows.sectionOf, sectionValues: rows.sectionValues)
        var oldSections = old.sections
        for (value, new) in totals.sections {
            if let before = oldSections.removeValue(forKey: value) {
                if !new.hasSameValues(as: before) { totals.changedSections.insert(value) }
            } else {
                totals.changedSections.insert(value)
            }
        }
        for value in oldSections.keys { totals.changedSections.insert(value) }
        if !totals.whole.hasSameValues(as: old.whole) { totals.wholeChanged = true }
        totals.isSettled = true
    }

    /// The rows shown, as each row's entity serial and its section's position among
    /// `sectionValues`. When the index shows all its rows and has no free slot (after a
    /// fetch), these are its own columns in slot order, with section handles for positions;
    /// otherwise the rows shown in order.
    ///
    /// - Complexity: O(m) for m rows shown (plus O(log n) for a window).
    private func rowsForTotals() -> (serials: [Int], sectionOf: [Int32], sectionValues: [SortValue]) {
        let keys = index.keys
        if index.visibleCount == keys.ids.count {
            return (keys.ids.map(\.entitySerial), keys.sectionOf, keys.sectionValues)
        }
        var serials: [Int] = []
        var sectionOf: [Int32] = []
        var sectionValues: [SortValue] = []
        serials.reserveCapacity(index.visibleCount)
        sectionOf.reserveCapacity(index.visibleCount)
        for (section, ids) in index.visibleRows {
            let position = Int32(sectionValues.count)
            sectionValues.append(section)
            for id in ids {
                serials.append(id.entitySerial)
                sectionOf.append(position)
            }
        }
        return (serials, sectionOf, sectionValues)
    }

    /// Computes the totals from the rows a fetch loaded (whose evaluations read their
    /// inputs). Nothing is delivered for a fetch: what changed is counted from here.
    ///
    /// - Complexity: O(m t) for m rows shown and t totals.
    func computeTotalsAfterLoad() {
        guard totals != nil else { return }
        settleTotals()
        totals?.forgetChangedSections()
        totals?.wholeChanged = false
        totals?.isSettled = false
    }

    /// Whether the totals changed since the last delivery (once settled).
    var totalsChanged: Bool {
        guard let totals else { return false }
        return totals.wholeChanged || !totals.changedSections.isEmpty || totals.hasMarkedSections || totals.reportsEverySection
    }

    /// The sections of a delivery whose totals changed, as positions after it: every section
    /// shown whose totals changed, except those the delivery inserts. Clears what changed.
    ///
    /// - Parameter diff: The delivery's changes.
    /// - Returns: Sorted positions after the change.
    /// - Complexity: O(v) for v sections shown.
    func takeReconfiguredSections(_ diff: IndexDiff<ObjectID>) -> [Int] {
        guard var totals else { return [] }
        // Moved out, so clearing the marks below changes the totals in place.
        self.totals = nil
        defer {
            totals.forgetChangedSections()
            totals.wholeChanged = false
            totals.reportsEverySection = false
            totals.isSettled = false
            self.totals = totals
        }
        guard !totals.changedSections.isEmpty || totals.hasMarkedSections || totals.reportsEverySection else { return [] }
        let inserted = Set(diff.insertedSections.map(\.value))
        var positions: [Int] = []
        for (position, section) in index.visibleSections.enumerated() where !inserted.contains(section.value) {
            if totals.reportsEverySection || totals.sectionChanged(section.value) { positions.append(position) }
        }
        return positions
    }

    /// The value of a total for the section with key `section`, or for every row shown
    /// (`nil`). A total the request does not name is computed from the rows shown.
    ///
    /// - Complexity: O(1), amortized for a minimum or maximum; for a total the request does
    ///   not name, O(m) for m rows shown.
    func value<Value>(of total: Total<Object, Value>, section: SortValue?) -> Value {
        registrar.access(self, keyPath: sectionsKeyPath)
        settleSharedIndex()
        if let totals, let position = totals.ids.firstIndex(of: total.erased.id) {
            let layout = totals.layout
            guard let section else { return total.read(totals.whole.reading(position, layout: layout)) }
            return total.read((totals.sections[section] ?? SectionTotals(layout)).reading(position, layout: layout))
        }
        // Not kept: computed from the rows shown.
        let reader = [total.erased.reader]
        let layout = TotalsLayout([total.erased.kind])
        var accumulated = SectionTotals(layout)
        for (rowSection, ids) in index.visibleRows where section == nil || rowSection == section {
            for id in ids {
                let object = object(with: id)
                let inputs = graph.withoutObservation { reader.inputs(of: object) }
                accumulated.add(inputs, id: UInt64(id.entitySerial), sign: 1, layout: layout)
            }
        }
        return total.read(accumulated.reading(0, layout: layout))
    }
}
