/// A format predicate that cannot be parsed or bound: where, what was found there and what
/// was expected.
///
/// Thrown by ``FormatPredicate/init(_:_:)`` for malformed strings and by
/// ``FormatPredicate/bind(to:variables:)-(PredicateEntity<Object>,_)`` and the other bindings
/// for unknown keys, type mismatches, unbound variables and invalid regular expressions. Its ``description`` shows the format string
/// with a caret under the offending token:
///
/// ```
/// type mismatch at offset 7: found 3, expected a string (name is a string attribute)
/// name == 3
///         ^
/// ```
public struct PredicateSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Hashable, Sendable {
        /// The string does not follow the grammar.
        case syntax
        /// A key path names an attribute or relationship the entity does not have.
        case unknownKey
        /// The two sides of a comparison, or an operator and its operands, do not fit.
        case typeMismatch
        /// A `%@`, `%K`, `%d` or `%f` has no argument.
        case missingArgument
        /// An argument does not fit its specifier (`%d` given a string).
        case invalidArgument
        /// More arguments were given than the string has specifiers.
        case unusedArgument
        /// A `$VARIABLE` has no value.
        case unboundVariable
        /// A `MATCHES` pattern is not a valid regular expression.
        case invalidRegularExpression
        /// The construct is valid NSPredicate syntax this implementation does not evaluate,
        /// or the key names an attribute of a type predicates cannot compare.
        case unsupported
        /// The class a predicate is bound to is not among the schema's (the offset is 0 and
        /// the token the entity's name).
        case unknownEntity
    }

    /// What went wrong.
    public let kind: Kind
    /// The format string.
    public let format: String
    /// The UTF-8 offset, in ``format``, of the offending token (its length when the input
    /// ended too early).
    public let offset: Int
    /// The offending token as written; empty at the end of the input.
    public let token: String
    /// What would have been valid there.
    public let expected: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - kind: What went wrong.
    ///   - format: The format string.
    ///   - offset: The UTF-8 offset of the offending token in `format`.
    ///   - token: The offending token; empty at the end of the input.
    ///   - expected: What would have been valid there.
    /// - Complexity: O(1).
    public init(_ kind: Kind, format: String, offset: Int, token: String, expected: String) {
        self.kind = kind
        self.format = format
        self.offset = offset
        self.token = token
        self.expected = expected
    }

    /// A message, the format string and a caret under the offending token.
    ///
    /// A long format string is shown as an excerpt of at most ``excerptRadius`` characters
    /// on each side of the offset, with `…` where it was cut, and a long token is cut the same
    /// way; the offset in the first line is always the full string's. So the message of a
    /// malformed 10 MB predicate stays a few lines long.
    ///
    /// - Complexity: O(offset) to find the offset's character, plus O(1) for the excerpt.
    public var description: String {
        let found = token.isEmpty ? "the end of the input" : Self.shortened(token)
        let (excerpt, column) = Self.excerpt(of: format, around: offset)
        return "\(kindDescription) at offset \(offset): found \(found), expected \(expected)\n\(excerpt)\n"
            + String(repeating: " ", count: column) + "^"
    }

    /// How many characters of the format string ``description`` shows on each side of the
    /// offset.
    public static var excerptRadius: Int { 40 }

    /// The part of `format` around the UTF-8 `offset`, on one line (newlines and tabs shown
    /// as spaces, `…` where it was cut), and the caret's column in it.
    private static func excerpt(of format: String, around offset: Int) -> (line: String, column: Int) {
        let utf8 = format.utf8
        let at = utf8.index(utf8.startIndex, offsetBy: max(0, min(offset, utf8.count)))
        let start = format.index(at, offsetBy: -excerptRadius, limitedBy: format.startIndex) ?? format.startIndex
        let end = format.index(at, offsetBy: excerptRadius, limitedBy: format.endIndex) ?? format.endIndex
        let lead = start > format.startIndex ? "…" : ""
        let tail = end < format.endIndex ? "…" : ""
        let shown = String(format[start..<end].map { $0.isNewline || $0 == "\t" ? " " : $0 })
        return (lead + shown + tail, lead.count + format[start..<at].count)
    }

    /// `token`, cut to ``excerptRadius`` characters with `…` when it is longer.
    private static func shortened(_ token: String) -> String {
        guard let end = token.index(token.startIndex, offsetBy: excerptRadius, limitedBy: token.endIndex),
              end < token.endIndex else { return token }
        return token[..<end] + "…"
    }

    private var kindDescription: String {
        switch kind {
        case .syntax: "syntax error"
        case .unknownKey: "unknown key"
        case .typeMismatch: "type mismatch"
        case .missingArgument: "missing argument"
        case .invalidArgument: "invalid argument"
        case .unusedArgument: "unused argument"
        case .unboundVariable: "unbound variable"
        case .invalidRegularExpression: "invalid regular expression"
        case .unsupported: "unsupported construct"
        case .unknownEntity: "unknown entity"
        }
    }
}
