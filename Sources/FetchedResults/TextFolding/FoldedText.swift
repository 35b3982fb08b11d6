/// A string folded once for case- and diacritic-insensitive comparison: compact UTF-8 bytes
/// that text operators search directly.
///
/// Folding decomposes the string canonically, then with ``TextComparisonOptions/diacriticInsensitive``
/// strips diacritics and with ``TextComparisonOptions/caseInsensitive`` applies full case
/// folding (`ß` → `ss`). Searching folded bytes with ``contains(_:)``, ``hasPrefix(_:)`` and
/// ``hasSuffix(_:)`` gives the answer of Foundation's `range(of:options:)` on the raw strings
/// (with `.anchored` / `.backwards` for the prefix and suffix forms), including its rules
/// about where a match may start and end:
///
/// - a match starts where a source scalar's fold starts (`"ﬃx"` does not contain `"fix"`
///   under `[c]`, `"ßa"` does not contain `"sa"`);
/// - a match ends where a source scalar's fold ends, and, unless diacritics are ignored,
///   not just before a combining mark (`"é"` does not contain `"e"` under `[c]`);
/// - an empty needle matches nothing (`range(of: "")` is `nil`).
///
/// Marks that begin a string (with no letter before them) are kept even under `[d]`, as
/// Foundation keeps them.
///
/// Known differences from Foundation, all in exotic corners and pinned by tests
/// (`FoldedTextFoundationTests`):
/// - Under `[d]`, a needle that begins with a combining mark matches only such leading marks;
///   Foundation also finds it after a decomposed letter (`"e\u{301}x"` contains `"\u{301}"`).
/// - Under `[cd]`, Foundation matches a needle letter that folds to several (`ß`, `ﬁ`) against
///   a haystack letter followed by any accented letter (`"sñ"` contains `"ß"`); here it must
///   match the folded letters (`"ss"`).
/// - Foundation matches a precomposed needle letter against a letter followed by a digraph
///   with another mark (`"NǄ"` contains `"ñ"` under `[c]`); here it does not.
/// - Under `[c]`, Foundation matches an accented needle letter against the bare letter
///   followed by some letters that case folding changes, such as Greek capitals and final
///   sigma (`"AΣ"` contains `"Å"`, `"Eς"` contains `"É"`); here the accent must match.
/// - Under `[c]`, Foundation misses an accented needle letter spelled decomposed right after
///   a letter that case folding changes (`"Ee\u{301}"` does not contain `"é"`); here it is
///   found.
/// - Under `[d]`, Foundation returns degenerate ranges around emoji skin-tone modifiers
///   (`"👍🏽".range(of: "👍")` is empty); here modifiers are diacritics, dropped like marks.
/// - Foundation's backwards anchored search (`ENDSWITH`) is irregular with `[c]`/`[d]`
///   (`"ÅçfissÖ"` ends with `"ẞ"` under `[cd]`); ``hasSuffix(_:)`` answers what a forward
///   anchored search ending at the end answers.
/// - Greek letters with ypogegrammeni fold fully (`"ᾳ"` contains `"ΑΙ"` under `[c]`; Foundation
///   folds them to themselves).
/// - Marks stacked on one base are put in canonical order within runs, and a match may start
///   at any mark of such a run.
/// - A precomposed letter whose base lies at or above U+0510 (kana with dakuten, Hangul)
///   keeps its marks under `[d]` as one unit that a match cannot split, as in Foundation;
///   its decomposed spelling drops them, as in Foundation.
///
/// - Complexity: Creating one is O(n) in the string's UTF-8 length; ASCII folds without
///   table look-ups.
public struct FoldedText: Hashable, Sendable, CustomStringConvertible {
    /// The options this text was folded with.
    public let options: TextComparisonOptions

    /// The folded UTF-8 bytes.
    public let bytes: [UInt8]

    /// Match boundaries when some positions are not valid ones; `nil` when every scalar
    /// boundary of ``bytes`` is a valid start and end (the common case).
    let boundaries: Boundaries?

    /// Which byte positions (0...bytes.count) a match may start and end at.
    struct Boundaries: Hashable, Sendable {
        /// Bit i set: a match may start at byte i.
        var starts: [UInt64]
        /// Bit i set: a match may end at byte i.
        var ends: [UInt64]

        init(count: Int) {
            let words = count / 64 + 1
            starts = Array(repeating: 0, count: words)
            ends = Array(repeating: 0, count: words)
        }

        @inline(__always) func canStart(_ i: Int) -> Bool { starts[i &>> 6] & (1 &<< UInt64(i & 63)) != 0 }
        @inline(__always) func canEnd(_ i: Int) -> Bool { ends[i &>> 6] & (1 &<< UInt64(i & 63)) != 0 }
        @inline(__always) mutating func setStart(_ i: Int, _ value: Bool) {
            if value { starts[i &>> 6] |= 1 &<< UInt64(i & 63) } else { starts[i &>> 6] &= ~(1 &<< UInt64(i & 63)) }
        }
        @inline(__always) mutating func setEnd(_ i: Int, _ value: Bool) {
            if value { ends[i &>> 6] |= 1 &<< UInt64(i & 63) } else { ends[i &>> 6] &= ~(1 &<< UInt64(i & 63)) }
        }
    }

    /// Folds a string.
    ///
    /// - Parameters:
    ///   - string: The raw string.
    ///   - options: The comparison options to fold for; `[]` only normalizes (canonical
    ///     decomposition), so even a case-sensitive search treats `é` and `e\u{301}` alike.
    /// - Complexity: O(n) in the UTF-8 length of `string`.
    public init(_ string: String, options: TextComparisonOptions) {
        self.options = options
        var folder = Folder(options: options, capacity: string.utf8.count)
        let utf8 = string.utf8
        _ = utf8.withContiguousStorageIfAvailable { buffer in
            folder.foldASCIIPrefix(buffer)
        }
        if folder.consumedASCII < utf8.count {
            let scalars = string.unicodeScalars
            var index = scalars.startIndex
            if folder.consumedASCII > 0 {
                // The ASCII prefix ends on a scalar boundary.
                index = utf8.index(utf8.startIndex, offsetBy: folder.consumedASCII)
            }
            while index < scalars.endIndex {
                folder.append(scalars[index])
                scalars.formIndex(after: &index)
            }
        }
        (bytes, boundaries) = folder.finish()
        _checkInvariants()
    }

    /// The folded text as a string (for display and debugging).
    public var description: String { String(decoding: bytes, as: UTF8.self) }

    /// Whether the text is empty after folding.
    public var isEmpty: Bool { bytes.isEmpty }
}

@available(*, unavailable)
extension FoldedText.Folder: Sendable {}

extension FoldedText {
    /// Builds the bytes and boundaries of a folded text, one scalar at a time.
    struct Folder {
        let options: TextComparisonOptions
        var bytes: [UInt8] = []
        var consumedASCII = 0
        /// Whether a scalar other than a mark has been folded (marks before it are kept).
        var sawBase = false
        /// Byte positions where a match may not start.
        var badStarts: [Int] = []
        /// Byte positions where a match may not end.
        var badEnds: [Int] = []
        /// Start of each run of two or more marks with a non-zero combining class, and its end.
        var markRunStart = -1
        var markRunEnd = -1
        var markRunLength = 0
        var markRuns: [Range<Int>] = []

        init(options: TextComparisonOptions, capacity: Int) {
            self.options = options
            bytes.reserveCapacity(capacity)
        }

        mutating func foldASCIIPrefix<Bytes: RandomAccessCollection<UInt8>>(_ buffer: Bytes) where Bytes.Index == Int {
            let lower = options.contains(.caseInsensitive)
            var i = 0
            while i < buffer.count {
                let byte = buffer[i]
                if byte >= 0x80 { break }
                bytes.append(lower && byte &- 0x41 < 26 ? byte | 0x20 : byte)
                i += 1
            }
            consumedASCII = i
            if i > 0 { sawBase = true }
        }

        mutating func append(_ scalar: Unicode.Scalar) {
            if scalar.value < 0x80 {
                sawBase = true
                let byte = UInt8(scalar.value)
                bytes.append(options.contains(.caseInsensitive) && byte &- 0x41 < 26 ? byte | 0x20 : byte)
                endMarkRun()
                return
            }
            let fold = ScalarFolding.fold(scalar, options)
            let start = bytes.count
            if fold.isExtend && !sawBase {
                // Marks that begin the string have no base to belong to; Foundation keeps
                // them even under `[d]`, so they stay as they are.
                bytes.append(contentsOf: UTF8.encode(scalar)!)
                if !options.contains(.diacriticInsensitive) { trackMarks(from: start) }
                return
            }
            if fold.isExtend && !options.contains(.diacriticInsensitive) {
                // A kept mark: a match may not end just before it.
                badEnds.append(start)
            }
            if fold.bytes.isEmpty { return }
            if !fold.isExtend { sawBase = true }
            bytes.append(contentsOf: fold.bytes)
            if fold.isExpansion {
                // Positions inside one scalar's fold are neither starts nor ends.
                var i = start + 1
                while i < bytes.count {
                    if bytes[i] & 0xC0 != 0x80 {
                        badStarts.append(i)
                        badEnds.append(i)
                    }
                    i += 1
                }
            }
            if !options.contains(.diacriticInsensitive) {
                trackMarks(from: start)
            }
        }

        /// Notes runs of combining marks so they can be put in canonical order.
        private mutating func trackMarks(from start: Int) {
            var i = start
            while i < bytes.count {
                var length = 1
                while i + length < bytes.count, bytes[i + length] & 0xC0 == 0x80 { length += 1 }
                let scalar = String(decoding: bytes[i..<(i + length)], as: UTF8.self).unicodeScalars.first!
                if scalar.properties.canonicalCombiningClass.rawValue != 0 {
                    if markRunStart < 0 { markRunStart = i; markRunLength = 0 }
                    markRunLength += 1
                    markRunEnd = i + length
                } else {
                    endMarkRun()
                }
                i += length
            }
        }

        private mutating func endMarkRun() {
            if markRunStart >= 0 {
                if markRunLength > 1 { markRuns.append(markRunStart..<markRunEnd) }
                markRunStart = -1
            }
        }

        mutating func finish() -> ([UInt8], Boundaries?) {
            endMarkRun()
            for run in markRuns { reorder(run) }
            if badStarts.isEmpty && badEnds.isEmpty { return (bytes, nil) }
            var boundaries = Boundaries(count: bytes.count)
            for i in 0...bytes.count where i == bytes.count || bytes[i] & 0xC0 != 0x80 {
                boundaries.setStart(i, true)
                boundaries.setEnd(i, true)
            }
            for i in badStarts { boundaries.setStart(i, false) }
            for i in badEnds { boundaries.setEnd(i, false) }
            for run in markRuns {
                // Inside a reordered run every mark may start a match, none may end one.
                var i = run.lowerBound
                while i < run.upperBound {
                    if bytes[i] & 0xC0 != 0x80 {
                        boundaries.setStart(i, true)
                        if i > run.lowerBound { boundaries.setEnd(i, false) }
                    }
                    i += 1
                }
            }
            return (bytes, boundaries)
        }

        /// Stable-sorts the marks in `run` by canonical combining class.
        private mutating func reorder(_ run: Range<Int>) {
            let marks = Array(String(decoding: bytes[run], as: UTF8.self).unicodeScalars)
            let sorted = marks.enumerated().sorted { lhs, rhs in
                let l = lhs.element.properties.canonicalCombiningClass.rawValue
                let r = rhs.element.properties.canonicalCombiningClass.rawValue
                return l != r ? l < r : lhs.offset < rhs.offset
            }.map(\.element)
            if sorted == marks { return }
            var replacement: [UInt8] = []
            for scalar in sorted { replacement.append(contentsOf: UTF8.encode(scalar)!) }
            bytes.replaceSubrange(run, with: replacement)
            badStarts.removeAll { run.contains($0) }
        }
    }
}

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
}
