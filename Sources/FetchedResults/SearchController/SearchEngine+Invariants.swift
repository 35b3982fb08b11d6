extension SearchEngine {
    #if FRK_INVARIANT_CHECKS
        /// Checks, on small results, that the search rows are base rows with the base
        /// controller's keys and, for a folded-text search, exactly the base rows the current
        /// text matches.
        func _checkSearchInvariants() {
            guard base.index.totalCount <= 4_096 else { return }
            // While an observer's writes are pending or committed but not yet delivered (a
            // base delegate that writes during delivery), this controller may have evaluated
            // rows with values the base has not seen yet; once the graph has delivered those
            // commits to both, they agree again.
            guard !graph.hasChanges && !graph.hasQueuedDeliveries else { return }
            for id in index.slotByID.keys {
                require(base.index.keys(of: id) == index.keys(of: id), "internal inconsistency: search row \(id) is not a base row with the same keys")
            }
            switch matcher {
            case .text(_, _, let store):
                let levels = refinements.levels
                require(levels.last?.needle ?? FoldedText("", options: store.needle.options) == store.needle, "internal inconsistency: the refinement stack's top is not the search text")
                require(levels.first?.removed.isEmpty ?? true, "internal inconsistency: the first refinement level keeps removed rows")
                let baseOrder = base.index.ids(inRanks: 0..<base.index.totalCount)
                for level in levels.indices.dropFirst() {
                    let previous = levels[level - 1].needle
                    let needle = levels[level].needle
                    require(needle.contains(previous), "internal inconsistency: refinement \(needle) does not narrow \(previous)")
                    let expected = baseOrder.filter { id in
                        guard let folded = store.folded[id] else { return false }
                        return folded.contains(previous) && !folded.contains(needle)
                    }
                    require(levels[level].removed == expected, "internal inconsistency: refinement \(needle) removed \(levels[level].removed), not \(expected)")
                    if let ranks = levels[level].removedRanks {
                        require(ranks == expected.map { Int32(base.index.rank(of: $0)!) }, "internal inconsistency: refinement \(needle) has stale ranks")
                    }
                }
                for id in base.index.slotByID.keys {
                    guard let folded = store.folded[id] else {
                        requirementFailure("internal inconsistency: base row \(id) has no folded search string")
                    }
                    let matches = store.needle.isEmpty || folded.contains(store.needle)
                    require(matches == index.contains(id), "internal inconsistency: search row \(id) is \(matches ? "missing" : "present") for \(store.needle)")
                }
                if let slotTexts {
                    require(slotTexts.count == index.totalCount, "internal inconsistency: \(slotTexts.count) packed foldings for \(index.totalCount) rows")
                    for (position, id) in index.ids(inRanks: 0..<index.totalCount).enumerated() {
                        let start = position == 0 ? 0 : Int(slotTexts.ends[position - 1])
                        require(
                            Array(slotTexts.bytes[start..<Int(slotTexts.ends[position])]) == store.folded[id]?.bytes,
                            "internal inconsistency: the packed folding at \(position) is not \(id)'s")
                        if let ranks = slotTexts.ranks {
                            require(ranks[position] == Int32(base.index.rank(of: id)!), "internal inconsistency: row \(position) has a stale base rank")
                        }
                    }
                }
            case .predicate:
                // A user's predicate is not run again here: it may count or cost.
                break
            }
        }
    #else
        @inline(__always)
        func _checkSearchInvariants() {}
    #endif
}
