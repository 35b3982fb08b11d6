import Foundation
import ObjectGraph

extension SearchController {
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

    /// Shows every base row: the base index with an order tree of its own.
    ///
    /// - Complexity: O(n) for the n base rows, without a test or a comparison.
    private func showEveryBaseRow() -> IndexDiff<ObjectID> {
        let base = base.index
        var builder = OrderedFilterBuilder(like: base, builds: false, capacity: 0)
        var order: [Int32] = []
        order.reserveCapacity(base.totalCount)
        let old = index
        base.tree.forEach(in: 0..<base.totalCount) { slot in
            let id = base.keys.ids[Int(slot)]
            builder.row(id, from: base, sourceTag: 0, slot: slot, was: old.slots[id] != nil, keep: true)
            order.append(slot)
        }
        var shared = base
        shared.tree = OrderTree(sorted: order)
        shared._checkInvariants()
        index = shared
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
        var builder = OrderedFilterBuilder(like: base, builds: true, capacity: min(base.totalCount, index.totalCount))
        var texts = SlotTexts()
        let old = index
        candidates.withUnsafeBufferPointer { candidates in
            base.tree.forEach(in: 0..<base.totalCount) { slot in
                let id = base.keys.ids[Int(slot)]
                let serial = id.entitySerial
                // A candidate bit is exact for a row with a folding; one without is folded now.
                let word = serial &>> 6
                var keep = word >= candidates.count || candidates[word] & (1 &<< UInt64(serial & 63)) != 0
                if keep && !store.folded.appendFolding(of: id, to: &texts) {
                    let folded = foldedText(of: id, in: store)
                    keep = folded.contains(needle)
                    if keep { texts.append(folded) }
                }
                builder.row(id, from: base, sourceTag: 0, slot: slot, was: old.slots[id] != nil, keep: keep)
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
        let current = index
        let target = refinements.levels[level].needle
        // Every current row matches a text the current one contains; every removed row
        // matches the level's own text.
        let keepsCurrent = old.contains(new)
        let keepsRemoved = new == target
        let removed = Self.merged(refinements.removed(above: level), in: base)
        var builder = OrderedFilterBuilder(like: base, builds: true, capacity: current.totalCount + removed.count)
        var texts = SlotTexts()
        let packed = slotTexts
        if let packed {
            texts.reserveCapacity(current.totalCount, averageLength: packed.bytes.count / max(1, packed.count))
        }
        var dropped: [ObjectID] = []
        var next = 0
        /// Visits the removed rows that sort before `limit` (every one left for `nil`).
        func visitRemoved(before limit: Int32?) {
            while next < removed.count {
                let id = removed[next]
                guard let slot = base.slots[id] else {
                    preconditionFailure("internal inconsistency: a removed row \(id) is not a base row while the stack is exact")
                }
                if let limit, !base.keys.less(slot, limit) { return }
                next += 1
                let keep = keepsRemoved || textContains(id, new, store: store)
                if keep {
                    appendText(of: id, to: &texts, store: store)
                } else {
                    dropped.append(id)
                }
                builder.row(id, from: base, sourceTag: 1, slot: slot, was: false, keep: keep)
            }
        }
        current.tree.forEach(in: 0..<current.totalCount) { slot in
            let id = current.keys.ids[Int(slot)]
            if next < removed.count {
                guard let baseSlot = base.slots[id] else {
                    preconditionFailure("internal inconsistency: search row \(id) is not a base row")
                }
                visitRemoved(before: baseSlot)
            }
            let keep: Bool
            if keepsCurrent {
                keep = true
                if let packed { texts.append(slot: slot, of: packed) } else { appendText(of: id, to: &texts, store: store) }
            } else if let packed, let found = packed.contains(slot: slot, new) {
                keep = found
                if keep { texts.append(slot: slot, of: packed) }
            } else {
                keep = textContains(id, new, store: store)
                if keep { appendText(of: id, to: &texts, store: store) }
            }
            if !keep { dropped.append(id) }
            builder.row(id, from: current, sourceTag: 0, slot: slot, was: true, keep: keep)
        }
        visitRemoved(before: nil)
        let result = builder.finish()
        index = result.index
        index._checkInvariants()
        slotTexts = texts
        refinements.replace(above: level, with: new, removed: dropped)
        return result.diff
    }

    /// Whether a base row's folding contains `needle`, folding it first if it has none.
    @inline(__always)
    private func textContains(_ id: ObjectID, _ needle: FoldedText, store: FoldedTextStore) -> Bool {
        store.folded.contains(id, needle) ?? foldedText(of: id, in: store).contains(needle)
    }

    /// Appends a base row's folding to `texts`, folding it first if it has none.
    @inline(__always)
    private func appendText(of id: ObjectID, to texts: inout SlotTexts, store: FoldedTextStore) {
        if !store.folded.appendFolding(of: id, to: &texts) { texts.append(foldedText(of: id, in: store)) }
    }

    /// One list of base rows in base order from several, each in base order.
    ///
    /// - Complexity: O(r log l) key comparisons for r rows in l lists.
    private static func merged(_ lists: [[ObjectID]], in base: ResultsIndex<ObjectID>) -> [ObjectID] {
        var lists = lists.filter { !$0.isEmpty }
        while lists.count > 1 {
            var pairs: [[ObjectID]] = []
            for start in stride(from: 0, to: lists.count, by: 2) {
                guard start + 1 < lists.count else {
                    pairs.append(lists[start])
                    continue
                }
                let a = lists[start]
                let b = lists[start + 1]
                var merged: [ObjectID] = []
                merged.reserveCapacity(a.count + b.count)
                var i = 0
                var j = 0
                while i < a.count && j < b.count {
                    guard let sa = base.slots[a[i]], let sb = base.slots[b[j]] else {
                        preconditionFailure("internal inconsistency: a removed row is not a base row while the stack is exact")
                    }
                    if base.keys.less(sa, sb) {
                        merged.append(a[i])
                        i += 1
                    } else {
                        merged.append(b[j])
                        j += 1
                    }
                }
                merged.append(contentsOf: a[i...])
                merged.append(contentsOf: b[j...])
                pairs.append(merged)
            }
            lists = pairs
        }
        return lists.first ?? []
    }
}
