import FetchedResultsKit

extension GroceryApp {
    /// Applies what other windows and `grocery-dude` commands saved to the list since this
    /// window last looked: the lists animate it like any other change, and the status line
    /// says where it came from ("Milk added by grocery-dude add").
    ///
    /// The interactive session does not call it: it follows the store as it changes
    /// (`GraphStore.followChanges`) and calls ``showChangesElsewhere()``; scripts and tests
    /// call this.
    ///
    /// - Returns: Whether anything changed.
    /// - Complexity: O(1) reads when nothing changed; otherwise what the changes cost to
    ///   apply and show.
    @discardableResult
    public func refreshFromStore() -> Bool {
        guard let durable = store.durableStore else { return false }
        do {
            try durable.refresh()
        } catch let error {
            // Between commands nothing is pending; a failure is told, and what was applied
            // before it is still shown.
            if case .pendingChanges = error { return false }
            showChangesElsewhere()
            stopFollowing(because: error)
            return true
        }
        return showChangesElsewhere()
    }

    /// Shows the changes made elsewhere that are already applied to the graph (by
    /// `GraphStore.followChanges`, say): flushes every list and writes the status line, as a
    /// command does.
    ///
    /// - Returns: Whether there were any; nothing changes on screen otherwise (the marks of
    ///   the last command stay).
    @discardableResult
    public func showChangesElsewhere() -> Bool {
        guard let changes = store.changesElsewhere, !changes.isEmpty else { return false }
        command { () throws(GroceryError) in nil }
        return true
    }

    /// Says on the status line that other windows' changes can no longer be shown.
    ///
    /// - Parameter error: Why following the store stopped.
    public func stopFollowing(because error: any Error) {
        if let storeError = error as? GraphStoreError, case .mustReopen(let reason) = storeError {
            status = "error: \(GroceryError.mustReopen(reason))"
        } else {
            status = "error: changes made in other windows can no longer be shown (\(error))"
        }
    }
}
