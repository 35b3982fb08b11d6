extension ListScreen {
    #if FRK_INVARIANT_CHECKS
    /// Checks that the displayed copy is consistent: one name, index title, count and start
    /// per section, the starts are the running sums of the counts, and the
    /// cursor is on a row (or 0 when there are none).
    func _checkInvariants() {
        precondition(
            sectionNames.count == rowCounts.count && indexTitles.count == rowCounts.count
                && sectionStarts.count == rowCounts.count,
            "ListScreen: per-section arrays disagree in length")
        var start = 0
        for section in rowCounts.indices {
            precondition(rowCounts[section] >= 0, "ListScreen: section \(section) count")
            precondition(sectionStarts[section] == start, "ListScreen: section \(section) start")
            start += rowCounts[section]
        }
        precondition(totalRows == 0 ? cursor == 0 : (0..<totalRows).contains(cursor), "ListScreen: cursor \(cursor) of \(totalRows)")
    }
    #else
    @inline(__always)
    func _checkInvariants() {}
    #endif
}
