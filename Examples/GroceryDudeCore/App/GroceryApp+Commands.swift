import FetchedResultsKit

extension GroceryApp {
    /// The item under the cursor of the visible screen.
    var selectedItem: Item? {
        visibleScreen.selectedItemID.flatMap { store.graph.object(with: $0, as: Item.self) }
    }

    /// Puts the selected item on the shopping list, or takes it off. In Shop, taking it off
    /// ticks it: its row stays, struck through, until the list is refreshed (``refreshShop()``)
    /// or the tab is left, so a second press puts the same item back.
    public func toggleSelected() {
        command { () throws(GroceryError) in
            guard let item = selectedItem else { throw .noSelection }
            let ticking = activeTab == .shop && item.listed
            // The Shop lists read the ticked set when the commit re-evaluates the item.
            if ticking { ticked.insert(item.objectID) }
            try store.toggle(item)
            if ticking { return "got \(item.name)" }
            return "\(item.listed ? "listed" : "unlisted") \(item.name)"
        }
    }

    /// The number of items ticked off in Shop that are still off the list.
    ///
    /// - Complexity: O(t) for t ticked items.
    var tickedCount: Int {
        ticked.ids.reduce(0) { count, id in
            guard let item = store.graph.object(with: id, as: Item.self), !item.isDeleted, !item.listed else { return count }
            return count + 1
        }
    }

    /// Refreshes the Shop list (Ctrl-L): the items ticked off go.
    public func refreshShop() {
        command { () throws(GroceryError) in
            let count = tickedCount
            forgetTicked()
            return count == 0 ? "Shop list is up to date" : "cleared \(count) ticked item\(count == 1 ? "" : "s") from Shop"
        }
    }

    /// Forgets the ticked items and fetches the Shop lists again, so their rows go.
    ///
    /// - Complexity: O(n log n) for n items when any item was ticked; O(1) otherwise.
    func forgetTicked() {
        guard !ticked.ids.isEmpty else { return }
        let shopScreens = [panes[ListKind.shop.rawValue].screen] + (searchPane.map { $0.list.kind == .shop ? [$0.screen] : [] } ?? [])
        // The rows that go are the ticked items still off the list (a second press relisted some).
        let leaving = { (id: ObjectID) in
            self.ticked.contains(id) && self.store.graph.object(with: id, as: Item.self)?.listed != true
        }
        for screen in shopScreens { screen.selectNearestRemaining(leaving: leaving) }
        ticked.removeAll()
        panes[ListKind.shop.rawValue].list.refetch()
        if let searchPane, searchPane.list.kind == .shop { searchPane.list.refetch() }
    }

    /// Adds an item in the location and aisle of the selected item (or the first ones), on
    /// the shopping list when the Shop tab is showing, and moves the cursor to it (the
    /// script's `add`; the keyboard opens the form). The status line warns when another item
    /// has the same name.
    ///
    /// - Parameter name: The new item's name.
    public func add(name: String) {
        let neighbour = selectedItem
        add(
            name: name, quantity: "", note: "", location: neighbour?.location ?? store.locations.first,
            aisle: neighbour?.aisle ?? store.aisles.first)
    }

    /// Adds an item, on the shopping list when the Shop tab is showing, and moves the cursor
    /// to it.
    func add(name: String, quantity: String, note: String, location: Location?, aisle: Aisle?) {
        command { () throws(GroceryError) in
            let duplicate = store.duplicate(of: name)
            let item = try store.add(
                name: name, location: location, aisle: aisle, listed: activeTab == .shop, quantity: quantity, note: note)
            pendingSelection = item.objectID
            return "added \(item.name)" + (duplicate.map { " (another \($0.name) is in \(Self.place(of: $0)))" } ?? "")
        }
        selectPending()
    }

    /// Changes an item's name, quantity, note, location and aisle, and moves the cursor to it.
    func edit(
        _ id: ObjectID?, name: String, quantity: String, note: String, location: Location?, aisle: Aisle?
    ) {
        command { () throws(GroceryError) in
            guard let id, let item = store.graph.object(with: id, as: Item.self), !item.isDeleted else {
                throw .noSelection
            }
            let old = item.name
            try store.update(item, name: name, quantity: quantity, note: note, location: location, aisle: aisle)
            pendingSelection = item.objectID
            return old == item.name ? "changed \(item.name)" : "renamed \(old) to \(item.name)"
        }
        selectPending()
    }

    /// Where an item is, for messages: its location, or its aisle in Shop.
    static func place(of item: Item) -> String {
        item.location?.name ?? item.aisle?.name ?? "no location"
    }

    /// Renames the selected item.
    ///
    /// - Parameter name: The new name.
    public func renameSelected(to name: String) {
        command { () throws(GroceryError) in
            guard let item = selectedItem else { throw .noSelection }
            let old = item.name
            try store.rename(item, to: name)
            pendingSelection = item.objectID
            return "renamed \(old) to \(item.name)"
        }
        selectPending()
    }

    /// Deletes the selected item at once (the script's `delete`; the keyboard asks first).
    public func deleteSelected() {
        delete(selectedItem?.objectID)
    }

    /// Deletes an item.
    ///
    /// - Parameter id: The item; `nil` (no selection) or an item already gone says so on the
    ///   status line.
    func delete(_ id: ObjectID?) {
        command { () throws(GroceryError) in
            guard let id, let item = store.graph.object(with: id, as: Item.self), !item.isDeleted else {
                throw .noSelection
            }
            let name = item.name
            try store.delete(item)
            return "deleted \(name) (Ctrl-U undoes)"
        }
    }

    /// Moves the cursor to the first item with a name (ignoring case) that the visible list
    /// shows.
    ///
    /// - Parameter name: The item's name.
    public func select(named name: String) {
        command { () throws(GroceryError) in
            let wanted = name.lowercased()
            let screen = visibleScreen
            for flat in 0..<screen.totalRows {
                guard let path = screen.indexPath(ofFlat: flat) else { break }
                if screen.list.row(at: path).name.lowercased() == wanted {
                    screen.setCursor(flat)
                    return nil
                }
            }
            throw .noSuchItem(name)
        }
    }

    /// Shows the other tab, or the given one. An active search follows to the new tab.
    ///
    /// - Parameter kind: The tab to show; `nil` for the other one.
    public func switchTab(to kind: ListKind? = nil) {
        command { () throws(GroceryError) in
            let target = kind ?? (activeTab == .prepare ? .shop : .prepare)
            guard target != activeTab else { return nil }
            let leavingShop = activeTab == .shop
            activeTab = target
            // Leaving Shop forgets what was ticked: the hidden Shop list owes a reload.
            if leavingShop { forgetTicked() }
            if !searchText.isEmpty { searchPane = makePane(kind: target, searchText: searchText) }
            return "showing \(target)"
        }
    }

    /// Appends text to the prompt being edited, or to the search text.
    ///
    /// - Parameter text: The characters typed.
    public func type(_ text: String) {
        guard !text.isEmpty else { return }
        if prompt != nil {
            typeInForm(text)
            return
        }
        setSearch(searchText + text)
    }

    /// Drops the last character of the prompt or of the search text.
    public func backspace() {
        if prompt != nil {
            backspaceInForm()
            return
        }
        guard !searchText.isEmpty else { return }
        setSearch(String(searchText.dropLast()))
    }

    /// Cancels the prompt, or closes the notice, or clears the search and goes back to the
    /// tab's whole list with the cursor on the item selected in the results.
    public func escape() {
        if prompt != nil {
            prompt = nil
            status = "cancelled"
            return
        }
        if notice != nil {
            notice = nil
            status = "ready"
            return
        }
        guard !searchText.isEmpty else { return }
        setSearch("")
    }

    /// Sets the search text: opens the search results (a second list with the same sections
    /// and order, narrowed by `name CONTAINS[cd] text`), narrows or widens them, or closes
    /// them when the text is empty.
    func setSearch(_ text: String) {
        let selected = visibleScreen.selectedItemID
        command { () throws(GroceryError) in
            searchText = text
            if text.isEmpty {
                searchPane = nil
                return "search cleared"
            }
            if let searchPane {
                searchPane.list.searchText = text
                return explain ? nil : "searching \(activeTab)"
            }
            searchPane = makePane(kind: activeTab, searchText: text)
            return "searching \(activeTab)"
        }
        if let selected { visibleScreen.select(selected) }
    }

    /// Moves the visible screen's cursor to the item a command just made or renamed.
    func selectPending() {
        if let id = pendingSelection { visibleScreen.select(id) }
        pendingSelection = nil
    }
}
