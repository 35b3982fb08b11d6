import FetchedResultsKit

/// Delivers a list's changes to its screen at flush time, deciding between animating and
/// reloading from the state at that moment.
///
/// A flush animates the staged batch when the screen is visible and the batch is small, and
/// reloads when the screen was hidden when the changes arrived (it owes a reload), when the
/// batch is large (more than ``maximumChangeCount`` changes or half the displayed rows), or
/// when more than one batch arrived since the last flush.
public final class ListDelivery {
    /// The screen flushes deliver to.
    public weak var target: ListScreen?
    /// The largest batch that still animates.
    public var maximumChangeCount = 500
    private var pending: ListChanges?
    private var owedReload: String?

    /// Makes a delivery for a screen.
    ///
    /// - Parameter target: The screen.
    public init(target: ListScreen) {
        self.target = target
    }

    /// Adds the changes of one commit.
    ///
    /// - Parameter changes: General changes relative to the rows at the last addition.
    public func add(_ changes: ListChanges) {
        guard owedReload == nil else { return }
        if pending == nil {
            pending = changes
        } else {
            pending = nil
            owedReload = "several batches arrived"
        }
    }

    /// Delivers what is pending.
    ///
    /// - Returns: A sentence for the status line saying what was decided and why, or `nil`
    ///   when nothing was pending.
    @discardableResult
    public func flush() -> String? {
        guard let target else { return nil }
        guard target.isVisible else {
            guard pending != nil else { return nil }
            pending = nil
            owedReload = "changed while hidden"
            return "reload owed (not visible)"
        }
        if let reason = owedReload {
            owedReload = nil
            target.reloadData()
            return "reloaded (\(reason))"
        }
        guard let changes = pending else { return nil }
        pending = nil
        let rows = target.totalRows
        if changes.count > maximumChangeCount {
            target.reloadData()
            return "reloaded (\(changes.count) changes exceed the limit of \(maximumChangeCount))"
        }
        if rows > 0 && changes.count * 2 > rows {
            target.reloadData()
            return "reloaded (\(changes.count) changes exceed half of \(rows) rows)"
        }
        let stages = changes.staged()
        target.performBatch(stages: stages)
        return "animated \(changes.count) change\(changes.count == 1 ? "" : "s") in \(stages.count) stage\(stages.count == 1 ? "" : "s")"
    }
}
