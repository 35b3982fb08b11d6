import Foundation
import FetchedResultsKit

extension GroceryDudeCommand {
    /// Runs a subcommand on the kept list and closes it: prints the list, or makes one change
    /// (tagged with the subcommand's author, `grocery-dude add`, which the windows that have
    /// the list open show) and says what it did.
    ///
    /// - Parameters:
    ///   - subcommand: What to do.
    ///   - location: Where the list is kept (a directory: the command line refuses
    ///     `--in-memory` for a subcommand).
    ///   - output: Receives each line for standard output.
    ///   - errors: Receives each line for standard error.
    /// - Returns: The exit status: 0 when done; 1 when no item has the name, or the change
    ///   was refused; 3 or 4 when the list cannot be opened.
    public static func run(
        _ subcommand: Subcommand, at location: StorageLocation, output: (String) -> Void, errors: (String) -> Void
    ) -> Int32 {
        let opened: Opened
        do {
            opened = try open(location, errors: errors)
        } catch {
            errors("grocery-dude: \(error)")
            return error.exitStatus
        }
        let store = opened.store
        defer { store.close() }
        store.commitAuthor = subcommand.author
        do {
            for line in try perform(subcommand, on: store) { output(line) }
            return 0
        } catch {
            errors("grocery-dude \(subcommand.word): \(error)")
            return 1
        }
    }

    /// Does what a subcommand says to a store.
    ///
    /// - Returns: The lines to print.
    /// - Throws: ``GroceryError/noSuchItem(_:)``, or why the change was refused.
    static func perform(_ subcommand: Subcommand, on store: GroceryStore) throws(GroceryError) -> [String] {
        switch subcommand {
        case .list:
            return listing(of: store)
        case .add(let name):
            let duplicate = store.duplicate(of: name)
            let item = try store.add(name: name, location: nil, aisle: nil, listed: true)
            let another = duplicate.map { " (another \($0.name) is in \(GroceryApp.place(of: $0)))" } ?? ""
            return ["added \(item.name) to the shopping list\(another)"]
        case .tick(let name):
            guard let item = store.item(named: name) else { throw .noSuchItem(name) }
            try store.toggle(item)
            return [item.listed ? "put \(item.name) on the shopping list" : "ticked \(item.name) off the shopping list"]
        case .delete(let name):
            guard let item = store.item(named: name) else { throw .noSuchItem(name) }
            let itemName = item.name
            try store.delete(item)
            return ["deleted \(itemName)"]
        }
    }

    /// Every item, section by section (home locations, as the Prepare view shows them),
    /// `[x]` before a listed one, then a count.
    static func listing(of store: GroceryStore) -> [String] {
        let list = GroceryList(store: store, kind: .prepare)
        var lines: [String] = []
        var listed = 0
        for (section, summary) in list.sectionSummaries.enumerated() {
            lines.append("\(summary.name) (\(summary.rowCount))")
            for row in 0..<summary.rowCount {
                let item = list.row(at: IndexPath(row: row, section: section))
                if item.listed { listed += 1 }
                let detail = item.detail.isEmpty ? "" : "  \(item.detail)"
                lines.append("  [\(item.listed ? "x" : " ")] \(item.name)\(detail)")
            }
        }
        lines.append("\(GroceryStore.plural(list.rowCount, "item")) · \(listed) listed")
        return lines
    }
}
