import FetchedResultsTesting
import Foundation
import ListUpdates
import Testing

/// Expects the staged `changes`, applied to `old` by a strict `ListSimulator`, to produce
/// `new` — identifiers and cell contents, so a changed row that was not refreshed fails.
@discardableResult
func expectReproduces<SectionID: Hashable, RowID: Hashable>(
    _ changes: ListChanges,
    from old: [ListSimulator<SectionID, RowID, String>.Section],
    to new: [ListSimulator<SectionID, RowID, String>.Section],
    _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    expectApplying(stages: changes.staged(), from: old, yields: new, strict: true, comment, sourceLocation: sourceLocation)
}
