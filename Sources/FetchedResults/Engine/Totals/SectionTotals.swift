import Foundation
import ObjectGraph

/// The totals of one section (or of the whole results): the accumulators of every total of
/// the request, fed a section's rows at once after a fetch, and row by row by a commit.
struct SectionTotals {
    /// How many rows the section has.
    private(set) var rows = 0
    /// Whether a commit changed the section's totals since the last delivery (set by
    /// ``ResultsTotals/add(_:of:section:sign:toWhole:)``, which finds the section anyway: a
    /// set of changed sections would hash each value again).
    var isChanged = false
    private var counts: [Int]
    private var integers: [Int128]
    private var doubles: [ExactSum]
    private var decimals: [Decimal]
    private(set) var extremes: [ExtremeTracker]

    init(_ layout: TotalsLayout) {
        counts = Array(repeating: 0, count: layout.countSlots)
        integers = Array(repeating: 0, count: layout.integerSlots)
        doubles = Array(repeating: ExactSum(), count: layout.doubleSlots)
        decimals = Array(repeating: 0, count: layout.decimalSlots)
        extremes = layout.extremeKinds.map { ExtremeTracker(isMaximum: $0) }
    }

    /// Whether a minimum or maximum lost its extreme and waits for ``rebuildExtremes(_:table:)``
    /// (or, for the totals of every row, ``settleExtremes(from:)``).
    var hasStaleExtreme: Bool {
        extremes.contains(where: \.isStale)
    }

    /// Sets every accumulator (from a ``GroupedTotals``): a minimum or maximum takes its
    /// extreme with no heap.
    ///
    /// - Complexity: O(t) for t totals.
    mutating func set(
        rows: Int, counts: ArraySlice<Int>, integers: ArraySlice<Int128>, doubles: ArraySlice<ExactSum>, decimals: ArraySlice<Decimal>,
        extremes: [ExtremeHeap.Entry?]
    ) {
        self.rows = rows
        self.counts = Array(counts)
        self.integers = Array(integers)
        self.doubles = Array(doubles)
        self.decimals = Array(decimals)
        for slot in self.extremes.indices {
            self.extremes[slot].settle(at: extremes[slot])
        }
    }

    /// Adds the counts and sums of another section (for the totals of every row). Minimums
    /// and maximums are left to ``considerExtremes(of:)``.
    ///
    /// - Complexity: O(t) for t totals.
    mutating func addSums(of other: SectionTotals) {
        rows += other.rows
        for slot in counts.indices { counts[slot] += other.counts[slot] }
        for slot in integers.indices { integers[slot] &+= other.integers[slot] }
        for slot in doubles.indices { doubles[slot].add(other.doubles[slot]) }
        for slot in decimals.indices { decimals[slot] += other.decimals[slot] }
    }

    /// Takes another section's extremes where they come first (for the totals of every row).
    ///
    /// - Complexity: O(t) for t totals.
    mutating func considerExtremes(of other: SectionTotals) {
        for slot in extremes.indices {
            if let entry = other.extremes[slot].best { extremes[slot].consider(entry) }
        }
    }

    /// Adds a row (`sign` 1) or removes it (`sign` -1): its inputs, one per total, and its
    /// object's ID bits (which order ties of a minimum or maximum). Removing the row at a
    /// section's extreme makes that extreme stale until ``rebuildExtremes(_:table:)``; for the
    /// totals of every row (`isWhole`), until ``settleExtremes(from:)``.
    ///
    /// - Complexity: O(t) for t totals, and O(log n) for each minimum or maximum once its
    ///   section's heap is built.
    /// - Returns: The rows the section has now, and whether a minimum or maximum is stale:
    ///   what the caller would otherwise copy the totals out to read.
    @discardableResult
    mutating func add(_ inputs: [TotalInput], id: UInt64, sign: Int, layout: TotalsLayout, isWhole: Bool = false) -> (rows: Int, isStale: Bool) {
        rows += sign
        var position = 0
        while position < inputs.count {
            let slot = layout.slots[position]
            // The input says its kind (a plain count's is `.none`).
            switch inputs[position] {
            case .none: counts[slot] += sign
            case .flag(let matches): if matches { counts[slot] += sign }
            case .integer(let value): integers[slot] &+= sign > 0 ? value : 0 &- value
            case .double(let value): addDouble(value, slot: slot, sign: sign)
            case .decimal(let value): addDecimal(value, slot: slot, sign: sign)
            case .key(let key, let text):
                if key != .null { addExtreme(ExtremeHeap.Entry(key: key, id: id, text: text), slot: slot, sign: sign, isWhole: isWhole) }
            }
            position += 1
        }
        return (rows, !extremes.isEmpty && hasStaleExtreme)
    }

    // Apart, and not inlined: a request without such totals has empty arrays for them, and a
    // mutation that the optimizer prepares at the top of `add` would copy each of them.

    @inline(never)
    private mutating func addDouble(_ value: Double, slot: Int, sign: Int) {
        doubles[slot].add(value, times: sign)
    }

    @inline(never)
    private mutating func addDecimal(_ value: Decimal, slot: Int, sign: Int) {
        if sign > 0 { decimals[slot] += value } else { decimals[slot] -= value }
    }

    @inline(never)
    private mutating func addExtreme(_ entry: ExtremeHeap.Entry, slot: Int, sign: Int, isWhole: Bool) {
        if !isWhole {
            if sign > 0 { extremes[slot].insert(entry) } else { extremes[slot].remove(entry) }
        } else if sign > 0 {
            if !extremes[slot].isStale { extremes[slot].consider(entry) }
        } else if extremes[slot].best == entry {
            extremes[slot].markStale()
        }
    }

    /// Gives each stale minimum or maximum every row's entry: the section's rows after the
    /// commit, with their inputs in the table.
    ///
    /// - Complexity: O(m) for m rows, per stale total.
    mutating func rebuildExtremes(_ ids: [ObjectID], table: TotalInputTable) {
        let columns = table.columns
        for slot in extremes.indices where extremes[slot].isStale {
            var entries: [ExtremeHeap.Entry] = []
            entries.reserveCapacity(ids.count)
            for id in ids {
                let place = id.entitySerial * columns.keyStride + slot
                let key = columns.keys[place]
                guard key != .null else { continue }
                entries.append(ExtremeHeap.Entry(key: key, id: UInt64(id.entitySerial), text: columns.keepsTexts ? columns.texts[place] : nil))
            }
            extremes[slot].rebuild(entries)
        }
    }

    /// For the totals of every row: finds each stale extreme among the sections' extremes.
    ///
    /// - Complexity: O(s) for s sections, per stale total.
    mutating func settleExtremes(from sections: some Collection<SectionTotals>) {
        for slot in extremes.indices where extremes[slot].isStale {
            var found = ExtremeTracker(isMaximum: extremes[slot].isMaximum)
            for section in sections {
                if let entry = section.extremes[slot].best { found.consider(entry) }
            }
            extremes[slot].settle(at: found.best)
        }
    }

    /// The value of the total at `position` of the layout.
    ///
    /// - Complexity: O(1); O(L) for a floating-point sum of L limbs (``ExactSum/value``).
    func reading(_ position: Int, layout: TotalsLayout) -> TotalReading {
        let slot = layout.slots[position]
        switch layout.kinds[position] {
        case .count, .countWhere: return .count(counts[slot])
        case .integerSum: return .integer(integers[slot], rows: rows)
        case .doubleSum: return .double(doubles[slot].value, rows: rows)
        case .decimalSum: return .decimal(decimals[slot], rows: rows)
        case .minimum, .maximum:
            let best = extremes[slot].best
            return .extreme(best?.key, text: best?.text)
        }
    }

    /// Whether every total has the same value as in `other` (for a minimum or maximum, the
    /// same row at the extreme).
    ///
    /// - Complexity: O(t) for t totals.
    func hasSameValues(as other: SectionTotals) -> Bool {
        guard rows == other.rows, counts == other.counts, integers == other.integers, doubles == other.doubles,
              decimals == other.decimals else { return false }
        for slot in extremes.indices where extremes[slot].best != other.extremes[slot].best { return false }
        return true
    }
}
