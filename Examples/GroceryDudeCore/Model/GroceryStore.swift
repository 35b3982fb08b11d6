import FetchedResultsKit

/// The app's object graph of items, home locations and shop aisles, with the few changes
/// the app makes to it, each committed as one transaction.
///
/// Every change either commits completely or is rolled back completely: a refused commit
/// leaves the graph as it was and throws a ``GroceryError``. The store is confined to the
/// isolation domain that made it (the main actor in the app).
public final class GroceryStore {
    /// The graph every list observes.
    public let graph: ObjectGraph
    /// The home locations, in the order they were made.
    public private(set) var locations: [Location] = []
    /// The shop aisles, in the order they were made.
    public private(set) var aisles: [Aisle] = []
    /// The entities format predicates over the graph bind to, with the folded names that
    /// `CONTAINS[cd]` compares kept current at every commit.
    public let predicateSchema = GraphPredicateSchema(Item.self, Location.self, Aisle.self)
    private var foldedTextMaintenance: GraphObservation?

    /// The author tag of the app's commits.
    public static let author = "grocery-dude"
    /// The author tag this store's commits carry: ``author`` by default; a command line
    /// command says which it is (`grocery-dude add`), so that other windows can tell.
    public var commitAuthor = GroceryStore.author
    /// The author tag of imports (applied as one `GraphBatch`, which undo does not record).
    public static let importAuthor = "grocery-dude.import"
    /// How many user actions undo remembers.
    public static let levelsOfUndo = 100

    /// Records every user action (not the seed, not imports) so that it can be undone.
    public let undoManager = GraphUndoManager(levelsOfUndo: GroceryStore.levelsOfUndo)
    /// The durable store the graph is kept in, or `nil` when nothing is kept.
    public private(set) var durableStore: GraphStore?
    /// Whether this store was filled with the seed groceries when it was made (a new or
    /// empty store).
    public private(set) var wasSeeded = false
    /// What other windows and commands changed, waiting for the status line; `nil` when
    /// nothing is kept (no one else can change the list).
    private(set) var changesElsewhere: ChangesElsewhere?
    /// The changes of the last commit, to find the item an undo or redo brought back.
    var lastChanges: GraphChanges?
    private var lastChangesObservation: GraphObservation?

    /// Makes a store in memory, filled with ``GroceryStore/seed`` unless `seeded` is `false`.
    ///
    /// - Parameter seeded: Whether to add the seed groceries.
    public convenience init(seeded: Bool = true) {
        self.init(graph: ObjectGraph(), seedIfEmpty: seeded)
    }

    /// Makes a store over a graph (one loaded from a ``GraphStore``, say): its locations and
    /// aisles are the graph's, and a graph that holds no object at all is filled with
    /// ``GroceryStore/seed`` (one commit, which undo does not record) when `seedIfEmpty`.
    ///
    /// - Parameters:
    ///   - graph: The graph; it must have no pending changes.
    ///   - seedIfEmpty: Whether to seed a graph with no objects.
    ///   - durableStore: The store the graph is kept in; closed by ``close()``.
    /// - Complexity: O(n) for n objects in the graph.
    public init(graph: ObjectGraph, seedIfEmpty: Bool = true, durableStore: GraphStore? = nil) {
        precondition(!graph.hasChanges, "GroceryStore(graph:): the graph has pending changes")
        self.graph = graph
        self.durableStore = durableStore
        foldedTextMaintenance = predicateSchema.maintainFoldedText(in: graph)
        locations = graph.objects(of: Location.self)
        aisles = graph.objects(of: Aisle.self)
        // Another window may have seeded a shared store since it was opened.
        _ = try? durableStore?.refresh()
        let isEmpty = locations.isEmpty && aisles.isEmpty && graph.objects(of: Item.self).isEmpty
        if seedIfEmpty && isEmpty { seed() }
        if durableStore != nil { changesElsewhere = ChangesElsewhere(graph: graph) }
        lastChangesObservation = graph.addObserver { [weak self] changes in self?.lastChanges = changes }
        graph.undoManager = undoManager
        undoManager.nonUndoableAuthors = [Self.importAuthor]
    }

    /// Fills an empty graph with the seed groceries, in one commit.
    private func seed() {
        for name in Self.seedLocations { locations.append(makeLocation(name)) }
        for name in Self.seedAisles { aisles.append(makeAisle(name)) }
        for seed in Self.seed {
            let item = graph.insert(Item())
            item.name = seed.name
            item.listed = seed.listed
            item.location = locations.first { $0.name == seed.location }
            item.aisle = aisles.first { $0.name == seed.aisle }
        }
        do {
            try graph.commit(author: Self.author)
        } catch {
            preconditionFailure("internal inconsistency: the seed data does not commit: \(error)")
        }
        wasSeeded = true
    }

    /// Stops keeping the groceries: syncs and closes the durable store, if there is one.
    /// Later changes are refused.
    public func close() {
        durableStore?.close()
        durableStore = nil
    }

    private func makeLocation(_ name: String) -> Location {
        let location = graph.insert(Location())
        location.name = name
        return location
    }

    private func makeAisle(_ name: String) -> Aisle {
        let aisle = graph.insert(Aisle())
        aisle.name = name
        return aisle
    }

    // MARK: Reading

    /// Every item, in insertion order.
    public var items: [Item] { graph.objects(of: Item.self) }

    /// The first item whose name equals `name`, ignoring case.
    ///
    /// - Parameter name: The name to look for.
    /// - Returns: The item, or `nil`.
    /// - Complexity: O(n) for n items.
    public func item(named name: String) -> Item? {
        let wanted = name.lowercased()
        return items.first { $0.name.lowercased() == wanted }
    }

    /// The location with a name, if there is one.
    ///
    /// - Parameter name: The location's name.
    /// - Returns: The location, or `nil`.
    public func location(named name: String) -> Location? {
        locations.first { $0.name == name }
    }

    /// The aisle with a name, if there is one.
    ///
    /// - Parameter name: The aisle's name.
    /// - Returns: The aisle, or `nil`.
    public func aisle(named name: String) -> Aisle? {
        aisles.first { $0.name == name }
    }

    // MARK: Changing

    /// Puts an item on the shopping list, or takes it off.
    ///
    /// - Parameter item: An item of this store.
    /// - Throws: ``GroceryError/commitFailed(_:)`` when the graph refuses the commit.
    public func toggle(_ item: Item) throws(GroceryError) {
        try commit(actionName: "\(item.listed ? "Unlist" : "List") \(item.name)") { item.listed.toggle() }
    }

    /// Adds an item.
    ///
    /// - Parameters:
    ///   - name: Its name; leading and trailing white space is dropped.
    ///   - location: Where it is kept at home.
    ///   - aisle: Where it is found in the shop.
    ///   - listed: Whether it goes on the shopping list.
    ///   - quantity: How much to get; empty for none.
    ///   - note: A note; empty for none.
    /// - Returns: The new item.
    /// - Throws: ``GroceryError/emptyName`` when the name is empty; nothing is added.
    @discardableResult
    public func add(
        name: String, location: Location?, aisle: Aisle?, listed: Bool, quantity: String = "", note: String = ""
    ) throws(GroceryError) -> Item {
        var item: Item?
        try commit(actionName: "Add \(name.trimmingWhitespace)") {
            let new = graph.insert(Item())
            new.name = name.trimmingWhitespace
            new.listed = listed
            new.quantity = quantity.trimmingWhitespace
            new.note = note.trimmingWhitespace
            new.location = location
            new.aisle = aisle
            item = new
        }
        guard let item else { preconditionFailure("internal inconsistency: add(name:) made no item") }
        return item
    }

    /// Renames an item.
    ///
    /// - Parameters:
    ///   - item: An item of this store.
    ///   - name: The new name; leading and trailing white space is dropped.
    /// - Throws: ``GroceryError/emptyName`` when the name is empty; the old name stays.
    public func rename(_ item: Item, to name: String) throws(GroceryError) {
        try commit(actionName: "Rename \(item.name) to \(name.trimmingWhitespace)") { item.name = name.trimmingWhitespace }
    }

    /// Changes what the add and edit form shows of an item, in one commit (one undo step,
    /// named "Rename … to …" when only the name changed, "Edit …" otherwise). Only the values
    /// that differ are written.
    ///
    /// - Parameters:
    ///   - item: An item of this store.
    ///   - name: Its name; leading and trailing white space is dropped.
    ///   - quantity: How much to get; empty for none.
    ///   - note: A note; empty for none.
    ///   - location: Where it is kept at home.
    ///   - aisle: Where it is found in the shop.
    /// - Throws: ``GroceryError/emptyName`` when the name is empty; nothing changes.
    public func update(
        _ item: Item, name: String, quantity: String, note: String, location: Location?, aisle: Aisle?
    ) throws(GroceryError) {
        let name = name.trimmingWhitespace
        let quantity = quantity.trimmingWhitespace
        let note = note.trimmingWhitespace
        let onlyName = quantity == item.quantity && note == item.note && location === item.location && aisle === item.aisle
        let action = onlyName ? "Rename \(item.name) to \(name)" : "Edit \(item.name)"
        try commit(actionName: action) {
            if item.name != name { item.name = name }
            if item.quantity != quantity { item.quantity = quantity }
            if item.note != note { item.note = note }
            if item.location !== location { item.location = location }
            if item.aisle !== aisle { item.aisle = aisle }
        }
    }

    /// Another item with the same name, ignoring case and surrounding white space: what the
    /// app warns about before adding or renaming.
    ///
    /// - Parameters:
    ///   - name: The name about to be given.
    ///   - item: The item being renamed, which does not count; `nil` when adding.
    /// - Returns: The first other item with that name, or `nil`.
    /// - Complexity: O(n) for n items.
    public func duplicate(of name: String, other item: Item? = nil) -> Item? {
        let wanted = name.trimmingWhitespace.lowercased()
        guard !wanted.isEmpty else { return nil }
        return items.first { $0 !== item && $0.name.lowercased() == wanted }
    }

    /// Deletes an item.
    ///
    /// - Parameter item: An item of this store.
    /// - Throws: ``GroceryError/commitFailed(_:)`` when the graph refuses the commit.
    public func delete(_ item: Item) throws(GroceryError) {
        try commit(actionName: "Delete \(item.name)") { graph.delete(item) }
    }

    /// Makes `changes` and commits them as one transaction, or rolls them all back.
    ///
    /// - Parameters:
    ///   - actionName: The name of the undo step the commit makes ("Delete Milk"), or `nil`
    ///     for an unnamed step.
    ///   - changes: The writes to the graph.
    /// - Throws: The item's own ``GroceryError`` when validation refused it,
    ///   ``GroceryError/changedElsewhere(_:)`` when another window changed the same item
    ///   meanwhile (its change is then applied here), ``GroceryError/mustReopen(_:)``, or
    ///   ``GroceryError/commitFailed(_:)`` for any other refusal (a store that cannot write,
    ///   say). Nothing stays pending.
    public func commit(actionName: String? = nil, _ changes: () -> Void) throws(GroceryError) {
        precondition(!graph.hasChanges, "GroceryStore.commit: changes were pending before the transaction")
        changes()
        do {
            if let actionName {
                try graph.commit(author: commitAuthor, actionName: actionName)
            } else {
                try graph.commit(author: commitAuthor)
            }
        } catch {
            graph.rollback()
            throw refused(error)
        }
    }

    /// What a refused commit (already rolled back) means for the user. After a conflict with
    /// another window's change, that change is applied, so that the lists show what won.
    func refused(_ error: CommitError) -> GroceryError {
        switch error {
        case .validationFailed(_, let reason):
            if let grocery = reason as? GroceryError { return grocery }
        case .persistenceFailed(let cause):
            guard let storeError = cause as? GraphStoreError else { break }
            switch storeError {
            case .conflict(let conflicts):
                let names = conflicts.compactMap { graph.object(with: $0.objectID, as: Item.self)?.name }
                _ = try? durableStore?.refresh()
                return .changedElsewhere(Array(Set(names)).sorted())
            case .mustReopen(let reason):
                return .mustReopen(reason)
            default:
                break
            }
        default:
            break
        }
        return .commitFailed(error.description)
    }
}

@available(*, unavailable, message: "a store is confined to the isolation domain of its graph")
extension GroceryStore: Sendable {}

extension String {
    /// The text without leading and trailing white space.
    var trimmingWhitespace: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}
