/// How two strings are compared by a text operator: the `[c]`, `[d]` and `[cd]` options of a
/// format predicate.
///
/// The options mirror Foundation's `String.CompareOptions.caseInsensitive` and
/// `.diacriticInsensitive`; ``FoldedText`` documents how each is applied.
public struct TextComparisonOptions: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The raw bits: 1 for case, 2 for diacritics.
    public let rawValue: UInt8

    /// Creates options from their raw bits.
    ///
    /// - Parameter rawValue: 1 for ``caseInsensitive``, 2 for ``diacriticInsensitive``; other
    ///   bits are ignored.
    /// - Complexity: O(1).
    public init(rawValue: UInt8) {
        self.rawValue = rawValue & 0b11
    }

    /// `[c]`: letters that differ only in case compare equal (full Unicode case folding, so
    /// `ß` matches `ss`).
    public static let caseInsensitive = TextComparisonOptions(rawValue: 1)

    /// `[d]`: letters that differ only in their diacritics compare equal (`é` matches `e`).
    public static let diacriticInsensitive = TextComparisonOptions(rawValue: 2)

    /// The options as written in a format string: `""`, `"[c]"`, `"[d]"` or `"[cd]"`.
    public var description: String {
        switch rawValue {
        case 1: "[c]"
        case 2: "[d]"
        case 3: "[cd]"
        default: ""
        }
    }
}
