import Foundation

/// A constant in a format predicate: a literal, an argument for `%@`/`%d`/`%f`, or the value
/// of a `$VARIABLE`.
///
/// Literal syntax lets arguments read naturally: `FormatPredicate("name == %@", "Milk")`,
/// `FormatPredicate("quantity IN %@", [1, 2, 3])`.
public enum PredicateValue: Hashable, Sendable, CustomStringConvertible {
    /// `nil` / `NULL`.
    case null
    /// `TRUE`/`YES` or `FALSE`/`NO`.
    case bool(Bool)
    /// An integer.
    case integer(Int)
    /// A floating-point number.
    case double(Double)
    /// A string.
    case string(String)
    /// A date (only as an argument or variable value; the grammar has no date literal).
    case date(Date)
    /// An array: `{1, 2, 3}`.
    case array([PredicateValue])

    /// The value as written in a format string; dates as `CAST(seconds since 2001, "NSDate")`,
    /// which the parser reads back.
    public var description: String {
        switch self {
        case .null: "nil"
        case .bool(let value): value ? "TRUE" : "FALSE"
        case .integer(let value): String(value)
        case .double(let value): String(value)
        case .string(let value): Self.quoted(value)
        case .date(let value): "CAST(\(value.timeIntervalSinceReferenceDate), \"NSDate\")"
        case .array(let values): "{" + values.map(\.description).joined(separator: ", ") + "}"
        }
    }

    /// Whether every number in the value is finite (non-finite numbers have no literal).
    var isFinite: Bool {
        switch self {
        case .double(let value): value.isFinite
        case .date(let value): value.timeIntervalSinceReferenceDate.isFinite
        case .array(let values): values.allSatisfy(\.isFinite)
        default: true
        }
    }

    /// A string literal with quotes and backslash escapes.
    static func quoted(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

extension PredicateValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral
{
    /// `nil`.
    ///
    /// - Complexity: O(1).
    public init(nilLiteral: ()) { self = .null }

    /// A boolean.
    ///
    /// - Complexity: O(1).
    public init(booleanLiteral value: Bool) { self = .bool(value) }

    /// An integer.
    ///
    /// - Complexity: O(1).
    public init(integerLiteral value: Int) { self = .integer(value) }

    /// A floating-point number.
    ///
    /// - Complexity: O(1).
    public init(floatLiteral value: Double) { self = .double(value) }

    /// A string.
    ///
    /// - Complexity: O(1).
    public init(stringLiteral value: String) { self = .string(value) }

    /// An array.
    ///
    /// - Complexity: O(1).
    public init(arrayLiteral elements: PredicateValue...) { self = .array(elements) }
}
