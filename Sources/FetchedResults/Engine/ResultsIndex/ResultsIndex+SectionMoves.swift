import Foundation

extension ResultsIndex {
    /// Which of the rows of sections moved as blocks report an update
    /// (``moveSections(_:reports:)``).
    enum MovedRowReports: Equatable {
        /// Every one.
        case all
        /// None.
        case none
        /// Those listed.
        case some(Set<ID>)
    }

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
    /// inserted, and every row is reported moved between them (``moveSections(_:reports:)``
    /// does the moving).
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
        // Which rows report an update: usually all of them or none, told by two flags; a
        // set only when they differ.
        var someReport = false
        var someDoNot = false
        var reporting: Set<ID> = []
        // The changes are read in place: a copy of one copies its keys, a reference count
        // (and a cache miss, in a large index) per value. The rows of one section usually
        // come one after the other: the last section's move is counted in locals.
        var lastHandle: Int32 = -1
        var lastRows = 0
        for position in input.indices {
            guard let slot = slots[input[position].id], input[position].hasKeys else { return nil }
            let handle = keys.sectionOf[Int(slot)]
            if !input[position].keepsSortKeys {
                for column in keys.columns.indices where keys.columns[column][Int(slot)] != input[position].keys.unsafelyUnwrapped.sort[column] {
                    return nil
                }
            }
            if handle == lastHandle {
                guard moves[handle].unsafelyUnwrapped.value == input[position].keys.unsafelyUnwrapped.section else { return nil }
                lastRows += 1
            } else {
                if lastHandle >= 0 { moves[lastHandle]!.rows += lastRows }
                lastHandle = handle
                lastRows = 1
                guard keys.sectionValues[Int(handle)] != input[position].keys.unsafelyUnwrapped.section else { return nil }
                if let move = moves[handle] {
                    guard move.value == input[position].keys.unsafelyUnwrapped.section else { return nil }
                } else {
                    guard existingHandle(of: input[position].keys.unsafelyUnwrapped.section) == nil else { return nil }
                    moves[handle] = (input[position].keys.unsafelyUnwrapped.section, 0)
                }
            }
            if input[position].reportsUpdate {
                if someDoNot { reporting.insert(input[position].id) }
                someReport = true
            } else if !someDoNot {
                someDoNot = true
                // The rows before this one all reported an update.
                for earlier in input[..<position] { reporting.insert(earlier.id) }
            }
        }
        if lastHandle >= 0 { moves[lastHandle]!.rows += lastRows }
        let everyReport = someReport && !someDoNot
        var newValues: Set<SortValue> = []
        for (handle, move) in moves {
            guard move.rows == sectionCounts[Int(handle)], newValues.insert(move.value).inserted else { return nil }
        }
        let renames = moves.map { SectionRename(handle: $0.key, value: $0.value.value) }
        let reports: MovedRowReports = everyReport ? .all : someReport ? .some(reporting) : .none
        return moveSections(renames, reports: reports)
    }

    /// Gives whole sections new values, moving each one's rows as a block: the second half
    /// of ``applySectionMoves(_:)``, for a caller that checked the shape itself.
    ///
    /// Each renamed section keeps its handle and its rows, in the same relative order; its
    /// old index is deleted and its new one inserted, and its rows are reported moved
    /// between them (as ``IndexDiff/blockMoves`` when all or none of them report an update,
    /// else one by one in ``IndexDiff/rows``).
    ///
    /// - Parameters:
    ///   - renames: The sections and their new values. The caller guarantees that the index
    ///     has no `fetchOffset` or `fetchLimit`, that the handles are live and distinct, and
    ///     that each new value differs from every section's value now and from the other
    ///     new values.
    ///   - reports: Which moved rows report an update.
    /// - Returns: The changes of the visible window.
    /// - Complexity: O(k + s log s + b log n) for k moved rows, s sections and b moved
    ///   sections.
    mutating func moveSections(_ renames: [SectionRename], reports: MovedRowReports) -> IndexDiff<ID> {
        assert(offset == 0 && limit == nil, "internal inconsistency: sections moved as blocks in a window")
        // The old places, then every block out of the tree, last first so each block's
        // ranks are still those before the commit.
        var blocks = renames.map { rename in
            let position = Int(directoryPosition[Int(rename.handle)])
            return SectionBlock(
                handle: rename.handle, oldValue: keys.sectionValues[Int(rename.handle)], newValue: rename.value,
                oldSection: position, oldStart: directoryStarts[position])
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
            assert(existingHandle(of: block.newValue) == nil, "internal inconsistency: a section moved onto \(block.newValue), which exists")
            sectionHandleByValue[block.oldValue] = nil
            sectionHandleByValue[block.newValue] = block.handle
            keys.sectionValues[Int(block.handle)] = block.newValue
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
            diff.insertedSections.append((newSection, block.newValue))
            let ids = block.slots.map { keys.ids[Int($0)] }
            switch reports {
            case .all, .none:
                diff.blockMoves.append(.init(ids: ids, from: block.oldSection, to: newSection, oldValue: block.oldValue, changed: reports == .all))
            case .some(let reporting):
                for (row, id) in ids.enumerated() {
                    // Built from one index, then appended: no array per path.
                    diff.rows.append(.move(
                        id, from: IndexPath(index: block.oldSection).appending(row), to: IndexPath(index: newSection).appending(row),
                        changed: reporting.contains(id)))
                }
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

/// A section that a commit renames as a whole (``ResultsIndex/moveSections(_:reports:)``).
struct SectionRename: Equatable {
    /// The section's handle, which it keeps.
    var handle: Int32
    /// Its new value.
    var value: SortValue
}

/// A section that moves as one block of rows.
private struct SectionBlock {
    /// The section's handle, which it keeps.
    var handle: Int32
    /// Its value before the commit.
    var oldValue: SortValue
    /// Its value after the commit.
    var newValue: SortValue
    /// Its directory position before the commit.
    var oldSection: Int
    /// The rank of its first row before the commit.
    var oldStart: Int
    /// Its rows' slots, in order.
    var slots: [Int32] = []
}
