import Foundation
import FetchedResultsKit

/// One list of items over the store's graph — the Prepare or Shop list, optionally narrowed
/// by a search text with `name CONTAINS[cd] text` — sectioned and sorted by name, and the
/// data source its ``ListScreen`` reads.
///
/// Each list is a `ResultsController` on the store's graph: Prepare fetches every item,
/// sectioned by its location's name; Shop fetches listed items, sectioned by its aisle's
/// name; both sort by name as the Finder does. Which items a list holds is a format predicate
/// (``predicate(kind:searchText:)``) bound to the store's schema. A search is a second list whose request adds
/// the search predicate, so its results keep the same sections and order. The controller
/// reports each commit's changes as one general `ListChanges`, which the list passes to
/// ``onChange``; setting ``searchText`` replaces the controller's request, which reports the
/// difference the same way (an animated re-filter).
public final class GroceryList {
    /// Which list this is.
    public let kind: ListKind
    /// Told about each change of the rows, as a general set of changes.
    public var onChange: ((ListChanges) -> Void)?
    /// The search text; empty shows every item of the list. Setting it reports the difference.
    public var searchText: String {
        didSet {
            guard searchText != oldValue else { return }
            predicate = Self.predicate(kind: kind, searchText: searchText)
            refetch()
        }
    }
    /// The items ticked off in Shop that the list keeps showing, or `nil` for none.
    public let ticked: TickedItems?
    /// The format predicate that chooses the list's items, or `nil` for every item.
    public private(set) var predicate: FormatPredicate?

    private let store: GroceryStore
    private let controller: ResultsController<Item>
    /// The items still to get: listed, and not ticked off yet (a ticked item is no longer
    /// listed). The controller keeps it per section and for the whole list.
    private let toGet: Total<Item, Int>

    /// Makes a list and fetches its rows.
    ///
    /// - Parameters:
    ///   - store: The store whose graph the list shows.
    ///   - kind: Which list.
    ///   - searchText: The initial search text; empty for none.
    ///   - ticked: Items the list keeps showing although its predicate no longer holds them
    ///     (the Shop view's ticked items), or `nil`.
    public init(store: GroceryStore, kind: ListKind, searchText: String = "", ticked: TickedItems? = nil) {
        self.store = store
        self.kind = kind
        self.searchText = searchText
        self.ticked = ticked
        let predicate = Self.predicate(kind: kind, searchText: searchText)
        self.predicate = predicate
        let toGet = Total.count(where: FetchPredicate<Item> { $0.listed })
        self.toGet = toGet
        controller = ResultsController(
            graph: store.graph,
            request: Self.request(
                kind: kind, predicate: predicate, schema: store.predicateSchema, ticked: ticked, searchText: searchText,
                totals: [AnyTotal(toGet)]))
        controller.delegate = self
        controller.performFetch()
    }

    /// The fetch request of a list: its predicate, its section key and its sort key.
    ///
    /// - Parameters:
    ///   - kind: Which list.
    ///   - predicate: Which items it holds; `nil` for all.
    ///   - schema: The entities the predicate binds to.
    ///   - ticked: Items to hold as well while they match `searchText`, or `nil`.
    ///   - searchText: The search text of the list, for the ticked items; empty for none.
    ///   - totals: The totals the controller keeps.
    /// - Returns: The request.
    public static func request(
        kind: ListKind, predicate: FormatPredicate?, schema: GraphPredicateSchema, ticked: TickedItems? = nil,
        searchText: String = "", totals: [AnyTotal<Item>] = []
    ) -> FetchRequest<Item> {
        let fetchPredicate = predicate.map { predicate in
            let bound: BoundFormatPredicate<Item>
            do {
                bound = try predicate.bind(to: schema.entity(for: Item.self))
            } catch {
                preconditionFailure("internal inconsistency: the list predicate \(predicate) does not bind: \(error)")
            }
            guard let ticked else { return FetchPredicate<Item> { bound.evaluate($0) } }
            // A ticked item stays while it matches the rest of the predicate (the search).
            let search = Self.predicate(kind: .prepare, searchText: searchText)
            let boundSearch = search.map { search in
                do {
                    return try search.bind(to: schema.entity(for: Item.self))
                } catch {
                    preconditionFailure("internal inconsistency: the search predicate \(search) does not bind: \(error)")
                }
            }
            return FetchPredicate<Item> { item in
                bound.evaluate(item)
                    || (ticked.contains(item.objectID) && (boundSearch.map { $0.evaluate(item) } ?? true))
            }
        }
        let unsectioned = kind.unsectionedName
        let sectionKey =
            switch kind {
            case .prepare: SectionKey<Item>(\.location?.name, title: { $0 ?? unsectioned })
            case .shop: SectionKey<Item>(\.aisle?.name, title: { $0 ?? unsectioned })
            }
        var request = FetchRequest(
            Item.self, predicate: fetchPredicate, sortedBy: [SortKey(\.name, comparison: .localizedStandard)],
            sectionKey: sectionKey)
        request.totals = totals
        return request
    }

    /// The format predicate of a list: `listed == YES` for Shop, `name CONTAINS[cd] %@`
    /// with the search text for a search, both for a search in Shop.
    ///
    /// - Parameters:
    ///   - kind: Which list.
    ///   - searchText: The search text; empty for none.
    /// - Returns: The predicate, or `nil` when the list holds every item.
    public static func predicate(kind: ListKind, searchText: String) -> FormatPredicate? {
        let format: String
        var arguments: [PredicateValue] = []
        switch (kind, searchText.isEmpty) {
        case (.prepare, true): return nil
        case (.shop, true): format = "listed == YES"
        case (.prepare, false): format = "name CONTAINS[cd] %@"
        case (.shop, false): format = "listed == YES AND name CONTAINS[cd] %@"
        }
        if !searchText.isEmpty { arguments.append(.string(searchText)) }
        do {
            return try FormatPredicate(format: format, arguments: arguments)
        } catch {
            preconditionFailure("internal inconsistency: the list predicate \(format) does not parse: \(error)")
        }
    }

    /// Fetches the list again with its request: what the predicate no longer holds (ticked
    /// items that were forgotten) goes, reported as one change like any other.
    ///
    /// - Complexity: O(n log n) for n items: every item is evaluated again.
    public func refetch() {
        controller.request = Self.request(
            kind: kind, predicate: predicate, schema: store.predicateSchema, ticked: ticked, searchText: searchText,
            totals: [AnyTotal(toGet)])
    }

    /// The predicate in format syntax with its arguments in place, for the search line.
    public var predicateFormat: String { predicate?.description ?? "TRUEPREDICATE" }

    // MARK: Data source

    /// What a screen shows of one section.
    public struct SectionSummary: Equatable, Sendable {
        /// The section's name.
        public var name: String
        /// Its section index title.
        public var indexTitle: String
        /// The number of rows in it.
        public var rowCount: Int
        /// How many of its items are still to get (listed).
        public var toGet: Int
    }

    /// Every section's name, index title and row count, in order, read in one pass.
    ///
    /// - Complexity: O(s) for s sections; prefer it to calling the per-section accessors
    ///   below for every section, each of which costs as much.
    public var sectionSummaries: [SectionSummary] {
        controller.sections.map {
            SectionSummary(name: $0.name, indexTitle: $0.indexTitle ?? "#", rowCount: $0.numberOfObjects, toGet: $0.total(toGet))
        }
    }

    /// How many items of the list are still to get (listed), kept by the controller.
    ///
    /// - Complexity: O(1).
    public var toGetCount: Int { controller.total(toGet) }

    /// The number of sections.
    ///
    /// - Complexity: O(s) for s sections.
    public var sectionCount: Int { controller.sections.count }

    /// The number of rows over all sections.
    public var rowCount: Int { controller.numberOfObjects }

    /// The name of a section.
    ///
    /// - Parameter section: A section position.
    /// - Returns: Its name.
    /// - Complexity: O(s) for s sections.
    public func sectionName(at section: Int) -> String { controller.sections[section].name }

    /// The section index title of a section: its name's first letter, upper-cased.
    ///
    /// - Parameter section: A section position.
    /// - Returns: The title.
    /// - Complexity: O(s) for s sections.
    public func indexTitle(at section: Int) -> String { controller.sections[section].indexTitle ?? "#" }

    /// The number of rows in a section.
    ///
    /// - Parameter section: A section position.
    /// - Returns: The count.
    /// - Complexity: O(s) for s sections.
    public func rowCount(inSection section: Int) -> Int { controller.sections[section].numberOfObjects }

    /// What the row at an index path displays.
    ///
    /// - Parameter indexPath: A section and row.
    /// - Returns: The row.
    /// - Complexity: O(log n).
    public func row(at indexPath: IndexPath) -> GroceryRow {
        let item = controller.object(at: indexPath)
        return GroceryRow(id: item.objectID, name: item.name, listed: item.listed, quantity: item.quantity, note: item.note)
    }

    /// The item at an index path.
    ///
    /// - Parameter indexPath: A section and row.
    /// - Returns: The item, or `nil` when no row is there.
    public func item(at indexPath: IndexPath) -> Item? { controller.object(ifPresentAt: indexPath) }

    /// Where an item's row is.
    ///
    /// - Parameter id: The item's identity.
    /// - Returns: Its index path, or `nil` when the list does not show it.
    /// - Complexity: O(log n).
    public func indexPath(of id: ObjectID) -> IndexPath? { controller.indexPath(forObjectID: id) }

    /// A stable string naming the item at an index path, valid across relaunches of a kept
    /// store (the item's URI), to save the cursor.
    ///
    /// - Parameter indexPath: A section and row.
    /// - Returns: The identifier, or `nil` when no row is there.
    /// - Complexity: O(log n).
    public func restorationIdentifier(at indexPath: IndexPath) -> String? {
        controller.restorationIdentifier(forObjectAt: indexPath)
    }

    /// Where the item a restoration identifier names is now.
    ///
    /// - Parameter identifier: A string from ``restorationIdentifier(at:)``.
    /// - Returns: Its index path, or `nil` when the item is gone, not in this list, or the
    ///   identifier is of another graph.
    /// - Complexity: O(log n) plus the identifier's length.
    public func indexPath(forRestorationIdentifier identifier: String) -> IndexPath? {
        controller.indexPath(forRestorationIdentifier: identifier)
    }
}

extension GroceryList: ResultsControllerDelegate {
    /// Passes the changes of a commit (or of a new request) to ``onChange``.
    public func controller(_ controller: any SectionedResults<Item>, didChangeContentWith changes: ListChanges) {
        if !changes.isEmpty { onChange?(changes) }
    }
}

@available(*, unavailable, message: "a list is confined to the isolation domain of its graph")
extension GroceryList: Sendable {}
