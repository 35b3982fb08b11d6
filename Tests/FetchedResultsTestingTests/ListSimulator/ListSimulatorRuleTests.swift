import FetchedResultsTesting
import Foundation
import Testing

/// Each rule of the batch rules: the legal form is accepted and yields the new state, the
/// illegal form is rejected with an error naming the rule and its positions.
@Suite("ListSimulator batch rules")
struct ListSimulatorRuleTests {
    /// Applies `changes` to a strict simulator showing `old`, expects it to throw, and
    /// returns the error after checking that the simulator's state did not change.
    func rejection(
        _ changes: ListChanges, from old: [Table.Section], to new: [Table.Section], strict: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> ListSimulatorError? {
        let table = Table(old, strict: strict)
        do {
            try table.apply(changes, newState: new)
            Issue.record("expected \(changes) to be rejected", sourceLocation: sourceLocation)
            return nil
        } catch {
            #expect(table.sections == old, "state changed after an error", sourceLocation: sourceLocation)
            #expect(table.operations.isEmpty, sourceLocation: sourceLocation)
            #expect(table.batchCount == 0, sourceLocation: sourceLocation)
            return error
        }
    }

    /// Applies `changes` and expects it to be accepted and to yield `new`.
    func accepts(
        _ changes: ListChanges, from old: [Table.Section], to new: [Table.Section], strict: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let table = Table(old, strict: strict)
        do {
            try table.apply(changes, newState: new)
            #expect(table.sections == new, sourceLocation: sourceLocation)
            #expect(table.batchCount == 1, sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected \(changes) to be accepted: \(error)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Index spaces (1–3)

    @Test func rule1DeletesNameBeforeAndInsertsNameAfterPositions() {
        let old = state(("A", [1, 2, 3, 4]))
        let new = state(("A", [2, 3, 5, 4]))
        accepts(ListChanges(deletedRows: [ip(0, 0)], insertedRows: [ip(0, 2)]), from: old, to: new)
        // The order of calls inside a batch does not matter.
        accepts(
            ListChanges(deletedRows: [ip(0, 2), ip(0, 0)], insertedRows: [ip(0, 3), ip(0, 0)]),
            from: old, to: state(("A", [6, 2, 4, 7]))
        )
        // An insert at its before-position (3) lands one row too far.
        let error = rejection(ListChanges(deletedRows: [ip(0, 0)], insertedRows: [ip(0, 3)]), from: old, to: new)
        #expect(error?.difference?.elements.contains(.rowID(ip(0, 2), actual: "4", expected: "5")) == true)
    }

    @Test func rule2AReloadIsADeleteAndAnInsertAtTheMatchingAfterPosition() {
        let old = state(("A", [1, 2, 3]))
        let new = state(("A", [2, 3]), changed: [2])
        let table = Table(old)
        #expect(throws: Never.self) {
            try table.apply(ListChanges(deletedRows: [ip(0, 0)], reloadedRows: [ip(0, 1)]), newState: new)
        }
        #expect(table.sections == new)
        #expect(table.operations.contains(.reloadRow(from: ip(0, 1), to: ip(0, 0), id: "2")))
        // A reload recreates the same row: a position that now shows another row is a delete
        // and an insert, not a reload.
        let replaced = rejection(ListChanges(reloadedRows: [ip(0, 1)]), from: old, to: state(("A", [1, 9, 3])))
        #expect(replaced?.difference?.elements == [.rowID(ip(0, 1), actual: "2", expected: "9")])
        accepts(ListChanges(deletedRows: [ip(0, 1)], insertedRows: [ip(0, 1)]), from: old, to: state(("A", [1, 9, 3])))
        // Naming the reload by its after-position collides with the delete (rule 6).
        let error = rejection(ListChanges(deletedRows: [ip(0, 0)], reloadedRows: [ip(0, 0)]), from: old, to: new)
        #expect(error?.rule == 6)
    }

    @Test func rule3DeletesThenMovesThenInserts() {
        let old = state(("A", [1, 2, 3, 4, 5]))
        let changes = ListChanges(
            deletedRows: [ip(0, 1), ip(0, 3)],
            insertedRows: [ip(0, 4), ip(0, 0)],
            movedRows: [move(ip(0, 4), ip(0, 1))]
        )
        let new = state(("A", [6, 5, 1, 3, 7]))
        let table = Table(old)
        #expect(throws: Never.self) { try table.apply(changes, newState: new) }
        #expect(table.rowIDs == [[6, 5, 1, 3, 7]])
        let kinds = table.operations.map { operation -> String in
            switch operation {
            case let .deleteRow(path, _): "-\(path.listDescription)"
            case let .insertRow(path, _, _): "+\(path.listDescription)"
            case let .moveRow(move, _): "→\(move)"
            default: ""
            }
        }.filter { !$0.isEmpty }
        #expect(kinds == ["-0.1", "-0.3", "→0.4→0.1", "+0.0", "+0.4"].sorted { lhs, rhs in
            // deletes descending in effect are listed per section in row order; the log groups
            // deletes, then moves, then inserts ascending.
            let rank: (String) -> Int = { $0.hasPrefix("-") ? 0 : $0.hasPrefix("→") ? 1 : 2 }
            return rank(lhs) != rank(rhs) ? rank(lhs) < rank(rhs) : lhs < rhs
        })
        // Positions computed as if the inserts came first do not yield the new state.
        let inserted = ListChanges(deletedRows: [ip(0, 0)], insertedRows: [ip(0, 2)])
        let error = rejection(inserted, from: state(("A", [1, 2, 3])), to: state(("A", [2, 4, 3])))
        #expect(error?.difference != nil)
        accepts(ListChanges(deletedRows: [ip(0, 0)], insertedRows: [ip(0, 1)]), from: state(("A", [1, 2, 3])),
                to: state(("A", [2, 4, 3])))
    }

    // MARK: Bounds (4–5)

    @Test func rule4SectionsMustExistInTheirIndexSpace() {
        let old = state(("A", [1]), ("B", [2]))
        accepts(ListChanges(deletedSections: [1]), from: old, to: state(("A", [1])))
        accepts(ListChanges(insertedSections: [2]), from: old, to: state(("A", [1]), ("B", [2]), ("C", [3])))

        let delete = rejection(ListChanges(deletedSections: [2]), from: old, to: state(("A", [1])))
        #expect(delete?.batchError == .sectionOutOfBounds(.delete, section: 2, sectionCount: 2))
        #expect(delete?.description.contains("Invalid update (rule 4): attempt to delete section 2, but there are only 2 sections before the update") == true)

        let insert = rejection(ListChanges(insertedSections: [3]), from: old, to: state(("A", [1]), ("B", [2]), ("C", [3])))
        #expect(insert?.batchError == .sectionOutOfBounds(.insert, section: 3, sectionCount: 3))
        #expect(insert?.description.contains("after the update") == true)

        let moveFrom = rejection(ListChanges(movedSections: [.init(from: 5, to: 0)]), from: old, to: old)
        #expect(moveFrom?.batchError == .sectionOutOfBounds(.moveSource, section: 5, sectionCount: 2))
        let moveTo = rejection(ListChanges(movedSections: [.init(from: 0, to: 2)]), from: old, to: old)
        #expect(moveTo?.batchError == .sectionOutOfBounds(.moveDestination, section: 2, sectionCount: 2))
        let reload = rejection(ListChanges(reloadedSections: [2]), from: old, to: old)
        #expect(reload?.rule == 4)
    }

    @Test func rule5RowsMustExistInTheirIndexSpace() {
        let old = state(("A", [1, 2, 3]))
        accepts(ListChanges(deletedRows: [ip(0, 2)]), from: old, to: state(("A", [1, 2])))

        let delete = rejection(ListChanges(deletedRows: [ip(0, 3)]), from: old, to: state(("A", [1, 2])))
        #expect(delete?.batchError == .rowOutOfBounds(.delete, indexPath: ip(0, 3), sectionCount: 1, rowCount: 3))
        #expect(delete?.description.contains("Invalid update (rule 5): attempt to delete row 3 from section 0, but section 0 contains only 3 rows before the update") == true)

        let insert = rejection(ListChanges(insertedRows: [ip(0, 4)]), from: old, to: state(("A", [1, 2, 3, 4])))
        #expect(insert?.batchError == .rowOutOfBounds(.insert, indexPath: ip(0, 4), sectionCount: 1, rowCount: 4))
        #expect(insert?.description.contains("insert row 4 into section 0, but section 0 contains only 4 rows after the update") == true)

        let missingSection = rejection(ListChanges(reloadedRows: [ip(1, 0)]), from: old, to: old)
        #expect(missingSection?.batchError == .rowOutOfBounds(.reload, indexPath: ip(1, 0), sectionCount: 1, rowCount: nil))
        #expect(missingSection?.description.contains("there are only 1 section before the update") == true)

        let moveFrom = rejection(ListChanges(movedRows: [move(ip(0, 3), ip(0, 0))]), from: old, to: old)
        #expect(moveFrom?.batchError == .rowOutOfBounds(.moveSource, indexPath: ip(0, 3), sectionCount: 1, rowCount: 3))
        let moveTo = rejection(ListChanges(movedRows: [move(ip(0, 0), ip(0, 3))]), from: old, to: old)
        #expect(moveTo?.batchError == .rowOutOfBounds(.moveDestination, indexPath: ip(0, 3), sectionCount: 1, rowCount: 3))
        let reconfigure = rejection(ListChanges(reconfiguredRows: [ip(0, 7)]), from: old, to: old)
        #expect(reconfigure?.batchError == .rowOutOfBounds(.reconfigure, indexPath: ip(0, 7), sectionCount: 1, rowCount: 3))
    }

    // MARK: Conflicts (6–12)

    @Test func rule6APositionIsNotDeletedAndReloaded() {
        let old = state(("A", [1, 2, 3]), ("B", [4]))
        accepts(ListChanges(deletedRows: [ip(0, 0)], reloadedRows: [ip(0, 1)]), from: old, to: state(("A", [2, 3]), ("B", [4]), changed: [2]))

        let rows = rejection(ListChanges(deletedRows: [ip(0, 1)], reloadedRows: [ip(0, 1)]), from: old, to: state(("A", [1, 3]), ("B", [4])))
        #expect(rows?.batchError == .rowChangedTwice(indexPath: ip(0, 1), .delete, .reload))
        #expect(rows?.description.contains("attempt to delete and reload the same index path (0.1)") == true)

        let sections = rejection(ListChanges(deletedSections: [1], reloadedSections: [1]), from: old, to: state(("A", [1, 2, 3])))
        #expect(sections?.batchError == .sectionDeletedAndReloaded(section: 1))

        let reconfigure = rejection(ListChanges(reloadedRows: [ip(0, 1)], reconfiguredRows: [ip(0, 1)]), from: old, to: old)
        #expect(reconfigure?.batchError == .rowChangedTwice(indexPath: ip(0, 1), .reload, .reconfigure))
        let deleteReconfigure = rejection(ListChanges(deletedRows: [ip(0, 1)], reconfiguredRows: [ip(0, 1)]), from: old, to: state(("A", [1, 3]), ("B", [4])))
        #expect(deleteReconfigure?.batchError == .rowChangedTwice(indexPath: ip(0, 1), .delete, .reconfigure))
    }

    @Test func rule7ADeletedReloadedOrReconfiguredPositionIsNotAMoveSource() {
        let old = state(("A", [1, 2, 3]), ("B", [4]))
        let new = state(("A", [2, 3, 1]), ("B", [4]))
        accepts(ListChanges(movedRows: [move(ip(0, 0), ip(0, 2))]), from: old, to: new)

        let delete = rejection(ListChanges(deletedRows: [ip(0, 0)], movedRows: [move(ip(0, 0), ip(0, 1))]), from: old, to: new)
        #expect(delete?.batchError == .rowMoveFromChanged(move(ip(0, 0), ip(0, 1)), .delete))
        #expect(delete?.description.contains("attempt to perform a delete and a move from the same index path (0.0)") == true)
        let reload = rejection(ListChanges(movedRows: [move(ip(0, 0), ip(0, 2))], reloadedRows: [ip(0, 0)]), from: old, to: new)
        #expect(reload?.batchError == .rowMoveFromChanged(move(ip(0, 0), ip(0, 2)), .reload))
        let reconfigure = rejection(ListChanges(movedRows: [move(ip(0, 0), ip(0, 2))], reconfiguredRows: [ip(0, 0)]), from: old, to: new)
        #expect(reconfigure?.batchError == .rowMoveFromChanged(move(ip(0, 0), ip(0, 2)), .reconfigure))
        #expect(reconfigure?.description.contains("later batch") == true)

        let sections = rejection(ListChanges(deletedSections: [0], movedSections: [.init(from: 0, to: 0)]), from: old, to: state(("B", [4])))
        #expect(sections?.batchError == .sectionMoveFromDeleted(.init(from: 0, to: 0)))
    }

    @Test func rule8AnInsertedPositionIsNotAMoveDestination() {
        let old = state(("A", [1, 2]), ("B", [3]))
        accepts(ListChanges(insertedRows: [ip(0, 0)], movedRows: [move(ip(0, 1), ip(0, 1))]), from: old, to: state(("A", [9, 2, 1]), ("B", [3])))

        let rows = rejection(ListChanges(insertedRows: [ip(0, 1)], movedRows: [move(ip(0, 0), ip(0, 1))]), from: old, to: state(("A", [2, 9]), ("B", [3])))
        #expect(rows?.batchError == .rowMoveToInserted(move(ip(0, 0), ip(0, 1))))
        #expect(rows?.description.contains("attempt to perform an insert and a move to the same index path (0.1)") == true)

        let sections = rejection(
            ListChanges(insertedSections: [1], movedSections: [.init(from: 0, to: 1)]),
            from: old, to: state(("B", [3]), ("C", []), ("A", [1, 2]))
        )
        #expect(sections?.batchError == .sectionMoveToInserted(.init(from: 0, to: 1)))
    }

    @Test func rule9MovesHaveOneSourceAndOneDestination() {
        let old = state(("A", [1, 2, 3]), ("B", [4]))
        // An exact duplicate move is dropped.
        accepts(ListChanges(movedRows: [move(ip(0, 0), ip(0, 2)), move(ip(0, 0), ip(0, 2))]), from: old, to: state(("A", [2, 3, 1]), ("B", [4])))
        accepts(
            ListChanges(movedSections: [.init(from: 0, to: 1), .init(from: 0, to: 1)]),
            from: old, to: state(("B", [4]), ("A", [1, 2, 3]))
        )

        let twoDestinations = rejection(ListChanges(movedRows: [move(ip(0, 0), ip(0, 1)), move(ip(0, 0), ip(0, 2))]), from: old, to: old)
        #expect(twoDestinations?.batchError == .conflictingRowMoves(move(ip(0, 0), ip(0, 1)), move(ip(0, 0), ip(0, 2))))
        #expect(twoDestinations?.description.contains("attempt to move index path 0.0 to both 0.1 and 0.2") == true)

        let twoSources = rejection(ListChanges(movedRows: [move(ip(0, 0), ip(0, 2)), move(ip(0, 1), ip(0, 2))]), from: old, to: old)
        #expect(twoSources?.batchError == .conflictingRowMoves(move(ip(0, 0), ip(0, 2)), move(ip(0, 1), ip(0, 2))))
        #expect(twoSources?.description.contains("attempt to move both 0.0 and 0.1 to the same index path 0.2") == true)

        let sections = rejection(ListChanges(movedSections: [.init(from: 0, to: 1), .init(from: 1, to: 1)]), from: old, to: old)
        #expect(sections?.batchError == .conflictingSectionMoves(.init(from: 0, to: 1), .init(from: 1, to: 1)))
        #expect(sections?.rule == 9)
    }

    @Test func rule10AReloadedSectionDoesNotMove() {
        let old = state(("A", [1]), ("B", [2]))
        // Section B is reloaded in place while A moves past it.
        accepts(
            ListChanges(movedSections: [.init(from: 0, to: 1)], reloadedSections: [1]),
            from: old, to: state(("B", [5, 6]), ("A", [1]))
        )
        // A reload recreates the same section: another section at its place is not a reload.
        let replaced = rejection(ListChanges(reloadedSections: [1]), from: old, to: state(("A", [1]), ("C", [2])))
        #expect(replaced?.difference?.elements == [.sectionID(section: 1, actual: "B", expected: "C")])
        let error = rejection(
            ListChanges(movedSections: [.init(from: 0, to: 1)], reloadedSections: [0]),
            from: old, to: state(("B", [2]), ("A", [7]))
        )
        #expect(error?.batchError == .reloadedSectionMoved(.init(from: 0, to: 1)))
        #expect(error?.description.contains("Invalid update (rule 10)") == true)
    }

    @Test func rule11RowsDoNotLeaveDeletedNorEnterInsertedSections() {
        let old = state(("A", [1, 2]), ("B", [3]))
        accepts(ListChanges(movedRows: [move(ip(0, 0), ip(1, 1))]), from: old, to: state(("A", [2]), ("B", [3, 1])))

        let out = rejection(
            ListChanges(deletedSections: [0], movedRows: [move(ip(0, 0), ip(0, 1))]),
            from: old, to: state(("B", [3, 1]))
        )
        #expect(out?.batchError == .rowMoveOutOfReplacedSection(move(ip(0, 0), ip(0, 1)), section: 0, .delete))
        #expect(out?.description.contains("attempt to move a row out of deleted section 0") == true)

        let into = rejection(
            ListChanges(insertedSections: [2], movedRows: [move(ip(0, 0), ip(2, 0))]),
            from: old, to: state(("A", [2]), ("B", [3]), ("C", [1]))
        )
        #expect(into?.batchError == .rowMoveIntoReplacedSection(move(ip(0, 0), ip(2, 0)), section: 2, .insert))
        #expect(into?.description.contains("into inserted section 2") == true)

        let reloaded = rejection(
            ListChanges(reloadedSections: [1], movedRows: [move(ip(0, 0), ip(1, 1))]),
            from: old, to: state(("A", [2]), ("B", [3, 1]))
        )
        #expect(reloaded?.batchError == .rowMoveIntoReplacedSection(move(ip(0, 0), ip(1, 1)), section: 1, .reload))
    }

    @Test func rule12RowChangesInsideReplacedSectionsAreDropped() {
        let old = state(("A", [1, 2]), ("B", [3]))
        // The row deletes in deleted section 0 and the row insert in inserted section 1 are
        // folded into the section changes; counted naively they would break rule 13.
        accepts(
            ListChanges(
                deletedSections: [0], insertedSections: [1],
                deletedRows: [ip(0, 0), ip(0, 1), ip(0, 1)], insertedRows: [ip(1, 0)],
                reloadedRows: [ip(0, 0)], reconfiguredRows: [ip(0, 1)]
            ),
            from: old, to: state(("B", [3]), ("C", [4]))
        )
        // Outside replaced sections the same delete counts.
        let error = rejection(ListChanges(deletedRows: [ip(1, 0)]), from: old, to: old)
        #expect(error?.rule == 13)
    }

    // MARK: Counts (13)

    @Test func rule13RowCountsBalanceWithAllSixNumbers() {
        let old = state(("A", [1, 2, 3]), ("B", [4, 5]))
        accepts(
            ListChanges(insertedRows: [ip(0, 0)], movedRows: [move(ip(1, 0), ip(0, 1)), move(ip(0, 2), ip(0, 0 + 3))]),
            from: old, to: state(("A", [9, 4, 1, 3, 2]), ("B", [5]))
        )

        let error = rejection(
            ListChanges(insertedRows: [ip(0, 3)]),
            from: old, to: state(("A", [1, 2, 3, 6, 7]), ("B", [4, 5]))
        )
        #expect(error?.batchError == .invalidRowCount(
            section: 0, sectionBefore: 0, after: 5, before: 3, inserted: 1, deleted: 0, movedIn: 0, movedOut: 0
        ))
        #expect(error?.description.contains("""
            Invalid update (rule 13): invalid number of rows in section 0. The number of rows contained in an \
            existing section after the update (5) must be equal to the number of rows contained in that section \
            before the update (3), plus or minus the number of rows inserted or deleted from that section \
            (1 inserted, 0 deleted) and plus or minus the number of rows moved into or out of that section \
            (0 moved in, 0 moved out).
            """) == true)

        let moved = rejection(
            ListChanges(movedRows: [move(ip(1, 0), ip(0, 0))]),
            from: old, to: state(("A", [4, 1, 2, 3]), ("B", [4, 5]))
        )
        #expect(moved?.batchError == .invalidRowCount(
            section: 1, sectionBefore: 1, after: 2, before: 2, inserted: 0, deleted: 0, movedIn: 0, movedOut: 1
        ))
    }

    @Test func rule13SectionCountsBalance() {
        let old = state(("A", [1]), ("B", [2]))
        let error = rejection(ListChanges(insertedSections: [0]), from: old, to: state(("C", []), ("A", [1]), ("B", [2]), ("D", [])))
        #expect(error?.batchError == .invalidSectionCount(after: 4, before: 2, inserted: 1, deleted: 0))
        #expect(error?.description.contains("""
            invalid number of sections. The number of sections contained in the list after the update (4) must \
            be equal to the number of sections contained in the list before the update (2), plus or minus the \
            number of sections inserted or deleted (1 inserted, 0 deleted).
            """) == true)
        let moved = rejection(
            ListChanges(movedSections: [.init(from: 0, to: 1)], movedRows: [move(ip(0, 0), ip(0, 1))]),
            from: state(("A", [1]), ("B", [2])), to: state(("B", [2, 1]), ("A", [1])), strict: false
        )
        #expect(moved?.batchError == .invalidRowCount(
            section: 1, sectionBefore: 0, after: 1, before: 1, inserted: 0, deleted: 0, movedIn: 0, movedOut: 1
        ))
        #expect(moved?.description.contains("in section 1 (section 0 before the update)") == true)
    }

    // MARK: Tier B (14–17)

    @Test func rule14DuplicateRowDeletesAreUnsafe() {
        let old = state(("A", [1, 2, 3]))
        let new = state(("A", [1, 3]))
        let changes = ListChanges(deletedRows: [ip(0, 1), ip(0, 1)])
        let error = rejection(changes, from: old, to: new)
        #expect(error?.batchError == .duplicateRowDelete(indexPath: ip(0, 1), count: 2))
        #expect(error?.batchError?.isStrictOnly == true)
        #expect(error?.description.contains("Unsafe update (strict rule 14): row 0.1 is deleted 2 times") == true)
        accepts(changes, from: old, to: new, strict: false)
        accepts(ListChanges(deletedRows: [ip(0, 1)]), from: old, to: new)
    }

    @Test func rule15RowChangesInsideAMovedSectionAreUnsafe() {
        let old = state(("A", [1]), ("B", [2]))
        let new = state(("B", [2]), ("A", [1, 3]))
        let changes = ListChanges(movedSections: [.init(from: 0, to: 1)], insertedRows: [ip(1, 1)])
        let error = rejection(changes, from: old, to: new)
        #expect(error?.batchError == .rowChangeInMovedSection(.init(from: 0, to: 1), .insert, indexPath: ip(1, 1)))
        #expect(error?.description.contains("Unsafe update (strict rule 15)") == true)
        #expect(error?.description.contains("delete and insert the section instead of moving it") == true)
        accepts(changes, from: old, to: new, strict: false)
        // The safe form: the section is deleted and inserted.
        accepts(ListChanges(deletedSections: [0], insertedSections: [1]), from: old, to: new)

        let deleteInMoved = rejection(
            ListChanges(movedSections: [.init(from: 0, to: 1)], deletedRows: [ip(0, 0)]),
            from: old, to: state(("B", [2]), ("A", []))
        )
        #expect(deleteInMoved?.batchError == .rowChangeInMovedSection(.init(from: 0, to: 1), .delete, indexPath: ip(0, 0)))
        let moveOut = rejection(
            ListChanges(movedSections: [.init(from: 0, to: 1)], movedRows: [move(ip(0, 0), ip(0, 1))]),
            from: old, to: state(("B", [2, 1]), ("A", []))
        )
        #expect(moveOut?.batchError == .rowChangeInMovedSection(.init(from: 0, to: 1), .moveSource, indexPath: ip(0, 0)))
        #expect(moveOut?.description.contains("row move out at 0.0 inside section move 0→1 of the same batch") == true)
    }

    @Test func rule16AMovedChangedRowMustBeRefreshed() {
        let old = state(("A", [1, 2]))
        let new = state(("A", [2, 1]), changed: [1])
        let moveOnly = ListChanges(movedRows: [move(ip(0, 0), ip(0, 1))])
        let error = rejection(moveOnly, from: old, to: new)
        #expect(error?.batchError == .movedRowNotRefreshed(from: ip(0, 0), to: ip(0, 1), shown: "r1", current: "r1*"))
        #expect(error?.description.contains("Unsafe update (strict rule 16): row moved 0.0→0.1 changed content") == true)
        // Without strict mode it is a plain stale cell: the content differs from the new state.
        let stale = rejection(moveOnly, from: old, to: new, strict: false)
        #expect(stale?.difference?.elements == [.content(ip(0, 1), id: "1", actual: "r1", expected: "r1*")])

        // The safe forms: a reconfigure in a later stage, or delete + insert.
        let table = Table(old)
        #expect(throws: Never.self) {
            try table.apply(stages: [moveOnly, ListChanges(reconfiguredRows: [ip(0, 1)])], newState: new)
        }
        #expect(table.sections == new)
        accepts(ListChanges(deletedRows: [ip(0, 0)], insertedRows: [ip(0, 1)]), from: old, to: new)
        // A moved row whose content did not change needs nothing.
        accepts(moveOnly, from: old, to: state(("A", [2, 1])))
    }

    /// Apple does not say whether `reconfigureRows(at:)` reads before- or after-positions
    /// inside a batch, so a reconfigure is safe only on a row whose position the batch keeps.
    @Test func rule16AReconfiguredRowMustKeepItsPositionInItsStage() {
        let old = state(("A", [1, 2]))
        let new = state(("A", [3, 1, 2]), changed: [1])
        // Row 1 is at 0.0 before the insert and at 0.1 after it.
        let ambiguous = ListChanges(insertedRows: [ip(0, 0)], reconfiguredRows: [ip(0, 0)])
        let error = rejection(ambiguous, from: old, to: new)
        #expect(error?.batchError == .reconfiguredRowShifts(from: ip(0, 0), to: ip(0, 1)))
        #expect(error?.rule == 16)
        #expect(
            error?.description.contains(
                "Unsafe update (strict rule 16): row 0.0 is reconfigured in a batch that moves it to 0.1") == true,
            "\(String(describing: error))")
        // UIKit itself accepts it; the simulator, reading before-positions, gets it right.
        accepts(ambiguous, from: old, to: new, strict: false)
        // The validator finds it too, in strict mode only.
        #expect(throws: BatchUpdateError.reconfiguredRowShifts(from: ip(0, 0), to: ip(0, 1))) {
            try ambiguous.validate(beforeRowCounts: [2], afterRowCounts: [3])
        }
        #expect(throws: Never.self) { try ambiguous.validate(beforeRowCounts: [2], afterRowCounts: [3], strict: false) }
        // Safe forms: the reconfigure in a later stage at the row's new position, or a reload.
        let table = Table(old)
        #expect(throws: Never.self) {
            try table.apply(stages: [ListChanges(insertedRows: [ip(0, 0)]), ListChanges(reconfiguredRows: [ip(0, 1)])], newState: new)
        }
        #expect(table.sections == new)
        accepts(ListChanges(insertedRows: [ip(0, 0)], reloadedRows: [ip(0, 0)]), from: old, to: new)
        // A reconfigure that the batch leaves in place is fine.
        accepts(
            ListChanges(insertedRows: [ip(0, 1)], reconfiguredRows: [ip(0, 0)]), from: old,
            to: state(("A", [1, 3, 2]), changed: [1]))

        // Its section shifting moves the row too: a section delete before it, or a section move.
        let twoSections = state(("A", [1]), ("B", [2, 4]))
        let deleted = rejection(
            ListChanges(deletedSections: [0], reconfiguredRows: [ip(1, 1)]), from: twoSections,
            to: state(("B", [2, 4]), changed: [4]))
        #expect(deleted?.batchError == .reconfiguredRowShifts(from: ip(1, 1), to: ip(0, 1)))
        let moved = rejection(
            ListChanges(movedSections: [.init(from: 1, to: 0)], reconfiguredRows: [ip(1, 0)]), from: twoSections,
            to: state(("B", [2, 4]), ("A", [1]), changed: [2]))
        #expect(moved?.batchError == .reconfiguredRowShifts(from: ip(1, 0), to: ip(0, 0)))
    }

    @Test func rule17NoBatchWhileNotVisible() {
        let old = state(("A", [1]))
        let new = state(("A", [1, 2]))
        let changes = ListChanges(insertedRows: [ip(0, 1)])
        let hidden = Table(old)
        hidden.isVisible = false
        #expect(throws: ListSimulatorError.rejected(.batchWhileNotVisible, stage: 1, stageCount: 1, changes: changes)) {
            try hidden.apply(changes, newState: new)
        }
        #expect(hidden.sections == old)
        // The legal form is a reload.
        hidden.reloadData(new)
        #expect(hidden.sections == new)
        #expect(hidden.reloadCount == 1)
        // Outside strict mode UIKit's behaviour is modelled: the batch is applied.
        let lenient = Table(old, strict: false)
        lenient.isVisible = false
        #expect(throws: Never.self) { try lenient.apply(changes, newState: new) }
        #expect(lenient.sections == new)
        #expect(BatchUpdateError.batchWhileNotVisible.description == "Unsafe update (strict rule 17): batch update on a list that is not visible; reload it instead")
    }

    @Test func tierBRulesAreStrictOnlyAndTierARulesAlwaysApply() {
        let old = state(("A", [1, 2, 3]))
        // A tier A error is rejected without strict mode too.
        let error = rejection(ListChanges(deletedRows: [ip(0, 5)]), from: old, to: old, strict: false)
        #expect(error?.rule == 5)
        #expect(error?.batchError?.isStrictOnly == false)
        let strictOnly: [BatchUpdateError] = [
            .duplicateRowDelete(indexPath: ip(0, 0), count: 2),
            .rowChangeInMovedSection(.init(from: 0, to: 1), .insert, indexPath: ip(1, 0)),
            .movedRowNotRefreshed(from: ip(0, 0), to: ip(0, 1), shown: "a", current: "b"),
            .reconfiguredRowShifts(from: ip(0, 0), to: ip(0, 1)),
            .batchWhileNotVisible,
        ]
        #expect(strictOnly.map(\.rule) == [14, 15, 16, 16, 17])
        #expect(strictOnly.allSatisfy { $0.isStrictOnly })
        let always: [BatchUpdateError] = [
            .sectionOutOfBounds(.delete, section: 0, sectionCount: 0),
            .invalidSectionCount(after: 1, before: 0, inserted: 0, deleted: 0),
            .reloadedSectionMoved(.init(from: 0, to: 1)),
        ]
        #expect(always.allSatisfy { !$0.isStrictOnly && $0.description.hasPrefix("Invalid update (rule \($0.rule)): ") })
    }
}
