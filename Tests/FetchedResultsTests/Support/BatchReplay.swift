import Foundation
import ListUpdates

/// Applies a general `ListChanges` to rows identified by value, by the rules of
/// BATCH-RULES.md, and returns the rows it produces (or a description of the first broken
/// rule). Inserted rows take their identity from `new`; every other row keeps the identity
/// it had before, so a wrong move or a missing delete shows up as a different result.
func replay<ID: Hashable>(_ changes: ListChanges, on old: [[ID]], expecting new: [[ID]]) -> Result<[[ID]], ReplayError> {
    func fail(_ message: String) -> Result<[[ID]], ReplayError> { .failure(ReplayError(message: message)) }
    guard changes.movedSections.isEmpty, changes.reloadedSections.isEmpty else {
        return fail("unexpected section moves or reloads")
    }
    let deletedSections = Set(changes.deletedSections)
    let insertedSections = Set(changes.insertedSections)
    guard deletedSections.count == changes.deletedSections.count, insertedSections.count == changes.insertedSections.count else {
        return fail("duplicate section changes")
    }
    guard deletedSections.allSatisfy({ old.indices.contains($0) }) else { return fail("deleted section out of bounds") }
    guard insertedSections.allSatisfy({ new.indices.contains($0) }) else { return fail("inserted section out of bounds") }
    let survivingOld = old.indices.filter { !deletedSections.contains($0) }
    let survivingNew = new.indices.filter { !insertedSections.contains($0) }
    guard survivingOld.count == survivingNew.count else {
        return fail("sections: \(old.count) before + \(insertedSections.count) − \(deletedSections.count) ≠ \(new.count) after")
    }
    func exists(_ path: IndexPath, in rows: [[ID]]) -> Bool {
        rows.indices.contains(path[0]) && rows[path[0]].indices.contains(path[1])
    }
    var removed: Set<IndexPath> = []
    for path in changes.deletedRows {
        guard exists(path, in: old) else { return fail("deleted row \(path) out of bounds") }
        guard !deletedSections.contains(path[0]) else { return fail("delete \(path) inside a deleted section") }
        guard removed.insert(path).inserted else { return fail("row \(path) deleted twice") }
    }
    for path in changes.reloadedRows {
        guard exists(path, in: old), !removed.contains(path), !deletedSections.contains(path[0]) else {
            return fail("reloaded row \(path) is out of bounds, deleted or inside a deleted section")
        }
    }
    var result: [[ID?]] = new.map { Array(repeating: nil, count: $0.count) }
    for section in insertedSections { result[section] = new[section] }
    func place(_ id: ID, at path: IndexPath) -> Bool {
        guard exists(path, in: new), !insertedSections.contains(path[0]), result[path[0]][path[1]] == nil else { return false }
        result[path[0]][path[1]] = id
        return true
    }
    for path in changes.insertedRows {
        guard place(new[path[0]][path[1]], at: path) else { return fail("insert \(path) is out of bounds, in an inserted section or taken") }
    }
    let reconfigured = Set(changes.reconfiguredRows)
    for move in changes.movedRows {
        guard exists(move.from, in: old), !deletedSections.contains(move.from[0]), !Set(changes.reloadedRows).contains(move.from) else {
            return fail("move source \(move.from) is out of bounds, in a deleted section or reloaded")
        }
        guard removed.insert(move.from).inserted else { return fail("move source \(move.from) is also deleted or moved") }
        guard place(old[move.from[0]][move.from[1]], at: move.to) else { return fail("move destination \(move.to) is invalid or taken") }
    }
    for path in reconfigured where !changes.movedRows.contains(where: { $0.from == path }) {
        guard exists(path, in: old), !removed.contains(path) else { return fail("reconfigured row \(path) invalid") }
    }
    for (oldSection, newSection) in zip(survivingOld, survivingNew) {
        var kept = old[oldSection].indices.filter { !removed.contains(IndexPath(indexes: [oldSection, $0])) }.map { old[oldSection][$0] }[...]
        for row in result[newSection].indices where result[newSection][row] == nil {
            guard let next = kept.popFirst() else { return fail("section \(newSection) has too few rows after the batch") }
            result[newSection][row] = next
        }
        guard kept.isEmpty else { return fail("section \(newSection) has \(kept.count) rows too many after the batch") }
    }
    return .success(result.map { $0.map { $0! } })
}

/// A broken batch rule, as `replay` found it.
struct ReplayError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
