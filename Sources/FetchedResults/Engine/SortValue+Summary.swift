/// A two-word, order-preserving summary of a ``SortValue``, compared with integer
/// operations: when two summaries differ, their values compare the same way; when they are
/// equal, the values must be compared in full.
///
/// Numbers keep their top 61 bits (as doubles), Booleans their value, and strings whose first
/// 16 UTF-8 bytes are ASCII their first 15 bytes (an ASCII byte after the prefix guarantees
/// that no combining mark changes the prefix under Unicode normalization, which Swift's
/// string comparison applies). Other values summarize to their kind only.
struct SortValueSummary {
    var high: UInt64
    var low: UInt64

    private static let stringPrefixFlag: UInt64 = 1 << 60

    /// A summary with these words, as ``init(_:)`` made them.
    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    init(_ value: SortValue) {
        switch value {
        case .null:
            high = 0
            low = 0
        case .bool(let flag):
            high = 1 << 61 | (flag ? 1 : 0)
            low = 0
        case .int(let number):
            high = 2 << 61 | Self.orderedBits(Double(number)) >> 3
            low = 0
        case .double(let number):
            high = 2 << 61 | Self.orderedBits(number) >> 3
            low = 0
        case .string(let text):
            var prefixHigh: UInt64 = 3 << 61
            var prefixLow: UInt64 = 0
            var qualifies = true
            // The bytes in place (a short string's are copied to the stack), not an iterator:
            // the first 16 loaded as two big-endian words (zeros past the end), so the ASCII
            // check and the packing are a few word operations instead of a loop over bytes.
            let inPlace: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
                let words = LeadingBytes.words(of: bytes)
                // The 16th byte decides too: a non-ASCII byte there could combine with the
                // 15th under normalization.
                guard (words.0 | words.1) & 0x8080_8080_8080_8080 == 0 else {
                    qualifies = false
                    return
                }
                let first = UInt64(bigEndian: words.0)
                let second = UInt64(bigEndian: words.1)
                // Bytes 0–6 in the high word's low 56 bits, bytes 7–14 in the low word.
                prefixHigh |= first >> 8
                prefixLow = first << 56 | second >> 8
            }
            if inPlace == nil {
                var index = 0
                for byte in text.utf8 {
                    guard byte < 0x80 else {
                        qualifies = false
                        break
                    }
                    if index < 7 {
                        prefixHigh |= UInt64(byte) << (8 * (6 - index))
                    } else if index < 15 {
                        prefixLow |= UInt64(byte) << (8 * (14 - index))
                    } else {
                        break
                    }
                    index += 1
                }
            }
            high = qualifies ? prefixHigh | Self.stringPrefixFlag : 3 << 61
            low = qualifies ? prefixLow : 0
        case .opaque:
            high = 4 << 61
            low = 0
        }
    }

    /// A double's bits, mapped so that unsigned comparison follows ``SortValue``'s total
    /// order: `-0.0` maps as `0.0`, which it equals, and every NaN as `Double.nan`, after
    /// `+infinity`.
    private static func orderedBits(_ number: Double) -> UInt64 {
        let bits = SortValue.canonical(number).bitPattern
        return bits & (1 << 63) != 0 ? ~bits : bits | 1 << 63
    }

    /// Whether the summary, read as the 128-bit integer `high:low`, never orders its value
    /// after a greater one: for any two values with monotone summaries, `a < b` implies
    /// `a.high:a.low <= b.high:b.low`. Only a string whose prefix does not qualify (a
    /// non-ASCII byte among its first 16) is not monotone.
    ///
    /// A column whose summaries are all monotone sorts as integers, with the values compared
    /// in full only where the integers tie.
    var isMonotone: Bool {
        high >> 61 != 3 || high & Self.stringPrefixFlag != 0
    }

    /// -1 or 1 when the summaries decide the order of their values, 0 when they do not.
    ///
    /// Summaries of different kinds order by kind (the top three bits); of one kind, as
    /// 128-bit integers, except that strings whose prefixes do not both qualify, and opaque
    /// values, decide nothing. Written as a few comparisons rather than a switch on the kind:
    /// a search's every step asks.
    @inline(__always)
    static func order(_ a: SortValueSummary, _ b: SortValueSummary) -> Int {
        let kindA = a.high >> 61
        let kindB = b.high >> 61
        if kindA != kindB { return kindA < kindB ? -1 : 1 }
        // One kind: null and opaque summaries are all equal; strings decide only with both
        // prefixes; numbers and Booleans keep their low words zero.
        if kindA == 3 && a.high & b.high & stringPrefixFlag == 0 { return 0 }
        if a.high != b.high { return kindA == 4 ? 0 : a.high < b.high ? -1 : 1 }
        return a.low == b.low ? 0 : a.low < b.low ? -1 : 1
    }
}
