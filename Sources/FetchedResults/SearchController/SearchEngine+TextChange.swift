import ObjectGraph

extension SearchEngine {
    /// Sets the search text and delivers the difference from the previous results.
    ///
    /// Rows leave when the new text rejects them and enter when it accepts a base row that
    /// was not a match; which rows are tested depends on how the texts relate (see
    /// ``searchText``). Without a window the base order is the search order, so one ordered
    /// pass rebuilds the index and yields the deletes and inserts; with a window the index
    /// places each change as a commit would. Either way the change set has a commit's form.
    func applySearchText(_ text: String) {
        guard text != currentText else { return }
        // From the rows the delegate heard of, not a shared index ahead of them.
        settleSharedIndex()
        let oldText = currentText
        currentText = text
        let ordered = index.offset == 0 && index.limit == nil
        // Which rows to test without the ordered text pass: a narrowing text tests the
        // current matches only; a broadening one keeps them and tests the other base rows;
        // any other edit tests every base row.
        let narrows: Bool
        let broadens: Bool
        let matches: (ObjectID) -> Bool
        let diff: IndexDiff<ObjectID>
        switch matcher {
        case .text(_, let options, let store):
            let old = store.needle
            let new = FoldedText(text, options: options)
            store.needle = new
            guard new != old else { return _checkSearchInvariants() }
            guard !ordered else {
                diff = orderedTextChange(from: old, to: new, store: store)
                return finishTextChange(diff)
            }
            slotTexts = nil
            refinements.reset(to: new)
            narrows = old.isEmpty || new.contains(old)
            broadens = new.isEmpty || old.contains(new)
            matches = { [unowned self] id in new.isEmpty || self.foldedText(of: id, in: store).contains(new) }
        case .predicate(let make, let narrowing, let store):
            store.current = make(text)
            // The matcher's own rule: a plain substring test of the raw texts would call
            // "c" → "Éc" a narrowing, which it is not under BEGINSWITH[cd].
            narrows = narrowing.narrows(from: oldText, to: text)
            broadens = narrowing.narrows(from: text, to: oldText)
            matches = { [unowned self] id in self.evaluate(self.object(with: id), id: id) != nil }
            if ordered {
                // Both orders are the base order: filter in one ordered pass and rebuild.
                let result = ResultsIndex.filtering(index, source: narrows ? nil : base.index) { id, _, was in
                    broadens && was || matches(id)
                }
                index = result.index
                return finishTextChange(result.diff)
            }
        }
        // A window shifts rows in and out at its edges: let the index place each change.
        var changes: [ResultsIndex<ObjectID>.Change] = []
        if !broadens {
            for id in Array(index.slotByID.keys) where !matches(id) {
                changes.append(.init(id: id, keys: nil, reportsUpdate: false))
            }
        }
        if !narrows {
            for id in Array(base.index.slotByID.keys) where index.slotByID[id] == nil && matches(id) {
                guard let keys = base.index.keys(of: id) else { continue }
                changes.append(.init(id: id, keys: keys, reportsUpdate: false))
            }
        }
        finishTextChange(changes.isEmpty ? IndexDiff() : index.apply(changes))
    }

    /// Delivers a text change's diff: rows entered with the base controller's keys, without
    /// an evaluation here, so new sections take their names from the base controller.
    private func finishTextChange(_ diff: IndexDiff<ObjectID>) {
        for section in diff.insertedSections where sectionNames[section.value] == nil {
            if let name = base.sectionNames[section.value] { sectionNames[section.value] = name }
        }
        if !diff.isEmpty { deliver(diff) }
        _checkSearchInvariants()
    }

    /// The folded search string of a base row: the one its last evaluation stored, or, when
    /// it has none, the one a fresh evaluation stores.
    ///
    /// - Complexity: O(1) with a stored folding.
    @inline(__always)
    func foldedText(of id: ObjectID, in store: FoldedTextStore) -> FoldedText {
        if let folded = store.folded[id] { return folded }
        _ = evaluate(object(with: id), id: id)
        guard let folded = store.folded[id] else {
            requirementFailure("internal inconsistency: base row \(id) is rejected by the base predicate")
        }
        return folded
    }
}
