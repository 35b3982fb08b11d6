import Foundation
import ListUpdates

/// A row of the reference model: an identity and a content version.
struct ReferenceRow: Hashable, CustomStringConvertible {
    var id: Int
    var version: Int

    var description: String { version == 0 ? "\(id)" : "\(id)v\(version)" }
}

/// A section of the reference model.
struct ReferenceSection: Hashable, CustomStringConvertible {
    var id: Int
    var rows: [ReferenceRow]

    var description: String { "S\(id)\(rows)" }
}

/// What went wrong when the reference model applied a batch.
struct ReferenceError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Applies a general set of changes (``ListChanges`` with its documented index spaces) to
/// displayed sections, the simple way: sections first, then rows removed from the before
/// state and placed at their after-positions. Inserted or reloaded sections and rows take
/// their content from `data`; a refreshed row takes its content (not its identity) from
/// `data` at its after-position, so a misplaced refreshed row still shows up. A row may move
/// out of a deleted or reloaded section, refreshed (reloaded or reconfigured at its source)
/// or not. Throws when the batch is out of bounds, contradicts itself, or does not produce
/// `data`'s counts.
func referenceApply(_ changes: ListChanges, to displayed: [ReferenceSection], data: [ReferenceSection]) throws
    -> [ReferenceSection]
{
    let before = displayed.count
    let after = data.count
    func checkBefore(_ s: Int) throws { if !(0..<before).contains(s) { throw ReferenceError("section \(s) out of before bounds \(before)") } }
    func checkAfter(_ s: Int) throws { if !(0..<after).contains(s) { throw ReferenceError("section \(s) out of after bounds \(after)") } }
    let deleted = Set(changes.deletedSections)
    let reloaded = Set(changes.reloadedSections)
    if deleted.count != changes.deletedSections.count { throw ReferenceError("duplicate section delete") }
    var slots = [Int?](repeating: nil, count: after)  // before section shown at each after position
    var isNew = [Bool](repeating: false, count: after)
    var movedFrom = Set<Int>()
    for s in changes.deletedSections { try checkBefore(s) }
    for s in changes.reloadedSections {
        try checkBefore(s)
        if deleted.contains(s) { throw ReferenceError("section \(s) deleted and reloaded") }
    }
    for s in changes.insertedSections {
        try checkAfter(s)
        if isNew[s] { throw ReferenceError("section \(s) inserted twice") }
        isNew[s] = true
    }
    for move in changes.movedSections {
        try checkBefore(move.from)
        try checkAfter(move.to)
        if deleted.contains(move.from) || reloaded.contains(move.from) || movedFrom.contains(move.from) {
            throw ReferenceError("section move source \(move.from) conflicts")
        }
        if isNew[move.to] || slots[move.to] != nil { throw ReferenceError("section move destination \(move.to) conflicts") }
        movedFrom.insert(move.from)
        slots[move.to] = move.from
    }
    var stationary = (0..<before).filter { !deleted.contains($0) && !movedFrom.contains($0) }[...]
    for index in 0..<after where !isNew[index] && slots[index] == nil {
        guard let next = stationary.popFirst() else { throw ReferenceError("section count: too few sections") }
        slots[index] = next
    }
    if !stationary.isEmpty { throw ReferenceError("section count: \(stationary.count) sections left over") }

    // Rows: remove deletes and move sources from each surviving before section.
    let survives = { (s: Int) in !deleted.contains(s) && !reloaded.contains(s) }
    var removed: [Int: Set<Int>] = [:]
    func checkRow(_ path: IndexPath) throws {
        try checkBefore(path.section)
        if !(0..<displayed[path.section].rows.count).contains(path.row) {
            throw ReferenceError("row \(path.section).\(path.row) out of before bounds")
        }
    }
    var refreshed: [IndexPath: Bool] = [:]  // before path → reload (true) or reconfigure (false)
    for path in changes.reloadedRows where survives(path.section) {
        try checkRow(path)
        refreshed[path] = true
    }
    for path in changes.reconfiguredRows where survives(path.section) {
        try checkRow(path)
        if refreshed[path] == true { throw ReferenceError("row \(path) reloaded and reconfigured") }
        refreshed[path] = false
    }
    // Refreshes of rows that move out of a deleted or reloaded section travel with the row.
    let goneSources = Set(changes.movedRows.map(\.from).filter { !survives($0.section) })
    let goneRefreshed = Set(changes.reloadedRows + changes.reconfiguredRows).intersection(goneSources)
    for path in changes.deletedRows where survives(path.section) {
        try checkRow(path)
        if refreshed[path] == true { throw ReferenceError("row \(path) deleted and reloaded") }
        if !removed[path.section, default: []].insert(path.row).inserted { throw ReferenceError("row \(path) deleted twice") }
    }
    var movedRows: [IndexPath: (row: ReferenceRow, refresh: Bool)] = [:]  // after path → row
    for move in changes.movedRows {
        try checkRow(move.from)
        if refreshed[move.from] == true { throw ReferenceError("row \(move.from) moved and reloaded") }
        if !removed[move.from.section, default: []].insert(move.from.row).inserted {
            throw ReferenceError("row \(move.from) removed twice")
        }
        if movedRows[move.to] != nil { throw ReferenceError("two rows moved to \(move.to)") }
        movedRows[move.to] = (
            displayed[move.from.section].rows[move.from.row],
            refreshed[move.from] == false || goneRefreshed.contains(move.from)
        )
    }
    var inserted = Set<IndexPath>()
    for path in changes.insertedRows {
        try checkAfter(path.section)
        if movedRows[path] != nil || !inserted.insert(path).inserted { throw ReferenceError("row \(path) placed twice") }
    }

    var result: [ReferenceSection] = []
    for index in 0..<after {
        guard let source = slots[index], !isNew[index], !reloaded.contains(source) else {
            result.append(data[index])
            continue
        }
        let dataRows = data[index].rows
        var rows = [ReferenceRow?](repeating: nil, count: dataRows.count)
        var placed = 0
        for path in inserted where path.section == index {
            guard path.row < rows.count else { throw ReferenceError("insert \(path) out of after bounds") }
            rows[path.row] = dataRows[path.row]
            placed += 1
        }
        for (path, moved) in movedRows where path.section == index {
            guard path.row < rows.count else { throw ReferenceError("move to \(path) out of after bounds") }
            rows[path.row] = moved.refresh ? ReferenceRow(id: moved.row.id, version: dataRows[path.row].version) : moved.row
            placed += 1
        }
        let kept = displayed[source].rows.indices.filter { !(removed[source]?.contains($0) ?? false) }
        if placed + kept.count != dataRows.count {
            throw ReferenceError(
                "rows in section \(index): \(kept.count) kept + \(placed) placed != \(dataRows.count) in the data")
        }
        var next = kept.makeIterator()
        for position in rows.indices where rows[position] == nil {
            let row = next.next()!
            let shown = displayed[source].rows[row]
            switch refreshed[IndexPath(row: row, section: source)] {
            case true?: rows[position] = dataRows[position]
            case false?: rows[position] = ReferenceRow(id: shown.id, version: dataRows[position].version)
            case nil: rows[position] = shown
            }
        }
        result.append(ReferenceSection(id: displayed[source].id, rows: rows.map { $0! }))
    }
    return result
}
