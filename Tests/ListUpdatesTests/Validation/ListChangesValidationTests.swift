import Foundation
import ListUpdates
import Testing

@Suite("ListChanges validation")
struct ListChangesValidationTests {
    func ip(_ section: Int, _ row: Int) -> IndexPath { IndexPath(row: row, section: section) }

    func error(
        _ changes: ListChanges, before: [Int], after: [Int]? = nil, strict: Bool = true
    ) -> BatchUpdateError? {
        do {
            try changes.validate(beforeRowCounts: before, afterRowCounts: after, strict: strict)
            return nil
        } catch {
            return error
        }
    }

    @Test func derivesTheCountsAfterTheBatch() throws {
        let changes = ListChanges(
            deletedSections: [1],
            insertedSections: [0],
            deletedRows: [ip(0, 0), ip(1, 0)],
            insertedRows: [ip(2, 0), ip(2, 1), ip(0, 3)],
            movedRows: [.init(from: ip(2, 1), to: ip(1, 0))]
        )
        // Before: 3 sections [2, 1, 4]. After: inserted, old 0, old 2.
        let counts = try changes.rowCountsAfter(beforeRowCounts: [2, 1, 4])
        #expect(counts == [nil, 2, 5])
        #expect(error(changes, before: [2, 1, 4]) == nil)
        #expect(error(changes, before: [2, 1, 4], after: [7, 2, 5]) == nil)
        #expect(error(changes, before: [2, 1, 4], after: [7, 2, 6]) == .invalidRowCount(
            section: 2, sectionBefore: 2, after: 6, before: 4, inserted: 2, deleted: 0, movedIn: 0, movedOut: 1
        ))
    }

    @Test func derivedCountsBoundAfterPositions() {
        // One insert into a section of 3 makes 4 rows; row 5 does not exist after.
        #expect(error(ListChanges(insertedRows: [ip(0, 5)]), before: [3]) == .rowOutOfBounds(
            .insert, indexPath: ip(0, 5), sectionCount: 1, rowCount: 4
        ))
        #expect(error(ListChanges(insertedSections: [4]), before: [1, 1]) == .sectionOutOfBounds(
            .insert, section: 4, sectionCount: 3
        ))
        // Rows of an inserted section come from the data source: not bounded without counts.
        #expect(error(ListChanges(insertedSections: [0], insertedRows: [ip(0, 9)]), before: []) == nil)
        // With counts they are.
        #expect(error(ListChanges(insertedSections: [0], insertedRows: [ip(0, 9)]), before: [], after: [2]) == .rowOutOfBounds(
            .insert, indexPath: ip(0, 9), sectionCount: 1, rowCount: 2
        ))
    }

    @Test func givenSectionCountMustBalance() {
        #expect(error(ListChanges(), before: [1, 2], after: [1]) == .invalidSectionCount(
            after: 1, before: 2, inserted: 0, deleted: 0
        ))
        #expect(error(ListChanges(deletedSections: [0]), before: [1, 2], after: [2]) == nil)
    }

    @Test func strictRulesAreOptional() throws {
        let duplicate = ListChanges(deletedRows: [ip(0, 1), ip(0, 1)])
        #expect(error(duplicate, before: [2])?.rule == 14)
        #expect(error(duplicate, before: [2], strict: false) == nil)
        #expect(try duplicate.rowCountsAfter(beforeRowCounts: [2], strict: false) == [1])
        let inMovedSection = ListChanges(movedSections: [.init(from: 0, to: 1)], reloadedRows: [ip(0, 0)])
        #expect(error(inMovedSection, before: [1, 1])?.rule == 15)
        #expect(error(inMovedSection, before: [1, 1], strict: false) == nil)
        // Duplicate deletes inside a deleted section are folded away before rule 14 looks.
        #expect(error(ListChanges(deletedSections: [0], deletedRows: [ip(0, 0), ip(0, 0)]), before: [1, 1]) == nil)
    }

    @Test func rowChangesInsideReloadedSectionsAreDropped() throws {
        let changes = ListChanges(reloadedSections: [0], deletedRows: [ip(0, 0)], insertedRows: [ip(0, 4)])
        #expect(error(changes, before: [2]) == nil)
        #expect(try changes.rowCountsAfter(beforeRowCounts: [2]) == [nil])
        #expect(error(changes, before: [2], after: [7]) == nil)
    }

    @Test func aReconfiguredRowIsNotAMoveSourceInOneStage() {
        let changes = ListChanges(movedRows: [.init(from: ip(0, 0), to: ip(0, 1))], reconfiguredRows: [ip(0, 0)])
        #expect(error(changes, before: [2]) == .rowMoveFromChanged(.init(from: ip(0, 0), to: ip(0, 1)), .reconfigure))
        // In a refresh-only stage the before- and after-positions are the same.
        #expect(error(ListChanges(reconfiguredRows: [ip(0, 1)]), before: [2], after: [2]) == nil)
    }

    @Test func stagesAreEachCheckedAgainstTheFinalCounts() throws {
        let move = ListChanges(movedRows: [.init(from: ip(0, 0), to: ip(1, 0))])
        try ListChanges.validate(
            stages: [move, ListChanges(reconfiguredRows: [ip(1, 0)])], beforeRowCounts: [2, 1], afterRowCounts: [1, 2]
        )
        // The refresh stage runs on the final state: section 0 has one row left.
        #expect(throws: BatchUpdateError.rowOutOfBounds(.reconfigure, indexPath: ip(0, 1), sectionCount: 2, rowCount: 1)) {
            try ListChanges.validate(
                stages: [move, ListChanges(reconfiguredRows: [ip(0, 1)])], beforeRowCounts: [2, 1], afterRowCounts: [1, 2]
            )
        }
        // A structural later stage must keep the final counts.
        #expect(throws: BatchUpdateError.self) {
            try ListChanges.validate(
                stages: [move, ListChanges(deletedRows: [ip(0, 0)])], beforeRowCounts: [2, 1], afterRowCounts: [1, 2]
            )
        }
        try ListChanges.validate(stages: [], beforeRowCounts: [1], afterRowCounts: [1])
        #expect(throws: BatchUpdateError.self) {
            try ListChanges.validate(stages: [], beforeRowCounts: [1], afterRowCounts: [2])
        }
    }

    @Test func boundsAreCheckedBeforeConflictsAndCounts() {
        let changes = ListChanges(deletedRows: [ip(0, 0), ip(0, 7)], reloadedRows: [ip(0, 0)])
        #expect(error(changes, before: [2], after: [9])?.rule == 5)
        #expect(error(ListChanges(deletedRows: [ip(0, 0)], reloadedRows: [ip(0, 0)]), before: [2], after: [9])?.rule == 6)
    }

    @Test func everyCaseNamesItsRuleAndTier() {
        let move = ListChanges.RowMove(from: ip(0, 0), to: ip(0, 1))
        let sectionMove = ListChanges.SectionMove(from: 0, to: 1)
        let cases: [(BatchUpdateError, Int)] = [
            (.sectionOutOfBounds(.moveSource, section: 3, sectionCount: 1), 4),
            (.rowOutOfBounds(.moveDestination, indexPath: ip(0, 3), sectionCount: 1, rowCount: 1), 5),
            (.sectionDeletedAndReloaded(section: 0), 6),
            (.rowChangedTwice(indexPath: ip(0, 0), .delete, .reload), 6),
            (.sectionMoveFromDeleted(sectionMove), 7),
            (.rowMoveFromChanged(move, .delete), 7),
            (.sectionMoveToInserted(sectionMove), 8),
            (.rowMoveToInserted(move), 8),
            (.conflictingSectionMoves(sectionMove, .init(from: 0, to: 2)), 9),
            (.conflictingRowMoves(move, .init(from: ip(0, 0), to: ip(0, 2))), 9),
            (.reloadedSectionMoved(sectionMove), 10),
            (.rowMoveOutOfReplacedSection(move, section: 0, .delete), 11),
            (.rowMoveIntoReplacedSection(move, section: 0, .insert), 11),
            (.invalidSectionCount(after: 1, before: 2, inserted: 0, deleted: 0), 13),
            (.invalidRowCount(section: 0, sectionBefore: 0, after: 1, before: 2, inserted: 0, deleted: 0, movedIn: 0, movedOut: 0), 13),
            (.duplicateRowDelete(indexPath: ip(0, 0), count: 2), 14),
            (.rowChangeInMovedSection(sectionMove, .insert, indexPath: ip(1, 0)), 15),
            (.movedRowNotRefreshed(from: ip(0, 0), to: ip(0, 1), shown: "a", current: "b"), 16),
            (.reconfiguredRowShifts(from: ip(0, 0), to: ip(0, 1)), 16),
            (.batchWhileNotVisible, 17),
        ]
        for (error, rule) in cases {
            #expect(error.rule == rule)
            #expect(error.isStrictOnly == (rule >= 14))
            let prefix = rule >= 14 ? "Unsafe update (strict rule \(rule)): " : "Invalid update (rule \(rule)): "
            #expect(error.description.hasPrefix(prefix), "\(error)")
        }
        #expect(BatchUpdateError.rowOutOfBounds(.moveDestination, indexPath: ip(0, 3), sectionCount: 1, rowCount: 1).description
            == "Invalid update (rule 5): attempt to move a row to row 3 of section 0, but section 0 contains only 1 row after the update")
        #expect(BatchUpdateError.conflictingSectionMoves(sectionMove, .init(from: 2, to: 1)).description
            == "Invalid update (rule 9): attempt to move both section 0 and section 2 to section 1")
    }
}
