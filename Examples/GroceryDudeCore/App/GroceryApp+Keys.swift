extension GroceryApp {
    /// Reacts to a key as the interactive app does.
    ///
    /// Browsing: arrows, Page Up/Down, Home/End move the cursor (Left/Right jump between
    /// sections, as the section index does); Enter toggles the selected item's listed state,
    /// and so does Space while no search is typed (while one is, Space types a space);
    /// Tab switches between Prepare and Shop; typed characters search, Backspace edits the
    /// search and Escape clears it; Ctrl-N adds an item, Ctrl-R edits the selected one
    /// (both open a form: Tab moves between the name, quantity, note, location and aisle, Left
    /// and Right choose the location or aisle, and a name another item has is warned about
    /// before it is saved);
    /// Ctrl-D or Delete asks whether to delete it (`y` deletes, any other key keeps it);
    /// in Shop, taking an item off ticks it (its row stays, struck through, until Ctrl-L
    /// refreshes the list or the tab is left);
    /// Ctrl-U undoes the last action and Ctrl-Y redoes it (Ctrl-Z suspends, in the session);
    /// Ctrl-O imports ``keyboardImportCount`` items; Ctrl-Q or Ctrl-C quits. While a prompt is
    /// open, keys edit it: Enter confirms, Escape cancels. While the terminal is too small to
    /// show the lists, only Ctrl-Q and Ctrl-C do anything: nothing changes that the user
    /// cannot see.
    ///
    /// - Parameter key: The key pressed.
    public func press(_ key: Key) {
        guard size.isLargeEnough else {
            if key == .control("q") || key == .control("c") { isFinished = true }
            return
        }
        if let prompt {
            if prompt.purpose == .confirmDelete {
                answerDeleteConfirmation(key)
            } else {
                pressInForm(key)
            }
            return
        }
        let screen = visibleScreen
        switch key {
        case .up: moveCursor { screen.moveCursor(by: -1) }
        case .down: moveCursor { screen.moveCursor(by: 1) }
        case .pageUp: moveCursor { screen.moveCursor(by: -bodyHeight) }
        case .pageDown: moveCursor { screen.moveCursor(by: bodyHeight) }
        case .home: moveCursor { screen.setCursor(0) }
        case .end: moveCursor { screen.setCursor(screen.totalRows - 1) }
        case .left: moveCursor { screen.moveCursor(sections: -1) }
        case .right: moveCursor { screen.moveCursor(sections: 1) }
        case .tab: switchTab()
        case .space:
            if searchText.isEmpty { toggleSelected() } else { type(" ") }
        case .enter: toggleSelected()
        case .escape: escape()
        case .backspace: backspace()
        case .delete, .control("d"): openPrompt(.confirmDelete)
        case .character(let character): type(String(character))
        case .control("n"): openPrompt(.add)
        case .control("r"): openPrompt(.rename)
        case .control("l"): refreshShop()
        case .control("u"): undo()
        case .control("y"): redo()
        case .control("o"):
            if importProgress == nil {
                requestedImport = keyboardImportCount
            } else {
                status = "error: \(GroceryError.importInProgress)"
            }
        case .control("q"), .control("c"): isFinished = true
        case .control: break
        }
    }

    /// `y` deletes the item the confirmation names; any other key keeps it (so holding Delete
    /// or Ctrl-D asks and keeps, asks and keeps, and never deletes).
    private func answerDeleteConfirmation(_ key: Key) {
        switch key {
        case .character("y"), .character("Y"): submitPrompt()
        case .control("q"), .control("c"): isFinished = true
        default:
            let name = prompt?.text ?? ""
            prompt = nil
            status = "kept \(name)"
        }
    }

    /// Moves the cursor; the marks of the previous command go, the status line stays.
    private func moveCursor(_ move: () -> Void) {
        for pane in panes { pane.screen.clearMarks() }
        searchPane?.screen.clearMarks()
        move()
    }

    /// Takes the import the keyboard asked for, if any, so the session can start it.
    ///
    /// - Returns: The number of items to import, or `nil`.
    public func takeRequestedImport() -> Int? {
        defer { requestedImport = nil }
        return requestedImport
    }
}

extension GroceryApp {
    /// Whether any screen shows marks of the last animated batch.
    public var hasMarks: Bool {
        panes.contains { !$0.screen.marked.isEmpty } || searchPane?.screen.marked.isEmpty == false
    }

    /// Removes the marks of the last animated batch from every screen (they show "for a
    /// moment": until the next command, or until the interactive session lets them fade).
    public func clearMarks() {
        guard hasMarks else { return }
        for pane in panes { pane.screen.clearMarks() }
        searchPane?.screen.clearMarks()
    }
}
