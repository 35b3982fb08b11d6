import Foundation
import ObjectGraph

extension SearchEngine {
    /// Changes a folded-text search without a window from `old` to `new`: the base order is
    /// the search order, so the new index is built from rows visited in order and the
    /// change is a pure filter.
    ///
    /// Which rows are visited depends on the ``RefinementStack``:
    /// - an empty text shares the base index (one pass over the base order to list the
    ///   rows that enter, which it must report anyway);
    /// - a text that no level of the stack covers tests every base row: one ordered pass
    ///   over the packed foldings, then one pass over the base order;
    /// - otherwise the text falls back to the deepest level it narrows, and only the
    ///   current rows (untested when the text broadens the current one) and the rows the
    ///   levels above removed (untested when the text is that level's) are visited.
    ///
    /// - Returns: The changes from the old rows to the new ones.
    func orderedTextChange(from old: FoldedText, to new: FoldedText, store: FoldedTextStore) -> IndexDiff<ObjectID> {
        if new.isEmpty { return showEveryBaseRow() }
        guard let level = refinements.deepestLevel(narrowedBy: new) else {
            return testEveryBaseRow(new, store: store)
        }
        return refine(falling: level, from: old, to: new, store: store)
    }

    /// Shows every base row: the base index itself, shared with the base controller until
    /// the text changes again (``ResultsController/follow(_:)``), so that neither copies it
    /// when a commit changes it.
    ///
    /// - Complexity: O(n) for the n base rows, without a test or a comparison.
    private func showEveryBaseRow() -> IndexDiff<ObjectID> {
        let base = base.index
        var builder = OrderedFilterBuilder(like: base, builds: false, capacity: 0, inserts: base.totalCount - index.totalCount)
        _ = Self.forEachRow(of: base, heldBy: index) { slot, id, handle, was in
            builder.row(id, from: base, sourceTag: 0, slot: slot, handle: handle, was: was, keep: true)
        }
        follow(self.base)
        slotTexts = nil
        refinements.removeAll()
        return builder.finish().diff
    }

    /// Tests every base row against `needle`: the packed foldings in one ordered pass, then
    /// the base order, building the new index and its packed foldings.
    ///
    /// - Complexity: O(b + n) for b folded bytes and n base rows.
    private func testEveryBaseRow(_ needle: FoldedText, store: FoldedTextStore) -> IndexDiff<ObjectID> {
        let base = base.index
        let candidates = store.folded.candidates(containing: needle)
        var builder = OrderedFilterBuilder(
            like: base, builds: true, capacity: min(base.totalCount, index.totalCount), deletes: index.totalCount)
        var texts = SlotTexts(ranked: true)
        var rank: Int32 = -1
        candidates.withUncheckedElements { candidates in
            _ = Self.forEachRow(of: base, heldBy: index) { slot, id, handle, was in
                let serial = id.entitySerial
                rank += 1
                // A candidate bit is exact for a row with a folding; one without is folded now.
                let word = serial &>> 6
                var keep = word >= candidates.count || candidates[word] & (1 &<< UInt64(serial & 63)) != 0
                if keep && !store.folded.appendFolding(of: id, to: &texts, rank: rank) {
                    let folded = foldedText(of: id, in: store)
                    keep = folded.contains(needle)
                    if keep { texts.append(folded, rank: rank) }
                }
                builder.row(id, from: base, sourceTag: 0, slot: slot, handle: handle, was: was, keep: keep)
            }
        }
        let result = builder.finish()
        index = result.index
        index._checkInvariants()
        slotTexts = texts
        refinements.reset(to: needle)
        return result.diff
    }

    /// Falls back to level `level` of the stack and filters its matches (the current rows
    /// and the rows the levels above removed) with `new`.
    ///
    /// - Complexity: O(m + r) tests and appends for the m current rows and the r removed
    ///   rows, plus O(m + r) key comparisons to merge them when r > 0.
    private func refine(falling level: Int, from old: FoldedText, to new: FoldedText, store: FoldedTextStore) -> IndexDiff<ObjectID> {
        let base = base.index
        let levels = refinements.levels[(level + 1)...]
        // Every current row matches a text the current one contains; every removed row
        // matches the level's own text.
        let keepsCurrent = old.contains(new)
        let keepsRemoved = new == refinements.levels[level].needle
        let packed = slotTexts
        let currentRanks = packed?.ranks
        // Merging needs each row's base rank: recorded with the rows while no commit
        // intervened, otherwise looked up in a table of every base slot's rank.
        let merging = levels.contains { !$0.removed.isEmpty }
        let table = merging && (currentRanks == nil || levels.contains { !$0.removed.isEmpty && $0.removedRanks == nil })
            ? baseRankBySlot() : []
        func tableRank(_ id: ObjectID) -> Int32 {
            guard let slot = base.slots[id] else {
                requirementFailure("internal inconsistency: search row \(id) is not a base row")
            }
            return table[Int(slot)]
        }
        let removed = Self.merged(levels.map { level in
            (level.removed, level.removedRanks ?? (level.removed.isEmpty ? [] : level.removed.map(tableRank)))
        })
        let knowsRanks = currentRanks != nil || !table.isEmpty
        // The pass decides and reports; the index is then changed in place: kept rows keep
        // their slots (no key is copied), dropped rows free theirs, entering rows take free
        // slots with the base keys.
        var builder = OrderedFilterBuilder(like: base, builds: false, capacity: 0)
        var texts = SlotTexts(ranked: knowsRanks)
        if let packed {
            texts.reserveCapacity(index.totalCount, averageLength: packed.bytes.count / max(1, packed.count))
        }
        var dropped: [ObjectID] = []
        var droppedRanks: [Int32] = []
        var droppedSlots: [Int32] = []
        // The new order: a current row's slot, or -1 - i for entering row i.
        var order: [Int32] = []
        order.reserveCapacity(index.totalCount + removed.ids.count)
        var entering: [(id: ObjectID, baseSlot: Int32)] = []
        var next = 0
        /// Visits the removed rows that sort before rank `limit`.
        func visitRemoved(before limit: Int32) {
            while next < removed.ids.count && removed.ranks[next] < limit {
                let id = removed.ids[next]
                let rank = removed.ranks[next]
                next += 1
                guard let slot = base.slots[id] else {
                    requirementFailure("internal inconsistency: a removed row \(id) is not a base row while the stack is exact")
                }
                let keep = keepsRemoved || textContains(id, new, store: store)
                if keep {
                    appendText(of: id, to: &texts, rank: rank, store: store)
                    order.append(-1 - Int32(entering.count))
                    entering.append((id, slot))
                } else {
                    dropped.append(id)
                    droppedRanks.append(rank)
                }
                builder.row(id, from: base, sourceTag: 1, slot: slot, handle: base.keys.sectionOf[Int(slot)], was: false, keep: keep)
            }
        }
        // The walk reads a copy of the index that must be gone before the index changes
        // in place, or the change would copy every column.
        do {
            let current = index
            var position: Int32 = 0
            current.tree.forEach(in: 0..<current.totalCount) { slot in
                let id = current.keys.ids[Int(slot)]
                let rank: Int32 = if let currentRanks { currentRanks[Int(position)] } else if knowsRanks { tableRank(id) } else { -1 }
                if next < removed.ids.count { visitRemoved(before: rank) }
                let keep: Bool
                if keepsCurrent {
                    keep = true
                    if let packed {
                        texts.append(slot: position, of: packed, rank: rank)
                    } else {
                        appendText(of: id, to: &texts, rank: rank, store: store)
                    }
                } else if let packed, let found = packed.contains(slot: position, new) {
                    keep = found
                    if keep { texts.append(slot: position, of: packed, rank: rank) }
                } else {
                    keep = textContains(id, new, store: store)
                    if keep { appendText(of: id, to: &texts, rank: rank, store: store) }
                }
                position += 1
                if keep {
                    order.append(slot)
                } else {
                    dropped.append(id)
                    droppedRanks.append(rank)
                    droppedSlots.append(slot)
                }
                builder.row(id, from: current, sourceTag: 0, slot: slot, handle: current.keys.sectionOf[Int(slot)], was: true, keep: keep)
            }
        }
        visitRemoved(before: .max)
        let diff = builder.finish().diff
        // Change the index in place, uniquely referenced.
        var changed = index
        index = ResultsIndex(ascending: changed.keys.ascending, sectionsAscending: changed.keys.sectionsAscending)
        for slot in droppedSlots {
            changed.slotByID[changed.keys.ids[Int(slot)]] = nil
            changed.sectionCounts[Int(changed.keys.sectionOf[Int(slot)])] -= 1
            changed.freeSlots.append(slot)
        }
        var enteringSlots: [Int32] = []
        enteringSlots.reserveCapacity(entering.count)
        for (id, baseSlot) in entering {
            let handle = changed.internSection(base.keys.sectionValues[Int(base.keys.sectionOf[Int(baseSlot)])])
            changed.sectionCounts[Int(handle)] += 1
            let slot: Int32
            if let free = changed.freeSlots.popLast() {
                slot = free
                changed.keys.ids[Int(slot)] = id
                changed.keys.sectionOf[Int(slot)] = handle
                for column in changed.keys.columns.indices {
                    changed.keys.columns[column][Int(slot)] = base.keys.columns[column][Int(baseSlot)]
                }
            } else {
                slot = Int32(changed.keys.ids.count)
                changed.keys.ids.append(id)
                changed.keys.sectionOf.append(handle)
                for column in changed.keys.columns.indices {
                    changed.keys.columns[column].append(base.keys.columns[column][Int(baseSlot)])
                }
            }
            changed.slotByID[id] = slot
            enteringSlots.append(slot)
        }
        if !entering.isEmpty {
            for i in order.indices where order[i] < 0 { order[i] = enteringSlots[Int(-1 - order[i])] }
        }
        changed.rebuildDirectory()
        changed.tree = OrderTree(sorted: order)
        changed._checkInvariants()
        index = changed
        slotTexts = texts
        refinements.replace(above: level, with: new, removed: dropped, ranks: knowsRanks ? droppedRanks : nil)
        return diff
    }

    /// Visits every row of `base` in order with its slot, identifier and section handle, and
    /// whether `old` (whose rows are base rows) holds it.
    ///
    /// The slots of the order are scattered over the columns, so each row costs one
    /// scattered read at most: sections come from the directory's starts, membership in
    /// `old` from a bit per base slot (or from nothing when `old` holds every base row),
    /// and the identifiers are gathered in a tight loop whose memory loads overlap.
    ///
    /// - Returns: The base slots in order.
    /// - Complexity: O(n + m) for n base rows and m rows of `old`.
    @discardableResult
    private static func forEachRow(
        of base: ResultsIndex<ObjectID>, heldBy old: ResultsIndex<ObjectID>, _ body: (Int32, ObjectID, Int32, Bool) -> Void
    ) -> [Int32] {
        let holdsEverything = old.totalCount == base.totalCount
        var held: [UInt64] = []
        if !holdsEverything {
            held = [UInt64](repeating: 0, count: base.keys.ids.count / 64 + 1)
            for slot in old.tree.slotsInOrder() {
                guard let baseSlot = base.slots[old.keys.ids[Int(slot)]] else {
                    requirementFailure("internal inconsistency: search row \(old.keys.ids[Int(slot)]) is not a base row")
                }
                held[Int(baseSlot) &>> 6] |= 1 &<< UInt64(baseSlot & 63)
            }
        }
        let order = base.tree.slotsInOrder()
        var ids = [ObjectID]()
        ids.reserveCapacity(order.count)
        base.keys.ids.withUncheckedElements { column in
            for slot in order { ids.append(column[Int(slot)]) }
        }
        held.withUncheckedElements { held in
            var section = -1
            var nextStart = 0
            var handle: Int32 = -1
            for rank in order.indices {
                while rank == nextStart {
                    section += 1
                    handle = base.directory[section]
                    nextStart = section + 1 < base.directory.count ? base.directoryStarts[section + 1] : Int.max
                }
                let slot = order[rank]
                body(slot, ids[rank], handle, holdsEverything || held[Int(slot) &>> 6] & (1 &<< UInt64(slot & 63)) != 0)
            }
        }
        return order
    }

    /// Whether a base row's folding contains `needle`, folding it first if it has none.
    @inline(__always)
    private func textContains(_ id: ObjectID, _ needle: FoldedText, store: FoldedTextStore) -> Bool {
        store.folded.contains(id, needle) ?? foldedText(of: id, in: store).contains(needle)
    }

    /// Appends a base row's folding to `texts`, folding it first if it has none.
    @inline(__always)
    private func appendText(of id: ObjectID, to texts: inout SlotTexts, rank: Int32, store: FoldedTextStore) {
        if !store.folded.appendFolding(of: id, to: &texts, rank: rank) { texts.append(foldedText(of: id, in: store), rank: rank) }
    }

    /// The rank of each base slot in the base order (stale in free slots), computed once
    /// per state of the base index: merging by rank compares two integers where the keys
    /// would compare strings.
    ///
    /// - Complexity: O(n) for n base rows when the base index changed, O(1) otherwise.
    func baseRankBySlot() -> [Int32] {
        if let baseRanks, baseRanks.generation == base.generation { return baseRanks.ranks }
        let base = base.index
        var ranks = [Int32](repeating: -1, count: base.keys.ids.count)
        var rank: Int32 = 0
        ranks.withUncheckedMutableElements { ranks in
            base.tree.forEach(in: 0..<base.totalCount) { slot in
                ranks[Int(slot)] = rank
                rank += 1
            }
        }
        baseRanks = (self.base.generation, ranks)
        return ranks
    }

    /// One list of base rows in base order from several, each in base order with the
    /// rows' base ranks.
    ///
    /// - Complexity: O(r log l) rank comparisons for r rows in l lists.
    private static func merged(_ lists: [([ObjectID], [Int32])]) -> (ids: [ObjectID], ranks: [Int32]) {
        var lists = lists.filter { !$0.0.isEmpty }
        while lists.count > 1 {
            var pairs: [([ObjectID], [Int32])] = []
            for start in stride(from: 0, to: lists.count, by: 2) {
                guard start + 1 < lists.count else {
                    pairs.append(lists[start])
                    continue
                }
                let (a, ra) = lists[start]
                let (b, rb) = lists[start + 1]
                var ids: [ObjectID] = []
                var ranks: [Int32] = []
                ids.reserveCapacity(a.count + b.count)
                ranks.reserveCapacity(a.count + b.count)
                var i = 0
                var j = 0
                while i < a.count || j < b.count {
                    if j == b.count || i < a.count && ra[i] < rb[j] {
                        ids.append(a[i])
                        ranks.append(ra[i])
                        i += 1
                    } else {
                        ids.append(b[j])
                        ranks.append(rb[j])
                        j += 1
                    }
                }
                pairs.append((ids, ranks))
            }
            lists = pairs
        }
        return (lists.first?.0 ?? [], lists.first?.1 ?? [])
    }
}
