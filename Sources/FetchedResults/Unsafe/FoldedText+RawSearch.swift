import Foundation

// The byte search behind every folded-text match: `memchr` and `memcmp` over raw bytes.
//
// Invariant (upheld by the callers, which pass an array's or a column's own storage for
// the length of the call): `hay` points to `count` readable bytes and `needle` to its
// `count`; the scan reads no byte outside them (a candidate start is at most
// `count - needle.count`, and the linear scan reads `hay[i]` for `i < count` and the
// needle below its count only: a border is shorter than the prefix it borders).

extension FoldedText {
    /// Whether `needle` occurs in `hay` at a start that `accepts` allows: the scan of
    /// ``bytes(_:count:contain:where:)`` over two arrays.
    ///
    /// - Parameters:
    ///   - hay: The haystack's bytes.
    ///   - needle: The folded needle; an empty one matches nothing.
    ///   - accepts: Whether a byte match at a start offset counts.
    /// - Complexity: As ``bytes(_:count:contain:where:)``: O(n + m) for long needles.
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
    /// - Complexity: As ``bytes(_:count:contain:where:)``: O(n + m) for long needles.
    @inline(__always)
    static func regularBytes(_ hay: UnsafePointer<UInt8>, count n: Int, contain needle: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes(hay, count: n, contain: needle) { _ in true }
    }

    /// The needle length up to which the scan never leaves `memchr` and `memcmp`: their worst
    /// case, O(n · m) with m this small, is linear with a small factor and beats every
    /// linear-time method's constant on the short needles people type.
    static var shortNeedleLimit: Int { 32 }

    /// Whether `needle` occurs in the bytes at a start that `accepts` allows: the byte scan
    /// behind ``contains(_:)`` and ``regularBytes(_:count:contain:)``.
    ///
    /// Candidate starts come from `memchr` on the needle's first byte and are checked with
    /// `memcmp`, as fast as it gets for short needles and ordinary text. A long needle
    /// (over ``shortNeedleLimit`` bytes) is given a budget of O(n + m) compared bytes for
    /// that; past it (a periodic needle in a periodic text, such as 100,000 `a`s and a `b` in
    /// a mebibyte of `a`s) the scan goes on from where it is with a Knuth–Morris–Pratt
    /// search, which reads each haystack byte once.
    ///
    /// - Parameters:
    ///   - hay: The first byte of the haystack.
    ///   - count: The haystack's byte count.
    ///   - needle: The folded needle; an empty one matches nothing.
    ///   - accepts: Whether a byte match at a start offset counts.
    /// - Complexity: O(n + m) for a needle of m bytes, plus the cost of `accepts` on each
    ///   byte match; O(n · min(m, ``shortNeedleLimit``)) worst case for short needles.
    @inline(__always)
    static func bytes(
        _ hay: UnsafePointer<UInt8>, count n: Int, contain needle: UnsafeBufferPointer<UInt8>, where accepts: (Int) -> Bool
    ) -> Bool {
        let m = needle.count
        if m == 0 || m > n { return false }
        let first = Int32(needle[0])
        let last = n - m
        // Bytes `memcmp` may still compare before the scan turns linear; unlimited for a
        // short needle.
        var budget = m <= shortNeedleLimit ? Int.max : 2 * n + 4 * m
        var i = 0
        while i <= last {
            // memchr finds the next candidate first byte with SIMD.
            guard let hit = memchr(hay + i, first, last - i + 1) else { return false }
            i = hay.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if (m == 1 || memcmp(hay + i + 1, needle.baseAddress! + 1, m - 1) == 0) && accepts(i) { return true }
            budget &-= m
            if budget < 0 { return linearBytes(hay, count: n, from: i &+ 1, contain: needle, where: accepts) }
            i &+= 1
        }
        return false
    }

    /// Whether `needle` occurs in the bytes at a start of `from` or later that `accepts`
    /// allows, by Knuth–Morris–Pratt: the needle's border table, then one pass over the
    /// haystack that never moves back.
    ///
    /// - Parameters:
    ///   - hay: The first byte of the haystack.
    ///   - count: The haystack's byte count.
    ///   - from: The first start offset to consider.
    ///   - needle: The needle, at least one byte.
    ///   - accepts: Whether a byte match at a start offset counts.
    /// - Complexity: O(n + m) time, plus the cost of `accepts` on each byte match; O(m)
    ///   memory.
    @inline(never)
    static func linearBytes(
        _ hay: UnsafePointer<UInt8>, count n: Int, from start: Int, contain needle: UnsafeBufferPointer<UInt8>,
        where accepts: (Int) -> Bool
    ) -> Bool {
        let m = needle.count
        guard m > 0, start <= n - m else { return false }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: m + 1) { border in
            // border[q]: the length of the longest proper border (prefix that is also a
            // suffix) of needle[0..<q]; -1 for the empty prefix.
            border[0] = -1
            var k = -1
            for q in 0..<m {
                while k >= 0 && needle[k] != needle[q] { k = border[k] }
                k += 1
                border[q + 1] = k
            }
            // q: how many needle bytes match the haystack bytes just before i.
            var q = 0
            var i = start
            while i < n {
                let byte = hay[i]
                while q >= 0 && needle[q] != byte { q = border[q] }
                q += 1
                i += 1
                if q == m {
                    if accepts(i - m) { return true }
                    q = border[m]
                }
            }
            return false
        }
    }
}
