import FetchedResultsKit

/// The Grocery Dude app without its terminal: the state of the two tabs, the search and the
/// prompts, the commands that change the groceries, and the frame that shows it all.
///
/// Every change reaches the screens the same way: a commit to the graph, the lists' changes,
/// each list's `ChangeAccumulator`, and one flush of every accumulator at the end of the
/// command, which animates or reloads each screen from the state at that moment and says why
/// on the status line. The interactive session and the script player both drive the app through
/// ``press(_:)``, ``type(_:)`` and the other commands, then draw ``render(styled:)``.
@MainActor
public final class GroceryApp {
    /// A form open at the bottom of the screen: the add and edit form (one field at a time on
    /// the search line, the others summed up on the status line) or a delete confirmation.
    public struct Prompt: Sendable, Hashable {
        /// What the prompt is for.
        public enum Purpose: Sendable, Hashable {
            /// A new item.
            case add
            /// Editing the selected item (its name first, as a rename).
            case rename
            /// Whether to delete ``Prompt/item`` (named ``Prompt/text``): `y` deletes, any
            /// other key keeps it.
            case confirmDelete
        }

        /// A field of the add and edit form.
        public enum Field: String, Sendable, Hashable {
            /// The name (``Prompt/text``).
            case name = "Name"
            /// How much to get.
            case quantity = "Quantity"
            /// A note.
            case note = "Note"
            /// Where the item is kept at home, chosen among the locations.
            case location = "Location"
            /// Where the item is found in the shop, chosen among the aisles.
            case aisle = "Aisle"

            /// Whether the field is chosen from a list (Left/Right) rather than typed.
            public var isChoice: Bool { self == .location || self == .aisle }
        }

        /// What the prompt is for.
        public var purpose: Purpose
        /// The name typed so far (for a confirmation, the name of the item it is about).
        public var text: String
        /// The item the prompt is about: the one edited or to delete; `nil` when adding.
        public var item: ObjectID?
        /// The quantity typed so far.
        public var quantity = ""
        /// The note typed so far.
        public var note = ""
        /// The name of the location chosen, or `nil` for none.
        public var location: String?
        /// The name of the aisle chosen, or `nil` for none.
        public var aisle: String?
        /// The field being edited.
        public var field = Field.name
        /// A warning shown in place of the form's summary (a duplicate name), if any.
        public var warning: String?
        /// The lower-cased name a duplicate warning was given for: Enter with it saves anyway.
        var warnedName: String?

        /// Makes a prompt.
        ///
        /// - Parameters:
        ///   - purpose: What the prompt is for.
        ///   - text: The name it starts with.
        ///   - item: The item an edit or a confirmation is about.
        public init(purpose: Purpose, text: String, item: ObjectID? = nil) {
            self.purpose = purpose
            self.text = text
            self.item = item
        }

        /// The value typed into a text field, or the choice made in a choice field.
        ///
        /// - Parameter field: A field.
        /// - Returns: Its value; `nil` for a choice of none.
        public func value(of field: Field) -> String? {
            switch field {
            case .name: text
            case .quantity: quantity
            case .note: note
            case .location: location
            case .aisle: aisle
            }
        }
    }

    /// One list, the screen that shows it, and the accumulator between them.
    struct Pane {
        let name: String
        let list: GroceryList
        let screen: ListScreen
        let accumulator: ChangeAccumulator
    }

    /// The store whose groceries the app shows.
    public let store: GroceryStore
    /// The terminal size frames are drawn for.
    public var size: TerminalSize
    /// The tab showing.
    public internal(set) var activeTab: ListKind = .prepare
    /// The search text; empty when no search is active.
    public internal(set) var searchText = ""
    /// The prompt being edited, if any.
    public internal(set) var prompt: Prompt?
    /// The progress of the running import, if one is running.
    public internal(set) var importProgress: ImportProgress?
    /// Whether the user asked to quit.
    public internal(set) var isFinished = false
    /// The number of items an import started from the keyboard builds.
    public var keyboardImportCount = 5000
    /// An import the keyboard asked for and the session has not started yet.
    var requestedImport: Int?
    /// The item the cursor moves to once the running command has flushed.
    var pendingSelection: ObjectID?
    /// What opening the list found (a lost change, a repaired file), shown in a panel above
    /// the list until Esc dismisses it; `nil` when there is nothing to say.
    public var notice: [String]?

    /// The items ticked off in Shop since it was last refreshed or left, which the Shop lists
    /// keep showing, struck through.
    public let ticked = TickedItems()

    /// The Prepare and Shop panes, by ``ListKind/rawValue``.
    var panes: [Pane] = []
    /// The search pane of the active tab while a search is active.
    var searchPane: Pane?
    /// What the last command did (and, with ``explain``, what the last flush decided).
    var status = "ready"
    /// Whether the status line explains the library's decisions as well — animated or
    /// reloaded and why, which hidden lists owe a reload — as the tour and `--explain` do.
    /// Off by default: the status line then speaks to a shopper ("Shop list updated").
    public var explain = false
    /// The lists that reported changes since the last flush.
    var changedLists: Set<ObjectIdentifier> = []
    /// How every accumulator decides between animating and reloading.
    let reloadPolicy: DefaultReloadPolicy

    /// Makes the app over a store.
    ///
    /// - Parameters:
    ///   - store: The groceries; seeded by default.
    ///   - size: The terminal size frames are drawn for.
    ///   - reloadPolicy: How each list decides, at each flush, between animating and
    ///     reloading.
    public init(
        store: GroceryStore = GroceryStore(), size: TerminalSize = .script,
        reloadPolicy: DefaultReloadPolicy = .grocery
    ) {
        self.store = store
        self.size = size
        self.reloadPolicy = reloadPolicy
        panes = ListKind.allCases.map { kind in makePane(kind: kind, searchText: "") }
    }

    func makePane(kind: ListKind, searchText: String) -> Pane {
        let list = GroceryList(store: store, kind: kind, searchText: searchText, ticked: kind == .shop ? ticked : nil)
        let isSearch = !searchText.isEmpty
        let screen = ListScreen(list: list) { [unowned self] in
            kind == activeTab && (isSearch ? searchPane?.list === list : searchPane == nil)
        }
        let accumulator = ChangeAccumulator(target: screen, policy: reloadPolicy)
        list.onChange = { [unowned self, unowned accumulator, unowned list] changes in
            accumulator.add(changes)
            changedLists.insert(ObjectIdentifier(list))
        }
        return Pane(name: isSearch ? "\(kind) search" : "\(kind)", list: list, screen: screen, accumulator: accumulator)
    }

    /// The pane showing now.
    var visiblePane: Pane { searchPane ?? panes[activeTab.rawValue] }

    /// The screen showing now.
    public var visibleScreen: ListScreen { visiblePane.screen }

    /// The screen of a tab's list (not its search results).
    ///
    /// - Parameter kind: The tab.
    /// - Returns: Its screen.
    public func screen(for kind: ListKind) -> ListScreen { panes[kind.rawValue].screen }

    /// The screen of the search results, while a search is active.
    public var searchScreen: ListScreen? { searchPane?.screen }

    /// The status line as it stands.
    public var statusLine: String {
        importProgress.map(\.description) ?? status
    }

    /// The list lines the frame has room for.
    var bodyHeight: Int { FrameRenderer.bodyHeight(for: size) }

    // MARK: Running commands

    /// Runs one command: clears the marks of the previous one, runs `body`, flushes every
    /// accumulator and writes the status line: the command's message, what other windows
    /// changed meanwhile ("Milk added by grocery-dude add") and the hidden lists that changed
    /// ("Shop list updated"); with ``explain``, the visible list's decision and its reason
    /// first, and the library's words for the hidden lists ("reload owed (hidden)").
    ///
    /// - Parameter body: The command; returns a message for the status line, or `nil`.
    func command(_ body: () throws(GroceryError) -> String?) {
        for pane in panes { pane.screen.clearMarks() }
        searchPane?.screen.clearMarks()
        var message: String?
        do {
            message = try body()
        } catch {
            message = "error: \(error)"
        }
        let (decision, owing) = flushAll()
        let elsewhere = store.changesElsewhere?.take()
        if explain {
            let hidden = owing.isEmpty ? nil : "\(owing.joined(separator: ", ")): reload owed (hidden)"
            status = [decision, message, elsewhere, hidden].compactMap { $0 }.joined(separator: " · ")
            if status.isEmpty { status = "no list changed" }
        } else {
            status = [message, elsewhere, Self.updatedNote(owing)].compactMap { $0 }.joined(separator: " · ")
        }
    }

    /// A shopper's note naming the hidden lists that changed: `Shop list updated`.
    static func updatedNote(_ names: [String]) -> String? {
        guard !names.isEmpty else { return nil }
        let lists = names.map { $0.hasSuffix("search") ? "\($0) results" : "\($0) list" }
        return lists.count == 1 ? "\(lists[0]) updated" : "\(lists.joined(separator: " and ")) updated"
    }

    /// Flushes every accumulator; returns what the visible one decided, and the names of the
    /// hidden ones whose lists changed in this command (they owe a reload).
    func flushAll() -> (visible: String?, owing: [String]) {
        defer { changedLists = [] }
        var decision: String?
        var owing: [String] = []
        let visible = visiblePane
        for pane in panes + [searchPane].compactMap({ $0 }) {
            let report = pane.accumulator.flush()
            if pane.list === visible.list {
                decision = Self.describe(report)
            } else if report.outcome == .deferredUntilVisible, changedLists.contains(ObjectIdentifier(pane.list)) {
                owing.append(pane.name)
            }
        }
        return (decision, owing)
    }

    /// A status-line sentence for a flush report, or `nil` when the flush had nothing to do.
    ///
    /// - Parameter report: What a flush decided.
    /// - Returns: `animated 2 changes`, `reloaded (5000 changes exceed the limit of
    ///   500)`, `reload owed (hidden)`…
    static func describe(_ report: FlushReport) -> String? {
        func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        switch report.outcome {
        case .nothing:
            return nil
        case .animated:
            let stages = if case .animate(let stages)? = report.update { stages.count } else { 0 }
            return "animated \(plural(report.changeCount, "change"))" + (stages > 1 ? " in \(stages) stages" : "")
        case .reloaded:
            return "reloaded (\(report.reason.map(\.description) ?? "requested"))"
        case .deferredUntilVisible:
            return "reload owed (hidden)"
        case .postponed:
            return "flush postponed"
        }
    }
}
