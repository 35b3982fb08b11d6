import Foundation

extension ListChanges {
    #if FRK_INVARIANT_CHECKS
        /// Checks that the value is a stage: no field holds a duplicate, none of the conflicts
        /// that a list view rejects or mishandles (rules 6–12, 14–16 of the batch rules)
        /// occurs, every reconfigured row keeps its position, and header refreshes are sorted
        /// and name no section the stage inserts or reloads. Bounds and counts need the list's
        /// state and are not checked here.
        func _checkIsStage() {
            func unique<T: Hashable>(_ values: [T], _ field: String) -> Set<T> {
                let set = Set(values)
                require(set.count == values.count, "internal inconsistency: duplicate \(field) in stage \(self)")
                return set
            }
            let deletedSections = unique(self.deletedSections, "deleted sections")
            let insertedSections = unique(self.insertedSections, "inserted sections")
            let reloadedSections = unique(self.reloadedSections, "reloaded sections")
            let sectionSources = unique(movedSections.map(\.from), "section move sources")
            let sectionDestinations = unique(movedSections.map(\.to), "section move destinations")
            let deletedRows = unique(self.deletedRows, "deleted rows")
            let insertedRows = unique(self.insertedRows, "inserted rows")
            let reloadedRows = unique(self.reloadedRows, "reloaded rows")
            let reconfiguredRows = unique(self.reconfiguredRows, "reconfigured rows")
            let rowSources = unique(movedRows.map(\.from), "row move sources")
            let rowDestinations = unique(movedRows.map(\.to), "row move destinations")
            let reconfiguredSections = unique(self.reconfiguredSections, "reconfigured sections")

            require(
                deletedSections.isDisjoint(with: sectionSources) && deletedSections.isDisjoint(with: reloadedSections)
                    && reloadedSections.isDisjoint(with: sectionSources)
                    && insertedSections.isDisjoint(with: sectionDestinations),
                "internal inconsistency: conflicting section changes in stage \(self)"
            )
            require(
                deletedRows.isDisjoint(with: reloadedRows) && deletedRows.isDisjoint(with: rowSources)
                    && reloadedRows.isDisjoint(with: rowSources) && reconfiguredRows.isDisjoint(with: rowSources)
                    && reconfiguredRows.isDisjoint(with: deletedRows) && reconfiguredRows.isDisjoint(with: reloadedRows)
                    && insertedRows.isDisjoint(with: rowDestinations),
                "internal inconsistency: conflicting row changes in stage \(self)"
            )
            require(
                self.reconfiguredSections == self.reconfiguredSections.sorted()
                    && reconfiguredSections.allSatisfy { $0 >= 0 },
                "internal inconsistency: reconfigured sections unsorted or negative in \(self)"
            )
            if !reconfiguredSections.isEmpty {
                let reloadedAfter = keptPositionsAfter(
                    reloadedSections.sorted(),
                    removed: deletedSections.union(sectionSources).sorted(),
                    placed: insertedSections.union(sectionDestinations).sorted())
                require(
                    reconfiguredSections.isDisjoint(with: insertedSections)
                        && reconfiguredSections.isDisjoint(with: reloadedAfter),
                    "internal inconsistency: header refresh of an inserted or reloaded section in "
                        + "\(self)"
                )
            }
            let rebuiltBefore = deletedSections.union(reloadedSections)
            let insertedAfter = insertedSections
            for path in deletedRows.union(reloadedRows).union(reconfiguredRows).union(rowSources) {
                require(
                    !rebuiltBefore.contains(path[0]) && !sectionSources.contains(path[0]),
                    "internal inconsistency: row change at \(path.listDescription) inside a deleted, reloaded or moved section in stage \(self)"
                )
            }
            for path in insertedRows.union(rowDestinations) {
                require(
                    !insertedAfter.contains(path[0]) && !sectionDestinations.contains(path[0]),
                    "internal inconsistency: row change at \(path.listDescription) inside an inserted or moved section in stage \(self)"
                )
            }
            if !reconfiguredRows.isEmpty {
                // Reconfigured rows are outside deleted, reloaded and moved sections (checked above).
                func key(_ path: IndexPath) -> Int { path[0] << 32 | path[1] }
                let survivors = (0...(self.reconfiguredRows.map { $0[0] }.max() ?? 0)).filter {
                    !deletedSections.contains($0) && !sectionSources.contains($0)
                }
                let sectionAfter = Dictionary(uniqueKeysWithValues: zip(survivors, keptPositionsAfter(
                    survivors, removed: (deletedSections.union(sectionSources)).sorted(),
                    placed: insertedSections.union(sectionDestinations).sorted())))
                let kept = self.reconfiguredRows.map(key).sorted()
                let afters = keptRowPositionsAfter(
                    kept, removed: deletedRows.union(rowSources).map(key).sorted(),
                    placed: insertedRows.union(rowDestinations).map(key).sorted()
                ) { sectionAfter[$0] ?? $0 }
                for (before, after) in zip(kept, afters) {
                    require(
                        before == after,
                        "internal inconsistency: reconfigured row \(before >> 32).\(before & 0xFFFF_FFFF) moves to "
                            + "\(after >> 32).\(after & 0xFFFF_FFFF) in stage \(self)"
                    )
                }
            }
        }
    #else
        @inline(__always)
        func _checkIsStage() {}
    #endif
}
