import Foundation
import ListUpdates

/// The changes of one commit, in the index spaces of the visible window.
struct IndexDiff<ID: RowIdentifier> {
    /// A change to one row, for delegates that follow rows one by one.
    enum RowChange {
        /// A row left the window; `at` is its index path before the commit.
        case delete(ID, at: IndexPath)
        /// A row entered the window; `at` is its index path after the commit.
        case insert(ID, at: IndexPath)
        /// A row moved from an index path before the commit to one after it; `changed` says
        /// whether its content changed too.
        case move(ID, from: IndexPath, to: IndexPath, changed: Bool)
        /// A row whose content changed and whose relative order did not, at its index path
        /// before and after the commit.
        case update(ID, at: IndexPath, newIndexPath: IndexPath)
    }

    /// The general changes (a moved row that changed is a move source and reconfigured).
    var changes = ListChanges()
    /// Sections that left the window: positions before the commit, with their key values.
    var deletedSections: [(index: Int, value: SortValue)] = []
    /// Sections that entered the window: positions after the commit, with their key values.
    var insertedSections: [(index: Int, value: SortValue)] = []
    /// Every row change, including rows inside inserted and deleted sections, except the
    /// moves of ``blockMoves``.
    var rows: [RowChange] = []
    /// Sections whose rows all moved as one block (a whole section renamed): each is as
    /// many ``RowChange/move(_:from:to:changed:)`` changes, kept as one entry so that a
    /// commit that moves n rows this way makes no per-row change until it is delivered.
    var blockMoves: [BlockMove] = []

    /// The rows of one section that moved as a block: the row at position `r` of ``ids``
    /// moved from row `r` of section ``from`` (before the commit) to row `r` of section
    /// ``to`` (after it).
    struct BlockMove {
        /// The rows, in order (the same before and after the commit).
        var ids: [ID]
        /// The section's index before the commit.
        var from: Int
        /// Its index after the commit.
        var to: Int
        /// The section's key value before the commit.
        var oldValue: SortValue
        /// Whether every row's content changed (the moves report it); `false` when none did.
        var changed: Bool
    }

    /// Whether the commit changed nothing visible.
    var isEmpty: Bool { deletedSections.isEmpty && insertedSections.isEmpty && rows.isEmpty && blockMoves.isEmpty }

    /// Calls `body` with each row move of ``blockMoves``, block by block, in row order.
    ///
    /// - Complexity: O(m) for m rows moved in blocks.
    func forEachBlockMove(_ body: (_ id: ID, _ from: IndexPath, _ to: IndexPath, _ changed: Bool) -> Void) {
        for block in blockMoves {
            // One index each, then the row appended: no array per path.
            let from = IndexPath(index: block.from)
            let to = IndexPath(index: block.to)
            for (row, id) in block.ids.enumerated() {
                body(id, from.appending(row), to.appending(row), block.changed)
            }
        }
    }

    /// Every row change, the moves of ``blockMoves`` spelled out after ``rows``.
    ///
    /// - Complexity: O(r + m) for r row changes and m rows moved in blocks.
    var allRows: [RowChange] {
        var all = rows
        forEachBlockMove { id, from, to, changed in all.append(.move(id, from: from, to: to, changed: changed)) }
        return all
    }
}

extension ResultsIndex {
    /// Applies the changed rows of one commit and returns the changes of the window.
    ///
    /// Rows that did not change keep their relative order, so only the changed rows and the
    /// few unchanged rows that cross an edge of the window (at most two per change) are
    /// visited. A changed row that stays between the same unchanged neighbours in the same
    /// section is not moved (an update, or nothing when it does not report one); among
    /// changed rows that share a gap, a longest increasing subsequence stays and the rest
    /// move. A row whose section appears or disappears is deleted and inserted instead of
    /// moved, as a list view requires. A commit that only renames whole sections moves each
    /// one as a block (``applySectionMoves(_:)``).
    ///
    /// - Parameters:
    ///   - input: The changed rows; each identifier at most once.
    ///   - movingWholeSections: Whether a commit that only renames whole sections may move
    ///     them as blocks; `false` takes the row-by-row path (tests compare the two).
    /// - Returns: The changes of the visible window.
    /// - Complexity: O(k log n + k log k + s) for k changes, n rows and s sections.
    mutating func apply(_ input: [Change], movingWholeSections: Bool = true) -> IndexDiff<ID> {
        // Whole sections renamed (a related object that names them was renamed) move as
        // blocks, in time proportional to their rows.
        if movingWholeSections, let diff = applySectionMoves(input) { return diff }
        var pass = CommitPass(oldWindow: window, oldVisibleRange: visibleDirectoryRange, hasEdges: offset > 0 || limit != nil)
        // Sections the changed rows leave or enter: at most two per row, and at most every
        // section there is. Found again by handle through `sectionPlace`, emptied on return.
        pass.sections.reserveCapacity(min(2 * input.count, keys.sectionValues.count + input.count))
        defer { pass.sections.forget(in: &sectionPlace) }

        // 1. Everything about the old state, before any mutation.
        readOldState(input, &pass)
        guard !pass.records.isEmpty else { return IndexDiff() }
        // Unchanged rows near an edge of the window may cross it.
        if pass.hasEdges { findBoundaryRows(&pass) }
        // 2. Mutate.
        mutate(input, &pass)
        // 3. The new state.
        readNewState(&pass)
        // 4. Sections that left or entered the window.
        var diff = diffSections(&pass)
        // 5. Rows.
        diffRows(pass, &diff)
        _checkInvariants()
        return diff
    }

    /// Phase 1 of ``apply(_:movingWholeSections:)``, everything about the old state, before
    /// any mutation: a record per changed row (rows whose keys did not change and that
    /// report no update are left out), and the sections the rows leave or enter.
    ///
    /// - Complexity: O(k) for k changes, a hash of a section value per row that changes
    ///   section.
    @inline(__always)
    private mutating func readOldState(_ input: [Change], _ pass: inout CommitPass) {
        pass.records.reserveCapacity(input.count)
        // The changes are read in place, field by field: a copy of a change's keys costs a
        // reference count per value.
        for changeIndex in input.indices {
            let id = input[changeIndex].id
            let reportsUpdate = input[changeIndex].reportsUpdate
            let hasNewKeys = input[changeIndex].hasKeys
            let oldSlot = slots[id]
            guard oldSlot != nil || hasNewKeys else { continue }
            if let oldSlot, hasNewKeys, !reportsUpdate,
               keys.keys(of: oldSlot, equal: input[changeIndex].keys.unsafelyUnwrapped, keepsSortKeys: input[changeIndex].keepsSortKeys) {
                continue
            }
            var record = Record(id: id, change: changeIndex, reportsUpdate: reportsUpdate)
            if let oldSlot {
                // The old rank and index path are found while the row is removed, below.
                record.oldSlot = oldSlot
                record.oldHandle = keys.sectionOf[Int(oldSlot)]
                noteOldSection(record.oldHandle, &pass)
                if pass.hasEdges { pass.changedSlots.insert(oldSlot) }
                pass.removed += 1
            }
            if hasNewKeys {
                pass.inserted += 1
                // A row that stays in its section needs no lookup by value (a hash of it).
                if record.oldSlot == nil || keys.sectionValues[Int(record.oldHandle)] != input[changeIndex].keys.unsafelyUnwrapped.section,
                   let handle = existingHandle(of: input[changeIndex].keys.unsafelyUnwrapped.section) {
                    noteOldSection(handle, &pass)
                }
            }
            pass.records.append(record)
        }
    }

    /// Notes the section `handle` as touched by the commit, with its index in the window
    /// before it (``readOldState(_:_:)``).
    private mutating func noteOldSection(_ handle: Int32, _ pass: inout CommitPass) {
        guard pass.sections.place(of: handle, in: sectionPlace) == nil else { return }
        let position = Int(directoryPosition[Int(handle)])
        let visible = position >= 0 && pass.oldVisibleRange.contains(position)
        pass.sections.add(
            handle, value: keys.sectionValues[Int(handle)], oldIndex: visible ? position - pass.oldVisibleRange.lowerBound : nil,
            in: &sectionPlace)
    }

    /// Part of phase 1 of ``apply(_:movingWholeSections:)``, for a window with edges: the
    /// unchanged rows near an edge, which may cross it, with their ranks and index paths
    /// before the commit.
    ///
    /// - Complexity: O(k log n) for k changes and n rows.
    @inline(__always)
    private mutating func findBoundaryRows(_ pass: inout CommitPass) {
        let margin = 2 * (pass.removed + pass.inserted) + 1
        let count = tree.count
        var ranges: [Range<Int>] = []
        for edge in [pass.oldWindow.lowerBound, pass.oldWindow.upperBound] {
            let range = max(0, edge - margin)..<min(count, edge + margin)
            if let last = ranges.last, last.upperBound >= range.lowerBound {
                ranges[ranges.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else if !range.isEmpty {
                ranges.append(range)
            }
        }
        for range in ranges {
            var rank = range.lowerBound
            tree.forEach(in: range) { slot in
                if !pass.changedSlots.contains(slot) {
                    pass.boundary.append(Boundary(slot: slot, oldRank: rank))
                }
                rank += 1
            }
        }
        for index in pass.boundary.indices {
            let handle = keys.sectionOf[Int(pass.boundary[index].slot)]
            noteOldSection(handle, &pass)
            pass.boundary[index].oldLocation = location(
                forRank: pass.boundary[index].oldRank, window: pass.oldWindow, firstDirectory: pass.oldVisibleRange.lowerBound)
        }
    }

    /// Phase 2 of ``apply(_:movingWholeSections:)``, the mutation: removes every changed row
    /// under its old keys, then inserts the survivors and newcomers under their new keys,
    /// one descent per row each way, which finds the row's rank too (``changeTree(_:removing:)``),
    /// with no separate rank search (each costs cache misses).
    ///
    /// - Complexity: O(k log n + k log k + s) for k changes, n rows and s sections.
    @inline(__always)
    private mutating func mutate(_ input: [Change], _ pass: inout CommitPass) {
        let oldFirstDirectory = pass.oldVisibleRange.lowerBound
        var leaving: [(slot: Int32, record: Int)] = []
        leaving.reserveCapacity(pass.removed)
        for index in pass.records.indices {
            if let slot = pass.records[index].oldSlot { leaving.append((slot, index)) }
        }
        // The searches read every leaving row's keys: asked for at once, their misses overlap.
        keys.prefetchKeys(of: leaving.lazy.map { $0.slot }, grouped: false)
        let (oldRanks, sortedOldRanks) = changeTree(&leaving, removing: true)
        pass.sortedOldRanks = sortedOldRanks
        for (position, (_, index)) in leaving.enumerated() {
            sectionCounts[Int(pass.records[index].oldHandle)] -= 1
            pass.records[index].oldRank = oldRanks[position]
            pass.records[index].oldLocation = location(forRank: oldRanks[position], window: pass.oldWindow, firstDirectory: oldFirstDirectory)
        }
        var entering: [(slot: Int32, record: Int)] = []
        entering.reserveCapacity(pass.inserted)
        for index in pass.records.indices {
            let record = pass.records[index]
            let change = record.change
            if input[change].hasKeys {
                let slot = record.oldSlot ?? allocateSlot(for: record.id)
                // Handles are freed only by `rebuildDirectory()`, below: the old one still
                // names its value.
                let handle = record.oldSlot != nil && keys.sectionValues[Int(record.oldHandle)] == input[change].keys.unsafelyUnwrapped.section
                    ? record.oldHandle : internSection(input[change].keys.unsafelyUnwrapped.section)
                sectionCounts[Int(handle)] += 1
                keys.sectionOf[Int(slot)] = handle
                // A row that keeps its sort keys keeps its slot, where they are.
                if !input[change].keepsSortKeys {
                    for column in keys.columns.indices {
                        keys.columns[column][Int(slot)] = input[change].keys.unsafelyUnwrapped.sort[column]
                    }
                }
                entering.append((slot, index))
                pass.records[index].newSlot = slot
                pass.records[index].newHandle = handle
                if pass.sections.place(of: handle, in: sectionPlace) == nil {
                    pass.sections.add(handle, value: input[change].keys.unsafelyUnwrapped.section, oldIndex: nil, in: &sectionPlace)
                }
            } else if let slot = record.oldSlot {
                slots[record.id] = nil
                freeSlots.append(slot)
            }
        }
        let (newRanks, sortedNewRanks) = changeTree(&entering, removing: false)
        pass.sortedNewRanks = sortedNewRanks
        for (position, (_, index)) in entering.enumerated() {
            pass.records[index].newRank = newRanks[position]
        }
        rebuildDirectory()
    }

    /// Phase 3 of ``apply(_:movingWholeSections:)``, the new state: the window, and the new
    /// index paths of the changed rows and the boundary rows.
    ///
    /// - Complexity: O(k log n) for k changes and n rows.
    @inline(__always)
    private func readNewState(_ pass: inout CommitPass) {
        pass.newWindow = window
        pass.newVisibleRange = visibleDirectoryRange
        let newFirstDirectory = pass.newVisibleRange.lowerBound
        for index in pass.records.indices {
            guard pass.records[index].newSlot != nil else { continue }
            let rank = pass.records[index].newRank
            pass.records[index].newLocation = location(forRank: rank, window: pass.newWindow, firstDirectory: newFirstDirectory)
        }
        for index in pass.boundary.indices {
            let rank = tree.rank(of: pass.boundary[index].slot, keys)
            pass.boundary[index].newLocation = location(forRank: rank, window: pass.newWindow, firstDirectory: newFirstDirectory)
            pass.boundary[index].newRank = rank
        }
    }

    /// Phase 4 of ``apply(_:movingWholeSections:)``: the sections that left or entered the
    /// window, marked so in `pass`.
    ///
    /// - Returns: A diff with the deleted and inserted sections.
    /// - Complexity: O(t log t) for t touched sections.
    @inline(__always)
    private func diffSections(_ pass: inout CommitPass) -> IndexDiff<ID> {
        var diff = IndexDiff<ID>()
        for place in pass.sections.handles.indices {
            let handle = pass.sections.handles[place]
            let position = Int(directoryPosition[Int(handle)])
            let visible = position >= 0 && pass.newVisibleRange.contains(position) && sectionCounts[Int(handle)] > 0
            let old = pass.sections.oldIndex[place]
            if old >= 0, !visible {
                pass.sections.markDeleted(place)
                diff.deletedSections.append((old, pass.sections.values[place]))
            } else if visible, old < 0 {
                pass.sections.markInserted(place)
                diff.insertedSections.append((position - pass.newVisibleRange.lowerBound, pass.sections.values[place]))
            }
        }
        diff.deletedSections.sort { $0.index < $1.index }
        diff.insertedSections.sort { $0.index < $1.index }
        diff.changes.deletedSections = diff.deletedSections.map(\.index)
        diff.changes.insertedSections = diff.insertedSections.map(\.index)
        return diff
    }

    /// Phase 5 of ``apply(_:movingWholeSections:)``: the rows. Each changed row is at most
    /// one move, deletion or insertion; among changed rows that share a gap between the same
    /// unchanged neighbours, a longest increasing subsequence stays.
    ///
    /// - Complexity: O(k log k) for k changes.
    @inline(__always)
    private func diffRows(_ pass: CommitPass, _ diff: inout IndexDiff<ID>) {
        // The ranks of the rows that left and entered, in order: without a window, every
        // changed row's, as the tree changes returned them; with one, those inside it and
        // the unchanged rows that crossed an edge.
        var oldNonStayers = pass.sortedOldRanks
        var newNonStayers = pass.sortedNewRanks
        if pass.hasEdges {
            oldNonStayers = []
            newNonStayers = []
            for record in pass.records {
                if record.oldLocation != nil { oldNonStayers.append(record.oldRank) }
                if record.newLocation != nil { newNonStayers.append(record.newRank) }
            }
            for row in pass.boundary {
                if row.oldLocation != nil && row.newLocation == nil { oldNonStayers.append(row.oldRank) }
                if row.oldLocation == nil && row.newLocation != nil { newNonStayers.append(row.newRank) }
            }
            oldNonStayers.sort()
            newNonStayers.sort()
        }
        diff.rows.reserveCapacity(pass.records.count + pass.boundary.count)

        // Each changed row is at most one move, deletion or insertion.
        diff.changes.movedRows.reserveCapacity(min(pass.removed, pass.inserted))
        diff.changes.deletedRows.reserveCapacity(pass.removed)
        diff.changes.insertedRows.reserveCapacity(pass.inserted)
        let records = pass.records
        let sections = pass.sections
        let (oldWindow, newWindow) = (pass.oldWindow, pass.newWindow)
        var candidates: [Int] = []
        for (index, record) in records.enumerated() {
            switch (record.oldLocation, record.newLocation) {
            case (let old?, nil):
                diff.rows.append(.delete(record.id, at: old.indexPath))
                if !sections.wasDeleted(record.oldHandle, in: sectionPlace) { diff.changes.deletedRows.append(old.indexPath) }
            case (nil, let new?):
                diff.rows.append(.insert(record.id, at: new.indexPath))
                if !sections.wasInserted(record.newHandle, in: sectionPlace) { diff.changes.insertedRows.append(new.indexPath) }
            case (.some, .some):
                let oldGap = record.oldRank - oldWindow.lowerBound - Self.countBelow(record.oldRank, in: oldNonStayers)
                let newGap = record.newRank - newWindow.lowerBound - Self.countBelow(record.newRank, in: newNonStayers)
                if oldGap == newGap && record.oldHandle == record.newHandle {
                    candidates.append(index)
                } else {
                    addMove(records[index], sections, &diff)
                }
            case (nil, nil):
                break
            }
        }
        candidates.sort { records[$0].oldRank < records[$1].oldRank }
        var staying = LongestIncreasingSubsequence()
        staying.mark(candidates.map { records[$0].newRank })
        for (position, index) in candidates.enumerated() {
            let record = records[index]
            if staying.keep[position] {
                if record.reportsUpdate, let old = record.oldLocation, let new = record.newLocation {
                    diff.rows.append(.update(record.id, at: old.indexPath, newIndexPath: new.indexPath))
                    diff.changes.reloadedRows.append(old.indexPath)
                }
            } else {
                addMove(record, sections, &diff)
            }
        }
        for row in pass.boundary {
            switch (row.oldLocation, row.newLocation) {
            case (let old?, nil):
                let id = keys.ids[Int(row.slot)]
                diff.rows.append(.delete(id, at: old.indexPath))
                if !sections.wasDeleted(keys.sectionOf[Int(row.slot)], in: sectionPlace) { diff.changes.deletedRows.append(old.indexPath) }
            case (nil, let new?):
                let id = keys.ids[Int(row.slot)]
                diff.rows.append(.insert(id, at: new.indexPath))
                if !sections.wasInserted(keys.sectionOf[Int(row.slot)], in: sectionPlace) { diff.changes.insertedRows.append(new.indexPath) }
            default:
                break
            }
        }
    }

    /// Removes `rows` from the tree under their keys, or inserts them, and returns each row's
    /// rank among all the rows: before the removals, or after the insertions.
    ///
    /// Up to ``rankCorrectionLimit`` rows run in their order and their ranks are corrected
    /// afterwards (``ranksAmongAll(_:from:)``); more are sorted first, from the last to the
    /// first for removals and from the first to the last for insertions, so that each search
    /// finds the rank itself.
    ///
    /// - Parameters:
    ///   - rows: The rows' slots, with their records; reordered when sorted.
    ///   - removing: Whether to remove the rows rather than insert them.
    /// - Returns: The ranks, in the order of `rows` on return, and the same ranks in
    ///   increasing order.
    /// - Complexity: O(k log n) for k rows, plus O(k log k) to sort or correct.
    private mutating func changeTree(_ rows: inout [(slot: Int32, record: Int)], removing: Bool) -> (ranks: [Int], sorted: [Int]) {
        let sorts = rows.count > rankCorrectionLimit
        if sorts { Self.sort(&rows, by: keys, descending: removing) }
        var ranks: [Int] = []
        ranks.reserveCapacity(rows.count)
        for (slot, _) in rows {
            ranks.append(removing ? tree.remove(slot, keys) : tree.insert(slot, keys))
        }
        // Sorted, removals ran from the last row to the first and found their ranks among all
        // the rows; insertions ran from the first to the last.
        guard !sorts else { return (ranks, removing ? ranks.reversed() : ranks) }
        // A removal's rank leaves out the rows removed before it; an insertion's counts the
        // rows inserted before it, not those after it.
        let sorted = removing
            ? Self.ranksAmongAll(&ranks, from: ranks.indices)
            : Self.ranksAmongAll(&ranks, from: ranks.indices.reversed())
        return (ranks, sorted)
    }

    /// Turns the ranks a run of removals found (each among the rows still there) into ranks
    /// before any of them, or the ranks a run of insertions found (each among the rows there
    /// so far) into ranks after all of them.
    ///
    /// Visited in `order` — the removals in the order they ran, the insertions in reverse —
    /// a rank r becomes the r-th place (from 0) not taken by a rank visited before it.
    ///
    /// - Parameters:
    ///   - ranks: The ranks the operations found, in the order they ran; replaced by their
    ///     ranks among all the rows.
    ///   - order: The positions of `ranks` in the order to visit them.
    /// - Returns: The new ranks in increasing order.
    /// - Complexity: O(k log k) comparisons and O(k²) moved integers for k ranks.
    @discardableResult
    static func ranksAmongAll(_ ranks: inout [Int], from order: some Sequence<Int>) -> [Int] {
        // The places already taken, in increasing order. The i-th of them has `taken[i] - i`
        // free places before it, a count that never decreases with i: the places taken
        // before the r-th free place are those with at most r free places before them.
        var taken: [Int] = []
        taken.reserveCapacity(ranks.count)
        for position in order {
            let rank = ranks[position]
            var low = 0
            var high = taken.count
            while low < high {
                let mid = (low + high) / 2
                if taken[mid] - mid <= rank { low = mid + 1 } else { high = mid }
            }
            taken.insert(rank + low, at: low)
            ranks[position] = rank + low
        }
        return taken
    }

    /// Sorts changed rows by their slots' order under `keys` (taken as a parameter, so the
    /// comparisons neither copy nor retain the key columns).
    ///
    /// Each row's place is read once, as integers: its section's rank, then the summary of
    /// its first sort key (bit-flipped for a descending key, so that integer order is the
    /// key's order). Rows compare those integers, and their keys only where the integers tie
    /// or a summary does not follow its value's order (``SortValueSummary/isMonotone``).
    ///
    /// - Complexity: O(k log k) integer comparisons for k rows, and one read of each row's
    ///   keys.
    private static func sort(_ rows: inout [(slot: Int32, record: Int)], by keys: RowKeyColumns<ID>, descending: Bool) {
        guard rows.count > 1 else { return }
        let flip: UInt64 = keys.ascending.first == false ? .max : 0
        let hasSortKey = !keys.columns.isEmpty
        var places = rows.map { row -> SortPlace in
            let digest = keys.digest(of: row.slot)
            return SortPlace(
                sectionRank: keys.sectionRank[Int(digest.group)], decides: hasSortKey && digest.summary.isMonotone,
                high: digest.summary.high ^ flip, low: digest.summary.low ^ flip, slot: row.slot, record: row.record)
        }
        places.sort { a, b in
            if a.sectionRank != b.sectionRank { return (a.sectionRank < b.sectionRank) != descending }
            if a.decides && b.decides && (a.high != b.high || a.low != b.low) {
                return (a.high != b.high ? a.high < b.high : a.low < b.low) != descending
            }
            return descending ? keys.less(b.slot, a.slot) : keys.less(a.slot, b.slot)
        }
        for index in places.indices { rows[index] = (places[index].slot, places[index].record) }
    }

    private func addMove(_ record: Record, _ sections: TouchedSections, _ diff: inout IndexDiff<ID>) {
        guard let oldLocation = record.oldLocation, let newLocation = record.newLocation else { return }
        let old = oldLocation.indexPath
        let new = newLocation.indexPath
        diff.rows.append(.move(record.id, from: old, to: new, changed: record.reportsUpdate))
        let fromGone = sections.wasDeleted(record.oldHandle, in: sectionPlace)
        let intoNew = sections.wasInserted(record.newHandle, in: sectionPlace)
        if fromGone || intoNew {
            if !fromGone { diff.changes.deletedRows.append(old) }
            if !intoNew { diff.changes.insertedRows.append(new) }
        } else {
            diff.changes.movedRows.append(.init(from: old, to: new))
            if record.reportsUpdate { diff.changes.reconfiguredRows.append(old) }
        }
    }

    private mutating func allocateSlot(for id: ID) -> Int32 {
        let slot: Int32
        if let reused = freeSlots.popLast() {
            slot = reused
            keys.ids[Int(slot)] = id
        } else {
            slot = Int32(keys.ids.count)
            keys.ids.append(id)
            keys.sectionOf.append(0)
            for column in keys.columns.indices { keys.columns[column].append(.null) }
        }
        slots[id] = slot
        return slot
    }

    /// The section and row of `rank` in a window of the given state, or `nil` outside it.
    private func location(forRank rank: Int, window: Range<Int>, firstDirectory: Int) -> RowLocation? {
        guard window.contains(rank) else { return nil }
        let position = directoryIndex(containing: rank)
        return RowLocation(section: position - firstDirectory, row: rank - max(directoryStarts[position], window.lowerBound))
    }

    /// How many elements of the sorted array are below `value`.
    private static func countBelow(_ value: Int, in sorted: [Int]) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

extension ResultsIndex {
/// What the commit algorithm knows about one changed row. Plain values only, so that
/// copying a record (the loops do, many times) is a copy of bytes.
fileprivate struct Record {
    var id: ID
    /// The position of the row's change in the input, which holds its new keys (none when
    /// the row is no longer fetched).
    var change: Int
    var reportsUpdate: Bool
    var oldSlot: Int32?
    var oldRank = 0
    var oldHandle: Int32 = -1
    var oldLocation: RowLocation?
    var newSlot: Int32?
    var newRank = 0
    var newHandle: Int32 = -1
    var newLocation: RowLocation?
}

/// What one ``ResultsIndex/apply(_:movingWholeSections:)`` learns in a phase and a later
/// phase reads.
fileprivate struct CommitPass {
    /// The window before the commit.
    let oldWindow: Range<Int>
    /// The directory positions of the sections shown before the commit.
    let oldVisibleRange: Range<Int>
    /// Whether the window has edges (an offset or a limit) that unchanged rows may cross.
    let hasEdges: Bool
    /// A record per changed row, in the order of the changes.
    var records: [Record] = []
    /// How many changed rows were fetched before the commit, and how many are after it.
    var removed = 0
    var inserted = 0
    /// The old slots of the changed rows, kept only when the window has edges.
    var changedSlots: Set<Int32> = []
    /// The sections the changed rows leave or enter.
    var sections = TouchedSections()
    /// The unchanged rows near an edge of the window, which may cross it.
    var boundary: [Boundary] = []
    /// The ranks the changed rows had before the commit, and have after it, in increasing
    /// order.
    var sortedOldRanks: [Int] = []
    var sortedNewRanks: [Int] = []
    /// The window after the commit, and the directory positions of the sections it shows.
    var newWindow: Range<Int> = 0..<0
    var newVisibleRange: Range<Int> = 0..<0

    init(oldWindow: Range<Int>, oldVisibleRange: Range<Int>, hasEdges: Bool) {
        self.oldWindow = oldWindow
        self.oldVisibleRange = oldVisibleRange
        self.hasEdges = hasEdges
    }
}

/// A changed row's place in the order, as the integers `sort(_:by:descending:)` compares
/// first.
fileprivate struct SortPlace {
    /// The rank of the row's section in the order.
    var sectionRank: Int32
    /// Whether `high` and `low` order the row wherever they differ from another row's.
    var decides: Bool
    /// The summary of the row's first sort key, flipped for a descending key.
    var high: UInt64
    var low: UInt64
    var slot: Int32
    var record: Int
}

/// An unchanged row near an edge of the window.
fileprivate struct Boundary {
    var slot: Int32
    var oldRank: Int
    var oldLocation: RowLocation?
    var newRank = 0
    var newLocation: RowLocation?
}
}

/// A row's section and row positions: an index path held as two integers, made into an
/// `IndexPath` only for the changes a commit reports.
struct RowLocation: Equatable {
    var section: Int
    var row: Int

    /// The two-element index path `[section, row]`, built without a temporary array.
    var indexPath: IndexPath { IndexPath(index: section).appending(row) }
}

/// The sections one commit touches, each with its handle, value and old and new places in
/// the window, found by handle through a per-handle array the index keeps between commits
/// (``ResultsIndex/sectionPlace``) instead of hashing: a commit asks about a section a few
/// times per changed row.
private struct TouchedSections {
    /// The handles, in the order they were touched.
    private(set) var handles: [Int32] = []
    /// Each section's key value.
    private(set) var values: [SortValue] = []
    /// Each section's index in the window before the commit, or -1 when it was not shown.
    private(set) var oldIndex: [Int] = []
    /// Whether each section left the window.
    private var deleted: [Bool] = []
    /// Whether each section entered the window.
    private var inserted: [Bool] = []
    /// Whether any section left the window, or entered it: most commits neither add nor
    /// remove a section, and their rows need not look.
    private var anyDeleted = false
    private var anyInserted = false

    /// Makes room for `count` sections.
    mutating func reserveCapacity(_ count: Int) {
        handles.reserveCapacity(count)
        values.reserveCapacity(count)
        oldIndex.reserveCapacity(count)
        deleted.reserveCapacity(count)
        inserted.reserveCapacity(count)
    }

    /// The position of `handle` among the touched sections, or `nil` when it is not one
    /// (or is no handle: -1).
    @inline(__always)
    func place(of handle: Int32, in places: [Int32]) -> Int? {
        let place = handle >= 0 && Int(handle) < places.count ? Int(places[Int(handle)]) : -1
        return place >= 0 ? place : nil
    }

    /// Adds a section that is not touched yet.
    mutating func add(_ handle: Int32, value: SortValue, oldIndex: Int?, in places: inout [Int32]) {
        if Int(handle) >= places.count {
            places.append(contentsOf: repeatElement(-1, count: Int(handle) + 1 - places.count))
        }
        places[Int(handle)] = Int32(handles.count)
        handles.append(handle)
        values.append(value)
        self.oldIndex.append(oldIndex ?? -1)
        deleted.append(false)
        inserted.append(false)
    }

    /// Notes that the section at `place` left the window.
    mutating func markDeleted(_ place: Int) {
        deleted[place] = true
        anyDeleted = true
    }

    /// Notes that the section at `place` entered the window.
    mutating func markInserted(_ place: Int) {
        inserted[place] = true
        anyInserted = true
    }

    /// Whether the section `handle` left the window.
    @inline(__always)
    func wasDeleted(_ handle: Int32, in places: [Int32]) -> Bool {
        anyDeleted && place(of: handle, in: places).map { deleted[$0] } == true
    }

    /// Whether the section `handle` entered the window.
    @inline(__always)
    func wasInserted(_ handle: Int32, in places: [Int32]) -> Bool {
        anyInserted && place(of: handle, in: places).map { inserted[$0] } == true
    }

    /// Resets the places of the touched sections, so the array is ready for the next commit.
    func forget(in places: inout [Int32]) {
        for handle in handles { places[Int(handle)] = -1 }
    }
}
