import Foundation

/// What one total reads of one row: nothing (a count), a flag, a number, or a key.
enum TotalInput: Equatable {
    /// A plain count reads nothing.
    case none
    /// A count of the rows that match a predicate: whether this one does.
    case flag(Bool)
    /// An integer to sum (any fixed-width integer fits).
    case integer(Int128)
    /// A floating-point number to sum.
    case double(Double)
    /// A decimal number to sum.
    case decimal(Decimal)
    /// The key a minimum or maximum orders rows by (``SortValue/null`` for `nil`, which
    /// takes no part), and for a string compared folded, the string itself.
    case key(SortValue, text: String?)
}

/// The kind of a total, which says how it reads a row and accumulates.
enum TotalKind: Equatable {
    case count
    case countWhere
    case integerSum
    case doubleSum
    case decimalSum
    case minimum
    case maximum
}

/// A total's accumulated value for one section (or the whole results), as ``Total``'s
/// reading turns it into the total's value.
enum TotalReading {
    /// How many rows (or rows that match), for a count.
    case count(Int)
    /// The exact sum of an integer attribute over `rows` rows.
    case integer(Int128, rows: Int)
    /// The sum of a floating-point attribute (rounded once) over `rows` rows.
    case double(Double, rows: Int)
    /// The sum of a decimal attribute over `rows` rows.
    case decimal(Decimal, rows: Int)
    /// The row at the extreme, when any row has a value.
    case extreme(ExtremeHeap.Entry?)
}

/// How a request's totals are laid out in a ``SectionTotals``: each total's kind and its
/// position among the accumulators of its kind.
struct TotalsLayout {
    let kinds: [TotalKind]
    /// For each total, its index in ``SectionTotals``' array of its kind.
    let slots: [Int]
    let countSlots: Int
    let integerSlots: Int
    let doubleSlots: Int
    let decimalSlots: Int
    let extremeKinds: [Bool]

    init(_ kinds: [TotalKind]) {
        self.kinds = kinds
        var counts = 0, integers = 0, doubles = 0, decimals = 0
        var extremes: [Bool] = []
        var slots: [Int] = []
        for kind in kinds {
            switch kind {
            case .count, .countWhere:
                slots.append(counts)
                counts += 1
            case .integerSum:
                slots.append(integers)
                integers += 1
            case .doubleSum:
                slots.append(doubles)
                doubles += 1
            case .decimalSum:
                slots.append(decimals)
                decimals += 1
            case .minimum, .maximum:
                slots.append(extremes.count)
                extremes.append(kind == .maximum)
            }
        }
        self.slots = slots
        countSlots = counts
        integerSlots = integers
        doubleSlots = doubles
        decimalSlots = decimals
        extremeKinds = extremes
    }
}

/// The totals of one section (or of the whole results): the accumulators of every total of
/// the request, fed row by row.
struct SectionTotals {
    /// How many rows the section has.
    private(set) var rows = 0
    private var counts: [Int]
    private var integers: [Int128]
    private var doubles: [ExactSum]
    private var decimals: [Decimal]
    private var extremes: [ExtremeHeap]

    init(_ layout: TotalsLayout) {
        counts = Array(repeating: 0, count: layout.countSlots)
        integers = Array(repeating: 0, count: layout.integerSlots)
        doubles = Array(repeating: ExactSum(), count: layout.doubleSlots)
        decimals = Array(repeating: 0, count: layout.decimalSlots)
        extremes = layout.extremeKinds.map { ExtremeHeap(isMaximum: $0) }
    }

    /// Adds a row (`sign` 1) or removes it (`sign` -1): its inputs, one per total, and its
    /// object's ID bits (which order ties of a minimum or maximum).
    ///
    /// - Complexity: O(t) for t totals, and O(log n) for each minimum or maximum.
    mutating func add(_ inputs: some Collection<TotalInput>, id: UInt64, sign: Int, layout: TotalsLayout) {
        rows += sign
        var total = 0
        for input in inputs {
            let slot = layout.slots[total]
            switch layout.kinds[total] {
            case .count:
                counts[slot] += sign
            case .countWhere:
                if case .flag(true) = input { counts[slot] += sign }
            case .integerSum:
                if case .integer(let value) = input { integers[slot] &+= sign > 0 ? value : 0 &- value }
            case .doubleSum:
                if case .double(let value) = input { doubles[slot].add(value, times: sign) }
            case .decimalSum:
                if case .decimal(let value) = input {
                    if sign > 0 { decimals[slot] += value } else { decimals[slot] -= value }
                }
            case .minimum, .maximum:
                if case .key(let key, let text) = input, key != .null {
                    let entry = ExtremeHeap.Entry(key: key, id: id, text: text)
                    if sign > 0 { extremes[slot].insert(entry) } else { extremes[slot].remove(entry) }
                }
            }
            total += 1
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
        case .minimum, .maximum: return .extreme(extremes[slot].top)
        }
    }

    /// Whether every total has the same value as in `other` (for a minimum or maximum, the
    /// same row at the extreme).
    ///
    /// - Complexity: O(t) for t totals.
    func hasSameValues(as other: SectionTotals) -> Bool {
        guard rows == other.rows, counts == other.counts, integers == other.integers, doubles == other.doubles,
              decimals == other.decimals else { return false }
        for slot in extremes.indices where extremes[slot].top != other.extremes[slot].top { return false }
        return true
    }
}
