import Foundation
import ListUpdates

/// A headless list that applies batches by the strict rules of BATCH-RULES.md and remembers
/// what each cell shows, so that a stale moved cell is caught.
struct ReferenceList {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    struct Cell: Equatable, CustomStringConvertible {
        var id: Int
        var shown: Int
        var description: String { shown == 0 ? "\(id)" : "\(id)'\(shown)" }
    }

    struct Section: Equatable {
        var id: Int
        var cells: [Cell]
    }

    private(set) var sections: [Section]

    init(_ data: [TestSection]) {
        sections = data.map(Self.render)
    }

    private static func render(_ section: TestSection) -> Section {
        Section(id: section.id, cells: section.rows.map { Cell(id: $0.id, shown: $0.content) })
    }

    /// Whether the list shows exactly `data`.
    func shows(_ data: [TestSection]) -> Bool {
        sections == data.map(Self.render)
    }

    /// Applies one batch, reading new cells from `dataSource` (the data after the batch).
    mutating func apply(_ batch: ListChanges, dataSource: [TestSection]) throws(Failure) {
        func fail(_ message: String) throws(Failure) -> Never { throw Failure(description: "\(message) in \(batch)") }
        func unique<T: Hashable>(_ values: [T], _ rule: String) throws(Failure) -> Set<T> {
            let set = Set(values)
            if set.count != values.count { try fail("duplicate \(rule)") }
            return set
        }
        let deletedSections = try unique(batch.deletedSections, "section deletes")
        let insertedSections = try unique(batch.insertedSections, "section inserts")
        let reloadedSections = try unique(batch.reloadedSections, "section reloads")
        let sectionSources = try unique(batch.movedSections.map(\.from), "section move sources")
        let sectionDestinations = try unique(batch.movedSections.map(\.to), "section move destinations")
        let deletedRows = try unique(batch.deletedRows, "row deletes")
        let insertedRows = try unique(batch.insertedRows, "row inserts")
        let reloadedRows = try unique(batch.reloadedRows, "row reloads")
        let reconfiguredRows = try unique(batch.reconfiguredRows, "row reconfigures")
        let rowSources = try unique(batch.movedRows.map(\.from), "row move sources")
        let rowDestinations = try unique(batch.movedRows.map(\.to), "row move destinations")

        let beforeCount = sections.count
        let afterCount = beforeCount + insertedSections.count - deletedSections.count
        if afterCount != dataSource.count {
            try fail("section count \(afterCount) after the batch, data source has \(dataSource.count)")
        }
        for s in deletedSections.union(reloadedSections).union(sectionSources) where !(0..<beforeCount).contains(s) {
            try fail("section \(s) out of bounds before")
        }
        for s in insertedSections.union(sectionDestinations) where !(0..<afterCount).contains(s) {
            try fail("section \(s) out of bounds after")
        }
        if !deletedSections.isDisjoint(with: reloadedSections) || !deletedSections.isDisjoint(with: sectionSources)
            || !reloadedSections.isDisjoint(with: sectionSources) || !insertedSections.isDisjoint(with: sectionDestinations)
        {
            try fail("conflicting section changes")
        }
        if !deletedRows.isDisjoint(with: reloadedRows) || !deletedRows.isDisjoint(with: rowSources)
            || !reloadedRows.isDisjoint(with: rowSources) || !insertedRows.isDisjoint(with: rowDestinations)
            || !reconfiguredRows.isDisjoint(with: deletedRows) || !reconfiguredRows.isDisjoint(with: reloadedRows)
        {
            try fail("conflicting row changes")
        }
        if !reconfiguredRows.isDisjoint(with: rowSources) { try fail("a moved row is reconfigured (tier B)") }
        for move in batch.movedRows {
            if deletedSections.contains(move.from.section) { try fail("row moves out of a deleted section") }
            if insertedSections.contains(move.to.section) { try fail("row moves into an inserted section") }
            if reloadedSections.contains(move.from.section) { try fail("row moves out of a reloaded section") }
        }
        for path in deletedRows.union(reloadedRows).union(reconfiguredRows).union(rowSources) {
            if sectionSources.contains(path.section) { try fail("row change \(path) inside a moved section (tier B)") }
            if !(0..<beforeCount).contains(path.section) || !sections[path.section].cells.indices.contains(path.row) {
                try fail("row \(path) out of bounds before")
            }
        }
        for path in insertedRows.union(rowDestinations) where sectionDestinations.contains(path.section) {
            try fail("row change \(path) inside a moved section (tier B)")
        }

        // Take out what leaves its place.
        var heldSections: [Int: Section] = [:]
        var survivors: [(before: Int, section: Section)] = []
        var heldRows: [IndexPath: Cell] = [:]
        for (index, section) in sections.enumerated() {
            if deletedSections.contains(index) { continue }
            if sectionSources.contains(index) {
                heldSections[index] = section
                continue
            }
            var remaining: [Cell] = []
            for (row, cell) in section.cells.enumerated() {
                let path = IndexPath(row: row, section: index)
                if rowSources.contains(path) {
                    heldRows[path] = cell
                } else if !deletedRows.contains(path) {
                    remaining.append(cell)
                }
            }
            survivors.append((index, Section(id: section.id, cells: remaining)))
        }

        // Put everything in its place after the batch. A reloaded or reconfigured row stays
        // in its rank among the rows that stay, and shows the data source's row there.
        let refreshAt = reloadedRows.union(reconfiguredRows)
        var after: [Section] = []
        var nextSurvivor = 0
        for index in 0..<afterCount {
            if insertedSections.contains(index) {
                after.append(Self.render(dataSource[index]))
                continue
            }
            if let from = batch.movedSections.first(where: { $0.to == index })?.from {
                let section = heldSections[from]!
                if section.cells.count != dataSource[index].rows.count {
                    try fail("moved section \(from)→\(index) has \(section.cells.count) rows, data source \(dataSource[index].rows.count)")
                }
                after.append(section)
                continue
            }
            let (before, survivor) = survivors[nextSurvivor]
            nextSurvivor += 1
            if reloadedSections.contains(before) {
                after.append(Self.render(dataSource[index]))
                continue
            }
            let inserts = insertedRows.filter { $0.section == index }.count
            let movedIn = batch.movedRows.filter { $0.to.section == index }.count
            let count = survivor.cells.count + inserts + movedIn
            if count != dataSource[index].rows.count {
                try fail(
                    "invalid number of rows in section \(index): \(count) after the batch, data source has \(dataSource[index].rows.count)"
                )
            }
            // Which remaining cells are refreshed: rank among the before-rows that stay.
            var staying: [Bool] = []
            for row in sections[before].cells.indices {
                let path = IndexPath(row: row, section: before)
                if !rowSources.contains(path) && !deletedRows.contains(path) { staying.append(refreshAt.contains(path)) }
            }
            var cells: [Cell] = []
            var remaining = 0
            for row in 0..<count {
                let path = IndexPath(row: row, section: index)
                if insertedRows.contains(path) {
                    let data = dataSource[index].rows[row]
                    cells.append(Cell(id: data.id, shown: data.content))
                } else if let move = batch.movedRows.first(where: { $0.to == path }) {
                    guard let cell = heldRows[move.from] else { try fail("row move source \(move.from) not found") }
                    cells.append(cell)
                } else {
                    var cell = survivor.cells[remaining]
                    if staying[remaining] {
                        let data = dataSource[index].rows[row]
                        cell = Cell(id: data.id, shown: data.content)
                    }
                    cells.append(cell)
                    remaining += 1
                }
            }
            after.append(Section(id: survivor.id, cells: cells))
        }
        for path in insertedRows.union(rowDestinations) where !(0..<afterCount).contains(path.section) {
            try fail("row \(path) out of bounds after")
        }
        sections = after
    }
}
