import Foundation

extension FoldedText {
    /// Whether a match of `length` bytes may start at `start`.
    @inline(__always)
    func isMatchBoundary(start: Int, length: Int) -> Bool {
        guard let boundaries else { return true }
        return boundaries.canStart(start) && boundaries.canEnd(start + length)
    }

    /// Whether `needle` occurs in this text: Foundation's
    /// `range(of: needle, options: options) != nil` on the raw strings.
    ///
    /// - Parameter needle: Text folded with the same options.
    /// - Returns: `false` when `needle` is empty, as `range(of:)` finds no empty range.
    /// - Complexity: O(n + m) for a text of n bytes and a needle of m: a first-byte scan and a
    ///   compare, which turns into a linear-time scan when a long needle makes it slow.
    public func contains(_ needle: FoldedText) -> Bool {
        require(needle.options == options, "FoldedText.contains: the needle was folded with other options")
        let m = needle.bytes.count
        if m == 0 || m > bytes.count { return false }
        return Self.bytes(bytes, contain: needle.bytes) { isMatchBoundary(start: $0, length: m) }
    }

    /// Whether this text starts with `prefix`: Foundation's
    /// `range(of: prefix, options: options + .anchored) != nil` on the raw strings.
    ///
    /// - Parameter prefix: Text folded with the same options.
    /// - Returns: `false` when `prefix` is empty.
    /// - Complexity: O(m), the prefix's length.
    public func hasPrefix(_ prefix: FoldedText) -> Bool {
        require(prefix.options == options, "FoldedText.hasPrefix: the prefix was folded with other options")
        let m = prefix.bytes.count
        guard m > 0, m <= bytes.count, bytes[0..<m].elementsEqual(prefix.bytes) else { return false }
        return isMatchBoundary(start: 0, length: m)
    }

    /// Whether this text ends with `suffix`: Foundation's
    /// `range(of: suffix, options: options + [.anchored, .backwards]) != nil` on the raw strings.
    ///
    /// - Parameter suffix: Text folded with the same options.
    /// - Returns: `false` when `suffix` is empty.
    /// - Complexity: O(m), the suffix's length.
    public func hasSuffix(_ suffix: FoldedText) -> Bool {
        require(suffix.options == options, "FoldedText.hasSuffix: the suffix was folded with other options")
        let m = suffix.bytes.count
        let start = bytes.count - m
        guard m > 0, start >= 0, bytes[start...].elementsEqual(suffix.bytes) else { return false }
        return isMatchBoundary(start: start, length: m)
    }

    /// Whether the two texts are equal under their options (`==[cd]`).
    ///
    /// - Parameter other: Text folded with the same options.
    /// - Complexity: O(n).
    public func isEquivalent(to other: FoldedText) -> Bool {
        require(other.options == options, "FoldedText.isEquivalent: the texts were folded with other options")
        return bytes == other.bytes
    }

    /// Orders two texts by their folded bytes (Unicode scalar order of the folded forms).
    ///
    /// - Parameter other: Text folded with the same options.
    /// - Returns: Whether this text sorts before `other`.
    /// - Complexity: O(n).
    public func precedes(_ other: FoldedText) -> Bool {
        require(other.options == options, "FoldedText.precedes: the texts were folded with other options")
        return bytes.lexicographicallyPrecedes(other.bytes)
    }

    /// The position after the unit (a scalar's fold, with its marks) that starts at `position`.
    func unitEnd(after position: Int) -> Int {
        var i = position + 1
        while i < bytes.count {
            if bytes[i] & 0xC0 != 0x80 && isUnitBoundary(i) { break }
            i += 1
        }
        return min(i, bytes.count)
    }

    /// Whether `position` is both a valid start and a valid end of a match.
    @inline(__always)
    func isUnitBoundary(_ position: Int) -> Bool {
        guard let boundaries else {
            return position == bytes.count || bytes[position] & 0xC0 != 0x80
        }
        return boundaries.canStart(position) && boundaries.canEnd(position)
    }
}
