import Foundation

extension ValidatedStage {
    #if FRK_INVARIANT_CHECKS
        /// Checks that the section mapping is a bijection between surviving sections and
        /// non-inserted after-positions, and that every row change lies in a surviving section.
        package func _checkInvariants() {
            var seen = Set<Int>()
            for (after, source) in sectionSources.enumerated() {
                guard let before = source.before else { continue }
                require(seen.insert(before).inserted, "internal inconsistency: section \(before) mapped twice")
                require(sectionTargets[before] == after, "internal inconsistency: section map is not inverse")
            }
            require(
                sectionTargets.compactMap { $0 }.count == seen.count,
                "internal inconsistency: a section target has no source"
            )
            for key in deletedRows + reloadedRows + reconfiguredRows {
                require(sectionTargets[Self.section(key)] != nil, "internal inconsistency: row change in a deleted section")
            }
            for key in insertedRows {
                require(!sectionSources[Self.section(key)].isNew, "internal inconsistency: row insert in a new section")
            }
            for (a, b) in zip(movedRows, movedRows.dropFirst()) {
                require(a.from < b.from, "internal inconsistency: row moves not sorted by a unique source")
            }
            require(afterRowCounts.count == sectionSources.count, "internal inconsistency: after counts")
        }
    #else
        @inline(__always)
        package func _checkInvariants() {}
    #endif
}
