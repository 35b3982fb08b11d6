import ObjectGraph

extension SearchEngine: DerivedResultsEngine {
    /// Brings the search up to date with a commit its base has applied and delivered, then
    /// forgets what the commit may have made stale: the folded text of deleted objects, the
    /// foldings by slot, the base ranks and the narrowing steps.
    ///
    /// A folded-text search first tries to take the commit without evaluating anything
    /// (``commitLeavingExcludedRowsAlone(_:store:)``); otherwise it applies the commit as any
    /// engine does, reusing the base's evaluations (``ResultsEngine/applyCommit(_:derived:)``).
    ///
    /// - Parameter commit: The commit, with the base's rows current with it.
    /// - Complexity: O(k log n) for k re-evaluated objects; O(w + d) for w written and d
    ///   deleted objects when the commit leaves the search's rows alone.
    func sourceDidCommit(_ commit: DerivedCommit) {
        defer { forgetStaleState(after: commit.changes) }
        var commit = commit
        if let store = textStore {
            if !store.searchReadsOthers && !store.needle.isEmpty && commitLeavingExcludedRowsAlone(commit, store: store) { return }
            commit.shortcut = ExcludedRowsShortcut(store: store, source: commit.source)
        }
        applyCommit(commit.changes, derived: commit)
    }

    /// Forgets the folded text of deleted objects, the foldings by slot and the narrowing
    /// steps (the commit may have changed any row).
    ///
    /// - Complexity: O(d) for d deleted objects.
    private func forgetStaleState(after changes: GraphChanges) {
        if slotTexts != nil { slotTexts = nil }
        if baseRanks != nil { baseRanks = nil }
        if let store = textStore {
            for id in changes.deleted { store.folded[id] = nil }
            refinements.reset(to: store.needle)
        }
        _checkSearchInvariants()
    }

    /// Brings the search up to date with a commit that writes only rows it does not show
    /// and cannot show (``ExcludedRowsShortcut``), and deletes only rows it does not show:
    /// their dependency entries are copied from the base, or dropped, and nothing else
    /// changes. Does nothing when the commit may have any other effect here (an inserted
    /// object, a write of a key some evaluation may have read through a relationship, a row
    /// shown or a row the commit may show): the caller applies the commit instead.
    ///
    /// Such a commit (an edit in the main list of rows a search hides) costs a search a look
    /// at each written object of its entity, without the pending set, the evaluation passes
    /// and their copies of the index that a commit otherwise takes.
    ///
    /// - Parameters:
    ///   - commit: The commit, with the base's rows current with it.
    ///   - store: The search's foldings and text; its text is not empty and its searched
    ///     string reads no other object.
    /// - Returns: Whether the search is up to date with the commit.
    /// - Complexity: O(w + k) for w written objects and k deleted ones; no hashing of
    ///   written keys.
    func commitLeavingExcludedRowsAlone(_ commit: DerivedCommit, store: FoldedTextStore) -> Bool {
        assert(!store.searchReadsOthers && !store.needle.isEmpty, "internal inconsistency: no shortcut for this search")
        let changes = commit.changes
        let entity = dependencies.entity
        if changes.insertedCount > 0 {
            for id in changes.insertedIDs where id.entity === entity { return false }
        }
        for id in changes.deleted where id.entity === entity && index.slots[id] != nil { return false }
        // Nothing changes until every written object is known to stay out. A base row the
        // search does not show is one whose folding lacks the text (a folding is current
        // while the base includes the row): the search's own rows need no look-up.
        let searched = store.searchedProperties
        let needle = store.needle
        let sourceSlots = commit.source.index.slots
        var adopted = 0
        for id in changes.updated.keys where id.entity === entity { store.folded.prefetchEntry(of: id) }
        let taken = dependencies.leaveExcludedRows(writtenIn: changes, from: commit.source.dependencies) { id, properties in
            guard !ExcludedRowsShortcut.writes(properties, anyOf: searched), sourceSlots[id] != nil,
                  store.folded.contains(id, needle) == false
            else { return false }
            assert(index.slots[id] == nil, "internal inconsistency: \(id) lacks the text and is shown")
            adopted += 1
            return true
        }
        guard taken else { return false }
        adoptedEntryCount += adopted
        return true
    }
}
