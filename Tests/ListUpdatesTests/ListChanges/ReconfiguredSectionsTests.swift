import Foundation
import ListUpdates
import Testing

private func path(_ section: Int, _ row: Int) -> IndexPath { IndexPath(row: row, section: section) }

/// `ListChanges.reconfiguredSections`: header refreshes, named by positions after the change.
@Suite("ListChanges header refreshes")
struct ReconfiguredSectionsTests {
    // MARK: The field

    @Test func theFieldDefaultsToEmptyAndIsAChangeThatDoesNotCount() {
        #expect(ListChanges().reconfiguredSections.isEmpty)
        let refresh = ListChanges(reconfiguredSections: [1])
        #expect(!refresh.isEmpty)
        #expect(refresh.count == 0)
        #expect(ListChanges(insertedSections: [0], reconfiguredSections: [2, 3]).count == 1)
    }

    @Test func equalityIgnoresOrderAndDuplicatesAndSeesTheField() {
        #expect(ListChanges(reconfiguredSections: [2, 0, 2]) == ListChanges(reconfiguredSections: [0, 2]))
        #expect(ListChanges(reconfiguredSections: [0]) != ListChanges(reconfiguredSections: [1]))
        #expect(ListChanges(reconfiguredSections: [0]) != ListChanges())
        #expect(ListChanges(reconfiguredSections: [3, 1]).normalized().reconfiguredSections == [1, 3])
    }

    @Test func descriptionShowsHeaderRefreshes() {
        let changes = ListChanges(insertedSections: [0], reconfiguredRows: [path(1, 0)], reconfiguredSections: [2, 1])
        #expect(changes.description == "ListChanges(+s[0] ~[1.0] ~s[1, 2])")
    }

    // MARK: Staging

    @Test func headerRefreshesAloneAreOneStage() {
        #expect(ListChanges(reconfiguredSections: [3, 1, 3]).staged() == [ListChanges(reconfiguredSections: [1, 3])])
        #expect(ListChanges(reconfiguredSections: [3, 1]).staged()[0].reconfiguredSections == [1, 3])
    }

    @Test func headerRefreshesJoinTheOnlyStage() {
        // Section 2 (before) moves to 0; the header of its destination and of old section 0,
        // now 1, are refreshed after the batch.
        let changes = ListChanges(
            movedSections: [.init(from: 2, to: 0)],
            deletedRows: [path(1, 0)],
            reconfiguredSections: [1, 0]
        )
        let stages = changes.staged()
        #expect(stages.count == 1)
        #expect(stages.first?.reconfiguredSections == [0, 1])
        #expect(stages.first?.movedSections == [.init(from: 2, to: 0)])
    }

    @Test func headerRefreshesGoInTheLastStageAtPositionsAfterTheWholeChange() {
        // A moved row that changed needs a refresh stage; the header refreshes follow it there.
        let changes = ListChanges(
            insertedSections: [0],
            movedRows: [.init(from: path(0, 0), to: path(1, 2))],
            reconfiguredRows: [path(0, 0)],
            reconfiguredSections: [1, 2]
        )
        let stages = changes.staged()
        #expect(stages.count == 2)
        #expect(stages.first?.reconfiguredSections == [])
        #expect(stages.last?.reconfiguredSections == [1, 2])
        #expect(stages.last?.reconfiguredRows == [path(1, 2)])
    }

    @Test func headerRefreshesFollowRowChangesOfAMovedSectionIntoTheirStage() {
        // Section 0 moves to 1 with a row reconfigured inside it: the move goes first, the
        // row change in a second stage, and the header refresh in the last.
        let changes = ListChanges(
            movedSections: [.init(from: 0, to: 1)],
            reconfiguredRows: [path(0, 0)],
            reconfiguredSections: [1]
        )
        let stages = changes.staged()
        #expect(stages.count == 2)
        #expect(stages.dropLast().allSatisfy { $0.reconfiguredSections.isEmpty })
        #expect(stages.last?.reconfiguredSections == [1])
    }

    @Test func stagingDropsHeaderRefreshesOfSectionsItInsertsOrReloads() {
        // Inserted at 0: its header is new.
        #expect(ListChanges(insertedSections: [0], reconfiguredSections: [0, 1]).staged() == [
            ListChanges(insertedSections: [0], reconfiguredSections: [1])
        ])
        // Section 1 reloaded lands at 2 after an insert at 0: its header is new too.
        #expect(ListChanges(insertedSections: [0], reloadedSections: [1], reconfiguredSections: [1, 2]).staged() == [
            ListChanges(insertedSections: [0], reloadedSections: [1], reconfiguredSections: [1])
        ])
        // A moved section whose row count changes is rebuilt as a delete plus an insert.
        let rebuilt = ListChanges(
            movedSections: [.init(from: 0, to: 1)],
            deletedRows: [path(0, 0)],
            reconfiguredSections: [1, 0]
        ).staged()
        #expect(rebuilt == [
            ListChanges(deletedSections: [0], insertedSections: [1], reconfiguredSections: [0])
        ])
    }

    @Test func stagedHeaderRefreshesAreValidAgainstTheCounts() throws {
        let changes = ListChanges(
            deletedSections: [0],
            insertedSections: [2],
            movedRows: [.init(from: path(1, 0), to: path(0, 1))],
            reconfiguredRows: [path(1, 0)],
            reconfiguredSections: [0, 1]
        )
        #expect(changes.staged().count == 2)
        try ListChanges.validate(stages: changes.staged(), beforeRowCounts: [1, 2, 3], afterRowCounts: [2, 3, 0])
    }

    // MARK: Validation

    func error(_ changes: ListChanges, before: [Int], after: [Int]? = nil) -> BatchUpdateError? {
        do {
            try changes.validate(beforeRowCounts: before, afterRowCounts: after)
            return nil
        } catch {
            return error
        }
    }

    @Test func aHeaderRefreshNamesASectionAfterTheBatch() throws {
        // Two sections before; one inserted at 0, so old section 1 is section 2 after.
        let changes = ListChanges(insertedSections: [0], reconfiguredSections: [2])
        #expect(error(changes, before: [1, 1], after: [0, 1, 1]) == nil)
        // A moved section is refreshed at its destination.
        #expect(error(ListChanges(movedSections: [.init(from: 0, to: 1)], reconfiguredSections: [1]), before: [1, 2]) == nil)
        // A header refresh changes no count.
        #expect(try ListChanges(reconfiguredSections: [0]).rowCountsAfter(beforeRowCounts: [4]) == [4])
    }

    @Test func aHeaderRefreshOutOfBoundsBreaksRule4() {
        let deleted = ListChanges(deletedSections: [1], reconfiguredSections: [1])
        #expect(error(deleted, before: [1, 1]) == .sectionOutOfBounds(.reconfigure, section: 1, sectionCount: 1))
        #expect(error(deleted, before: [1, 1])?.rule == 4)
        #expect(
            error(ListChanges(reconfiguredSections: [1]), before: [3])?.description
                == "Invalid update (rule 4): attempt to reconfigure section 1, but there are only 1 section after the update"
        )
    }

    @Test func aHeaderRefreshOfAnInsertedOrReloadedSectionBreaksRule8() {
        let inserted = error(ListChanges(insertedSections: [1], reconfiguredSections: [1]), before: [1], after: [1, 0])
        #expect(inserted == .reconfiguredSectionReplaced(section: 1, .insert))
        #expect(inserted?.rule == 8)
        #expect(inserted?.isStrictOnly == false)
        // Section 0 reloaded is section 1 after an insert at 0.
        let reloaded = error(
            ListChanges(insertedSections: [0], reloadedSections: [0], reconfiguredSections: [1]), before: [2], after: [0, 2])
        #expect(reloaded == .reconfiguredSectionReplaced(section: 1, .reload))
        #expect(
            reloaded?.description
                == "Invalid update (rule 8): attempt to reconfigure section 1, which the same update reloads; "
                + "a reloaded section shows its new header already"
        )
    }
}
