/// One command of a script: what a user would do at the keyboard, or an instruction to the
/// player (print a frame, set the terminal size, print a caption).
public enum ScriptCommand: Sendable, Hashable {
    /// `key NAME`: presses a key (see ``Key/named``; also `ctrl-x` and single characters).
    case key(Key)
    /// `type TEXT`: types text into the search, or into an open prompt.
    case type(String)
    /// `toggle`: puts the selected item on the shopping list, or takes it off.
    case toggle
    /// `tab` or `tab prepare|shop`: shows the other tab, or the one named.
    case tab(ListKind?)
    /// `escape`: clears the search (or cancels a prompt).
    case escape
    /// `select NAME`: moves the cursor to the item with this name.
    case select(String)
    /// `add NAME`: adds an item next to the selected one.
    case add(String)
    /// `rename NAME`: renames the selected item.
    case rename(String)
    /// `delete`: deletes the selected item.
    case delete
    /// `undo`: undoes the last action, as Ctrl-U does.
    case undo
    /// `redo`: redoes the last undone action, as Ctrl-Y does.
    case redo
    /// `import N`, or `import-fail N` for a source that fails after half the items: runs a
    /// background import to its end.
    case importItems(count: Int, failing: Bool)
    /// `frame`: prints the screen as text.
    case frame
    /// `size W H`: sets the terminal size frames are drawn for.
    case size(TerminalSize)
    /// `say TEXT`: prints a caption line.
    case say(String)
    /// `quit`: ends the script.
    case quit
}

/// A command and the line of the script it came from.
public struct ScriptLine: Sendable, Hashable {
    /// The line number, counting from 1.
    public var number: Int
    /// The command.
    public var command: ScriptCommand

    /// Makes a script line.
    ///
    /// - Parameters:
    ///   - number: The line number, from 1.
    ///   - command: The command.
    public init(number: Int, command: ScriptCommand) {
        self.number = number
        self.command = command
    }
}
