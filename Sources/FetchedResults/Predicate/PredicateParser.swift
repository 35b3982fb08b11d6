import Foundation

/// A recursive-descent parser from format string to ``FormatPredicate/Node``.
///
/// Precedence, loosest first: `OR`, `AND`, `NOT`, then comparisons and parentheses.
/// Nesting is limited to ``maximumDepth`` so hostile input cannot exhaust the stack.
struct PredicateParser {
    /// The deepest nesting of parentheses and `NOT`s accepted.
    static let maximumDepth = 100

    private var lexer: PredicateLexer
    private var current: PredicateLexer.Token
    private var arguments: [PredicateValue]
    private var nextArgument = 0
    private var depth = 0

    init(format: String, arguments: [PredicateValue]) {
        self.lexer = PredicateLexer(format: format)
        self.arguments = arguments
        self.current = PredicateLexer.Token(kind: .end, offset: 0, length: 0)
    }

    /// Parses the whole string.
    mutating func parse() throws(PredicateSyntaxError) -> FormatPredicate.Node {
        try advance()
        let node = try parseOr()
        guard current.kind == .end else {
            throw error("AND, OR or the end of the predicate")
        }
        if nextArgument < arguments.count {
            throw PredicateSyntaxError(
                .unusedArgument, format: lexer.format, offset: lexer.bytes.count, token: "",
                expected: "\(nextArgument) argument\(nextArgument == 1 ? "" : "s") (got \(arguments.count))")
        }
        return node
    }

    // MARK: Tokens

    private mutating func advance() throws(PredicateSyntaxError) {
        current = try lexer.next()
    }

    private func error(_ expected: String, _ kind: PredicateSyntaxError.Kind = .syntax) -> PredicateSyntaxError {
        error(expected, kind, at: current)
    }

    private func error(
        _ expected: String, _ kind: PredicateSyntaxError.Kind = .syntax, at token: PredicateLexer.Token
    ) -> PredicateSyntaxError {
        PredicateSyntaxError(kind, format: lexer.format, offset: token.offset, token: lexer.text(of: token), expected: expected)
    }

    /// The current token as an upper-cased keyword, if it is a bare word.
    private var keyword: String? {
        if case .word(let word) = current.kind { return word.uppercased() }
        return nil
    }

    private func isSymbol(_ symbols: String...) -> Bool {
        if case .symbol(let symbol) = current.kind { return symbols.contains(symbol) }
        return false
    }

    private mutating func nest() throws(PredicateSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw error("nesting no deeper than \(Self.maximumDepth) levels", .unsupported)
        }
    }

    // MARK: Predicates

    private mutating func parseOr() throws(PredicateSyntaxError) -> FormatPredicate.Node {
        var nodes = [try parseAnd()]
        while keyword == "OR" || isSymbol("||") {
            try advance()
            nodes.append(try parseAnd())
        }
        return nodes.count == 1 ? nodes[0] : .or(nodes.flatMap { if case .or(let inner) = $0 { inner } else { [$0] } })
    }

    private mutating func parseAnd() throws(PredicateSyntaxError) -> FormatPredicate.Node {
        var nodes = [try parseNot()]
        while keyword == "AND" || isSymbol("&&") {
            try advance()
            nodes.append(try parseNot())
        }
        return nodes.count == 1 ? nodes[0] : .and(nodes.flatMap { if case .and(let inner) = $0 { inner } else { [$0] } })
    }

    private mutating func parseNot() throws(PredicateSyntaxError) -> FormatPredicate.Node {
        if keyword == "NOT" || isSymbol("!") {
            try nest()
            try advance()
            let node = FormatPredicate.Node.not(try parseNot())
            depth -= 1
            return node
        }
        return try parsePrimary()
    }

    private mutating func parsePrimary() throws(PredicateSyntaxError) -> FormatPredicate.Node {
        if isSymbol("(") {
            try nest()
            try advance()
            let node = try parseOr()
            guard isSymbol(")") else { throw error("a closing parenthesis, AND or OR") }
            try advance()
            depth -= 1
            return node
        }
        switch keyword {
        case "TRUEPREDICATE":
            try advance()
            return .constant(true)
        case "FALSEPREDICATE":
            try advance()
            return .constant(false)
        default:
            return .comparison(try parseComparison())
        }
    }

    private mutating func parseComparison() throws(PredicateSyntaxError) -> FormatPredicate.Comparison {
        var quantifier: FormatPredicate.Quantifier?
        switch keyword {
        case "ANY", "SOME": quantifier = .any
        case "ALL": quantifier = .all
        case "NONE": quantifier = .notAny
        default: break
        }
        if quantifier != nil { try advance() }
        let lhs = try parseExpression()
        let operatorToken = current
        let op: FormatPredicate.Operator
        switch current.kind {
        case .symbol("="), .symbol("=="): op = .equal
        case .symbol("!="), .symbol("<>"): op = .notEqual
        case .symbol("<"): op = .less
        case .symbol("<="), .symbol("=<"): op = .lessOrEqual
        case .symbol(">"): op = .greater
        case .symbol(">="), .symbol("=>"): op = .greaterOrEqual
        case .word(let word):
            switch word.uppercased() {
            case "BETWEEN": op = .between
            case "IN": op = .in
            case "CONTAINS": op = .contains
            case "BEGINSWITH": op = .beginsWith
            case "ENDSWITH": op = .endsWith
            case "LIKE": op = .like
            case "MATCHES": op = .matches
            default: throw error("a comparison operator (==, !=, <, >, CONTAINS, IN, …)")
            }
        default:
            throw error("a comparison operator (==, !=, <, >, CONTAINS, IN, …)")
        }
        try advance()
        let options = try parseOptions()
        let rhs = try parseExpression()
        return FormatPredicate.Comparison(
            quantifier: quantifier, lhs, op, options: options, rhs, offset: operatorToken.offset)
    }

    /// `[c]`, `[d]`, `[cd]` (any order, any case) or nothing.
    private mutating func parseOptions() throws(PredicateSyntaxError) -> TextComparisonOptions {
        guard isSymbol("[") else { return [] }
        try advance()
        guard case .word(let flags) = current.kind, !flags.isEmpty else { throw error("c, d or cd") }
        var options: TextComparisonOptions = []
        for flag in flags.lowercased() {
            switch flag {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            default: throw error("c, d or cd")
            }
        }
        try advance()
        guard isSymbol("]") else { throw error("]") }
        try advance()
        return options
    }

    // MARK: Expressions

    private mutating func parseExpression() throws(PredicateSyntaxError) -> FormatPredicate.Expression {
        let token = current
        switch current.kind {
        case .string(let value):
            try advance()
            return .value(.string(value), offset: token.offset)
        case .integer(let value):
            try advance()
            return .value(.integer(value), offset: token.offset)
        case .double(let value):
            try advance()
            return .value(.double(value), offset: token.offset)
        case .symbol("-"):
            try advance()
            switch current.kind {
            case .integer(let value):
                try advance()
                return .value(.integer(-value), offset: token.offset)
            case .minimumIntegerMagnitude:
                try advance()
                return .value(.integer(.min), offset: token.offset)
            case .double(let value):
                try advance()
                return .value(.double(-value), offset: token.offset)
            default:
                throw error("a number after -")
            }
        case .minimumIntegerMagnitude:
            throw error("an integer that fits in 64 bits")
        case .symbol("{"):
            return try parseArray()
        case .variable(let name):
            try advance()
            return .variable(name, offset: token.offset)
        case .specifier(let specifier):
            try advance()
            return try argument(for: specifier, at: token)
        case .word(let word):
            switch word.uppercased() {
            case "NIL", "NULL":
                try advance()
                return .value(.null, offset: token.offset)
            case "TRUE", "YES":
                try advance()
                return .value(.bool(true), offset: token.offset)
            case "FALSE", "NO":
                try advance()
                return .value(.bool(false), offset: token.offset)
            case "CAST" where nextIsSymbol("("):
                return try parseCast()
            case let upper where PredicateLexer.reserved.contains(upper):
                throw error("a key path, literal or variable (use #\(word) for a key named \(word))")
            default:
                return try parseKeyPath()
            }
        case .escapedWord, .atWord:
            return try parseKeyPath()
        default:
            throw error("a key path, literal, variable or format specifier")
        }
    }

    /// Whether the token after the current one is the symbol `symbol` (one token of
    /// look-ahead, so `cast` stays an ordinary key unless a parenthesis follows).
    private func nextIsSymbol(_ symbol: String) -> Bool {
        var probe = lexer
        guard let next = try? probe.next() else { return false }
        return next.kind == .symbol(symbol)
    }

    /// `CAST(number, "NSDate")`: a date, as seconds since 2001-01-01 (how dates print).
    private mutating func parseCast() throws(PredicateSyntaxError) -> FormatPredicate.Expression {
        let start = current.offset
        try advance()  // CAST
        try advance()  // (
        let number = current
        let interval: Double
        var sign = 1.0
        if isSymbol("-") {
            sign = -1
            try advance()
        }
        switch current.kind {
        case .integer(let value): interval = sign * Double(value)
        case .double(let value): interval = sign * value
        default: throw error("a number of seconds since 2001 in CAST(…, \"NSDate\")", at: number)
        }
        try advance()
        guard isSymbol(",") else { throw error(", \"NSDate\")") }
        try advance()
        guard case .string("NSDate") = current.kind else { throw error("\"NSDate\" (CAST makes only dates)", .unsupported) }
        try advance()
        guard isSymbol(")") else { throw error("a closing parenthesis after CAST(…, \"NSDate\"") }
        try advance()
        return .value(.date(Date(timeIntervalSinceReferenceDate: interval)), offset: start)
    }

    private mutating func parseArray() throws(PredicateSyntaxError) -> FormatPredicate.Expression {
        let start = current.offset
        try nest()
        try advance()
        var elements: [FormatPredicate.Expression] = []
        if !isSymbol("}") {
            while true {
                elements.append(try parseExpression())
                if isSymbol("}") { break }
                guard isSymbol(",") else { throw error(", or }") }
                try advance()
            }
        }
        try advance()
        depth -= 1
        var values: [PredicateValue] = []
        for element in elements {
            guard case .value(let value, _) = element else { return .array(elements, offset: start) }
            values.append(value)
        }
        return .value(.array(values), offset: start)
    }

    private mutating func parseKeyPath() throws(PredicateSyntaxError) -> FormatPredicate.Expression {
        let start = current.offset
        var components: [String] = []
        while true {
            switch current.kind {
            case .word(let word), .escapedWord(let word):
                components.append(word)
            case .atWord(let word):
                guard word.lowercased() == "count" else {
                    throw error("@count (the only collection operator supported)", .unsupported)
                }
                components.append("@count")
            default:
                throw error("a key")
            }
            try advance()
            guard isSymbol(".") else { break }
            try advance()
        }
        return .keyPath(components, offset: start)
    }

    private mutating func argument(
        for specifier: String, at token: PredicateLexer.Token
    ) throws(PredicateSyntaxError) -> FormatPredicate.Expression {
        guard nextArgument < arguments.count else {
            throw error("an argument for \(specifier) (argument \(nextArgument + 1); got \(arguments.count))", .missingArgument, at: token)
        }
        let value = arguments[nextArgument]
        nextArgument += 1
        guard value.isFinite else {
            throw error("a finite number for \(specifier) (got \(value))", .invalidArgument, at: token)
        }
        switch specifier {
        case "%@":
            return .value(value, offset: token.offset)
        case "%K":
            guard case .string(let path) = value else {
                throw error("a string key path for %K (got \(value))", .invalidArgument, at: token)
            }
            let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            // Each key must be one the grammar can spell (so the predicate prints and parses
            // back): a word, which may be a keyword (printed with #), or @count.
            guard !components.isEmpty, components.allSatisfy(PredicateLexer.isKey) else {
                throw error("a dotted key path of words for %K (got \(PredicateValue.quoted(path)))", .invalidArgument, at: token)
            }
            return .keyPath(components, offset: token.offset)
        case "%f", "%lf", "%g":
            switch value {
            case .double: return .value(value, offset: token.offset)
            case .integer(let integer): return .value(.double(Double(integer)), offset: token.offset)
            default: throw error("a number for \(specifier) (got \(value))", .invalidArgument, at: token)
            }
        default:  // %d, %i, %ld, %lld, %li, %lli
            switch value {
            case .integer: return .value(value, offset: token.offset)
            case .bool(let flag): return .value(.integer(flag ? 1 : 0), offset: token.offset)
            default: throw error("an integer for \(specifier) (got \(value))", .invalidArgument, at: token)
            }
        }
    }
}
