import FetchedResultsKit

/// What other windows and `grocery-dude` commands changed in a shared store, in a shopper's
/// words, waiting for the status line: "Milk added by grocery-dude add", "Eggs ticked off in
/// another window".
///
/// It observes the graph: every commit published with `GraphChanges.isExternal` (applied by
/// `GraphStore.refresh()`, `followChanges`, or the catch-up at the start of a local commit)
/// becomes one sentence. It keeps every item's name, so that an item deleted elsewhere can be
/// named after it is gone. Confined to the graph's isolation domain.
final class ChangesElsewhere {
    /// The sentences not yet shown, oldest first.
    private(set) var sentences: [String] = []
    /// Every item's name, by identity: kept current at every commit.
    private var names: [ObjectID: String] = [:]
    private var observation: GraphObservation?

    /// Starts observing a graph.
    ///
    /// - Parameter graph: The store's graph.
    /// - Complexity: O(n) for n items.
    init(graph: ObjectGraph) {
        for item in graph.objects(of: Item.self) { names[item.objectID] = item.name }
        observation = graph.addObserver { [weak self, unowned graph] changes in
            self?.record(changes, in: graph)
        }
    }

    /// Whether nothing waits to be shown.
    var isEmpty: Bool { sentences.isEmpty }

    /// The sentences waiting, for one status line (the last two, and how many more), and
    /// forgets them.
    ///
    /// - Returns: The note, or `nil` when nothing changed elsewhere.
    func take() -> String? {
        defer { sentences = [] }
        guard !sentences.isEmpty else { return nil }
        let shown = sentences.suffix(2)
        let more = sentences.count - shown.count
        return shown.joined(separator: " · ") + (more > 0 ? " · and \(more) more change\(more == 1 ? "" : "s") elsewhere" : "")
    }

    // MARK: Recording

    private func record(_ changes: GraphChanges, in graph: ObjectGraph) {
        let itemEntity = Item.entity.name
        if changes.isExternal { sentences.append(Self.sentence(for: changes, in: graph, names: names)) }
        for id in changes.deleted where id.entityName == itemEntity { names[id] = nil }
        for id in changes.insertedIDs where id.entityName == itemEntity {
            names[id] = graph.object(with: id, as: Item.self)?.name
        }
        for (id, properties) in changes.updated where id.entityName == itemEntity && properties.contains("name") {
            names[id] = graph.object(with: id, as: Item.self)?.name
        }
    }

    /// One sentence for one commit made elsewhere: what happened to which items, and where.
    ///
    /// - Parameters:
    ///   - changes: The commit, applied to `graph` already.
    ///   - graph: The graph.
    ///   - names: The items' names before the commit (for the deleted ones).
    /// - Returns: "Milk added by grocery-dude add", "Eggs and Rice ticked off in another window".
    static func sentence(for changes: GraphChanges, in graph: ObjectGraph, names: [ObjectID: String]) -> String {
        let itemEntity = Item.entity.name
        let item = { (id: ObjectID) in graph.object(with: id, as: Item.self) }
        var added: [String] = []
        for id in changes.insertedIDs where id.entityName == itemEntity {
            if let name = item(id)?.name { added.append(name) }
        }
        let deleted = changes.deleted.filter { $0.entityName == itemEntity }.compactMap { names[$0] }
        var listed: [String] = []
        var ticked: [String] = []
        var changed: [String] = []
        for (id, properties) in changes.updated where id.entityName == itemEntity {
            guard let updated = item(id) else { continue }
            if properties.contains("listed") {
                if updated.listed { listed.append(updated.name) } else { ticked.append(updated.name) }
            }
            if !properties.names.subtracting(["listed"]).isEmpty { changed.append(updated.name) }
        }
        let parts = [
            phrase(added, "added"), phrase(listed, "put on the shopping list"), phrase(ticked, "ticked off"),
            phrase(changed, "changed"), phrase(deleted, "deleted"),
        ].compactMap { $0 }
        let what = parts.isEmpty ? "the list changed" : parts.joined(separator: ", ")
        return what.prefix(1).uppercased() + what.dropFirst() + " " + place(of: changes.author)
    }

    /// "Milk added", "Milk and Eggs added", "5,000 items added", or `nil` for no item.
    private static func phrase(_ names: [String], _ verb: String) -> String? {
        switch names.count {
        case 0: nil
        case 1, 2: "\(names.sorted().joined(separator: " and ")) \(verb)"
        default: "\(GroceryStore.plural(names.count, "item")) \(verb)"
        }
    }

    /// Where a change came from, by its author: "in another window", "by grocery-dude add".
    static func place(of author: String?) -> String {
        switch author {
        case GroceryStore.author?: "in another window"
        case GraphUndoManager.undoAuthor?: "by an undo in another window"
        case GraphUndoManager.redoAuthor?: "by a redo in another window"
        case GroceryStore.importAuthor?: "by an import in another window"
        case let author?: "by \(author)"
        case nil: "elsewhere"
        }
    }
}

@available(*, unavailable, message: "confined to the isolation domain of its graph")
extension ChangesElsewhere: Sendable {}
