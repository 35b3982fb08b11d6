import FetchedResultsKit

extension GroceryApp {
    /// The fields of the add and edit form, in the order Tab visits them: the name, the
    /// quantity, the note, then where the item is — the tab's own section first (the location
    /// in Prepare, the aisle in Shop).
    public var formFields: [Prompt.Field] {
        [.name, .quantity, .note] + (activeTab == .shop ? [.aisle, .location] : [.location, .aisle])
    }

    /// Opens a prompt.
    ///
    /// - Parameter purpose: What the prompt is for. Adding starts with the location and aisle
    ///   of the selected item (the first ones when there is none); editing starts from the
    ///   selected item's values; a delete confirmation names the selected item.
    public func openPrompt(_ purpose: Prompt.Purpose) {
        switch purpose {
        case .add:
            let neighbour = selectedItem
            var form = Prompt(purpose: .add, text: "")
            form.location = (neighbour?.location ?? store.locations.first)?.name
            form.aisle = (neighbour?.aisle ?? store.aisles.first)?.name
            prompt = form
        case .rename:
            guard let item = selectedItem else {
                status = "error: \(GroceryError.noSelection)"
                return
            }
            var form = Prompt(purpose: .rename, text: item.name, item: item.objectID)
            form.quantity = item.quantity
            form.note = item.note
            form.location = item.location?.name
            form.aisle = item.aisle?.name
            prompt = form
        case .confirmDelete:
            guard let item = selectedItem else {
                status = "error: \(GroceryError.noSelection)"
                return
            }
            prompt = Prompt(purpose: .confirmDelete, text: item.name, item: item.objectID)
        }
    }

    /// Keys while the add or edit form is open: Tab and Down go to the next field, Up to the
    /// previous one, Left and Right choose the location or aisle, Enter saves, Escape cancels,
    /// and typing edits the name, the quantity or the note.
    func pressInForm(_ key: Key) {
        switch key {
        case .enter: submitPrompt()
        case .escape: escape()
        case .tab, .down: moveField(by: 1)
        case .up: moveField(by: -1)
        case .left: choose(by: -1)
        case .right: choose(by: 1)
        case .backspace: backspace()
        case .space: type(" ")
        case .character(let character): type(String(character))
        case .control("q"), .control("c"): isFinished = true
        default: break
        }
    }

    /// Goes to another field of the form, wrapping around.
    private func moveField(by delta: Int) {
        guard var form = prompt, form.purpose != .confirmDelete else { return }
        let fields = formFields
        let position = fields.firstIndex(of: form.field) ?? 0
        form.field = fields[(position + delta + fields.count) % fields.count]
        prompt = form
    }

    /// The names a choice field offers, in order, ending with none (`nil`).
    private func choices(for field: Prompt.Field) -> [String?] {
        (field == .location ? store.locations.map(\.name) : store.aisles.map(\.name)) + [nil]
    }

    /// Chooses the previous or next location or aisle, wrapping around.
    private func choose(by delta: Int) {
        guard var form = prompt, form.field.isChoice else { return }
        let options = choices(for: form.field)
        let position = options.firstIndex(of: form.value(of: form.field)) ?? options.count - 1
        let chosen = options[(position + delta + options.count) % options.count]
        if form.field == .location { form.location = chosen } else { form.aisle = chosen }
        prompt = form
    }

    /// Types into the form's field; in a choice field, a letter chooses the next option
    /// that starts with it.
    func typeInForm(_ text: String) {
        guard var form = prompt else { return }
        switch form.field {
        case .name: form.text += text
        case .quantity: form.quantity += text
        case .note: form.note += text
        case .location, .aisle:
            guard let letter = text.first?.lowercased() else { return }
            let options = choices(for: form.field)
            let position = options.firstIndex(of: form.value(of: form.field)) ?? options.count - 1
            let rotated = options[(position + 1)...] + options[...position]
            guard let found = rotated.first(where: { $0?.lowercased().hasPrefix(letter) == true }) else { return }
            if form.field == .location { form.location = found } else { form.aisle = found }
        }
        form.warning = nil
        prompt = form
    }

    /// Drops the last character of the form's field.
    func backspaceInForm() {
        guard var form = prompt else { return }
        switch form.field {
        case .name: form.text = String(form.text.dropLast())
        case .quantity: form.quantity = String(form.quantity.dropLast())
        case .note: form.note = String(form.note.dropLast())
        case .location, .aisle: return
        }
        form.warning = nil
        prompt = form
    }

    /// Closes the prompt and runs its command. A name another item already has is warned
    /// about first: the form stays open, and Enter again saves anyway.
    public func submitPrompt() {
        guard var form = prompt else { return }
        if form.purpose == .confirmDelete {
            prompt = nil
            delete(form.item)
            return
        }
        let edited = form.item.flatMap { store.graph.object(with: $0, as: Item.self) }
        let name = form.text.trimmingWhitespace
        if form.warnedName != name.lowercased(), let other = store.duplicate(of: name, other: edited) {
            form.warnedName = name.lowercased()
            let again = form.purpose == .add ? "adds it anyway" : "renames anyway"
            form.warning = "\(other.name) is already on the list (\(Self.place(of: other))): Enter \(again), Esc cancels"
            prompt = form
            return
        }
        prompt = nil
        let location = form.location.flatMap { store.location(named: $0) }
        let aisle = form.aisle.flatMap { store.aisle(named: $0) }
        switch form.purpose {
        case .add:
            add(name: form.text, quantity: form.quantity, note: form.note, location: location, aisle: aisle)
        case .rename:
            edit(form.item, name: form.text, quantity: form.quantity, note: form.note, location: location, aisle: aisle)
        case .confirmDelete:
            break
        }
    }

    // MARK: Drawing the form

    /// The search line while the form is open: the field being edited.
    func formLine(_ form: Prompt) -> String {
        let label = form.purpose == .add ? "New item" : "Rename to"
        let field = form.field
        if field == .name {
            return Self.inputLine(
                head: "\(label): ", text: form.text, tail: "_", hint: "   (Tab: more fields, Enter saves, Esc cancels)",
                width: size.width)
        }
        let title = form.purpose == .add ? "New item" : "Edit \(form.text.trimmingWhitespace)"
        if field.isChoice {
            let none = field == .location ? ListKind.prepare.unsectionedName : ListKind.shop.unsectionedName
            return Self.inputLine(
                head: "\(title) · \(field.rawValue): ◂ ", text: form.value(of: field) ?? none, tail: " ▸",
                hint: "   (←→ choose, Tab: next field, Enter saves)", width: size.width)
        }
        return Self.inputLine(
            head: "\(title) · \(field.rawValue): ", text: form.value(of: field) ?? "", tail: "_",
            hint: "   (Tab: next field, Enter saves)", width: size.width)
    }

    /// The status line while the form is open: its warning, or every field's value.
    func formSummary(_ form: Prompt) -> String {
        if let warning = form.warning { return warning }
        let location = form.location ?? ListKind.prepare.unsectionedName
        let aisle = form.aisle ?? ListKind.shop.unsectionedName
        // The name comes last: it is the longest, and the search line shows it while it is typed.
        var parts: [String] = []
        if !form.quantity.isEmpty { parts.append("×\(form.quantity)") }
        if !form.note.isEmpty { parts.append(form.note) }
        parts.append("at home: \(location)")
        parts.append("in the shop: \(aisle)")
        parts.append(form.text.trimmingWhitespace.isEmpty ? "(no name)" : form.text)
        return parts.joined(separator: " · ")
    }

    /// One line of input that fits `width`: `head`, the text, `tail`, then `hint` when there is
    /// room. When the text is too long, its start gives way (shown as `…`), so the end of what
    /// the user types stays visible.
    ///
    /// - Parameters:
    ///   - head: What comes before the text (a label).
    ///   - text: What the user typed.
    ///   - tail: What comes right after the text (the cursor `_`, a count).
    ///   - hint: What comes last, dropped first.
    ///   - width: The width of the line.
    /// - Returns: The line, at most `width` characters when `head` and `tail` fit.
    /// - Complexity: O(w) for the w characters of the parts.
    static func inputLine(head: String, text: String, tail: String, hint: String, width: Int) -> String {
        let line = head + text + tail
        if line.count + hint.count <= width { return line + hint }
        if line.count <= width { return line }
        let room = width - head.count - tail.count - 1
        guard room > 0 else { return String(line.suffix(max(0, width))) }
        return head + "…" + String(text.suffix(room)) + tail
    }
}
