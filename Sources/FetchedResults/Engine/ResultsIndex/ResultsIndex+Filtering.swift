import Foundation

extension ResultsIndex {
    /// Filters rows that are already in order: walks `source`'s rows in order, keeps those
    /// `isIncluded` accepts, and returns a new index of them with the changes from `old`'s
    /// rows to the new ones.
    ///
    /// Every row of `old` must be a row of `source` with the same keys (a search's current
    /// matches are base rows, and they are their own source when the text narrows), so the
    /// two orders agree and the change is a pure filter: deletes and inserts, never a move.
    /// The new index is built from the kept rows in order, without sorting.
    ///
    /// - Parameters:
    ///   - old: The current rows; it must have no window (`precondition`).
    ///   - source: The rows to choose from, in order; `nil` chooses from `old` itself.
    ///   - isIncluded: Whether a row is kept, given its identifier, its slot in the source
    ///     and whether `old` holds it; called in order, and the rows it keeps take the new
    ///     index's slots 0, 1, 2… in that order.
    /// - Returns: The new rows and the changes, in `old`'s index space (deletes) and the
    ///   new one's (inserts).
    /// - Complexity: O(r) for the r rows of `source`, plus the calls to `isIncluded`.
    static func filtering(
        _ old: ResultsIndex, source: ResultsIndex?,
        _ isIncluded: (ID, _ sourceSlot: Int32, _ wasIncluded: Bool) -> Bool
    ) -> (index: ResultsIndex, diff: IndexDiff<ID>) {
        require(old.offset == 0 && old.limit == nil, "internal inconsistency: an ordered filter of a windowed index")
        let sameSource = source == nil
        let source = source ?? old
        var new = ResultsIndex(ascending: source.keys.ascending, sectionsAscending: source.keys.sectionsAscending)
        var diff = IndexDiff<ID>()
        // The current run of one section: its handle in `source`, and its rows' changes.
        var runHandle: Int32 = -1
        var runDeletes: [(ID, IndexPath)] = []
        var runInserts: [(ID, IndexPath)] = []
        var oldSections = 0
        var newSections = 0
        var oldRow = 0
        var newRow = 0
        var newHandle: Int32 = -1
        func closeRun() {
            guard runHandle >= 0 else { return }
            let value = source.keys.sectionValues[Int(runHandle)]
            let hadOld = oldRow > 0
            let hasNew = newRow > 0
            if hadOld && !hasNew { diff.deletedSections.append((oldSections, value)) }
            if hasNew && !hadOld { diff.insertedSections.append((newSections, value)) }
            for (id, path) in runDeletes {
                diff.rows.append(.delete(id, at: path))
                if hasNew { diff.changes.deletedRows.append(path) }
            }
            for (id, path) in runInserts {
                diff.rows.append(.insert(id, at: path))
                if hadOld { diff.changes.insertedRows.append(path) }
            }
            runDeletes.removeAll(keepingCapacity: true)
            runInserts.removeAll(keepingCapacity: true)
            if hadOld { oldSections += 1 }
            if hasNew { newSections += 1 }
            oldRow = 0
            newRow = 0
            newHandle = -1
        }
        // Room for every row of the source: a refinement keeps a share of the current
        // matches, a broadening adds to them.
        let room = source.tree.count
        new.keys.ids.reserveCapacity(room)
        new.keys.sectionOf.reserveCapacity(room)
        for column in new.keys.columns.indices { new.keys.columns[column].reserveCapacity(room) }
        new.slotByID.reserveCapacity(room)
        source.tree.forEach(in: 0..<source.tree.count) { slot in
            let handle = source.keys.sectionOf[Int(slot)]
            if handle != runHandle {
                closeRun()
                runHandle = handle
            }
            let id = source.keys.ids[Int(slot)]
            let was = sameSource || old.slotByID[id] != nil
            let keep = isIncluded(id, slot, was)
            if was {
                if !keep { runDeletes.append((id, IndexPath(indexes: [oldSections, oldRow]))) }
                oldRow += 1
            }
            guard keep else { return }
            if !was { runInserts.append((id, IndexPath(indexes: [newSections, newRow]))) }
            newRow += 1
            if newHandle < 0 {
                // Sections arrive in order, so the directory is built sorted.
                newHandle = new.internSection(source.keys.sectionValues[Int(handle)], placing: false)
            }
            new.appendRow(id, section: newHandle, copyingKeysOf: slot, in: source)
        }
        closeRun()
        diff.changes.deletedSections = diff.deletedSections.map(\.index)
        diff.changes.insertedSections = diff.insertedSections.map(\.index)
        new.rebuildDirectory()
        new.tree = OrderTree(sorted: Array(0..<Int32(new.keys.ids.count)))
        new._checkInvariants()
        return (new, diff)
    }
}

extension ResultsIndex {
    /// Appends a row to the key columns, in section `handle`, with the keys of `slot` in
    /// `source`; the order tree is built afterwards by the caller.
    ///
    /// - Complexity: O(1) amortized, plus copying the row's keys.
    @inline(__always)
    mutating func appendRow(_ id: ID, section handle: Int32, copyingKeysOf slot: Int32, in source: borrowing ResultsIndex<ID>) {
        let newSlot = Int32(keys.ids.count)
        sectionCounts[Int(handle)] += 1
        keys.ids.append(id)
        keys.sectionOf.append(handle)
        for column in keys.columns.indices {
            keys.columns[column].append(source.keys.columns[column][Int(slot)])
        }
        slotByID[id] = newSlot
    }
}
