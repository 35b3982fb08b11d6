/// The scripted tour played when the app runs without a terminal and without a script.
public enum Tour {
    /// The tour's script, in the syntax of ``ScriptParser``.
    public static let script = """
        # The Grocery Dude tour: what `swift run grocery-dude` shows without a terminal. It runs
        # with --explain, so the status line names what the library decided and why.
        say Prepare: every item, sectioned by home location and sorted by name. [x] is listed.
        frame
        say Space puts the selected item on the list; the row the batch changed is marked *.
        key down
        key down
        key space
        frame
        say Right jumps to the next section and brings its header to the top; Left goes back.
        key right
        key right
        frame
        key left
        frame
        key left
        say Tab shows Shop: listed items by aisle. It changed while hidden, so it reloads.
        key tab
        frame
        say In Shop, Enter ticks an item off: it stays, struck through, so a double press cannot tick the next one.
        key enter
        frame
        say Ctrl-L refreshes the list and the ticked item goes; the title counts what is left to get.
        key ctrl-l
        frame
        say Typing searches with name CONTAINS[cd]; the results keep their sections.
        tab prepare
        type jam
        frame
        say Enter inside the results updates both lists.
        key down
        key enter
        frame
        say Escape clears the search; the full list reloads, as it changed while hidden.
        key escape
        frame
        say Ctrl-N opens a form: the name, then Tab to the quantity, the note and the location.
        key ctrl-n
        type Oat milk
        key tab
        type 2
        key tab
        type barista
        key tab
        type p
        frame
        say Left and Right choose the location; Enter saves, and the cursor follows the new row.
        key right
        key left
        key enter
        frame
        say A name already on the list is warned about first; Enter again would add it anyway.
        key ctrl-n
        type milk
        key enter
        frame
        key escape
        say Ctrl-R edits the selected item; the form starts from its values.
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
        key ctrl-o
        frame
        say An import whose source fails halfway commits nothing.
        import-fail 2000
        frame
        say A terminal too small for the lists gets a clear frame, not a crash.
        size 30 6
        frame
        """
}
