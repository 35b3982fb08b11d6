import Foundation
import Synchronization

/// A value a controller keeps for each section and for all its rows — a count, a sum, an
/// average, a minimum or a maximum — current with every commit.
///
/// Name the totals on the request, then read them from the controller and its sections with
/// the same values:
///
/// ```swift
/// let toGet = Total.count(where: FetchPredicate<Item>.equal(\.listed, true))
/// let spend = Total.sum(\Item.price)
/// let newest = Total.maximum(\Item.added)
///
/// var request = FetchRequest(Item.self, sortedBy: [SortKey(\.name)], sectionKey: SectionKey(\.location?.name))
/// request.totals = [AnyTotal(toGet), AnyTotal(spend), AnyTotal(newest)]
/// let controller = ResultsController(graph: graph, request: request)
/// controller.performFetch()
///
/// controller.total(spend)                  // every row's price, added up
/// controller.sections[0].total(toGet)      // listed items in the first section
/// ```
///
/// A total reads the row's own object through its key path or predicate, and may read
/// related objects too (`\.location?.budget`): like the rows' keys, it is read again when a
/// commit writes anything it read. A total of a request with a `fetchLimit` or `fetchOffset`
/// covers the window's rows only.
///
/// Sums are exact: integers are added in 128 bits, and floating-point numbers in a wide
/// fixed-point accumulator, so no sequence of commits, undos and redos makes a total drift;
/// a floating-point sum or average is the exact value rounded once (within one unit in the
/// last place). Decimal sums are exact within `Decimal`'s 38 digits.
public struct Total<Object: GraphObject, Value> {
    /// The total without its value type, as a request lists it.
    public let erased: AnyTotal<Object>
    @usableFromInline
    let read: (TotalReading) -> Value

    @usableFromInline
    init(kind: TotalKind, name: String, reader: TotalReader, read: @escaping (TotalReading) -> Value) {
        erased = AnyTotal(kind: kind, name: name, reader: reader)
        self.read = read
    }
}

@available(*, unavailable)
extension Total: Sendable {}

/// A ``Total`` without its value type: what ``FetchRequest/totals`` lists.
public struct AnyTotal<Object: GraphObject>: CustomStringConvertible {
    let kind: TotalKind
    /// A number no other total has: a total is the same wherever its value is copied.
    let id: Int
    /// A readable description of the total, for debugging.
    public let description: String
    let reader: TotalReader

    @usableFromInline
    init(kind: TotalKind, name: String, reader: TotalReader) {
        self.kind = kind
        self.reader = reader
        description = name
        id = _totalIDs.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    /// Erases a total's value type.
    ///
    /// - Parameter total: The total.
    /// - Complexity: O(1).
    public init<Value>(_ total: Total<Object, Value>) {
        self = total.erased
    }
}

@available(*, unavailable)
extension AnyTotal: Sendable {}

/// The source of ``AnyTotal``'s identities.
private let _totalIDs = Atomic<Int>(0)

// MARK: - Counts

extension Total where Value == Int {
    /// The number of rows.
    ///
    /// - Complexity: O(1).
    public static func count() -> Total {
        Total(kind: .count, name: "count", reader: .none) { reading in
            if case .count(let count) = reading { return count }
            return 0
        }
    }

    /// The number of rows that match a predicate, such as the items still to get in each
    /// section.
    ///
    /// - Parameter predicate: Which rows count; it may read related objects.
    /// - Complexity: O(1).
    public static func count(where predicate: FetchPredicate<Object>) -> Total {
        let isIncluded = predicate.isIncluded
        return Total(kind: .countWhere, name: "count(where:)", reader: .flag { isIncluded(unsafeDowncast($0, to: Object.self)) }) { reading in
            if case .count(let count) = reading { return count }
            return 0
        }
    }
}

// MARK: - Sums

extension Total where Value: FixedWidthInteger {
    /// The sum of an integer attribute over the rows, added exactly in 128 bits. When the
    /// sum does not fit `Value`, the total is the nearest value that does (`Value.max` or
    /// `Value.min`).
    ///
    /// - Parameter keyPath: The integer; it may cross relationships.
    /// - Complexity: O(1).
    @inlinable
    public static func sum(_ keyPath: KeyPath<Object, Value>) -> Total {
        sum(name: "sum(\(keyPath))") { $0[keyPath: keyPath] }
    }

    /// The sum of an integer read by a closure, the fastest way to read it: a closure calls
    /// the property getters directly, where a key path is projected at run time.
    ///
    /// ```swift
    /// let pieces = Total.sum { (item: Item) in item.quantity }
    /// ```
    ///
    /// - Parameters:
    ///   - name: A description of the total, for debugging.
    ///   - value: Reads the integer; it may cross relationships, and must be deterministic.
    /// - Complexity: O(1).
    @inlinable
    public static func sum(name: String = "sum(closure)", _ value: @escaping (Object) -> Value) -> Total {
        Total(kind: .integerSum, name: name, reader: .integer { Int128(value(unsafeDowncast($0, to: Object.self))) }) { reading in
            if case .integer(let sum, _) = reading { return Value(clamping: sum) }
            return 0
        }
    }
}

extension Total where Value == Double {
    /// The sum of a floating-point attribute over the rows: the exact sum, rounded once.
    ///
    /// - Parameter keyPath: The number; it may cross relationships.
    /// - Complexity: O(1).
    @inlinable
    public static func sum(_ keyPath: KeyPath<Object, Double>) -> Total {
        sum(name: "sum(\(keyPath))") { $0[keyPath: keyPath] }
    }

    /// The sum of a floating-point number read by a closure: the exact sum, rounded once.
    ///
    /// - Parameters:
    ///   - name: A description of the total, for debugging.
    ///   - value: Reads the number; it may cross relationships, and must be deterministic.
    /// - Complexity: O(1).
    @inlinable
    public static func sum(name: String = "sum(closure)", _ value: @escaping (Object) -> Double) -> Total {
        Total(kind: .doubleSum, name: name, reader: .double { value(unsafeDowncast($0, to: Object.self)) }) { reading in
            if case .double(let sum, _) = reading { return sum }
            return 0
        }
    }
}

extension Total where Value == Decimal {
    /// The sum of a decimal attribute over the rows.
    ///
    /// - Parameter keyPath: The number; it may cross relationships.
    /// - Complexity: O(1).
    @inlinable
    public static func sum(_ keyPath: KeyPath<Object, Decimal>) -> Total {
        sum(name: "sum(\(keyPath))") { $0[keyPath: keyPath] }
    }

    /// The sum of a decimal number read by a closure.
    ///
    /// - Parameters:
    ///   - name: A description of the total, for debugging.
    ///   - value: Reads the number; it may cross relationships, and must be deterministic.
    /// - Complexity: O(1).
    @inlinable
    public static func sum(name: String = "sum(closure)", _ value: @escaping (Object) -> Decimal) -> Total {
        Total(kind: .decimalSum, name: name, reader: .decimal { value(unsafeDowncast($0, to: Object.self)) }) { reading in
            if case .decimal(let sum, _) = reading { return sum }
            return 0
        }
    }
}

// MARK: - Averages

extension Total where Value == Double? {
    /// The average of an integer attribute over the rows, or `nil` when there are none.
    ///
    /// - Parameter keyPath: The integer; it may cross relationships.
    /// - Complexity: O(1).
    @inlinable
    public static func average<Number: FixedWidthInteger>(_ keyPath: KeyPath<Object, Number>) -> Total {
        average(name: "average(\(keyPath))") { $0[keyPath: keyPath] }
    }

    /// The average of an integer read by a closure, or `nil` when there are no rows.
    ///
    /// - Parameters:
    ///   - name: A description of the total, for debugging.
    ///   - value: Reads the integer; it may cross relationships, and must be deterministic.
    /// - Complexity: O(1).
    @inlinable
    public static func average<Number: FixedWidthInteger>(name: String = "average(closure)", _ value: @escaping (Object) -> Number) -> Total {
        Total(kind: .integerSum, name: name, reader: .integer { Int128(value(unsafeDowncast($0, to: Object.self))) }) { reading in
            guard case .integer(let sum, let rows) = reading, rows > 0 else { return nil }
            return Double(sum) / Double(rows)
        }
    }

    /// The average of a floating-point attribute over the rows, or `nil` when there are none:
    /// the exact sum, rounded once, divided by the number of rows.
    ///
    /// - Parameter keyPath: The number; it may cross relationships.
    /// - Complexity: O(1).
    @inlinable
    public static func average(_ keyPath: KeyPath<Object, Double>) -> Total {
        average(name: "average(\(keyPath))") { $0[keyPath: keyPath] }
    }

    /// The average of a floating-point number read by a closure, or `nil` when there are no
    /// rows: the exact sum, rounded once, divided by the number of rows.
    ///
    /// - Parameters:
    ///   - name: A description of the total, for debugging.
    ///   - value: Reads the number; it may cross relationships, and must be deterministic.
    /// - Complexity: O(1).
    @inlinable
    public static func average(name: String = "average(closure)", _ value: @escaping (Object) -> Double) -> Total {
        Total(kind: .doubleSum, name: name, reader: .double { value(unsafeDowncast($0, to: Object.self)) }) { reading in
            guard case .double(let sum, let rows) = reading, rows > 0 else { return nil }
            return sum / Double(rows)
        }
    }
}

extension Total where Value == Decimal? {
    /// The average of a decimal attribute over the rows, or `nil` when there are none.
    ///
    /// - Parameter keyPath: The number; it may cross relationships.
    /// - Complexity: O(1).
    @inlinable
    public static func average(_ keyPath: KeyPath<Object, Decimal>) -> Total {
        average(name: "average(\(keyPath))") { $0[keyPath: keyPath] }
    }

    /// The average of a decimal number read by a closure, or `nil` when there are no rows.
    ///
    /// - Parameters:
    ///   - name: A description of the total, for debugging.
    ///   - value: Reads the number; it may cross relationships, and must be deterministic.
    /// - Complexity: O(1).
    @inlinable
    public static func average(name: String = "average(closure)", _ value: @escaping (Object) -> Decimal) -> Total {
        Total(kind: .decimalSum, name: name, reader: .decimal { value(unsafeDowncast($0, to: Object.self)) }) { reading in
            guard case .decimal(let sum, let rows) = reading, rows > 0 else { return nil }
            return sum / Decimal(rows)
        }
    }
}

// MARK: - Minimum and maximum

/// A value whose minimum and maximum a ``Total`` can keep: it orders as its ``SortValue``,
/// and can be made again from it.
public protocol TotalExtremeValue: SortValueConvertible {
    /// The value that `sortValue` stands for, or `nil` when it is not one of this type's.
    ///
    /// - Parameter sortValue: A value made by ``SortValueConvertible/sortValue``.
    /// - Complexity: O(1) for the library's types.
    init?(sortValue: SortValue)
}

extension Total {
    /// The smallest value of an attribute over the rows, or `nil` when there are none.
    ///
    /// - Parameter keyPath: The value; it may cross relationships.
    /// - Complexity: O(1).
    @inlinable
    public static func minimum<Element: TotalExtremeValue>(_ keyPath: KeyPath<Object, Element>) -> Total where Value == Element? {
        extreme(.minimum, name: "minimum(\(keyPath))") { $0[keyPath: keyPath] }
    }

    /// The smallest value of an optional attribute over the rows whose value is not `nil`, or
    /// `nil` when there are none.
    ///
    /// - Parameter keyPath: The value; it may cross relationships.
    /// - Complexity: O(1).
    @inlinable
    public static func minimum<Element: TotalExtremeValue>(_ keyPath: KeyPath<Object, Element?>) -> Total where Value == Element? {
        extreme(.minimum, name: "minimum(\(keyPath))") { $0[keyPath: keyPath] }
    }

    /// The largest value of an attribute over the rows, or `nil` when there are none.
    ///
    /// - Parameter keyPath: The value; it may cross relationships.
    /// - Complexity: O(1).
    @inlinable
    public static func maximum<Element: TotalExtremeValue>(_ keyPath: KeyPath<Object, Element>) -> Total where Value == Element? {
        extreme(.maximum, name: "maximum(\(keyPath))") { $0[keyPath: keyPath] }
    }

    /// The largest value of an optional attribute over the rows whose value is not `nil`, or
    /// `nil` when there are none.
    ///
    /// - Parameter keyPath: The value; it may cross relationships.
    /// - Complexity: O(1).
    @inlinable
    public static func maximum<Element: TotalExtremeValue>(_ keyPath: KeyPath<Object, Element?>) -> Total where Value == Element? {
        extreme(.maximum, name: "maximum(\(keyPath))") { $0[keyPath: keyPath] }
    }

    /// The smallest value read by a closure over the rows whose value is not `nil`, or `nil`
    /// when there are none. A closure calls the property getters directly, where a key path
    /// is projected at run time.
    ///
    /// ```swift
    /// let soonest = Total.minimum { (item: Item) in item.due }
    /// ```
    ///
    /// - Parameters:
    ///   - name: A description of the total, for debugging.
    ///   - value: Reads the value; it may cross relationships, and must be deterministic.
    /// - Complexity: O(1).
    @inlinable
    public static func minimum<Element: TotalExtremeValue>(name: String = "minimum(closure)", _ value: @escaping (Object) -> Element?) -> Total
    where Value == Element? {
        extreme(.minimum, name: name, value)
    }

    /// The largest value read by a closure over the rows whose value is not `nil`, or `nil`
    /// when there are none.
    ///
    /// - Parameters:
    ///   - name: A description of the total, for debugging.
    ///   - value: Reads the value; it may cross relationships, and must be deterministic.
    /// - Complexity: O(1).
    @inlinable
    public static func maximum<Element: TotalExtremeValue>(name: String = "maximum(closure)", _ value: @escaping (Object) -> Element?) -> Total
    where Value == Element? {
        extreme(.maximum, name: name, value)
    }

    /// The smallest string of an attribute over the rows under a comparison (the first in
    /// the order a ``SortKey`` with this comparison gives), or `nil` when there are none.
    /// Of strings that compare equal, the one of the object inserted first is reported.
    ///
    /// - Parameters:
    ///   - keyPath: The string; it may cross relationships.
    ///   - comparison: How strings compare.
    /// - Complexity: O(1).
    public static func minimum(_ keyPath: KeyPath<Object, String>, comparison: StringComparison) -> Total where Value == String? {
        folded(.minimum, name: "minimum(\(keyPath))", comparison: comparison) { $0[keyPath: keyPath] }
    }

    /// The largest string of an attribute over the rows under a comparison, or `nil` when
    /// there are none.
    ///
    /// - Parameters:
    ///   - keyPath: The string; it may cross relationships.
    ///   - comparison: How strings compare.
    /// - Complexity: O(1).
    public static func maximum(_ keyPath: KeyPath<Object, String>, comparison: StringComparison) -> Total where Value == String? {
        folded(.maximum, name: "maximum(\(keyPath))", comparison: comparison) { $0[keyPath: keyPath] }
    }

    /// The smallest string read by a closure over the rows under a comparison, or `nil` when
    /// there are none. Of strings that compare equal, the one of the object inserted first is
    /// reported.
    ///
    /// - Parameters:
    ///   - name: A description of the total, for debugging.
    ///   - comparison: How strings compare.
    ///   - value: Reads the string; it may cross relationships, and must be deterministic.
    /// - Complexity: O(1).
    public static func minimum(name: String = "minimum(closure)", comparison: StringComparison, _ value: @escaping (Object) -> String) -> Total
    where Value == String? {
        folded(.minimum, name: name, comparison: comparison, read: value)
    }

    /// The largest string read by a closure over the rows under a comparison, or `nil` when
    /// there are none.
    ///
    /// - Parameters:
    ///   - name: A description of the total, for debugging.
    ///   - comparison: How strings compare.
    ///   - value: Reads the string; it may cross relationships, and must be deterministic.
    /// - Complexity: O(1).
    public static func maximum(name: String = "maximum(closure)", comparison: StringComparison, _ value: @escaping (Object) -> String) -> Total
    where Value == String? {
        folded(.maximum, name: name, comparison: comparison, read: value)
    }

    @inlinable
    static func extreme<Element: TotalExtremeValue>(_ kind: TotalKind, name: String, _ value: @escaping (Object) -> Element?) -> Total
    where Value == Element? {
        Total(kind: kind, name: name, reader: .key { value(unsafeDowncast($0, to: Object.self))?.sortValue ?? .null }) { reading in
            guard case .extreme(let key?, _) = reading else { return nil }
            return Element(sortValue: key)
        }
    }

    private static func folded(_ kind: TotalKind, name: String, comparison: StringComparison, read: @escaping (Object) -> String) -> Total
    where Value == String? {
        Total(kind: kind, name: name, reader: .folded({ read(unsafeDowncast($0, to: Object.self)) }, comparison)) { reading in
            guard case .extreme(_, let text?) = reading else { return nil }
            return text
        }
    }
}

extension Int: TotalExtremeValue {
    /// Makes the value a sort value stands for; `nil` for a sort value of another kind.
    ///
    /// - Parameter sortValue: A value made by ``SortValueConvertible/sortValue``.
    /// - Complexity: O(1).
    public init?(sortValue: SortValue) {
        guard case .int(let value) = sortValue else { return nil }
        self.init(exactly: value)
    }
}

extension Int32: TotalExtremeValue {
    /// Makes the value a sort value stands for; `nil` for a sort value of another kind.
    ///
    /// - Parameter sortValue: A value made by ``SortValueConvertible/sortValue``.
    /// - Complexity: O(1).
    public init?(sortValue: SortValue) {
        guard case .int(let value) = sortValue else { return nil }
        self.init(exactly: value)
    }
}

extension Int64: TotalExtremeValue {
    /// Makes the value a sort value stands for; `nil` for a sort value of another kind.
    ///
    /// - Parameter sortValue: A value made by ``SortValueConvertible/sortValue``.
    /// - Complexity: O(1).
    public init?(sortValue: SortValue) {
        guard case .int(let value) = sortValue else { return nil }
        self = value
    }
}

extension Double: TotalExtremeValue {
    /// Makes the value a sort value stands for; `nil` for a sort value of another kind.
    ///
    /// - Parameter sortValue: A value made by ``SortValueConvertible/sortValue``.
    /// - Complexity: O(1).
    public init?(sortValue: SortValue) {
        guard case .double(let value) = sortValue else { return nil }
        self = value
    }
}

extension Date: TotalExtremeValue {
    /// Makes the value a sort value stands for; `nil` for a sort value of another kind.
    ///
    /// - Parameter sortValue: A value made by ``SortValueConvertible/sortValue``.
    /// - Complexity: O(1).
    public init?(sortValue: SortValue) {
        guard case .double(let value) = sortValue else { return nil }
        self.init(timeIntervalSinceReferenceDate: value)
    }
}

extension String: TotalExtremeValue {
    /// Makes the value a sort value stands for; `nil` for a sort value of another kind.
    ///
    /// - Parameter sortValue: A value made by ``SortValueConvertible/sortValue``.
    /// - Complexity: O(1).
    public init?(sortValue: SortValue) {
        guard case .string(let value) = sortValue else { return nil }
        self = value
    }
}
