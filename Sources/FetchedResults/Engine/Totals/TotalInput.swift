import Foundation
import ObjectGraph

/// How a total reads a row: not at all (a plain count), or through a closure that returns a
/// flag, a number or a key. ``Total``'s factories make the closure where they are inlined,
/// for the entity's class (so the conversion is specialized for the attribute's type), and
/// the engine calls it with objects of that entity only.
@usableFromInline
enum TotalReader {
    /// A plain count reads nothing.
    case none
    /// Whether the row counts, for a count of the rows that match.
    case flag((GraphObject) -> Bool)
    /// An integer to sum (any fixed-width integer fits).
    case integer((GraphObject) -> Int128)
    /// A floating-point number to sum.
    case double((GraphObject) -> Double)
    /// A decimal number to sum.
    case decimal((GraphObject) -> Decimal)
    /// The key a minimum or maximum orders rows by (``SortValue/null`` for `nil`, which
    /// takes no part).
    case key((GraphObject) -> SortValue)
    /// A string a minimum or maximum compares folded under a comparison.
    case folded((GraphObject) -> String, StringComparison)
}

/// What one total read of one row: nothing (a count), a flag, a number, or a key.
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
@usableFromInline
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
@usableFromInline
enum TotalReading {
    /// How many rows (or rows that match), for a count.
    case count(Int)
    /// The exact sum of an integer attribute over `rows` rows.
    case integer(Int128, rows: Int)
    /// The sum of a floating-point attribute (rounded once) over `rows` rows.
    case double(Double, rows: Int)
    /// The sum of a decimal attribute over `rows` rows.
    case decimal(Decimal, rows: Int)
    /// The key of the row at the extreme and, for a string compared folded, the string;
    /// `nil` when no row has a value.
    case extreme(SortValue?, text: String?)
}

/// How a request's totals are laid out in a ``SectionTotals`` and a ``TotalInputTable``:
/// each total's kind and its position among the accumulators (and input columns) of its kind.
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
