import FetchedResultsKit

extension GroceryStore {
    /// What an undo or redo did.
    public struct UndoOutcome: Sendable, Hashable {
        /// The name of the action undone or redone ("Delete Shampoo").
        public var actionName: String
        /// The item it brought back or changed (for the cursor), or `nil` when it only
        /// removed items.
        public var item: ObjectID?
    }

    /// Undoes the last user action (list, add, rename, delete) as one commit that every list
    /// animates like any other change.
    ///
    /// Imports are not recorded. An action whose location or aisle lists an import filled
    /// since (an add or a delete before the import) cannot be undone without undoing part of
    /// the import: undo refuses it, changes nothing, and forgets the undo history (which only
    /// older actions, behind that one, are left in).
    ///
    /// - Returns: What was undone, or `nil` when there is nothing to undo.
    /// - Throws: ``GroceryError/undoRefused(action:isRedo:reason:)``; nothing changed.
    /// - Complexity: O(k) for the k values the action changed, plus the commit.
    public func undo() throws(GroceryError) -> UndoOutcome? {
        try replay(undo: true)
    }

    /// Redoes the action the last ``undo()`` undid, as one commit.
    ///
    /// - Returns: What was redone, or `nil` when there is nothing to redo (a new action
    ///   after an undo forgets what could be redone).
    /// - Throws: ``GroceryError/undoRefused(action:isRedo:reason:)``, as ``undo()``.
    /// - Complexity: As ``undo()``.
    public func redo() throws(GroceryError) -> UndoOutcome? {
        try replay(undo: false)
    }

    private func replay(undo: Bool) throws(GroceryError) -> UndoOutcome? {
        guard undo ? undoManager.canUndo : undoManager.canRedo else { return nil }
        let name = undo ? undoManager.undoActionName : undoManager.redoActionName
        lastChanges = nil
        // Changes made elsewhere are never undone here: apply them first, so that undo
        // refuses a step they touched instead of a commit conflicting with them.
        _ = try? durableStore?.refresh()
        do {
            if undo { try undoManager.undo() } else { try undoManager.redo() }
        } catch {
            switch error {
            case .conflict:
                undoManager.removeAllActions()
                throw .undoRefused(
                    action: name, isRedo: !undo,
                    reason: "a change since (an import, or one made in another window) touched the same items and cannot be undone; undo history cleared")
            case .nothingToUndo, .nothingToRedo:
                return nil
            case .commitFailed(let commitError):
                throw .undoRefused(action: name, isRedo: !undo, reason: "\(refused(commitError))")
            case .pendingChanges:
                throw .undoRefused(action: name, isRedo: !undo, reason: "\(error)")
            }
        }
        return UndoOutcome(actionName: name, item: Self.itemTouched(by: lastChanges))
    }

    /// The item an undo or redo brought back (inserted) or changed, if any.
    static func itemTouched(by changes: GraphChanges?) -> ObjectID? {
        guard let changes else { return nil }
        let itemEntity = Item.entity.name
        if let back = changes.insertedIDs.first(where: { $0.entityName == itemEntity }) { return back }
        return changes.updated.keys.filter { $0.entityName == itemEntity }.min { $0.description < $1.description }
    }
}
