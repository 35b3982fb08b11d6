/// What one flush of a ``ChangeAccumulator`` decided and why, for logging and for tests.
public struct FlushReport: Sendable, Equatable, CustomStringConvertible {
    /// What the flush did.
    public enum Outcome: Sendable, Hashable {
        /// Nothing was pending, or the pending changes cancelled out; the target was not
        /// called.
        case nothing
        /// The target performed the staged batch (`performBatch(stages:)`).
        case animated
        /// The target reloaded (`reloadData()`).
        case reloaded
        /// The target was not visible (or gone): nothing was delivered, and the target is owed
        /// one reload at the next flush that finds it visible.
        case deferredUntilVisible
        /// The flush was requested from inside another flush (by the target, the policy or an
        /// observer); it runs right after that flush ends.
        case postponed
    }

    /// What the flush did.
    public var outcome: Outcome
    /// What the target received, or `nil` when nothing was delivered.
    public var update: ListUpdate?
    /// Why the flush reloaded or deferred, or `nil` when it animated or had nothing to do.
    public var reason: ReloadReason?
    /// Whether the target was visible when the flush read it (`false` when it was not read).
    public var isVisible: Bool
    /// The number of changes in the composed batch (0 when a reload was owed before the
    /// flush, since owed reloads do not compose changes).
    public var changeCount: Int
    /// The number of batches composed since the previous flush.
    public var batchCount: Int
    /// The number of rows the target displayed when the flush read it (0 when not read).
    public var displayedRowCount: Int

    /// Creates a report.
    ///
    /// - Parameters:
    ///   - outcome: What the flush did.
    ///   - update: What the target received.
    ///   - reason: Why it reloaded or deferred.
    ///   - isVisible: Whether the target was visible.
    ///   - changeCount: The number of composed changes.
    ///   - batchCount: The number of batches composed.
    ///   - displayedRowCount: The number of rows displayed.
    /// - Complexity: O(1).
    public init(
        outcome: Outcome, update: ListUpdate? = nil, reason: ReloadReason? = nil, isVisible: Bool = false,
        changeCount: Int = 0, batchCount: Int = 0, displayedRowCount: Int = 0
    ) {
        self.outcome = outcome
        self.update = update
        self.reason = reason
        self.isVisible = isVisible
        self.changeCount = changeCount
        self.batchCount = batchCount
        self.displayedRowCount = displayedRowCount
    }

    /// A one-line summary such as `reloaded (12 changes exceed the limit of 10; visible, 40 rows)`.
    public var description: String {
        var text = "\(outcome)"
        if case .animate(let stages)? = update { text += " \(stages.count) stage(s)" }
        if let reason { text += " (\(reason))" }
        text += " [\(changeCount) change(s) from \(batchCount) batch(es); \(isVisible ? "visible" : "not visible"), "
        text += "\(displayedRowCount) row(s)]"
        return text
    }
}
