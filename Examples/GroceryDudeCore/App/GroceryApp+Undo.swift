import FetchedResultsKit

extension GroceryApp {
    /// Undoes the last user action (Ctrl-U, the script's `undo`); the lists animate the change
    /// back and the cursor goes to the item it brought back or changed. The status line names
    /// the action: `undid Delete Shampoo`, or `nothing to undo`.
    public func undo() {
        command { () throws(GroceryError) in
            guard let outcome = try store.undo() else { return "nothing to undo" }
            pendingSelection = outcome.item
            return "undid \(outcome.actionName)"
        }
        selectPending()
    }

    /// Redoes the action the last undo undid (Ctrl-Y, the script's `redo`).
    public func redo() {
        command { () throws(GroceryError) in
            guard let outcome = try store.redo() else { return "nothing to redo" }
            pendingSelection = outcome.item
            return "redid \(outcome.actionName)"
        }
        selectPending()
    }
}

extension GroceryApp {
    /// Where the cursor is now, to save on quit.
    ///
    /// - Returns: The tab showing and the restoration identifier of the selected item
    ///   (in the search results too, while a search is showing).
    public func savedCursor() -> SavedCursor {
        let screen = visibleScreen
        let item = screen.selectedIndexPath.flatMap { screen.list.restorationIdentifier(at: $0) }
        return SavedCursor(tab: activeTab, item: item)
    }

    /// Shows the tab a saved cursor names, with the cursor on its item when the tab's list
    /// still shows it (at the top otherwise).
    ///
    /// - Parameter saved: A cursor from ``savedCursor()``, of an earlier run on the same
    ///   store.
    /// - Returns: Whether the item was found.
    @discardableResult
    public func restore(_ saved: SavedCursor) -> Bool {
        if let tab = ListKind(rawValue: saved.tab), tab != activeTab { switchTab(to: tab) }
        status = "ready"
        let screen = screen(for: activeTab)
        guard let identifier = saved.item, let path = screen.list.indexPath(forRestorationIdentifier: identifier),
              let item = screen.list.item(at: path)
        else { return false }
        return screen.select(item.objectID)
    }
}
