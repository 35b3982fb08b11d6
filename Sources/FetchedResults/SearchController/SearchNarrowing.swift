/// When a search predicate's matches for one text are known to be among its matches for
/// another, so that a ``SearchController`` tests only some rows when its text changes.
///
/// A text *narrows* another when every object the predicate matches for it is also matched
/// for the other: under `CONTAINS[cd]`, `"ba"` → `"bab"` narrows, and so does `"c"` → `"Éc"`
/// (every name that contains "ec" contains "c"); under `BEGINSWITH[cd]`, `"c"` → `"Éc"` does
/// not ("Éclair" begins with "Éc" but not with "c"). When the new text narrows the old one the
/// search tests only its current rows; when the old text narrows the new one it keeps its
/// current rows and tests only the others; otherwise it tests every base row.
///
/// The rule must be true of the predicate: a rule that claims a narrowing the predicate does
/// not have shows wrong rows. Pick the rule that matches the predicate's operator and options,
/// or ``never``, which is always right and only costs a test of every base row per change.
///
/// ```swift
/// let search = SearchController(base: items, narrowing: .beginsWith()) { text in .beginsWith(\.name, text) }
/// ```
public struct SearchNarrowing: Sendable {
    private let rule: @Sendable (_ old: String, _ new: String) -> Bool

    /// Creates a rule from a closure.
    ///
    /// - Parameter narrows: Returns `true` only when every object the predicate matches for
    ///   the new text (its second argument) is also matched for the old text (its first).
    ///   Returning `false` is always safe.
    /// - Complexity: O(1).
    public init(_ narrows: @escaping @Sendable (_ old: String, _ new: String) -> Bool) {
        rule = narrows
    }

    /// Whether every object the predicate matches for `new` is also matched for `old`.
    ///
    /// - Parameters:
    ///   - old: The text the search showed.
    ///   - new: The text it shows next.
    /// - Returns: `true` when the texts are equal or the rule says so.
    /// - Complexity: The rule's. The built-in rules fold both texts, O(*n* + *m*) in their
    ///   lengths, then compare them: O(*m*) for a prefix, O(*n* · *m*) worst case for containment.
    public func narrows(from old: String, to new: String) -> Bool {
        old == new || rule(old, new)
    }

    /// No text narrows another: every text change tests every base row. Right for any
    /// predicate, such as equality or a search whose words are alternatives.
    public static var never: SearchNarrowing {
        SearchNarrowing { _, _ in false }
    }

    /// The rule of ``FetchPredicate/contains(_:_:_:)`` with the same comparison: a text narrows
    /// another when its folding contains the other's, and every text narrows the empty text
    /// (which matches every object).
    ///
    /// - Parameter comparison: The comparison the predicate uses.
    /// - Returns: The rule.
    /// - Complexity: O(1); the rule's cost is stated at ``narrows(from:to:)``.
    public static func contains(_ comparison: StringComparison = .caseDiacriticInsensitive) -> SearchNarrowing {
        let fold = comparison == .localizedStandard ? StringComparison.caseDiacriticInsensitive : comparison
        return SearchNarrowing { old, new in
            let oldFolded = fold.fold(old)
            return oldFolded.isEmpty || fold.fold(new).contains(oldFolded)
        }
    }

    /// The rule of ``FetchPredicate/beginsWith(_:_:_:)`` with the same comparison: a text
    /// narrows another when its folding begins with the other's (so `"c"` → `"Éc"` does not
    /// narrow under `[cd]`: "ec" does not begin with "c").
    ///
    /// - Parameter comparison: The comparison the predicate uses.
    /// - Returns: The rule.
    /// - Complexity: O(1); the rule's cost is stated at ``narrows(from:to:)``.
    public static func beginsWith(_ comparison: StringComparison = .caseDiacriticInsensitive) -> SearchNarrowing {
        let fold = comparison == .localizedStandard ? StringComparison.caseDiacriticInsensitive : comparison
        return SearchNarrowing { old, new in fold.fold(new).hasPrefix(fold.fold(old)) }
    }

    /// The rule of a format predicate's `CONTAINS` with `options` (`name CONTAINS[cd] $text`):
    /// a text narrows another when its folding contains the other's. As in Foundation, the
    /// empty text matches no object there, so it narrows every text and no text narrows it.
    ///
    /// - Parameter options: The operator's options (`[.caseInsensitive, .diacriticInsensitive]` for `[cd]`).
    /// - Returns: The rule.
    /// - Complexity: O(1); the rule's cost is stated at ``narrows(from:to:)``.
    public static func contains(options: TextComparisonOptions) -> SearchNarrowing {
        SearchNarrowing { old, new in
            let newFolded = FoldedText(new, options: options)
            return newFolded.isEmpty || newFolded.contains(FoldedText(old, options: options))
        }
    }

    /// The rule of a format predicate's `BEGINSWITH` with `options` (`name BEGINSWITH[cd] $text`):
    /// a text narrows another when its folding begins with the other's. The empty text matches
    /// no object there, so it narrows every text and no text narrows it.
    ///
    /// - Parameter options: The operator's options.
    /// - Returns: The rule.
    /// - Complexity: O(1); the rule's cost is stated at ``narrows(from:to:)``.
    public static func beginsWith(options: TextComparisonOptions) -> SearchNarrowing {
        SearchNarrowing { old, new in
            let newFolded = FoldedText(new, options: options)
            return newFolded.isEmpty || newFolded.hasPrefix(FoldedText(old, options: options))
        }
    }

    /// A text narrows another that it extends at the end (`"ba"` → `"bab"`, not `"a"` → `"ba"`),
    /// except the empty text, which narrows nothing. True of `CONTAINS` and `BEGINSWITH` with
    /// any options, and of searches that require every typed word; the caller vouches for it.
    public static var whenTextExtends: SearchNarrowing {
        SearchNarrowing { old, new in !old.isEmpty && new.hasPrefix(old) }
    }
}
