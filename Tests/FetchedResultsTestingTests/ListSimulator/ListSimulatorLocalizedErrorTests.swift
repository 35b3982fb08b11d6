import FetchedResultsTesting
import Foundation
import ListUpdates
import Testing

/// `ListSimulatorError` speaks through `localizedDescription` and says there what its
/// `description` says.
@Suite("ListSimulatorError: localizedDescription")
struct ListSimulatorLocalizedErrorTests {
    @Test func localizedDescriptionIsTheDescription() {
        let error = ListSimulatorError.rejected(
            .sectionDeletedAndReloaded(section: 0), stage: 0, stageCount: 1,
            changes: ListChanges(deletedSections: [0], reloadedSections: [0])
        )
        #expect(error.localizedDescription == error.description)
    }
}
