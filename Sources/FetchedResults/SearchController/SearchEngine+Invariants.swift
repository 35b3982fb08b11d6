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
                    // The search evaluates a base row as the base does, plus its searched
                    // string: when that reads no other object, they read the same keys of
                    // other objects (the entries a commit copies from the base).
                    if !store.searchReadsOthers {
                        let reads = Set(dependencies.crossReads(ofSerial: id.entitySerial))
                        let baseReads = Set(base.dependencies.crossReads(ofSerial: id.entitySerial))
                        require(reads == baseReads, "internal inconsistency: search row \(id) read \(reads), the base \(baseReads)")
                    }
                }
                // Foldings are kept for base rows only (a row the base excludes forgets its own).
                require(store.folded.count == base.index.slotByID.count, "internal inconsistency: \(store.folded.count) foldings for \(base.index.slotByID.count) base rows")
                require(base.dependencies.ownReads.isSubset(of: dependencies.ownReads),
                        "internal inconsistency: the base reads own properties \(base.dependencies.ownReads) the search does not follow")
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
