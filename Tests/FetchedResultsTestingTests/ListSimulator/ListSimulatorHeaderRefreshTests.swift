import FetchedResultsTesting
import Foundation
import Testing

/// Header refreshes (`ListChanges.reconfiguredSections`): a strict simulator accepts one of a
/// section that exists after its batch and was not inserted or reloaded by it, changes nothing
/// for it, and logs it; it rejects the others with the rule they break.
@Suite("ListSimulator header refreshes")
struct ListSimulatorHeaderRefreshTests {
    /// The sections whose headers the logged operations refreshed, with their identifiers.
    func refreshedHeaders(_ table: Table) -> [String] {
        table.operations.compactMap { operation in
            if case let .reconfigureSection(section, id) = operation { "\(section):\(id)" } else { nil }
        }
    }

    @Test func aHeaderRefreshAloneChangesNothingAndIsLogged() throws {
        let old = state(("a", [1, 2]), ("b", [3]))
        let table = Table(old)
        try table.apply(ListChanges(reconfiguredSections: [1]), newState: old)
        #expect(table.sections == old)
        #expect(refreshedHeaders(table) == ["1:b"])
        #expect(table.batchCount == 1)
        #expect(table.logDescription == "batch 1/1:\n  reconfigure section header 1 (b)")
    }

    @Test func aHeaderRefreshNamesTheSectionWhereTheBatchLeavesIt() throws {
        let old = state(("a", [1]), ("b", [2]), ("c", [3]))
        // "c" moves to the top and "a" loses its row: their headers are refreshed where
        // they are after the batch.
        let new = state(("c", [3]), ("a", []), ("b", [2]))
        let table = Table(old)
        try table.apply(
            ListChanges(movedSections: [.init(from: 2, to: 0)], deletedRows: [ip(0, 0)], reconfiguredSections: [1, 0]),
            newState: new)
        #expect(table.sections == new)
        #expect(refreshedHeaders(table) == ["0:c", "1:a"])
    }

    @Test func stagedHeaderRefreshesAreAppliedInTheLastStage() throws {
        let old = state(("a", [1, 2]), ("b", [3]))
        let new = state(("n", [9]), ("a", [2, 1]), ("b", [3]), changed: [1])
        let changes = ListChanges(
            insertedSections: [0],
            movedRows: [.init(from: ip(0, 0), to: ip(1, 1))],
            reconfiguredRows: [ip(0, 0)],
            reconfiguredSections: [2, 1]
        )
        let table = Table(old)
        try table.apply(stages: changes.staged(), newState: new)
        #expect(table.sections == new)
        #expect(refreshedHeaders(table) == ["1:a", "2:b"])
        #expect(table.operations.last == .reconfigureSection(2, id: "b"))
    }

    @Test func aHeaderRefreshOfAMissingSectionBreaksRule4() throws {
        let old = state(("a", [1]), ("b", [2]))
        let table = Table(old)
        let changes = ListChanges(deletedSections: [1], reconfiguredSections: [1])
        #expect(throws: ListSimulatorError.rejected(
            .sectionOutOfBounds(.reconfigure, section: 1, sectionCount: 1), stage: 1, stageCount: 1, changes: changes)
        ) {
            try table.apply(changes, newState: state(("a", [1])))
        }
        #expect(table.sections == old)
        #expect(table.operations.isEmpty)
    }

    @Test func aHeaderRefreshOfAnInsertedSectionBreaksRule8() {
        let old = state(("a", [1]))
        let table = Table(old)
        let changes = ListChanges(insertedSections: [0], reconfiguredSections: [0])
        do {
            try table.apply(changes, newState: state(("n", []), ("a", [1])))
            Issue.record("a header refresh of an inserted section was accepted")
        } catch {
            #expect(error.batchError == .reconfiguredSectionReplaced(section: 0, .insert))
            #expect(error.rule == 8)
            #expect(error.description.contains("attempt to reconfigure section 0, which the same update inserts"))
        }
        #expect(table.sections == old)
        #expect(table.failures.isEmpty)
    }

    @Test func aHeaderRefreshOfAReloadedSectionBreaksRule8() {
        let old = state(("a", [1]), ("b", [2]))
        let error = Table.check(
            applying: [ListChanges(reloadedSections: [1], reconfiguredSections: [1])],
            from: old, to: state(("a", [1]), ("b", [5])))
        #expect(error?.batchError == .reconfiguredSectionReplaced(section: 1, .reload))
    }

    @Test func aHeaderRefreshOfASectionAnEarlierStageInsertedIsAccepted() throws {
        // Not the same batch: the section is on display when the later stage refreshes it.
        let old = state(("a", [1]))
        let new = state(("n", []), ("a", [1]))
        let table = Table(old)
        try table.apply(stages: [ListChanges(insertedSections: [0]), ListChanges(reconfiguredSections: [0])], newState: new)
        #expect(refreshedHeaders(table) == ["0:n"])
    }

    @Test func aRejectedHeaderRefreshIsRecordedAsAFailureOfTheTarget() {
        var data = state(("a", [1]))
        let table = Table { data }
        data = state(("a", [1]), ("b", []))
        table.performBatch(stages: [ListChanges(insertedSections: [1], reconfiguredSections: [1])])
        #expect(table.failures.first?.rule == 8)
        #expect(table.sections == state(("a", [1])))
    }
}
