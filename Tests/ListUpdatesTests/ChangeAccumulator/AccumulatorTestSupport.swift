import Foundation
import ListUpdates

/// A list target that records what it is told; its visibility and row counts are set by the
/// test, and `onDelivery` lets a test act from inside a delivery.
final class RecordingTarget: ListUpdateTarget {
    var isVisible = true
    var rowCounts: [Int]
    private(set) var reloads = 0
    private(set) var batches: [[ListChanges]] = []
    var onDelivery: (() -> Void)?

    init(rowCounts: [Int]) {
        self.rowCounts = rowCounts
    }

    var displayedRowCounts: [Int] { rowCounts }

    func reloadData() {
        reloads += 1
        onDelivery?()
    }

    func performBatch(stages: [ListChanges]) {
        batches.append(stages)
        onDelivery?()
    }
}

/// A clock that moves only when a test advances it.
final class ManualClock: Clock, @unchecked Sendable {
    // Only the test's own task touches `offset`; no lock is needed.
    struct Instant: InstantProtocol {
        var offset: Duration

        func advanced(by duration: Duration) -> Self { Instant(offset: offset + duration) }
        func duration(to other: Self) -> Duration { other.offset - offset }
        static func < (lhs: Self, rhs: Self) -> Bool { lhs.offset < rhs.offset }
    }

    private var offset = Duration.zero

    var now: Instant { Instant(offset: offset) }
    var minimumResolution: Duration { .nanoseconds(1) }

    func advance(by duration: Duration) {
        offset += duration
    }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        // Tests never sleep on this clock; a sleeper only learns whether the time has come.
        if deadline > now { throw CancellationError() }
    }
}
