import Foundation

extension FoldedText {
    /// Creates a folded text from bytes that some other folded text held, when that text
    /// had no match boundaries (every scalar boundary is a valid start and end).
    ///
    /// - Parameters:
    ///   - regularBytes: Folded UTF-8 bytes of a text without boundaries.
    ///   - options: The options the bytes were folded with.
    /// - Complexity: O(n) in the byte count.
    init(regularBytes: [UInt8], options: TextComparisonOptions) {
        self.options = options
        bytes = regularBytes
        boundaries = nil
        _checkInvariants()
    }

    /// Whether folded bytes without match boundaries contain `needle`: what ``contains(_:)``
    /// answers for a regular text (a byte match of UTF-8 starts and ends on scalar
    /// boundaries, all of them valid).
    ///
    /// - Parameters:
    ///   - hay: The first byte of the haystack.
    ///   - count: The haystack's byte count.
    ///   - needle: The folded needle; an empty one matches nothing.
    /// - Complexity: O(n · m) worst case, O(n) typically (a first-byte scan, then a compare).
    @inline(__always)
    static func regularBytes(_ hay: UnsafePointer<UInt8>, count n: Int, contain needle: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes(hay, count: n, contain: needle) { _ in true }
    }

    /// Whether `needle` occurs in the bytes at a start that `accepts` allows: the byte scan
    /// behind ``contains(_:)`` and ``regularBytes(_:count:contain:)``.
    ///
    /// - Parameters:
    ///   - hay: The first byte of the haystack.
    ///   - count: The haystack's byte count.
    ///   - needle: The folded needle; an empty one matches nothing.
    ///   - accepts: Whether a byte match at a start offset counts.
    /// - Complexity: O(n · m) worst case, O(n) typically (a first-byte scan, then a compare).
    @inline(__always)
    static func bytes(
        _ hay: UnsafePointer<UInt8>, count n: Int, contain needle: UnsafeBufferPointer<UInt8>, where accepts: (Int) -> Bool
    ) -> Bool {
        let m = needle.count
        if m == 0 || m > n { return false }
        let first = Int32(needle[0])
        let last = n - m
        var i = 0
        while i <= last {
            // memchr finds the next candidate first byte with SIMD.
            guard let hit = memchr(hay + i, first, last - i + 1) else { return false }
            i = hay.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if (m == 1 || memcmp(hay + i + 1, needle.baseAddress! + 1, m - 1) == 0) && accepts(i) { return true }
            i &+= 1
        }
        return false
    }
}
