extension SectionedDiff {
    #if FRK_INVARIANT_CHECKS
        /// Checks that the recorded matches are consistent: section maps are inverse
        /// permutations of the matched sections, row starts are cumulative counts, and every
        /// matched new row points to a distinct old row marked as matched.
        @usableFromInline
        func _checkInvariants() {
            require(
                oldStarts.count == sectionOldToNew.count + 1 && newStarts.count == sectionNewToOld.count + 1,
                "internal inconsistency: \(oldStarts.count)/\(newStarts.count) section starts for \(sectionOldToNew.count)/\(sectionNewToOld.count) sections"
            )
            for (old, new) in sectionOldToNew.enumerated() where new >= 0 {
                require(sectionNewToOld[new] == old, "internal inconsistency: section maps disagree at old section \(old)")
            }
            for (new, old) in sectionNewToOld.enumerated() where old >= 0 {
                require(sectionOldToNew[old] == new, "internal inconsistency: section maps disagree at new section \(new)")
            }
            for starts in [oldStarts, newStarts] {
                require(starts.first == 0, "internal inconsistency: row starts begin at \(starts.first ?? -1)")
                for (a, b) in zip(starts, starts.dropFirst()) {
                    require(a <= b, "internal inconsistency: row starts decrease")
                }
            }
            require(
                rowSource.count == newStarts[newStarts.count - 1] && rowChanged.count == rowSource.count
                    && oldRowMatched.count == oldStarts[oldStarts.count - 1],
                "internal inconsistency: row arrays do not match the row counts"
            )
            var seen = [Bool](repeating: false, count: oldRowMatched.count)
            var matched = 0
            for (new, source) in rowSource.enumerated() where source >= 0 {
                let section = source >> 32
                let row = source & 0xFFFF_FFFF
                require(
                    section < sectionOldToNew.count && row < oldStarts[section + 1] - oldStarts[section],
                    "internal inconsistency: new row \(new) points to old row \(section).\(row), which does not exist"
                )
                let flat = oldStarts[section] + row
                require(!seen[flat] && oldRowMatched[flat], "internal inconsistency: old row \(section).\(row) matched twice or unmarked")
                seen[flat] = true
                matched += 1
            }
            require(
                matched == matchedRowCount && oldRowMatched.count(where: { $0 }) == matched,
                "internal inconsistency: \(matched) rows matched, \(matchedRowCount) counted"
            )
        }
    #else
        @inlinable @inline(__always)
        func _checkInvariants() {}
    #endif
}
