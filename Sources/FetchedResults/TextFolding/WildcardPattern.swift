/// A `LIKE` pattern folded once: `*` matches any run of characters, `?` exactly one, and
/// `\*`, `\?`, `\\` stand for themselves.
///
/// Literal parts are folded with the pattern's options and matched against ``FoldedText``
/// with the same boundary rules as ``FoldedText/contains(_:)``; `?` consumes one folded unit
/// (a scalar's fold together with the combining marks that follow it).
public struct WildcardPattern: Hashable, Sendable, CustomStringConvertible {
    /// One piece of a pattern.
    enum Token: Hashable, Sendable {
        case literal(FoldedText)
        case one
        case any
    }

    /// What a pattern reduces to when it has no `?` and at most a leading and a trailing `*`.
    enum Shape: Hashable, Sendable {
        case equals(FoldedText)
        case prefix(FoldedText)
        case suffix(FoldedText)
        case contains(FoldedText)
        case anything
        case general
    }

    /// The raw pattern.
    public let pattern: String
    /// The options its literal parts were folded with.
    public let options: TextComparisonOptions
    let tokens: [Token]
    let shape: Shape

    /// Parses and folds a pattern.
    ///
    /// - Parameters:
    ///   - pattern: The pattern, with `*`, `?` and backslash escapes.
    ///   - options: The comparison options for the literal parts.
    /// - Complexity: O(n) in the pattern's length.
    public init(_ pattern: String, options: TextComparisonOptions) {
        self.pattern = pattern
        self.options = options
        var tokens: [Token] = []
        var literal = ""
        var escaped = false
        func flush() {
            if !literal.isEmpty {
                tokens.append(.literal(FoldedText(literal, options: options)))
                literal = ""
            }
        }
        for scalar in pattern.unicodeScalars {
            if escaped {
                literal.unicodeScalars.append(scalar)
                escaped = false
                continue
            }
            switch scalar {
            case "\\": escaped = true
            case "*":
                flush()
                if tokens.last != .any { tokens.append(.any) }
            case "?":
                flush()
                tokens.append(.one)
            default: literal.unicodeScalars.append(scalar)
            }
        }
        if escaped { literal.unicodeScalars.append("\\") }
        flush()
        // A literal that folds to nothing matches nothing in Foundation; drop none of them.
        self.tokens = tokens
        self.shape = Self.shape(of: tokens)
    }

    private static func shape(of tokens: [Token]) -> Shape {
        switch tokens {
        case [.any]: return .anything
        case let t where t.count == 1:
            if case .literal(let text) = t[0] { return .equals(text) }
        case let t where t.count == 2:
            if case .literal(let text) = t[0], t[1] == .any { return .prefix(text) }
            if case .literal(let text) = t[1], t[0] == .any { return .suffix(text) }
        case let t where t.count == 3:
            if case .literal(let text) = t[1], t[0] == .any, t[2] == .any { return .contains(text) }
        default: break
        }
        return .general
    }

    /// The pattern as written.
    public var description: String { pattern }

    /// Whether the whole of `text` matches the pattern.
    ///
    /// - Parameter text: Text folded with the pattern's options.
    /// - Complexity: O(n) for patterns with at most a leading and a trailing `*` and no `?`;
    ///   O(n · k) for k tokens otherwise.
    public func matches(_ text: FoldedText) -> Bool {
        require(text.options == options, "WildcardPattern.matches: the text was folded with other options")
        switch shape {
        case .equals(let literal): return !literal.isEmpty && text.isEquivalent(to: literal)
        case .prefix(let literal): return text.hasPrefix(literal)
        case .suffix(let literal): return text.hasSuffix(literal)
        case .contains(let literal): return text.contains(literal)
        case .anything: return true
        case .general: return matchesGenerally(text)
        }
    }

    /// Runs the tokens over every reachable position (a set of positions per step).
    private func matchesGenerally(_ text: FoldedText) -> Bool {
        let n = text.bytes.count
        var reachable = [Bool](repeating: false, count: n + 1)
        var next = reachable
        reachable[0] = true
        for token in tokens {
            for i in 0...n { next[i] = false }
            var any = false
            switch token {
            case .any:
                var open = false
                for p in 0...n {
                    if reachable[p] { open = true; next[p] = true; any = true }
                    else if open && text.isUnitBoundary(p) { next[p] = true }
                }
            case .one:
                for p in 0..<n where reachable[p] {
                    next[text.unitEnd(after: p)] = true
                    any = true
                }
            case .literal(let literal):
                let m = literal.bytes.count
                if m == 0 { return false }
                for p in 0...n where reachable[p] && p + m <= n {
                    if text.bytes[p..<(p + m)].elementsEqual(literal.bytes) && text.isMatchBoundary(start: p, length: m) {
                        next[p + m] = true
                        any = true
                    }
                }
            }
            if !any { return false }
            swap(&reachable, &next)
        }
        return reachable[n]
    }
}
