// The order of a load: a counting sort by section, then, inside each section, a radix sort
// of integer summaries of the first sort key, with full keys compared only where those tie.
//
// Kept with the module's other unsafe code (see UnsafeTechniques.swift): the rows are
// bucketed into an array initialized in place, each section is sorted through a buffer
// pointer into that array, and the radix sort scatters through buffer pointers, all
// without bounds checks in release builds. Invariant (upheld by this file alone): the
// section starts are prefix sums of the rows' section counts, so every row is written to
// exactly one bucket position below the row count and every position is written once; the
// buffers handed to `LoadSorter` are sections of that array, used only during the call;
// the radix scatter's targets are histogram prefix sums below the entry count.

extension ResultsIndex {
    /// The slots of a load in the index's order: section, sort keys, identifier.
    ///
    /// Rows are bucketed by their section's directory position (a stable counting sort).
    /// Inside a section, when every first-key summary of its rows is monotone (see
    /// ``SortValueSummary/isMonotone``), the 64 bits that follow the summaries' common
    /// prefix become an integer key per row, the rows are radix-sorted by it, and runs of
    /// equal keys are sorted by ``RowKeyColumns/lessInGroup(_:_:)``. Otherwise the section is
    /// sorted by comparisons of summaries, then full keys. The order is the same total order
    /// either way: a key never orders a row after a greater one, and the full comparison
    /// ends with the identifier.
    ///
    /// The directory must be rebuilt for the loaded rows (positions of every section).
    ///
    /// - Returns: Every loaded slot, in order.
    /// - Complexity: O(n) for n rows with distinct keys, plus O(t log t) for runs of t rows
    ///   whose keys tie.
    func loadOrder() -> [Int32] {
        let count = keys.ids.count
        // starts[p + 1] counts the rows of the section at directory position p, then
        // starts[p] becomes the position's first row.
        var starts = [Int](repeating: 0, count: directory.count + 1)
        var bucketed = keys.sectionOf.withUnsafeBufferPointer { sectionOf in
            keys.sectionRank.withUnsafeBufferPointer { rank in
                for index in 0..<count { starts[Int(rank[Int(sectionOf[index])]) + 1] += 1 }
                for position in directory.indices { starts[position + 1] += starts[position] }
                // Each row goes straight to its section's bucket, with its summary.
                return [LoadRow](unsafeUninitializedCapacity: count) { buffer, initialized in
                    var next = starts
                    let first = keys.columns.first
                    for index in 0..<count {
                        let section = rank[Int(sectionOf[index])]
                        let summary = first.map { SortValueSummary($0[index]) } ?? SortValueSummary(.null)
                        (buffer.baseAddress! + next[Int(section)]).initialize(to: LoadRow(summary: summary, slot: Int32(index)))
                        next[Int(section)] += 1
                    }
                    initialized = count
                }
            }
        }
        let descending = !(keys.ascending.first ?? true)
        var sorter = LoadSorter(ordering: keys, descending: descending)
        bucketed.withUnsafeMutableBufferPointer { all in
            for position in directory.indices where starts[position + 1] - starts[position] > 1 {
                let section = UnsafeMutableBufferPointer(rebasing: all[starts[position]..<starts[position + 1]])
                sorter.sort(section)
            }
        }
        return bucketed.map(\.slot)
    }
}

/// A row while a load sorts it.
struct LoadRow {
    /// The summary of the row's first sort key (of `.null` without sort keys).
    var summary: SortValueSummary
    /// The row's slot.
    var slot: Int32
}

/// Sorts the rows of one section of a load, reusing its buffers across sections.
struct LoadSorter<ID: RowIdentifier> {
    /// The full order, for rows whose summaries do not decide.
    let ordering: RowKeyColumns<ID>
    /// Whether the first sort key is descending.
    let descending: Bool
    /// The integer key of each row of the section and its slot; the radix sort's source.
    private var entries: [KeyedSlot] = []
    /// The radix sort's other buffer.
    private var spare: [KeyedSlot] = []

    /// The radix sort's counts: 256 per byte of the key.
    private var histograms: [Int] = []

    /// The fewest rows a section radix-sorts; fewer are sorted by comparisons, which cost
    /// less than clearing the counts.
    static var radixThreshold: Int { 128 }

    /// A row's integer key and its slot.
    struct KeyedSlot {
        /// The 64 bits of the row's summary after the section's common prefix, inverted for
        /// a descending key: rows sort by it ascending.
        var key: UInt64
        /// The row's slot.
        var slot: Int32
    }

    /// Makes a sorter for the rows of a load.
    ///
    /// - Parameters:
    ///   - ordering: The index's full order of slots.
    ///   - descending: Whether the first sort key is descending.
    init(ordering: RowKeyColumns<ID>, descending: Bool) {
        self.ordering = ordering
        self.descending = descending
    }

    /// Sorts the rows of a section. When their summaries are all monotone and there are
    /// ``radixThreshold`` rows or more: a radix sort of the 64 bits after the summaries'
    /// common prefix, then a comparison sort of each run of equal keys. Otherwise a
    /// comparison sort (``sortBySummaries(_:)``).
    ///
    /// - Parameter rows: The rows of one section, at least one.
    /// - Complexity: O(n) plus O(t log t) for each run of t equal keys; O(n log n) for the
    ///   comparison sort.
    mutating func sort(_ rows: UnsafeMutableBufferPointer<LoadRow>) {
        let count = rows.count
        guard count >= Self.radixThreshold else {
            sortBySummaries(rows)
            return
        }
        let firstHigh = rows[0].summary.high, firstLow = rows[0].summary.low
        var differHigh: UInt64 = 0, differLow: UInt64 = 0
        var monotone = true
        for row in rows {
            differHigh |= row.summary.high ^ firstHigh
            differLow |= row.summary.low ^ firstLow
            monotone = monotone && row.summary.isMonotone
        }
        guard monotone else {
            sortBySummaries(rows)
            return
        }
        // The bits from the first one that differs: keys that differ order their rows.
        let shift = differHigh != 0 ? differHigh.leadingZeroBitCount : 64 + differLow.leadingZeroBitCount
        let flip: UInt64 = descending ? ~0 : 0
        entries.removeAll(keepingCapacity: true)
        entries.reserveCapacity(count)
        for row in rows {
            let high = row.summary.high, low = row.summary.low
            let key = shift < 64 ? high << shift | low >> (64 - shift) : low << (shift - 64)
            entries.append(KeyedSlot(key: key ^ flip, slot: row.slot))
        }
        if differHigh | differLow != 0 { radixSort() }
        var runStart = 0
        for index in 0..<count {
            rows[index].slot = entries[index].slot
            if index > 0, entries[index].key != entries[index - 1].key {
                sortTies(rows, runStart..<index)
                runStart = index
            }
        }
        sortTies(rows, runStart..<count)
    }

    /// Sorts rows by summaries, comparing full keys where the summaries do not decide.
    ///
    /// - Complexity: O(n log n) comparisons.
    func sortBySummaries(_ rows: UnsafeMutableBufferPointer<LoadRow>) {
        let ordering = ordering, ascending = !descending
        var rows = rows
        rows.sort { a, b in
            let order = SortValueSummary.order(a.summary, b.summary)
            if order != 0 { return (order < 0) == ascending }
            return ordering.lessInGroup(a.slot, b.slot)
        }
    }

    /// Sorts a run of rows whose keys are equal by their full keys.
    private func sortTies(_ rows: UnsafeMutableBufferPointer<LoadRow>, _ run: Range<Int>) {
        guard run.count > 1 else { return }
        let ordering = ordering
        var tied = UnsafeMutableBufferPointer(rebasing: rows[run])
        tied.sort { ordering.lessInGroup($0.slot, $1.slot) }
    }

    /// Sorts ``entries`` by key, least significant byte first, skipping the bytes in which
    /// every key agrees.
    ///
    /// - Complexity: O(n) for n entries: at most 8 passes.
    private mutating func radixSort() {
        let count = entries.count
        if histograms.isEmpty {
            histograms = [Int](repeating: 0, count: 8 * 256)
        } else {
            for index in histograms.indices { histograms[index] = 0 }
        }
        for entry in entries {
            var key = entry.key
            for byte in 0..<8 {
                histograms[byte << 8 | Int(key & 0xFF)] += 1
                key >>= 8
            }
        }
        if spare.count < count { spare = entries }
        for byte in 0..<8 {
            let base = byte << 8
            // A byte in which every key agrees leaves the order as it is.
            if histograms[base | Int((entries[0].key >> (8 * UInt64(byte))) & 0xFF)] == count { continue }
            var position = 0
            for digit in 0..<256 {
                let size = histograms[base | digit]
                histograms[base | digit] = position
                position += size
            }
            entries.withUnsafeBufferPointer { source in
                spare.withUnsafeMutableBufferPointer { target in
                    for entry in source {
                        let digit = base | Int((entry.key >> (8 * UInt64(byte))) & 0xFF)
                        target[histograms[digit]] = entry
                        histograms[digit] += 1
                    }
                }
            }
            // The target holds the order now; it may be longer than the entries.
            if spare.count > count { spare.removeLast(spare.count - count) }
            swap(&entries, &spare)
        }
    }
}
