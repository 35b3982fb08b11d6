import Foundation

/// The compact, comparable form in which a controller keeps an extracted key.
///
/// A controller reads each key once per object and change (through the key path, the folding
/// and the section transform) and keeps this value, so sorting and searching compare plain
/// numbers and pre-folded strings and never touch a key path or Foundation.
///
/// Values of different kinds order by kind: `null` first, then booleans, numbers (integers
/// and doubles compare by value), strings, and opaque values last.
///
/// Floating-point numbers have one total order on every path (a fetch, a commit's update,
/// a search, an ordered list, a section key):
/// `-infinity < … < -0.0 == 0.0 < … < +infinity < NaN`. Every NaN (whatever its sign or
/// payload) equals every other NaN and sorts after every number, so NaN rows go last in an
/// ascending key and first in a descending one; `-0.0` and `0.0` are equal, so their rows tie
/// and are ordered by the following keys, then by object identity. `==` and hashing agree
/// with this order (unlike `Double`'s own `==`, NaN equals NaN here), so a NaN section key
/// names one section.
public enum SortValue: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// A missing value (`nil`).
    case null
    /// A Boolean; `false` sorts first.
    case bool(Bool)
    /// An integer.
    case int(Int64)
    /// A floating-point number (dates are kept as seconds since the reference date).
    case double(Double)
    /// A string, already folded for the key's comparison.
    case string(String)
    /// Any other `Hashable & Comparable` value, compared through its own `<`.
    case opaque(OpaqueSortValue)

    private var kindRank: Int {
        switch self {
        case .null: 0
        case .bool: 1
        case .int, .double: 2
        case .string: 3
        case .opaque: 4
        }
    }

    /// Whether `lhs` sorts before `rhs`.
    ///
    /// - Complexity: O(1) for every kind but strings, which compare in O(length).
    public static func < (lhs: SortValue, rhs: SortValue) -> Bool {
        switch (lhs, rhs) {
        case let (.string(a), .string(b)): return a < b
        case let (.int(a), .int(b)): return a < b
        case let (.double(a), .double(b)): return less(a, b)
        case let (.int(a), .double(b)): return less(a, b)
        case let (.double(a), .int(b)): return less(a, b)
        case let (.bool(a), .bool(b)): return !a && b
        case let (.opaque(a), .opaque(b)): return a < b
        case (.null, .null): return false
        default: return lhs.kindRank < rhs.kindRank
        }
    }

    /// Whether `lhs` equals `rhs` in the order of ``<(_:_:)``'s kind: values of one kind that
    /// neither sorts before the other, except that an integer never equals a double (they
    /// are different values that tie). Every NaN equals every NaN, and `-0.0` equals `0.0`.
    ///
    /// - Complexity: O(1) for every kind but strings, which compare in O(length).
    public static func == (lhs: SortValue, rhs: SortValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.double(a), .double(b)): return a == b || (a.isNaN && b.isNaN)
        case let (.string(a), .string(b)): return a == b
        case let (.opaque(a), .opaque(b)): return a == b
        default: return false
        }
    }

    /// Hashes the value consistently with ``==(_:_:)``: all NaNs alike, `-0.0` as `0.0`.
    ///
    /// - Parameter hasher: The hasher to feed.
    /// - Complexity: O(1) for every kind but strings, which hash in O(length).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kindRank)
        switch self {
        case .null: break
        case .bool(let value): hasher.combine(value)
        case .int(let value): hasher.combine(value)
        case .double(let value): hasher.combine(Self.canonical(value).bitPattern)
        case .string(let value): hasher.combine(value)
        case .opaque(let value): hasher.combine(value)
        }
    }

    /// The representative of `number`'s class in the total order: `Double.nan` for every
    /// NaN, `0.0` for `-0.0`, the number itself otherwise.
    @inline(__always)
    static func canonical(_ number: Double) -> Double {
        number.isNaN ? .nan : number == 0 ? 0 : number
    }

    /// Whether a double sorts before another in the total order: NaN after every number
    /// and equal to every NaN, `-0.0` equal to `0.0`, IEEE `<` otherwise.
    @inline(__always)
    static func less(_ a: Double, _ b: Double) -> Bool {
        a < b || (b.isNaN && !a.isNaN)
    }

    /// Whether an integer is less than a double, exactly: converting the integer would round
    /// it beyond 2^53 and make the order of mixed columns intransitive. NaN sorts after every
    /// integer.
    private static func less(_ a: Int64, _ b: Double) -> Bool {
        guard b.isFinite else { return b > 0 || b.isNaN }
        // 2^63 as a double; every finite double below it floors to a representable Int64.
        let bound = 9_223_372_036_854_775_808.0
        if b >= bound { return true }
        if b < -bound { return false }
        let floor = b.rounded(.down)
        let whole = Int64(floor)
        return a < whole || (a == whole && b > floor)
    }

    /// Whether a double is less than an integer, exactly. NaN sorts after every integer.
    private static func less(_ a: Double, _ b: Int64) -> Bool {
        guard a.isFinite else { return a < 0 }
        let bound = 9_223_372_036_854_775_808.0
        if a >= bound { return false }
        if a < -bound { return true }
        let ceiling = a.rounded(.up)
        let whole = Int64(ceiling)
        return whole < b || (whole == b && a < ceiling)
    }

    public var description: String {
        switch self {
        case .null: "nil"
        case .bool(let value): "\(value)"
        case .int(let value): "\(value)"
        case .double(let value): "\(value)"
        case .string(let value): value
        case .opaque(let value): "\(value.base)"
        }
    }
}

/// A `Hashable & Comparable & Sendable` value of any type, compared through its own `<`.
///
/// Values of different types order by their type names, so a mixed column still has one
/// total order.
public struct OpaqueSortValue: Sendable, Hashable, Comparable {
    /// Holds the value by reference, so that a ``SortValue`` stays two words and a tag wide
    /// (an existential inline would triple the size of every key a controller keeps).
    private final class Box: Sendable {
        let base: any Hashable & Comparable & Sendable
        init(_ base: any Hashable & Comparable & Sendable) { self.base = base }
    }

    private let box: Box

    /// The wrapped value.
    public var base: any Hashable & Comparable & Sendable { box.base }

    /// Wraps a value.
    ///
    /// - Parameter base: The value to compare through its own `<`.
    /// - Complexity: O(1).
    public init(_ base: some Hashable & Comparable & Sendable) {
        box = Box(base)
    }

    /// Whether `lhs` sorts before `rhs`: by the values' own `<` when both have the same type,
    /// otherwise by the names of their types, so that a column of mixed types still has one
    /// order.
    ///
    /// - Complexity: The cost of the values' `<`; O(*t*) for types named in *t* characters when
    ///   the types differ.
    public static func < (lhs: OpaqueSortValue, rhs: OpaqueSortValue) -> Bool {
        func compare<T: Hashable & Comparable & Sendable>(_ a: T) -> Bool? {
            (rhs.base as? T).map { a < $0 }
        }
        if let result = compare(lhs.base) { return result }
        return String(reflecting: type(of: lhs.base)) < String(reflecting: type(of: rhs.base))
    }

    /// Whether both wrap equal values of the same type.
    ///
    /// - Complexity: The cost of the values' `==`.
    public static func == (lhs: OpaqueSortValue, rhs: OpaqueSortValue) -> Bool {
        func equal<T: Hashable & Comparable & Sendable>(_ a: T) -> Bool {
            (rhs.base as? T).map { a == $0 } ?? false
        }
        return equal(lhs.base)
    }

    /// Hashes the wrapped value.
    ///
    /// - Parameter hasher: The hasher to feed.
    /// - Complexity: The cost of the value's `hash(into:)`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(base)
    }
}
