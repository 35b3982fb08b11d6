import ObjectGraph

extension SearchController {
    /// Sets the search text and delivers the difference from the previous results.
    ///
    /// Rows leave when the new text rejects them and enter when it accepts a base row that
    /// was not a match; which rows are tested depends on how the texts relate (see
    /// ``searchText``). The changes are applied to the index as one commit would be, so the
    /// change set has the same form as a commit's.
    func applySearchText(_ text: String) {
        guard text != currentText else { return }
        let oldText = currentText
        currentText = text
        var changes: [ResultsIndex<ObjectID>.Change] = []
        switch matcher {
        case .text(_, let options, let store):
            let old = store.needle
            let new = FoldedText(text, options: options)
            store.needle = new
            guard new != old else { break }
            // A text that contains the previous one matches a subset of its matches.
            let narrows = old.isEmpty || new.contains(old)
            let broadens = new.isEmpty || old.contains(new)
            if !broadens {
                for id in index.slotByID.keys where !foldedText(of: id, in: store).contains(new) {
                    changes.append(.init(id: id, keys: nil, reportsUpdate: false))
                }
            }
            if !narrows {
                for id in base.index.slotByID.keys where index.slotByID[id] == nil {
                    let folded = foldedText(of: id, in: store)
                    guard new.isEmpty || folded.contains(new), let keys = base.index.keys(of: id) else { continue }
                    changes.append(.init(id: id, keys: keys, reportsUpdate: false))
                }
            }
        case .predicate(let make, let narrowsWhenExtended, let store):
            store.current = make(text)
            let narrows = narrowsWhenExtended && text.contains(oldText)
            let broadens = narrowsWhenExtended && oldText.contains(text)
            if !broadens {
                for id in Array(index.slotByID.keys) where evaluate(object(with: id), id: id) == nil {
                    changes.append(.init(id: id, keys: nil, reportsUpdate: false))
                }
            }
            if !narrows {
                for id in Array(base.index.slotByID.keys) where index.slotByID[id] == nil {
                    guard let keys = evaluate(object(with: id), id: id) else { continue }
                    changes.append(.init(id: id, keys: keys, reportsUpdate: false))
                }
            }
        }
        if !changes.isEmpty {
            let diff = index.apply(changes)
            // Rows entered with the base controller's keys, without an evaluation here: new
            // sections take their names from the base controller.
            for section in diff.insertedSections where sectionNames[section.value] == nil {
                if let name = base.sectionNames[section.value] { sectionNames[section.value] = name }
            }
            if !diff.isEmpty { deliver(diff) }
        }
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
            preconditionFailure("internal inconsistency: base row \(id) is rejected by the base predicate")
        }
        return folded
    }
}
