/// The scripted tour played when the app runs without a terminal and without a script.
public enum Tour {
    /// The tour's script, in the syntax of ``ScriptParser``.
    public static let script = """
        # The Grocery Dude tour: what `swift run grocery-dude` shows without a terminal.
        say Prepare: every item, sectioned by home location and sorted by name. [x] is listed.
        frame
        say Space puts the selected item on the list; the row the batch changed is marked *.
        key down
        key down
        toggle
        frame
        say Tab shows Shop: listed items by aisle. It changed while hidden, so it reloads.
        tab
        frame
        say Typing searches with name CONTAINS[cd]; the results keep their sections.
        tab prepare
        type jam
        frame
        say Toggling inside the results updates both lists.
        key down
        toggle
        frame
        say Escape clears the search; the full list reloads, as it changed while hidden.
        escape
        frame
        say Ctrl-N adds an item next to the selected one.
        add Oat milk
        frame
        say Ctrl-R renames the selected item; the prompt starts from its name.
        key ctrl-r
        key backspace
        key backspace
        key backspace
        key backspace
        type drink
        frame
        key enter
        say Ctrl-D (or Delete) asks first: y deletes, any other key keeps the item.
        key ctrl-d
        frame
        key y
        frame
        say Ctrl-U undoes the delete: the row comes back, animated, with the cursor on it.
        key ctrl-u
        frame
        say Ctrl-Y redoes it. (Ctrl-Z suspends, as in every terminal program.)
        key ctrl-y
        frame
        say Ctrl-O imports 5000 items built off the main actor, committed in one batch.
        import 5000
        frame
        say An import whose source fails halfway commits nothing.
        import-fail 2000
        frame
        say A terminal too small for the lists gets a clear frame, not a crash.
        size 30 6
        frame
        """
}
