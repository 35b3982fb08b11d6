import Foundation

extension ListChanges {
    /// Checks that a list view accepts this value as one batch update (one *stage*).
    ///
    /// The check follows the batch rules: bounds (rules 4–5), conflicts (6–11) and counts
    /// (13) always; duplicate row deletes (14), row changes inside moved sections (15) and
    /// reconfigures of rows whose position the batch changes (16) in strict mode. Row changes inside deleted or inserted sections and exact duplicate
    /// moves are dropped before counting (rules 12 and 9), not reported. A reconfigured row
    /// that is also a move source breaks rule 7, as a reloaded one does.
    ///
    /// A reload's after-position (rule 2) is where the row or section lands as a survivor:
    /// inserts and move destinations take their after-positions first, and the surviving rows
    /// or sections, reloaded ones included, fill the remaining positions in their old order.
    /// So a reload never lands on an insert or a move destination, and the reload parts of
    /// rules 8 and 10 hold by construction; a reloaded section that is a move source breaks
    /// rule 10.
    ///
    /// Header refreshes (``reconfiguredSections``) are positions after the batch: each must
    /// exist after it (rule 4) and be neither inserted nor reloaded by it (rule 8). They change
    /// no count.
    ///
    /// The rest of rule 16 (a moved row whose content changed) and rule 17 depend on cell
    /// contents and on the view, which this check does not see; `ListSimulator` enforces them.
    ///
    /// - Parameters:
    ///   - beforeRowCounts: The number of rows in each section before the batch, in section
    ///     order (what the list displays now).
    ///   - afterRowCounts: The number of rows in each section after the batch (what the data
    ///     source will report), or `nil` to derive them: then the section and row counts of
    ///     every surviving section follow from the changes, and rows inserted into inserted
    ///     or reloaded sections are not bounds-checked.
    ///   - strict: Whether to reject tier B batches too (rules 14, 15 and 16).
    /// - Throws: The first ``BatchUpdateError`` found, checking rules in order.
    /// - Complexity: O(c log c + s) for c changes and s sections.
    public func validate(
        beforeRowCounts: [Int],
        afterRowCounts: [Int]? = nil,
        strict: Bool = true
    ) throws(BatchUpdateError) {
        _ = try ValidatedStage(self, beforeRowCounts: beforeRowCounts, afterRowCounts: afterRowCounts, strict: strict)
    }

    /// The number of rows in each section after this batch, derived from the changes.
    ///
    /// - Parameters:
    ///   - beforeRowCounts: The number of rows in each section before the batch.
    ///   - strict: Whether tier B rules (14, 15 and 16) are checked too.
    /// - Returns: One entry per section after the batch: the derived row count, or `nil` for
    ///   an inserted or reloaded section, whose rows come from the data source.
    /// - Throws: A ``BatchUpdateError`` when the batch breaks a rule that can be checked
    ///   without the counts after it.
    /// - Complexity: O(c log c + s) for c changes and s sections.
    public func rowCountsAfter(
        beforeRowCounts: [Int],
        strict: Bool = true
    ) throws(BatchUpdateError) -> [Int?] {
        try ValidatedStage(self, beforeRowCounts: beforeRowCounts, afterRowCounts: nil, strict: strict)
            .afterRowCounts
    }
}

extension ListChanges {
    /// Checks that a list view accepts these stages as one update: batches performed one after
    /// another while the data source already holds the final state.
    ///
    /// A view validates every stage against the data source's counts, the final ones. So the
    /// first stage goes from `beforeRowCounts` to `afterRowCounts`, and every later stage
    /// (a refresh-only stage, when `staged()` made them) from `afterRowCounts` to
    /// `afterRowCounts`. No stage at all is valid only when the counts do not change.
    ///
    /// - Parameters:
    ///   - stages: The batches, in order.
    ///   - beforeRowCounts: The number of rows in each section before the update.
    ///   - afterRowCounts: The number of rows in each section after the update.
    ///   - strict: Whether to reject tier B batches too (rules 14, 15 and 16).
    /// - Throws: The first ``BatchUpdateError`` of the first stage that breaks a rule.
    /// - Complexity: O(c log c + k·s) for c changes over k stages and s sections.
    public static func validate(
        stages: [ListChanges],
        beforeRowCounts: [Int],
        afterRowCounts: [Int],
        strict: Bool = true
    ) throws(BatchUpdateError) {
        var counts = beforeRowCounts
        // No stage at all leaves the list as it was, which the counts must then agree with.
        for stage in stages.isEmpty ? [ListChanges()] : stages {
            try stage.validate(beforeRowCounts: counts, afterRowCounts: afterRowCounts, strict: strict)
            counts = afterRowCounts
        }
    }
}
