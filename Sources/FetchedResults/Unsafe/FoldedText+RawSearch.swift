import Foundation

// The byte search behind every folded-text match: `memchr` and `memcmp` over raw bytes.
//
// Invariant (upheld by the callers, which pass an array's or a column's own storage for
// the length of the call): `hay` points to `count` readable bytes and `needle` to its
// `count`; the scan reads no byte outside them (a candidate start is at most
// `count - needle.count`).

extension FoldedText {
    /// Whether `needle` occurs in `hay` at a start that `accepts` allows: the scan of
    /// ``bytes(_:count:contain:where:)`` over two arrays.
    ///
    /// - Parameters:
    ///   - hay: The haystack's bytes.
    ///   - needle: The folded needle; an empty one matches nothing.
    ///   - accepts: Whether a byte match at a start offset counts.
    /// - Complexity: O(n · m) worst case, O(n) typically (a first-byte scan, then a compare).
    @inline(__always)
    static func bytes(_ hay: [UInt8], contain needle: [UInt8], where accepts: (Int) -> Bool) -> Bool {
        hay.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { needle in
                guard let start = hay.baseAddress else { return false }
                return bytes(start, count: hay.count, contain: needle, where: accepts)
            }
        }
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
