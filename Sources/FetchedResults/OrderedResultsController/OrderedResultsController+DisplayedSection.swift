import Foundation

extension IndexDiff {
    /// Adds the deletion of a section that the list view still shows, empty, at `index`
    /// before the change (a user-driven edit took its last row, and a view keeps an emptied
    /// section): every before-position at or after it moves one section down.
    ///
    /// - Parameters:
    ///   - index: The empty section's position before the change.
    ///   - value: Its section key value.
    /// - Complexity: O(c) for c changes.
    mutating func deleteDisplayedEmptySection(at index: Int, value: SortValue) {
        func shifted(_ path: IndexPath) -> IndexPath {
            path[0] >= index ? IndexPath(indexes: [path[0] + 1, path[1]]) : path
        }
        deletedSections = deletedSections.map { ($0.index >= index ? $0.index + 1 : $0.index, $0.value) }
        deletedSections.append((index, value))
        deletedSections.sort { $0.index < $1.index }
        changes.deletedSections = changes.deletedSections.map { $0 >= index ? $0 + 1 : $0 }
        changes.deletedSections.append(index)
        changes.deletedSections.sort()
        changes.deletedRows = changes.deletedRows.map(shifted)
        changes.reloadedRows = changes.reloadedRows.map(shifted)
        changes.reconfiguredRows = changes.reconfiguredRows.map(shifted)
        changes.movedRows = changes.movedRows.map { .init(from: shifted($0.from), to: $0.to) }
        rows = rows.map { row in
            switch row {
            case .delete(let id, let at): .delete(id, at: shifted(at))
            case .insert: row
            case .move(let id, let from, let to, let changed): .move(id, from: shifted(from), to: to, changed: changed)
            case .update(let id, let at, let new): .update(id, at: shifted(at), newIndexPath: new)
            }
        }
        for block in blockMoves.indices where blockMoves[block].from >= index {
            blockMoves[block].from += 1
        }
    }
}
