import Foundation
import ObjectGraph

/// Every total of many sections at once, from rows given as two parallel columns: each row's
/// serial and its group (a section). One pass per total runs down the columns, adding each
/// row's input to its group's accumulator, so a fetch's totals cost a few instructions a row.
struct GroupedTotals {
    private let layout: TotalsLayout
    private let groups: Int
    private var rows: [Int]
    private var counts: [Int]
    private var integers: [Int128]
    private var doubles: [ExactSum]
    private var decimals: [Decimal]
    /// Per group and extreme slot: the place in the key column of the group's extreme row,
    /// or -1.
    private var extremes: [Int]

    /// Accumulates the rows.
    ///
    /// - Parameters:
    ///   - serials: Each row's object's entity serial.
    ///   - groupOf: Each row's group, below `groups`.
    ///   - groups: The number of groups.
    ///   - table: The rows' inputs.
    /// - Complexity: O(m t) for m rows and t totals, plus O(g t) for g groups.
    init(serials: UncheckedElements<Int>, groupOf: UncheckedElements<Int32>, groups: Int, table: TotalInputTable) {
        layout = table.layout
        self.groups = groups
        rows = Array(repeating: 0, count: groups)
        counts = Array(repeating: 0, count: groups * layout.countSlots)
        integers = Array(repeating: 0, count: groups * layout.integerSlots)
        doubles = Array(repeating: ExactSum(), count: groups * layout.doubleSlots)
        decimals = Array(repeating: 0, count: groups * layout.decimalSlots)
        extremes = Array(repeating: -1, count: groups * layout.extremeKinds.count)
        let columns = table.columns
        let count = serials.count
        rows.withUncheckedMutableElements { rows in
            for row in 0..<count { rows[Int(groupOf[row])] += 1 }
        }
        for position in layout.kinds.indices {
            let slot = layout.slots[position]
            switch layout.kinds[position] {
            case .count:
                let stride = layout.countSlots
                for group in 0..<groups { counts[group * stride + slot] = rows[group] }
            case .countWhere:
                let stride = layout.countSlots
                counts.withUncheckedMutableElements { counts in
                    columns.flags.withUncheckedElements { column in
                        for row in 0..<count where column[serials[row] * columns.flagStride + slot] {
                            counts[Int(groupOf[row]) * stride + slot] += 1
                        }
                    }
                }
            case .integerSum:
                let stride = layout.integerSlots
                integers.withUncheckedMutableElements { sums in
                    columns.integers.withUncheckedElements { column in
                        for row in 0..<count {
                            sums[Int(groupOf[row]) * stride + slot] &+= column[serials[row] * columns.integerStride + slot]
                        }
                    }
                }
            case .doubleSum:
                let stride = layout.doubleSlots
                columns.doubles.withUncheckedElements { column in
                    for row in 0..<count {
                        doubles[Int(groupOf[row]) * stride + slot].add(column[serials[row] * columns.doubleStride + slot])
                    }
                }
            case .decimalSum:
                let stride = layout.decimalSlots
                columns.decimals.withUncheckedElements { column in
                    for row in 0..<count {
                        decimals[Int(groupOf[row]) * stride + slot] += column[serials[row] * columns.decimalStride + slot]
                    }
                }
            case .minimum, .maximum:
                let stride = layout.extremeKinds.count
                let isMaximum = layout.extremeKinds[slot]
                extremes.withUncheckedMutableElements { best in
                    columns.keys.withUncheckedElements { column in
                        for row in 0..<count {
                            let place = serials[row] * columns.keyStride + slot
                            let current = Int(groupOf[row]) * stride + slot
                            if Self.precedes(place, best[current], in: column, isMaximum: isMaximum) { best[current] = place }
                        }
                    }
                }
            }
        }
    }

    /// Whether the key at `place` takes part and comes before the one at `best` (-1 for
    /// none yet): a smaller key for a minimum, a larger for a maximum, and of equal keys the
    /// smaller serial, whose place is smaller too.
    @inline(__always)
    private static func precedes(_ place: Int, _ best: Int, in column: UncheckedElements<SortValue>, isMaximum: Bool) -> Bool {
        // Integers, the common keys, compare without copying a value that might hold a string.
        if case .int(let key) = column[place] {
            guard best >= 0 else { return true }
            if case .int(let other) = column[best] { return key == other ? place < best : (isMaximum ? other < key : key < other) }
        }
        let key = column[place]
        guard key != .null else { return false }
        guard best >= 0 else { return true }
        let other = column[best]
        return key == other ? place < best : (isMaximum ? other < key : key < other)
    }

    /// The totals of one group.
    ///
    /// - Complexity: O(t) for t totals.
    func totals(ofGroup group: Int, table: TotalInputTable) -> SectionTotals {
        var totals = SectionTotals(layout)
        let columns = table.columns
        totals.set(
            rows: rows[group],
            counts: counts[group * layout.countSlots..<(group + 1) * layout.countSlots],
            integers: integers[group * layout.integerSlots..<(group + 1) * layout.integerSlots],
            doubles: doubles[group * layout.doubleSlots..<(group + 1) * layout.doubleSlots],
            decimals: decimals[group * layout.decimalSlots..<(group + 1) * layout.decimalSlots],
            extremes: extremes[group * layout.extremeKinds.count..<(group + 1) * layout.extremeKinds.count].map { place in
                guard place >= 0 else { return nil }
                return ExtremeHeap.Entry(
                    key: columns.keys[place], id: UInt64(place / columns.keyStride), text: columns.keepsTexts ? columns.texts[place] : nil)
            })
        return totals
    }

    /// The number of rows of a group.
    func rowCount(ofGroup group: Int) -> Int { rows[group] }
}
