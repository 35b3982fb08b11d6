import Foundation

/// A `MATCHES` pattern compiled once, matched against whole strings with a bounded amount of
/// work.
///
/// A backtracking engine can take exponential time on patterns such as `(a+)+b`; a search
/// field must not freeze on one. The engine reports progress about every 10 000 steps; after
/// ``baseProgressBudget`` reports, plus one per ``charactersPerExtraReport`` characters of
/// the text, the match is abandoned and counts as no match. The budget counts engine steps,
/// not time, so the outcome is the same on every machine.
struct PredicateRegex {
    /// Progress reports (about 10 000 engine steps each) allowed for any text.
    static let baseProgressBudget = 100
    /// Characters (UTF-16 code units) of text that earn one more progress report.
    static let charactersPerExtraReport = 1_000

    private let regex: NSRegularExpression

    /// Compiles a pattern anchored at both ends.
    ///
    /// - Throws: Foundation's error when the pattern is not a valid ICU regular expression.
    init(pattern: String, caseInsensitive: Bool) throws {
        // The pattern compiles on its own, so wrapping it in a group keeps its meaning.
        _ = try NSRegularExpression(pattern: pattern)
        regex = try NSRegularExpression(pattern: "\\A(?:\(pattern))\\z", options: caseInsensitive ? [.caseInsensitive] : [])
    }

    /// Whether the whole of `text` matches; `nil` when the step budget ran out first.
    ///
    /// - Complexity: At most about 10 000 × (100 + n / 1000) engine steps for n UTF-16 units.
    func wholeMatch(_ text: String) -> Bool? {
        let length = text.utf16.count
        let budget = Self.baseProgressBudget + length / Self.charactersPerExtraReport
        var reports = 0
        var found = false
        var exhausted = false
        regex.enumerateMatches(in: text, options: [.reportProgress], range: NSRange(location: 0, length: length)) {
            result, _, stop in
            if result != nil {
                found = true
                stop.pointee = true
                return
            }
            reports += 1
            if reports > budget {
                exhausted = true
                stop.pointee = true
            }
        }
        if found { return true }
        return exhausted ? nil : false
    }
}
