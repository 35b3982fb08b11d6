/// Folded text kept per object for one string attribute, so `[c]`/`[d]` comparisons fold
/// each value once rather than on every evaluation.
///
/// An entry remembers the string it was folded from. A read hands in the attribute's current
/// value; if it equals the remembered one (O(1) when the attribute was not written since,
/// because the entry shares the string's storage) the cached folding is returned, otherwise
/// the value is folded again and the entry replaced. An entry is therefore never stale: a
/// write to the attribute is picked up by the next comparison that reads it, and an entry
/// whose object is gone only costs memory until ``removeValue(for:)`` or ``removeAll()``.
///
/// Not `Sendable`: a cache is used from the isolation domain of the objects it describes.
public final class FoldedTextCache {
    /// The options every entry is folded with.
    public let options: TextComparisonOptions
    private(set) var entries: [ObjectIdentifier: (source: String, text: FoldedText)] = [:]

    /// Creates an empty cache.
    ///
    /// - Parameter options: The options to fold with.
    /// - Complexity: O(1).
    public init(options: TextComparisonOptions) {
        self.options = options
    }

    /// The number of objects with a cached folding.
    public var count: Int { entries.count }

    /// The folded form of `value`, the current value of the attribute on `object`.
    ///
    /// - Parameters:
    ///   - value: The attribute's current value.
    ///   - object: The object the value was read from.
    /// - Returns: `value` folded with ``options``.
    /// - Complexity: O(1) amortized when the value is unchanged since the last call for this
    ///   object; O(n) in the value's length when it changed.
    @inline(__always)
    public func folded(_ value: String, for object: AnyObject) -> FoldedText {
        let key = ObjectIdentifier(object)
        if let entry = entries[key], entry.source == value {
            return entry.text
        }
        let folded = FoldedText(value, options: options)
        entries[key] = (value, folded)
        return folded
    }

    /// Folds `value` for `object` now, replacing any cached folding; a writer that knows an
    /// attribute changed calls this to move the folding cost out of the next search.
    ///
    /// - Parameters:
    ///   - value: The attribute's new value.
    ///   - object: The object it belongs to.
    /// - Complexity: O(n) in the value's length.
    public func refresh(_ value: String, for object: AnyObject) {
        entries[ObjectIdentifier(object)] = (value, FoldedText(value, options: options))
        _checkInvariants()
    }

    /// Forgets the folding cached for `object` (call it when the object is deleted).
    ///
    /// - Parameter object: The object.
    /// - Complexity: O(1).
    public func removeValue(for object: AnyObject) {
        entries[ObjectIdentifier(object)] = nil
        _checkInvariants()
    }

    /// Forgets every cached folding.
    ///
    /// - Complexity: O(n).
    public func removeAll() {
        entries.removeAll()
        _checkInvariants()
    }
}

@available(*, unavailable)
extension FoldedTextCache: Sendable {}
