/// A predicate written in NSPredicate's format syntax, parsed once into a tree.
///
/// ```swift
/// let search = try FormatPredicate("name CONTAINS[cd] %@ AND quantity > 0", "milk")
/// let matches = try search.bind(to: Item.self)       // checks keys and types once
/// let listed = items.filter(matches.evaluate)
/// let request = FetchRequest(Item.self, predicate: matches, sortedBy: [SortKey(\.name)])
/// ```
///
/// The grammar: comparisons `=`, `==`, `!=`, `<>`, `<`, `<=`, `=<`, `>`, `>=`, `=>`,
/// `BETWEEN {low, high}`, `IN {…}`; string operators `CONTAINS`, `BEGINSWITH`, `ENDSWITH`,
/// `LIKE` (`*`, `?`) and `MATCHES` (an ICU regular expression matching the whole string),
/// each optionally followed by `[c]`, `[d]` or `[cd]`; `AND`/`&&`, `OR`/`||`, `NOT`/`!`,
/// parentheses; `TRUEPREDICATE`, `FALSEPREDICATE`; `nil`/`NULL`; string (`"…"` or `'…'`),
/// number, boolean (`TRUE`/`YES`, `FALSE`/`NO`), date (`CAST(seconds since 2001, "NSDate")`)
/// and array (`{…}`) literals; dotted key paths through to-one and to-many relationships,
/// `@count` over a to-many relationship; `ANY`/`SOME`, `ALL`, `NONE` before a comparison over
/// a to-many key path (through several to-many hops, the related objects are flattened; a
/// key path on the right side reads the evaluated object, as in NSPredicate);
/// `%@` (a value), `%K` (a key path), `%d`/`%i`/`%ld`/`%lld` (an integer), `%f`/`%lf` (a
/// number), and `$NAME` variables. Keywords are case-insensitive; `#name` uses a keyword as
/// a key.
///
/// Parsing checks only the grammar; binding checks keys and types against an entity and
/// returns the executable ``BoundFormatPredicate``: bind to a `GraphObject` class with
/// ``bind(to:variables:)-(Object.Type,_)`` (what it may read comes from the class's entity
/// description), to a ``GraphPredicateSchema`` with ``bind(to:as:variables:)``, or to an entity
/// declared by hand with ``bind(to:variables:)-(PredicateEntity<Object>,_)``. A `MATCHES`
/// pattern that does not compile is an error when it is written in the format, and matches
/// nothing when it comes from a `$VARIABLE`; a match that needs more than about a million
/// regular-expression steps (plus 10 000 per thousand characters of text) is abandoned and
/// counts as no match.
public struct FormatPredicate: Hashable, Sendable, CustomStringConvertible {
    /// The format string as given.
    public let format: String
    /// The parsed tree, arguments substituted.
    public let root: Node

    /// Parses a format string.
    ///
    /// - Parameters:
    ///   - format: The predicate in NSPredicate syntax.
    ///   - arguments: One value per `%@`, `%K`, `%d` or `%f`, in order.
    /// - Throws: ``PredicateSyntaxError`` with the offset of the first offending token.
    /// - Complexity: O(n) in the length of `format`.
    public init(_ format: String, _ arguments: PredicateValue...) throws(PredicateSyntaxError) {
        try self.init(format: format, arguments: arguments)
    }

    /// Parses a format string with an array of arguments.
    ///
    /// - Parameters:
    ///   - format: The predicate in NSPredicate syntax.
    ///   - arguments: One value per `%@`, `%K`, `%d` or `%f`, in order.
    /// - Throws: ``PredicateSyntaxError`` with the offset of the first offending token.
    /// - Complexity: O(n) in the length of `format`.
    public init(format: String, arguments: [PredicateValue]) throws(PredicateSyntaxError) {
        var parser = PredicateParser(format: format, arguments: arguments)
        self.format = format
        self.root = try parser.parse()
    }

    /// Creates a predicate from a tree (for building predicates in code).
    ///
    /// - Parameter root: The tree.
    /// - Complexity: O(n) in the size of the tree (its format is written once).
    public init(_ root: Node) {
        self.root = root
        self.format = root.description
    }

    /// The tree in canonical format syntax (fully parenthesized compounds, upper-case
    /// keywords); parsing it yields an equal tree (offsets aside) for every tree the parser
    /// builds, and for built trees whose compounds have two or more operands and do not
    /// directly nest a compound of the same kind.
    public var description: String { root.description }
}

extension FormatPredicate {
    /// A node of the predicate tree.
    public indirect enum Node: Hashable, Sendable, CustomStringConvertible {
        /// `TRUEPREDICATE` or `FALSEPREDICATE`.
        case constant(Bool)
        /// `NOT …`.
        case not(Node)
        /// `… AND …`, flattened.
        case and([Node])
        /// `… OR …`, flattened.
        case or([Node])
        /// A comparison.
        case comparison(Comparison)

        /// The node in canonical format syntax.
        public var description: String {
            switch self {
            case .constant(let value): value ? "TRUEPREDICATE" : "FALSEPREDICATE"
            case .not(let node): "NOT \(node.parenthesized)"
            case .and(let nodes): nodes.map(\.parenthesized).joined(separator: " AND ")
            case .or(let nodes): nodes.map(\.parenthesized).joined(separator: " OR ")
            case .comparison(let comparison): comparison.description
            }
        }

        private var parenthesized: String {
            switch self {
            case .and, .or: "(\(description))"
            default: description
            }
        }
    }

    /// `ANY`/`SOME`, `ALL` or `NONE` before a comparison.
    public enum Quantifier: String, Hashable, Sendable {
        /// True when some element of the to-many relationship satisfies the comparison.
        case any = "ANY"
        /// True when every element satisfies it (also when there are none).
        case all = "ALL"
        /// `NONE`: true when no element satisfies it.
        case notAny = "NONE"
    }

    /// A comparison operator.
    public enum Operator: String, Hashable, Sendable, CaseIterable {
        /// `=`, `==`: equal (`nil` equals only `nil`).
        case equal = "=="
        /// `!=`, `<>`: not equal.
        case notEqual = "!="
        /// `<`.
        case less = "<"
        /// `<=`, `=<`.
        case lessOrEqual = "<="
        /// `>`.
        case greater = ">"
        /// `>=`, `=>`.
        case greaterOrEqual = ">="
        /// `BETWEEN {low, high}`: both bounds included.
        case between = "BETWEEN"
        /// `IN {…}`: equal to one of the array's elements.
        case `in` = "IN"
        /// `CONTAINS`: the right string occurs in the left one.
        case contains = "CONTAINS"
        /// `BEGINSWITH`.
        case beginsWith = "BEGINSWITH"
        /// `ENDSWITH`.
        case endsWith = "ENDSWITH"
        /// `LIKE`: the left string matches the right wildcard pattern (`*`, `?`).
        case like = "LIKE"
        /// `MATCHES`: the whole left string matches the right ICU regular expression.
        case matches = "MATCHES"

        /// Whether the operator compares text (and so takes `[c]`/`[d]`).
        var isTextOperator: Bool {
            switch self {
            case .contains, .beginsWith, .endsWith, .like, .matches: true
            default: false
            }
        }
    }

    /// `lhs op[options] rhs`, possibly quantified.
    public struct Comparison: Hashable, Sendable, CustomStringConvertible {
        /// `ANY`, `ALL` or `NONE`, or `nil`.
        public var quantifier: Quantifier?
        /// The left operand.
        public var lhs: Expression
        /// The operator.
        public var op: Operator
        /// `[c]`, `[d]`, `[cd]` or none.
        public var options: TextComparisonOptions
        /// The right operand.
        public var rhs: Expression
        /// The UTF-8 offset of the operator in the format string.
        public var offset: Int

        /// Creates a comparison.
        ///
        /// - Parameters:
        ///   - quantifier: `ANY`, `ALL` or `NONE`, or `nil`.
        ///   - lhs: The left operand.
        ///   - op: The operator.
        ///   - options: The text comparison options.
        ///   - rhs: The right operand.
        ///   - offset: The operator's UTF-8 offset in the format string.
        /// - Complexity: O(1).
        public init(
            quantifier: Quantifier? = nil, _ lhs: Expression, _ op: Operator, options: TextComparisonOptions = [],
            _ rhs: Expression, offset: Int = 0
        ) {
            self.quantifier = quantifier
            self.lhs = lhs
            self.op = op
            self.options = options
            self.rhs = rhs
            self.offset = offset
        }

        /// The comparison in canonical format syntax.
        public var description: String {
            let prefix = quantifier.map { "\($0.rawValue) " } ?? ""
            return "\(prefix)\(lhs) \(op.rawValue)\(options) \(rhs)"
        }
    }

    /// An operand of a comparison.
    public indirect enum Expression: Hashable, Sendable, CustomStringConvertible {
        /// A dotted key path (`location.name`, `items.@count`) and its UTF-8 offset.
        case keyPath([String], offset: Int)
        /// A constant and its UTF-8 offset.
        case value(PredicateValue, offset: Int)
        /// A `$NAME` variable (without the `$`) and its UTF-8 offset.
        case variable(String, offset: Int)
        /// An array literal whose elements are not all constants, and its UTF-8 offset.
        case array([Expression], offset: Int)

        /// The UTF-8 offset of the operand in the format string.
        public var offset: Int {
            switch self {
            case .keyPath(_, let offset), .value(_, let offset), .variable(_, let offset), .array(_, let offset): offset
            }
        }

        /// The operand in canonical format syntax.
        public var description: String {
            switch self {
            case .keyPath(let components, _):
                components.map { PredicateLexer.isReserved($0) ? "#\($0)" : $0 }
                    .joined(separator: ".")
            case .value(let value, _): value.description
            case .variable(let name, _): "$\(name)"
            case .array(let elements, _): "{" + elements.map(\.description).joined(separator: ", ") + "}"
            }
        }
    }
}
