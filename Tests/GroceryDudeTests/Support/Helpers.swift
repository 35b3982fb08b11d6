import Foundation
import FetchedResultsKit
import FetchedResultsTesting
import GroceryDudeCore

typealias GrocerySimulator = ListSimulator<String, ObjectID, GroceryRow>

/// What a list's data source holds now, as simulator sections.
func simulatorSections(_ list: GroceryList) -> [GrocerySimulator.Section] {
    (0..<list.sectionCount).map { section in
        GrocerySimulator.Section(
            id: list.sectionName(at: section),
            rows: (0..<list.rowCount(inSection: section)).map { row in
                let value = list.row(at: IndexPath(row: row, section: section))
                return GrocerySimulator.Row(id: value.id, content: value)
            })
    }
}

/// The names a list shows, section by section.
func names(_ list: GroceryList) -> [String: [String]] {
    var result: [String: [String]] = [:]
    for section in 0..<list.sectionCount {
        result[list.sectionName(at: section)] = (0..<list.rowCount(inSection: section)).map {
            list.row(at: IndexPath(row: $0, section: section)).name
        }
    }
    return result
}

/// The names the reference model expects: the list's items re-fetched from scratch with
/// Foundation (`range(of:options:)` for `CONTAINS[cd]`), grouped by section and sorted as the
/// Finder sorts (`localizedStandardCompare`).
func referenceNames(_ store: GroceryStore, kind: ListKind, search: String) -> [String: [String]] {
    var result: [String: [String]] = [:]
    for item in store.items where kind == .prepare || item.listed {
        guard search.isEmpty || item.name.range(of: search, options: [.caseInsensitive, .diacriticInsensitive]) != nil
        else { continue }
        let section = (kind == .prepare ? item.location?.name : item.aisle?.name) ?? kind.unsectionedName
        result[section, default: []].append(item.name)
    }
    return result.mapValues { $0.sorted { $0.localizedStandardCompare($1) == .orderedAscending } }
}

/// The text of a rendered frame, lines joined.
@MainActor
func screenText(_ app: GroceryApp) -> String {
    app.render().joined(separator: "\n")
}

/// Runs an import to its end.
@MainActor
@discardableResult
func runImport(_ app: GroceryApp, count: Int, failingAt: Int? = nil) async -> [ImportJob.Event] {
    guard let events = app.beginImport(count: count, failingAt: failingAt) else { return [] }
    var seen: [ImportJob.Event] = []
    for await event in events {
        seen.append(event)
        app.apply(event)
    }
    return seen
}

/// Makes a new empty directory under the system's temporary directory; the caller removes it.
func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("grocery-dude-test-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Runs `body` with a new empty temporary directory, removed afterwards.
func withTemporaryDirectory<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
    let url = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: url) }
    return try await body(url)
}
