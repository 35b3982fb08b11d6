/// The folded forms of one string attribute, stored by the object that owns the attribute:
/// the fastest place to keep them, read with one pointer hop and no hashing.
///
/// ```swift
/// final class Item {
///     var name = ""
///     let nameFolding = FoldedTextSlot()
/// }
/// entity.attribute("name", { $0.name }, folding: { $0.nameFolding })
/// ```
///
/// Like ``FoldedTextCache``, a slot remembers the string each folding was made from and
/// refolds when handed a different value, so a write to the attribute is picked up by the
/// next comparison that reads it (O(1) to confirm when unchanged: the slot shares the
/// string's storage). One folding is kept per option combination used.
///
/// Not `Sendable`: it belongs to its object's isolation domain.
public final class FoldedTextSlot {
    // Unchecked exclusivity: every access is a short read or a plain assignment, with no
    // user code in between, so accesses cannot overlap; the dynamic check would cost more
    // than the rest of a cached look-up.
    @exclusivity(unchecked) private var plain: (source: String, text: FoldedText)?
    @exclusivity(unchecked) private var caseless: (source: String, text: FoldedText)?
    @exclusivity(unchecked) private var accentless: (source: String, text: FoldedText)?
    @exclusivity(unchecked) private var both: (source: String, text: FoldedText)?

    /// Creates an empty slot.
    ///
    /// - Complexity: O(1).
    public init() {}

    /// The folded form of `value`, the attribute's current value.
    ///
    /// - Parameters:
    ///   - value: The attribute's current value.
    ///   - options: The options to fold with.
    /// - Returns: `value` folded with `options`.
    /// - Complexity: O(1) when `value` is the string last folded with these options;
    ///   O(n) in its length otherwise.
    @inline(__always)
    public func folded(_ value: String, options: TextComparisonOptions) -> FoldedText {
        withFolded(value, options: options) { $0 }
    }

    /// Runs `body` on the folding of `value`, refolding first when `value` is not the string
    /// the slot folded last; the folding is not copied out of the slot (the hot path of a
    /// bound predicate).
    @inline(__always)
    func withFolded<Result>(
        _ value: String, options: TextComparisonOptions, _ body: (borrowing FoldedText) -> Result
    ) -> Result {
        switch options.rawValue {
        case 3:
            if let source = both?.source, source == value { return body(both.unsafelyUnwrapped.text) }
            both = (value, FoldedText(value, options: options))
            return body(both.unsafelyUnwrapped.text)
        case 1:
            if let source = caseless?.source, source == value { return body(caseless.unsafelyUnwrapped.text) }
            caseless = (value, FoldedText(value, options: options))
            return body(caseless.unsafelyUnwrapped.text)
        case 2:
            if let source = accentless?.source, source == value { return body(accentless.unsafelyUnwrapped.text) }
            accentless = (value, FoldedText(value, options: options))
            return body(accentless.unsafelyUnwrapped.text)
        default:
            if let source = plain?.source, source == value { return body(plain.unsafelyUnwrapped.text) }
            plain = (value, FoldedText(value, options: options))
            return body(plain.unsafelyUnwrapped.text)
        }
    }

    /// Forgets every folding (they are rebuilt on the next comparison).
    ///
    /// - Complexity: O(1).
    public func removeAll() {
        plain = nil
        caseless = nil
        accentless = nil
        both = nil
    }
}

@available(*, unavailable)
extension FoldedTextSlot: Sendable {}

