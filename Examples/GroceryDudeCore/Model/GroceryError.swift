/// What can go wrong when the user (or a script) changes the groceries. Each is shown on the
/// status line; none stops the app.
public enum GroceryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An item name was empty or only white space.
    case emptyName
    /// A command needs a selected item and the list is empty.
    case noSelection
    /// No item has the name a command asked for.
    case noSuchItem(String)
    /// An import is already running.
    case importInProgress
    /// The import's source failed after `built` of `total` items; nothing was committed.
    case importFailed(built: Int, total: Int)
    /// The graph refused a commit; every change of the command was rolled back.
    case commitFailed(String)
    /// An undo (or, when `isRedo`, a redo) of `action` was refused; nothing changed.
    case undoRefused(action: String, isRedo: Bool, reason: String)
    /// Another window (or a command) changed or deleted these items (their names; empty
    /// when none is an item) since this one last looked: the change was refused and rolled
    /// back, and theirs is shown instead.
    case changedElsewhere([String])
    /// The list's files changed in a way this window cannot follow (another process rewrote
    /// them): nothing more can be saved until `grocery-dude` is started again.
    case mustReopen(String)

    /// A sentence for the status line.
    public var description: String {
        switch self {
        case .emptyName: "an item needs a name"
        case .noSelection: "no item is selected"
        case .noSuchItem(let name): "no item is called \"\(name)\""
        case .importInProgress: "an import is already running"
        case .importFailed(let built, let total):
            "import failed after \(built) of \(total) items, nothing committed"
        case .commitFailed(let reason): "commit refused (\(reason)); nothing changed"
        case .undoRefused(let action, let isRedo, let reason): "cannot \(isRedo ? "redo" : "undo") \(action): \(reason)"
        case .changedElsewhere(let names):
            "\(names.isEmpty ? "the list" : names.joined(separator: ", ")) changed in another window meanwhile: "
                + "your change was not saved, the list now shows theirs"
        case .mustReopen(let reason):
            "this window can no longer save to the list (\(reason)): quit and start grocery-dude again"
        }
    }
}
