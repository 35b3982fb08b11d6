import Foundation
import ListUpdates
import Testing

/// The begin / accumulate / flush life cycle, and the defined outcome of every out-of-order
/// event.
@Suite("ChangeAccumulator life cycle")
struct LifeCycleTests {
    private func path(_ section: Int, _ row: Int) -> IndexPath { IndexPath(row: row, section: section) }

    @Test func flushWithNothingPendingDoesNothing() {
        let target = RecordingTarget(rowCounts: [3])
        let accumulator = ChangeAccumulator(target: target)
        #expect(!accumulator.hasPendingChanges)
        #expect(accumulator.flush().outcome == .nothing)
        #expect(target.reloads == 0 && target.batches.isEmpty)
    }

    @Test func changesThatCancelOutDeliverNothing() {
        let target = RecordingTarget(rowCounts: [3])
        let accumulator = ChangeAccumulator(target: target)
        accumulator.add(ListChanges(insertedRows: [path(0, 1)]))
        accumulator.add(ListChanges(deletedRows: [path(0, 1)]))
        let report = accumulator.flush()
        #expect(report.outcome == .nothing)
        #expect(report.batchCount == 2)
        #expect(target.batches.isEmpty)
    }

    @Test func nestedBeginsCloseAtTheOutermostEnd() {
        let accumulator = ChangeAccumulator()
        accumulator.willChangeContent()
        accumulator.willChangeContent()
        accumulator.didChangeObject(1, at: nil, for: .insert, newIndexPath: path(0, 0))
        accumulator.didChangeContent()
        #expect(!accumulator.hasPendingChanges, "the inner end only un-nests")
        accumulator.didChangeObject(2, at: nil, for: .insert, newIndexPath: path(0, 1))
        accumulator.didChangeContent()
        #expect(accumulator.pendingChanges == ListChanges(insertedRows: [path(0, 0), path(0, 1)]))
    }

    @Test func endWithoutBeginIsIgnored() {
        let accumulator = ChangeAccumulator()
        accumulator.didChangeContent()
        #expect(!accumulator.hasPendingChanges)
        accumulator.willChangeContent()
        accumulator.didChangeObject(1, at: path(0, 0), for: .delete, newIndexPath: nil)
        accumulator.didChangeContent()
        #expect(accumulator.pendingChanges == ListChanges(deletedRows: [path(0, 0)]))
    }

    @Test func eventOutsideABracketIsABatchOfItsOwn() {
        let accumulator = ChangeAccumulator()
        accumulator.didChangeObject(1, at: path(0, 4), for: .delete, newIndexPath: nil)
        accumulator.didChangeSection(at: 2, for: .insert)
        #expect(accumulator.pendingChanges == ListChanges(insertedSections: [2], deletedRows: [path(0, 4)]))
    }

    @Test func addingWhileEventsAreOpenOwesAReload() {
        let target = RecordingTarget(rowCounts: [3])
        let accumulator = ChangeAccumulator(target: target)
        accumulator.willChangeContent()
        accumulator.add(ListChanges(insertedRows: [path(0, 0)]))
        accumulator.didChangeObject(1, at: path(0, 0), for: .delete, newIndexPath: nil)
        accumulator.didChangeContent()
        guard case .inconsistentInput? = accumulator.pendingReload else {
            Issue.record("expected an owed reload")
            return
        }
        #expect(accumulator.flush().outcome == .reloaded)
        #expect(target.reloads == 1)
    }

    @Test func flushWhileEventsAreOpenDeliversOnlyClosedBatches() {
        let target = RecordingTarget(rowCounts: [3])
        let accumulator = ChangeAccumulator(target: target)
        accumulator.add(ListChanges(insertedRows: [path(0, 0)]))
        accumulator.willChangeContent()
        accumulator.didChangeObject(9, at: path(0, 3), for: .delete, newIndexPath: nil)
        #expect(accumulator.flush().update == .animate([ListChanges(insertedRows: [path(0, 0)])]))
        target.rowCounts = [4]
        accumulator.didChangeContent()
        // The open batch was relative to the state the flush delivered.
        #expect(accumulator.pendingChanges == ListChanges(deletedRows: [path(0, 3)]))
        #expect(accumulator.flush().outcome == .animated)
        #expect(target.batches.count == 2)
    }

    @Test func flushFromInsideADeliveryIsPostponedUntilItEnds() {
        let target = RecordingTarget(rowCounts: [3])
        let accumulator = ChangeAccumulator(target: target)
        var inner: FlushReport?
        target.onDelivery = {
            target.onDelivery = nil
            target.rowCounts = [4]
            // An observer reacting to the update changes the data again and flushes.
            accumulator.add(ListChanges(deletedRows: [path(0, 0)]))
            inner = accumulator.flush()
        }
        var reports: [FlushReport] = []
        accumulator.onFlush = { reports.append($0) }
        accumulator.add(ListChanges(insertedRows: [path(0, 3)]))
        let outer = accumulator.flush()
        #expect(inner?.outcome == .postponed)
        #expect(target.batches == [
            [ListChanges(insertedRows: [path(0, 3)])],
            [ListChanges(deletedRows: [path(0, 0)])],
        ])
        #expect(reports.map(\.outcome) == [.postponed, .animated, .animated])
        #expect(outer.update == .animate([ListChanges(deletedRows: [path(0, 0)])]))
        #expect(!accumulator.hasPendingChanges)
    }

    @Test func flushFromAnObserverIsPostponed() {
        let target = RecordingTarget(rowCounts: [3])
        let accumulator = ChangeAccumulator(target: target)
        var outcomes: [FlushReport.Outcome] = []
        accumulator.onFlush = { report in
            outcomes.append(report.outcome)
            if report.outcome == .animated && outcomes.count == 1 {
                accumulator.add(ListChanges(deletedRows: [IndexPath(row: 0, section: 0)]))
                target.rowCounts = [4]
                accumulator.flush()
            }
        }
        accumulator.add(ListChanges(insertedRows: [path(0, 0)]))
        accumulator.flush()
        #expect(outcomes == [.animated, .postponed, .animated])
        #expect(target.batches.count == 2)
    }

    @Test func flushFromThePolicyIsPostponed() {
        let target = RecordingTarget(rowCounts: [3])
        var accumulator: ChangeAccumulator?
        var inner: FlushReport?
        let policy = ClosureReloadPolicy { _ in
            inner = accumulator?.flush()
            return .animate
        }
        accumulator = ChangeAccumulator(target: target, policy: policy)
        accumulator?.add(ListChanges(insertedRows: [path(0, 0)]))
        #expect(accumulator?.flush().outcome == .animated)
        #expect(inner?.outcome == .postponed)
        #expect(target.batches.count == 1)
    }

    @Test func targetIsHeldWeaklyAndAMissingTargetIsOwedAReload() {
        let accumulator = ChangeAccumulator()
        do {
            let target = RecordingTarget(rowCounts: [1])
            accumulator.target = target
        }
        #expect(accumulator.target == nil)
        accumulator.add(ListChanges(insertedRows: [path(0, 0)]))
        #expect(accumulator.flush().outcome == .deferredUntilVisible)
        let next = RecordingTarget(rowCounts: [0])
        accumulator.target = next
        #expect(accumulator.flush().outcome == .reloaded)
        #expect(next.reloads == 1)
    }

    private func due(_ debounce: inout FlushDebounce<ManualClock>) -> Bool { debounce.shouldFlush() }

    @Test func debounceFlushesAfterAQuietPeriodOnAnInjectedClock() {
        let clock = ManualClock()
        var debounce = FlushDebounce(quietPeriod: .milliseconds(100), maximumDelay: .milliseconds(250), clock: clock)
        #expect(!due(&debounce))
        debounce.changesArrived()
        clock.advance(by: .milliseconds(60))
        #expect(!due(&debounce))
        debounce.changesArrived()
        clock.advance(by: .milliseconds(60))
        #expect(!due(&debounce), "the quiet period restarts with each change")
        clock.advance(by: .milliseconds(40))
        #expect(due(&debounce))
        #expect(!due(&debounce), "a due flush is reported once")
        // A steady stream still flushes by the maximum delay.
        for _ in 0..<5 {
            debounce.changesArrived()
            clock.advance(by: .milliseconds(60))
        }
        #expect(due(&debounce))
    }
}
