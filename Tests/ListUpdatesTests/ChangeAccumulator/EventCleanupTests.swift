import Foundation
import ListUpdates
import Testing

/// One test per clean-up rule for controller events (BATCH-RULES.md, "Accumulator
/// clean-ups"), checked on the composed batch.
@Suite("ChangeAccumulator event clean-ups")
struct EventCleanupTests {
    private func path(_ section: Int, _ row: Int) -> IndexPath { IndexPath(row: row, section: section) }

    private func events(_ record: (ChangeAccumulator) -> Void) -> ListChanges {
        let accumulator = ChangeAccumulator()
        accumulator.willChangeContent()
        record(accumulator)
        accumulator.didChangeContent()
        return accumulator.pendingChanges
    }

    @Test func moveToTheSamePositionIsAnUpdate() {
        let changes = events { $0.didChangeObject("a", at: path(0, 2), for: .move, newIndexPath: path(0, 2)) }
        #expect(changes == ListChanges(reconfiguredRows: [path(0, 2)]))
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
