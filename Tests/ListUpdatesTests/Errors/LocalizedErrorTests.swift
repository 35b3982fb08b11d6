import Foundation
import ListUpdates
import Testing

/// Errors speak through `localizedDescription`, which UI code and loggers show, and say there
/// what their `description` says.
@Suite("ListUpdates errors: localizedDescription")
struct ListUpdatesLocalizedErrorTests {
    @Test func localizedDescriptionIsTheDescription() {
        let errors: [any Error & CustomStringConvertible] = [
            ListDiffError.duplicateSectionIdentifier(identifier: "Fridge", side: .new, first: 0, second: 2),
            BatchUpdateError.sectionDeletedAndReloaded(section: 1),
        ]
        for error in errors {
            #expect(error.localizedDescription == error.description)
        }
    }

    @Test func aRejectedBatchSaysWhy() {
        let changes = ListChanges(insertedRows: [IndexPath(row: 5, section: 0)])
        let error = #expect(throws: BatchUpdateError.self) {
            try changes.validate(beforeRowCounts: [1], afterRowCounts: [2])
        }
        #expect(error?.localizedDescription == error?.description)
        #expect(error?.localizedDescription.contains("could not be completed") == false)
    }
}
