import Foundation

extension ResultsIndex {
    /// Applies a commit whose every change gives all the rows of some sections a new section
    /// value and leaves their sort keys alone — what renaming a related object that names a
    /// section does — by moving each section's rows as one block; returns `nil` (changing
    /// nothing) when the commit is not of that shape.
    ///
    /// The shape: no `fetchOffset` or `fetchLimit`; every change keeps its row fetched, with
    /// the sort keys it had and a different section value; the changes of one old section
    /// cover all of its rows and agree on one new value, which no section has yet and no
    /// other moved section takes. Each section then keeps its rows in the same relative
    /// order (they tie on the section key and nothing else changed), so its rows leave the
    /// order tree as one run and re-enter as one run at the new section's place, without a
    /// key comparison per row.
    ///
    /// The changes equal those of ``apply(_:)``: the old section is deleted, the new one
    /// inserted, and every row is reported moved between them.
    ///
    /// - Parameter input: The changed rows; each identifier at most once.
    /// - Returns: The changes of the visible window, or `nil` when the commit is not a set
    ///   of whole-section moves.
    /// - Complexity: O(k + s log s + b log n) for k changed rows, s sections and b moved
    ///   sections; the checks alone cost O(k) before `nil` is returned.
    mutating func applySectionMoves(_ input: [Change]) -> IndexDiff<ID>? {
        guard offset == 0, limit == nil, !input.isEmpty else { return nil }
        // The moved sections, by old handle, with their new values and the changes' flags.
        var moves: [Int32: (value: SortValue, rows: Int)] = [:]
        var reportsUpdate: [ID: Bool] = [:]
        reportsUpdate.reserveCapacity(input.count)
        // The changes are read in place: a copy of one copies its keys, a reference count
        // (and a cache miss, in a large index) per value.
        for position in input.indices {
            guard let slot = slots[input[position].id], input[position].hasKeys else { return nil }
            let handle = keys.sectionOf[Int(slot)]
            guard keys.sectionValues[Int(handle)] != input[position].keys.unsafelyUnwrapped.section else { return nil }
            if !input[position].keepsSortKeys {
                for column in keys.columns.indices where keys.columns[column][Int(slot)] != input[position].keys.unsafelyUnwrapped.sort[column] {
                    return nil
                }
            }
            if let move = moves[handle] {
                guard move.value == input[position].keys.unsafelyUnwrapped.section else { return nil }
                moves[handle]!.rows += 1
            } else {
                guard existingHandle(of: input[position].keys.unsafelyUnwrapped.section) == nil else { return nil }
                moves[handle] = (input[position].keys.unsafelyUnwrapped.section, 1)
            }
            if input[position].reportsUpdate { reportsUpdate[input[position].id] = true }
        }
        var newValues: Set<SortValue> = []
        for (handle, move) in moves {
            guard move.rows == sectionCounts[Int(handle)], newValues.insert(move.value).inserted else { return nil }
        }

        // The old places, then every block out of the tree, last first so each block's
        // ranks are still those before the commit.
        var blocks = moves.keys.map { handle in
            let position = Int(directoryPosition[Int(handle)])
            return SectionBlock(handle: handle, oldValue: keys.sectionValues[Int(handle)], oldSection: position, oldStart: directoryStarts[position])
        }
        blocks.sort { $0.oldStart > $1.oldStart }
        for index in blocks.indices {
            let block = blocks[index]
            blocks[index].slots = tree.removeSubrange(block.oldStart..<(block.oldStart + sectionCounts[Int(block.handle)]))
        }

        // Rename the sections in place (each keeps its handle and rows), re-sort the
        // directory, and put the blocks back at their sections' new starts, first first, so
        // every row before a block is in the tree when it enters.
        for block in blocks {
            let value = moves[block.handle]!.value
            sectionHandleByValue[block.oldValue] = nil
            sectionHandleByValue[value] = block.handle
            keys.sectionValues[Int(block.handle)] = value
        }
        let values = keys.sectionValues
        let ascending = keys.sectionsAscending
        directory.sort { (values[Int($0)] < values[Int($1)]) == ascending }
        rebuildDirectory()
        blocks.sort { directoryPosition[Int($0.handle)] < directoryPosition[Int($1.handle)] }
        for block in blocks {
            tree.insert(contentsOf: block.slots, atRank: directoryStarts[Int(directoryPosition[Int(block.handle)])])
        }

        // Without a window, a section's visible index is its directory position.
        var diff = IndexDiff<ID>()
        for block in blocks {
            let newSection = Int(directoryPosition[Int(block.handle)])
            diff.deletedSections.append((block.oldSection, block.oldValue))
            diff.insertedSections.append((newSection, keys.sectionValues[Int(block.handle)]))
            for (row, slot) in block.slots.enumerated() {
                let id = keys.ids[Int(slot)]
                diff.rows.append(.move(
                    id, from: IndexPath(indexes: [block.oldSection, row]), to: IndexPath(indexes: [newSection, row]),
                    changed: reportsUpdate[id] ?? false))
            }
        }
        diff.deletedSections.sort { $0.index < $1.index }
        diff.insertedSections.sort { $0.index < $1.index }
        diff.changes.deletedSections = diff.deletedSections.map(\.index)
        diff.changes.insertedSections = diff.insertedSections.map(\.index)
        _checkInvariants()
        return diff
    }
}

/// A section that moves as one block of rows.
private struct SectionBlock {
    /// The section's handle, which it keeps.
    var handle: Int32
    /// Its value before the commit.
    var oldValue: SortValue
    /// Its directory position before the commit.
    var oldSection: Int
    /// The rank of its first row before the commit.
    var oldStart: Int
    /// Its rows' slots, in order.
    var slots: [Int32] = []
}
