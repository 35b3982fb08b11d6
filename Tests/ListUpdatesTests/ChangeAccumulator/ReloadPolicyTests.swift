import Foundation
import ListUpdates
import Testing

/// One test per branch of the default policy, plus custom policies and the guarantees the
/// accumulator keeps whatever the policy says.
@Suite("ChangeAccumulator reload policy")
struct ReloadPolicyTests {
    private func inserts(_ count: Int, section: Int = 0) -> ListChanges {
        ListChanges(insertedRows: (0..<count).map { IndexPath(row: $0, section: section) })
    }

    @Test func smallBatchToAVisibleTargetAnimates() {
        let target = RecordingTarget(rowCounts: [100])
        let accumulator = ChangeAccumulator(target: target)
        accumulator.add(inserts(3))
        let report = accumulator.flush()
        #expect(report.outcome == .animated)
        #expect(report.reason == nil)
        #expect(report.changeCount == 3)
        #expect(report.isVisible)
        #expect(report.displayedRowCount == 100)
        #expect(target.batches == [[inserts(3)]])
        #expect(target.reloads == 0)
    }

    @Test func hiddenTargetIsOwedExactlyOneReloadWhenVisible() {
        let target = RecordingTarget(rowCounts: [100])
        target.isVisible = false
        let accumulator = ChangeAccumulator(target: target)
        accumulator.add(inserts(1))
        let first = accumulator.flush()
        #expect(first.outcome == .deferredUntilVisible)
        #expect(first.reason == .notVisible)
        accumulator.add(inserts(2))
        #expect(accumulator.pendingReload == .notVisible)
        #expect(accumulator.flush().outcome == .deferredUntilVisible)
        #expect(target.reloads == 0 && target.batches.isEmpty)
        target.isVisible = true
        let delivered = accumulator.flush()
        #expect(delivered.outcome == .reloaded)
        #expect(delivered.reason == .notVisible)
        #expect(accumulator.flush().outcome == .nothing)
        #expect(target.reloads == 1 && target.batches.isEmpty)
    }

    @Test func visibilityIsReadAtFlushTimeNotWhenChangesArrive() {
        let target = RecordingTarget(rowCounts: [100])
        target.isVisible = false
        let accumulator = ChangeAccumulator(target: target)
        accumulator.add(inserts(1))
        target.isVisible = true
        #expect(accumulator.flush().outcome == .animated)

        accumulator.add(inserts(1))
        target.isVisible = false
        #expect(accumulator.flush().outcome == .deferredUntilVisible)
    }

    @Test func batchThatWouldBreakARuleReloads() {
        let target = RecordingTarget(rowCounts: [2])
        let accumulator = ChangeAccumulator(target: target)
        accumulator.add(ListChanges(deletedRows: [IndexPath(row: 5, section: 0)]))
        let report = accumulator.flush()
        #expect(report.outcome == .reloaded)
        guard case .wouldBreakRule(let error)? = report.reason else {
            Issue.record("expected a rule violation, got \(String(describing: report.reason))")
            return
        }
        #expect(error.rule == 5)
        #expect(target.reloads == 1)
    }

    @Test func tooManyChangesReload() {
        let target = RecordingTarget(rowCounts: [1000])
        let accumulator = ChangeAccumulator(target: target, policy: .default(maximumChangeCount: 2))
        accumulator.add(inserts(3))
        let report = accumulator.flush()
        #expect(report.outcome == .reloaded)
        #expect(report.reason == .tooManyChanges(count: 3, limit: 2))
    }

    @Test func tooLargeAShareOfTheRowsReloads() {
        let target = RecordingTarget(rowCounts: [6, 4])
        let accumulator = ChangeAccumulator(target: target, policy: .default(maximumShare: 0.5))
        accumulator.add(inserts(6))
        let report = accumulator.flush()
        #expect(report.reason == .tooLargeShare(count: 6, displayedRows: 10, limit: 0.5))
        accumulator.add(inserts(5))
        #expect(accumulator.flush().outcome == .animated)
    }

    @Test func shareRuleDoesNotApplyToAnEmptyList() {
        let target = RecordingTarget(rowCounts: [0])
        let accumulator = ChangeAccumulator(target: target)
        accumulator.add(inserts(3))
        #expect(accumulator.flush().outcome == .animated)
    }

    @Test func defaultPolicyDecidesFromTheContext() {
        let policy = DefaultReloadPolicy(maximumChangeCount: 10, maximumShare: 0.5)
        func context(visible: Bool = true, changes: Int, rows: Int) -> ReloadContext {
            let batch = inserts(changes)
            return ReloadContext(isVisible: visible, changes: batch, stages: [batch], displayedRowCounts: [rows], ruleViolation: nil)
        }
        #expect(policy.decision(for: context(visible: false, changes: 1, rows: 100)) == .reload(.notVisible))
        #expect(policy.decision(for: context(changes: 11, rows: 100)) == .reload(.tooManyChanges(count: 11, limit: 10)))
        #expect(policy.decision(for: context(changes: 6, rows: 10)) == .reload(.tooLargeShare(count: 6, displayedRows: 10, limit: 0.5)))
        #expect(policy.decision(for: context(changes: 5, rows: 10)) == .animate)
    }

    @Test func shareRuleAppliesFromItsMinimumChangeCount() {
        let policy = DefaultReloadPolicy(maximumShare: 0.5, minimumChangeCountForShare: 3)
        func context(changes: Int, rows: Int) -> ReloadContext {
            let batch = inserts(changes)
            return ReloadContext(isVisible: true, changes: batch, stages: [batch], displayedRowCounts: [rows], ruleViolation: nil)
        }
        #expect(policy.decision(for: context(changes: 2, rows: 1)) == .animate)
        #expect(policy.decision(for: context(changes: 3, rows: 4)) == .reload(.tooLargeShare(count: 3, displayedRows: 4, limit: 0.5)))
        #expect(policy.decision(for: context(changes: 3, rows: 6)) == .animate)
    }

    @Test func customClosurePolicyDecides() {
        let target = RecordingTarget(rowCounts: [100])
        let accumulator = ChangeAccumulator(target: target, policy: .custom { context in
            context.changeCount > 1 ? .reload(.custom("more than one")) : .animate
        })
        accumulator.add(inserts(1))
        #expect(accumulator.flush().outcome == .animated)
        accumulator.add(inserts(2))
        let report = accumulator.flush()
        #expect(report.reason == .custom("more than one"))
        #expect(target.reloads == 1)
    }

    @Test func customPolicyCanNotAnimateABrokenBatchOrAHiddenTarget() {
        let target = RecordingTarget(rowCounts: [1])
        let accumulator = ChangeAccumulator(target: target, policy: .custom { _ in .animate })
        accumulator.add(ListChanges(deletedRows: [IndexPath(row: 3, section: 0)]))
        guard case .wouldBreakRule? = accumulator.flush().reason else {
            Issue.record("a broken batch must reload")
            return
        }
        target.isVisible = false
        accumulator.add(inserts(1))
        #expect(accumulator.flush().outcome == .deferredUntilVisible)
        #expect(target.batches.isEmpty)
    }

    @Test func reloadAllIsDeliveredOnceAndCoversLaterChanges() {
        let target = RecordingTarget(rowCounts: [10])
        let accumulator = ChangeAccumulator(target: target)
        accumulator.add(inserts(1))
        accumulator.reloadAll()
        accumulator.add(inserts(2))
        #expect(accumulator.pendingChanges.isEmpty)
        #expect(accumulator.pendingReload == .requested)
        let report = accumulator.flush()
        #expect(report.outcome == .reloaded)
        #expect(report.reason == .requested)
        #expect(target.reloads == 1)
        #expect(accumulator.flush().outcome == .nothing)
    }

    @Test func inconsistentInputReloads() {
        let target = RecordingTarget(rowCounts: [10])
        let accumulator = ChangeAccumulator(target: target)
        accumulator.add(ListChanges(deletedRows: [IndexPath(row: 1, section: 0), IndexPath(row: 1, section: 0)]))
        guard case .inconsistentInput? = accumulator.flush().reason else {
            Issue.record("a batch that contradicts itself must reload")
            return
        }
        #expect(target.reloads == 1)
    }

    @Test func reportsAreObservable() {
        let target = RecordingTarget(rowCounts: [10])
        let accumulator = ChangeAccumulator(target: target)
        var seen: [FlushReport] = []
        accumulator.onFlush = { seen.append($0) }
        accumulator.add(inserts(1))
        accumulator.add(inserts(1))
        let report = accumulator.flush()
        #expect(seen == [report])
        #expect(accumulator.lastReport == report)
        #expect(report.batchCount == 2)
        #expect(report.update == .animate([inserts(2)]))
        #expect(report.description.hasPrefix("animated"))
    }
}
