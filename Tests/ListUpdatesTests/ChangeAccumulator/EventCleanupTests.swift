import FetchedResultsTesting
import Foundation
import ListUpdates
import Testing

/// One test per clean-up rule for controller events (BATCH-RULES.md, "Accumulator
/// clean-ups"), checked on the composed batch.
@Suite("ChangeAccumulator event clean-ups")
struct EventCleanupTests {
    private func path(_ section: Int, _ row: Int) -> IndexPath { IndexPath(row: row, section: section) }

    private func events(
        _ interpretation: ChangeAccumulator.EventInterpretation = .coreData, _ record: (ChangeAccumulator) -> Void
    ) -> ListChanges {
        let accumulator = ChangeAccumulator(eventInterpretation: interpretation)
        accumulator.willChangeContent()
        record(accumulator)
        accumulator.didChangeContent()
        return accumulator.pendingChanges
    }

    @Test func moveToTheSamePositionIsAnUpdate() {
        let changes = events { $0.didChangeObject("a", at: path(0, 2), for: .move, newIndexPath: path(0, 2)) }
        #expect(changes == ListChanges(reconfiguredRows: [path(0, 2)]))
    }

    @Test func exactEventsKeepAnUpdateAndAMoveToTheSamePositionARefreshedMove() {
        let changes = events(.exact) {
            $0.didChangeObject("a", at: path(0, 2), for: .update, newIndexPath: nil)
            $0.didChangeObject("a", at: path(0, 2), for: .move, newIndexPath: path(0, 2))
        }
        // Alone, the move changes no position; composed, it is the refresh it carries.
        #expect(changes == ListChanges(reconfiguredRows: [path(0, 2)]))
    }

    /// A controller that keeps unchanged rows still may move a row to the index path it had,
    /// because rows around it moved: items sorted by quantity 0, 10, …, 50 where item 5 becomes
    /// 5 and item 3 becomes 15 report item 3 moving from row 3 to row 3. Read as an update, the
    /// view would show the wrong order; read exactly, it is right.
    @Test func exactEventsKeepAMoveToTheSamePosition() throws {
        let changes = events(.exact) {
            $0.didChangeObject(5, at: path(0, 5), for: .move, newIndexPath: path(0, 1))
            $0.didChangeObject(2, at: path(0, 2), for: .move, newIndexPath: path(0, 4))
            $0.didChangeObject(3, at: path(0, 3), for: .move, newIndexPath: path(0, 3))
        }
        #expect(changes.movedRows.contains(.init(from: path(0, 3), to: path(0, 3))))
        #expect(changes.reconfiguredRows.isEmpty)
        let before = [0, 1, 2, 3, 4, 5].map { ListSimulator<Int, Int, Int>.Row(id: $0, content: 0) }
        let after = [0, 5, 1, 3, 2, 4].map { ListSimulator<Int, Int, Int>.Row(id: $0, content: 0) }
        let simulator = ListSimulator<Int, Int, Int>([.init(id: 0, rows: before)])
        try simulator.apply(stages: changes.staged(), newState: [.init(id: 0, rows: after)])
        #expect(simulator.sections.map { $0.rows.map(\.id) } == [[0, 5, 1, 3, 2, 4]])
    }

    @Test func exactEventsKeepADeleteThenInsertAtTheSamePositionARefreshedMove() {
        let changes = events(.exact) {
            $0.didChangeObject("gone", at: path(0, 0), for: .delete, newIndexPath: nil)
            $0.didChangeObject("a", at: path(0, 1), for: .delete, newIndexPath: nil)
            $0.didChangeObject("a", at: nil, for: .insert, newIndexPath: path(0, 1))
        }
        #expect(changes == ListChanges(deletedRows: [path(0, 0)], movedRows: [.init(from: path(0, 1), to: path(0, 1))],
                                       reconfiguredRows: [path(0, 1)]))
    }

    @Test func updateAndMoveOfOneObjectAreOneChangedMove() {
        let changes = events {
            $0.didChangeObject("a", at: path(0, 1), for: .update, newIndexPath: nil)
            $0.didChangeObject("a", at: path(0, 1), for: .move, newIndexPath: path(0, 4))
        }
        #expect(changes == ListChanges(movedRows: [.init(from: path(0, 1), to: path(0, 4))], reconfiguredRows: [path(0, 1)]))
        // Staged, the refresh comes in a later stage at the row's after-position.
        let stages = changes.staged()
        #expect(stages.count == 2)
        #expect(stages.last == ListChanges(reconfiguredRows: [path(0, 4)]))
    }

    @Test func moveThenUpdateOfOneObjectIsOneChangedMove() {
        let changes = events {
            $0.didChangeObject("a", at: path(0, 1), for: .move, newIndexPath: path(0, 4))
            $0.didChangeObject("a", at: path(0, 1), for: .update, newIndexPath: path(0, 4))
        }
        #expect(changes == ListChanges(movedRows: [.init(from: path(0, 1), to: path(0, 4))], reconfiguredRows: [path(0, 1)]))
    }

    @Test func updateWithANewPositionIsAMove() {
        let changes = events { $0.didChangeObject("a", at: path(0, 1), for: .update, newIndexPath: path(0, 3)) }
        #expect(changes == ListChanges(movedRows: [.init(from: path(0, 1), to: path(0, 3))], reconfiguredRows: [path(0, 1)]))
    }

    @Test func updateAtTheSamePositionIsAnUpdate() {
        let changes = events { $0.didChangeObject("a", at: path(0, 1), for: .update, newIndexPath: path(0, 1)) }
        #expect(changes == ListChanges(reconfiguredRows: [path(0, 1)]))
    }

    @Test func insertThenDeleteIsNothing() {
        let changes = events {
            $0.didChangeObject("a", at: nil, for: .insert, newIndexPath: path(0, 5))
            $0.didChangeObject("a", at: path(0, 5), for: .delete, newIndexPath: nil)
        }
        #expect(changes.isEmpty)
    }

    @Test func deleteThenInsertIsARefreshedMove() {
        let changes = events {
            $0.didChangeObject("a", at: path(0, 1), for: .delete, newIndexPath: nil)
            $0.didChangeObject("a", at: nil, for: .insert, newIndexPath: path(1, 0))
        }
        #expect(changes == ListChanges(movedRows: [.init(from: path(0, 1), to: path(1, 0))], reconfiguredRows: [path(0, 1)]))
    }

    @Test func deleteThenInsertAtTheSamePositionIsAnUpdate() {
        let changes = events {
            $0.didChangeObject("a", at: path(0, 1), for: .delete, newIndexPath: nil)
            $0.didChangeObject("a", at: nil, for: .insert, newIndexPath: path(0, 1))
        }
        #expect(changes == ListChanges(reconfiguredRows: [path(0, 1)]))
    }

    @Test func rowChangesInsideAnInsertedSectionFoldIntoIt() {
        let changes = events {
            $0.didChangeSection(at: 1, for: .insert)
            $0.didChangeObject("a", at: nil, for: .insert, newIndexPath: path(1, 0))
            $0.didChangeObject("b", at: nil, for: .insert, newIndexPath: path(1, 1))
            $0.didChangeObject("c", at: path(0, 3), for: .move, newIndexPath: path(1, 2))
        }
        #expect(changes == ListChanges(insertedSections: [1], deletedRows: [path(0, 3)]))
    }

    @Test func rowChangesInsideADeletedSectionFoldIntoIt() {
        let changes = events {
            $0.didChangeSection(at: 0, for: .delete)
            $0.didChangeObject("a", at: path(0, 0), for: .delete, newIndexPath: nil)
            $0.didChangeObject("b", at: path(0, 1), for: .update, newIndexPath: nil)
            $0.didChangeObject("c", at: path(0, 2), for: .move, newIndexPath: path(0, 0))
        }
        // The row that moved out of the deleted section is new where it lands.
        #expect(changes == ListChanges(deletedSections: [0], insertedRows: [path(0, 0)]))
    }

    @Test func repeatedUpdatesAcrossBatchesAreOneUpdate() {
        let accumulator = ChangeAccumulator()
        for _ in 0..<3 {
            accumulator.willChangeContent()
            accumulator.didChangeObject(7, at: path(0, 0), for: .update, newIndexPath: nil)
            accumulator.didChangeContent()
        }
        #expect(accumulator.pendingChanges == ListChanges(reconfiguredRows: [path(0, 0)]))
    }

    @Test func insertedThenDeletedAcrossBatchesIsNothing() {
        let accumulator = ChangeAccumulator()
        accumulator.willChangeContent()
        accumulator.didChangeObject(7, at: nil, for: .insert, newIndexPath: path(0, 2))
        accumulator.didChangeContent()
        accumulator.willChangeContent()
        accumulator.didChangeObject(7, at: path(0, 2), for: .delete, newIndexPath: nil)
        accumulator.didChangeContent()
        #expect(accumulator.pendingChanges.isEmpty)
        #expect(accumulator.hasPendingChanges)
    }
}
