import Foundation
import FetchedResultsKit

/// One list of items over the store's graph — the Prepare or Shop list, optionally narrowed
/// by a search text with `name CONTAINS[cd] text` — sectioned and sorted by name, and the
/// data source its ``ListScreen`` reads.
///
/// Which items a list holds is a format predicate (``predicate(kind:searchText:)``) bound to
/// the store's schema.
///
/// After every commit that changes its rows the list reports the changes, as one general
/// `ListChanges` relative to its previous rows, to ``onChange``; changing ``searchText`` does
/// the same (an animated re-filter). The list derives its sections from the graph and turns
/// old rows into new ones with `ListChanges.difference`.
public final class GroceryList {
    /// Which list this is.
    public let kind: ListKind
    /// Told about each change of the rows, as a general set of changes.
    public var onChange: ((ListChanges) -> Void)?
    /// The search text; empty shows every item of the list. Setting it reports the difference.
    public var searchText: String = "" {
        didSet {
            guard searchText != oldValue else { return }
            predicate = Self.predicate(kind: kind, searchText: searchText)
            boundPredicate = predicate.map(bind)
            refresh()
        }
    }
    /// The format predicate that chooses the list's items, or `nil` for every item.
    public private(set) var predicate: FormatPredicate?
    private var boundPredicate: BoundFormatPredicate<GraphObject>?

    private let store: GroceryStore
    private var observation: GraphObservation?
    private var sections: [Section] = []
    private var positions: [ObjectID: IndexPath] = [:]

    private struct Section: Hashable {
        var name: String
        var rows: [GroceryRow]
    }

    /// Makes a list and reads its rows.
    ///
    /// - Parameters:
    ///   - store: The store whose graph the list shows.
    ///   - kind: Which list.
    ///   - searchText: The initial search text; empty for none.
    public init(store: GroceryStore, kind: ListKind, searchText: String = "") {
        self.store = store
        self.kind = kind
        self.searchText = searchText
        predicate = Self.predicate(kind: kind, searchText: searchText)
        boundPredicate = predicate.map(bind)
        sections = derive()
        index()
        observation = store.graph.addObserver { [weak self] _ in self?.refresh() }
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

    /// The predicate in format syntax with its arguments in place, for the search line.
    public var predicateFormat: String { predicate?.description ?? "TRUEPREDICATE" }

    private func bind(_ predicate: FormatPredicate) -> BoundFormatPredicate<GraphObject> {
        do {
            return try predicate.bind(to: store.predicateSchema.entity(for: Item.self))
        } catch {
            preconditionFailure("internal inconsistency: the list predicate \(predicate) does not bind: \(error)")
        }
    }

    // MARK: Data source

    /// The number of sections.
    public var sectionCount: Int { sections.count }

    /// The number of rows over all sections.
    public var rowCount: Int { positions.count }

    /// The name of a section.
    ///
    /// - Parameter section: A section position.
    /// - Returns: Its name.
    public func sectionName(at section: Int) -> String { sections[section].name }

    /// The section index title of a section: its name's first letter, upper-cased.
    ///
    /// - Parameter section: A section position.
    /// - Returns: The title.
    public func indexTitle(at section: Int) -> String {
        sections[section].name.first.map { String($0).uppercased() } ?? "#"
    }

    /// The number of rows in a section.
    ///
    /// - Parameter section: A section position.
    /// - Returns: The count.
    public func rowCount(inSection section: Int) -> Int { sections[section].rows.count }

    /// What the row at an index path displays.
    ///
    /// - Parameter indexPath: A section and row.
    /// - Returns: The row.
    public func row(at indexPath: IndexPath) -> GroceryRow { sections[indexPath.section].rows[indexPath.row] }

    /// The item at an index path.
    ///
    /// - Parameter indexPath: A section and row.
    /// - Returns: The item, or `nil` when it is gone from the graph.
    public func item(at indexPath: IndexPath) -> Item? {
        store.graph.object(with: row(at: indexPath).id, as: Item.self)
    }

    /// Where an item's row is.
    ///
    /// - Parameter id: The item's identity.
    /// - Returns: Its index path, or `nil` when the list does not show it.
    public func indexPath(of id: ObjectID) -> IndexPath? { positions[id] }

    // MARK: Deriving

    private func refresh() {
        let old = sections
        sections = derive()
        index()
        do {
            let changes = try ListChanges.difference(
                from: old, to: sections, sectionID: \.name, rows: \.rows, rowID: \.id, rowContentEqual: ==)
            if !changes.isEmpty { onChange?(changes) }
        } catch {
            preconditionFailure("internal inconsistency: a list holds a duplicate: \(error)")
        }
    }

    private func derive() -> [Section] {
        var groups: [String: [(key: String, row: GroceryRow)]] = [:]
        for item in store.items where boundPredicate?.evaluate(item) ?? true {
            let name = item.name
            let folded = Self.fold(name)
            let section = (kind == .prepare ? item.location?.name : item.aisle?.name) ?? kind.unsectionedName
            groups[section, default: []].append((folded, GroceryRow(id: item.objectID, name: name, listed: item.listed)))
        }
        return groups.keys.sorted().map { name in
            let rows = groups[name]!.sorted { $0.key != $1.key ? $0.key < $1.key : $0.row.id < $1.row.id }
            return Section(name: name, rows: rows.map(\.row))
        }
    }

    private func index() {
        positions = [:]
        for (section, value) in sections.enumerated() {
            for (row, element) in value.rows.enumerated() {
                positions[element.id] = IndexPath(row: row, section: section)
            }
        }
    }

    private static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}

@available(*, unavailable, message: "a list is confined to the isolation domain of its graph")
extension GroceryList: Sendable {}
