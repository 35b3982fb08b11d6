import FetchedResults
import Foundation
import Testing
import TestSupport

/// Text generation shared by the folding and predicate tests: strings with accents (both
/// spellings), mixed case, ligatures, Greek, emoji, marks, empty strings.
enum TextSamples {
    /// Pieces random strings are made of; each is one or more scalars.
    static let pieces: [String] = [
        "a", "b", "c", "e", "i", "j", "o", "s", "n", "A", "B", "E", "I", "J", "O", "S", "N",
        "é", "e\u{301}", "É", "E\u{301}", "è", "ö", "Ö", "o\u{308}", "ñ", "ç", "Å", "å", "ø", "ł",
        "ß", "ss", "SS", "ẞ", "ﬁ", "fi", "ﬀ", "İ", "ı", "Σ", "σ", "ς", "Ω", "ω", "ǰ", "ǅ",
        "\u{301}", "\u{308}", " ", "-", "1", "7", "👍", "👍🏽", "😀", "日", "한",
    ]

    /// A random string of 0 to `maxLength` pieces.
    static func string(_ rng: inout SeededGenerator, maxLength: Int = 8) -> String {
        let length = Int.random(in: 0...maxLength, using: &rng)
        return (0..<length).map { _ in pieces.randomElement(using: &rng)! }.joined()
    }

    /// A needle related to `haystack`: a piece of it, re-cased or re-accented, or random.
    static func needle(for haystack: String, _ rng: inout SeededGenerator) -> String {
        let characters = Array(haystack)
        switch Int.random(in: 0..<4, using: &rng) {
        case 0 where !characters.isEmpty, 1 where !characters.isEmpty:
            let start = Int.random(in: 0..<characters.count, using: &rng)
            let end = Int.random(in: start...min(characters.count, start + 3), using: &rng)
            let piece = String(characters[start..<end])
            return Bool.random(using: &rng) ? piece.uppercased() : piece
        case 2:
            return string(&rng, maxLength: 2)
        default:
            return pieces.randomElement(using: &rng)!
        }
    }
}

/// `FoldedText` against Foundation's `range(of:options:)` on the raw strings.
@Suite struct FoldedTextFoundationTests {
    static let allOptions: [TextComparisonOptions] = [[], .caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive]]

    static func foundationOptions(_ options: TextComparisonOptions) -> String.CompareOptions {
        var result: String.CompareOptions = []
        if options.contains(.caseInsensitive) { result.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { result.insert(.diacriticInsensitive) }
        return result
    }

    /// Pairs on which this library deliberately differs from Foundation (see `FoldedText`):
    /// under `[d]`, a needle that begins with a combining mark; under `[cd]`, a needle with a
    /// letter that case-folds to several (`"sñ"` contains `"ß"` in Foundation).
    ///
    /// Under `[c]`, an accented needle letter against a haystack with Greek capitals, final
    /// sigma, digraphs or letters that fold to several (`"AΣ"` contains `"Å"` in Foundation),
    /// or with decomposed letters (`"Ee\u{301}"` does not contain `"é"` in Foundation).
    /// Under `[d]`, haystacks with emoji skin-tone modifiers (Foundation returns degenerate
    /// ranges there: `"👍🏽".range(of: "👍")` is empty).
    static func isDocumentedCorner(_ haystack: String, _ needle: String, _ options: TextComparisonOptions) -> Bool {
        let unusualFolds: Set<Character> = ["ς", "Σ", "Ω", "ǅ", "ß", "ẞ", "ﬁ", "ﬀ", "İ"]
        if options.contains(.caseInsensitive), needle.unicodeScalars.contains(where: { !$0.isASCII }),
            haystack.contains(where: { unusualFolds.contains($0) })
                || haystack.unicodeScalars.contains(where: { $0.properties.isGraphemeExtend })
        {
            return true
        }
        guard options.contains(.diacriticInsensitive), let first = needle.unicodeScalars.first else { return false }
        if first.properties.isGraphemeExtend { return true }
        if haystack.unicodeScalars.contains(where: { $0.properties.isEmojiModifier }) { return true }
        let expanding: Set<Character> = ["ß", "ẞ", "ﬁ", "ﬀ"]
        return options.contains(.caseInsensitive) && needle.contains { expanding.contains($0) }
    }

    /// Foundation's answer to "does `haystack` end with `needle`": a forward anchored search
    /// from some scalar position that ends at the end. (A backwards anchored search with
    /// `[c]`/`[d]` is irregular in Foundation: `"ÅçfissÖ"` "ends with" `"ẞ"` under `[cd]`.)
    static func foundationHasSuffix(_ haystack: String, _ needle: String, _ options: String.CompareOptions) -> Bool {
        let scalars = haystack.unicodeScalars
        var index = scalars.startIndex
        while index < scalars.endIndex {
            if let range = haystack[index...].range(of: needle, options: options.union(.anchored)), range.upperBound == haystack.endIndex {
                return true
            }
            scalars.formIndex(after: &index)
        }
        return false
    }

    /// Hand-picked strings: `(haystack, needle, options, contains, hasPrefix, hasSuffix)`.
    static let handPicked: [(String, String, TextComparisonOptions, Bool, Bool, Bool)] = [
        ("Straße", "SS", .caseInsensitive, true, false, false),
        ("STRASSE", "ß", .caseInsensitive, true, false, false),
        ("STRASSE", "ẞ", [.caseInsensitive, .diacriticInsensitive], true, false, false),
        ("ßa", "sa", .caseInsensitive, false, false, false),
        ("ﬃ", "f", .caseInsensitive, false, false, false),
        ("ﬁsh", "FI", .caseInsensitive, true, true, false),
        ("İstanbul", "i", .caseInsensitive, false, false, false),
        ("İstanbul", "i", [.caseInsensitive, .diacriticInsensitive], true, true, false),
        ("ı", "i", [.caseInsensitive, .diacriticInsensitive], false, false, false),
        ("ΣΑΣ", "σας", .caseInsensitive, true, true, true),
        ("é", "e", .caseInsensitive, false, false, false),
        ("é", "e", .diacriticInsensitive, true, true, true),
        ("e\u{301}", "é", [], true, true, true),
        ("x\u{301}y", "x", [], false, false, false),
        ("x\u{301}y", "x", .diacriticInsensitive, true, true, false),
        ("a\u{323}\u{301}", "a\u{301}\u{323}", [], true, true, true),
        ("\u{212B}", "å", .caseInsensitive, true, true, true),
        ("\u{212A}", "k", .caseInsensitive, true, true, true),
        ("ø", "o", [.caseInsensitive, .diacriticInsensitive], false, false, false),
        ("👍🏽", "👍", .diacriticInsensitive, true, true, true),
        ("👍🏽", "👍", .caseInsensitive, false, false, false),
        ("が", "か", .diacriticInsensitive, false, false, false),
        ("ｊ", "j", [.caseInsensitive, .diacriticInsensitive], false, false, false),
        ("abc", "", [.caseInsensitive, .diacriticInsensitive], false, false, false),
        ("", "", [], false, false, false),
        ("Crème Brûlée", "BRULEE", [.caseInsensitive, .diacriticInsensitive], true, false, true),
        ("\u{301}\u{308}-", "-", .diacriticInsensitive, true, false, true),
        ("\u{301}\u{308}-", "\u{301}\u{308}", .diacriticInsensitive, true, true, false),
    ]

    @Test func handPickedStringsMatchFoundationAndExpectations() {
        for (haystack, needle, options, contains, prefix, suffix) in Self.handPicked {
            let text = FoldedText(haystack, options: options)
            let pattern = FoldedText(needle, options: options)
            #expect(text.contains(pattern) == contains, "\(haystack) CONTAINS\(options) \(needle)")
            #expect(text.hasPrefix(pattern) == prefix, "\(haystack) BEGINSWITH\(options) \(needle)")
            #expect(text.hasSuffix(pattern) == suffix, "\(haystack) ENDSWITH\(options) \(needle)")
            let foundation = Self.foundationOptions(options)
            #expect((haystack.range(of: needle, options: foundation) != nil) == contains, "Foundation: \(haystack) \(needle)")
        }
    }

    @Test func documentedCornersDiffer() {
        // Under [cd] Foundation matches "ß" against "s" plus any accented letter.
        let options: TextComparisonOptions = [.caseInsensitive, .diacriticInsensitive]
        #expect("sñ".range(of: "ß", options: [.caseInsensitive, .diacriticInsensitive]) != nil)
        #expect(!FoldedText("sñ", options: options).contains(FoldedText("ß", options: options)))
        // Under [d] Foundation finds a lone mark after a decomposed letter; folding drops it.
        #expect("e\u{301}x".range(of: "\u{301}", options: .diacriticInsensitive) != nil)
        #expect(!FoldedText("e\u{301}x", options: .diacriticInsensitive).contains(FoldedText("\u{301}", options: .diacriticInsensitive)))
        // Foundation matches "ñ" against "N" followed by the digraph "Ǆ" under [c].
        #expect("NǄ".range(of: "ñ", options: .caseInsensitive) != nil)
        #expect(!FoldedText("NǄ", options: .caseInsensitive).contains(FoldedText("ñ", options: .caseInsensitive)))
        // Foundation matches an accented needle letter against the bare letter before "Σ".
        #expect("AΣ".range(of: "Å", options: .caseInsensitive) != nil)
        #expect(!FoldedText("AΣ", options: .caseInsensitive).contains(FoldedText("Å", options: .caseInsensitive)))
        // Foundation misses "é" spelled decomposed after a letter that folds ("E").
        #expect("Ee\u{301}".range(of: "é", options: .caseInsensitive) == nil)
        #expect(FoldedText("Ee\u{301}", options: .caseInsensitive).contains(FoldedText("é", options: .caseInsensitive)))
        // Greek with ypogegrammeni folds fully here, not in Foundation.
        #expect("ᾳ".range(of: "ΑΙ", options: .caseInsensitive) == nil)
        #expect(FoldedText("ᾳ", options: .caseInsensitive).contains(FoldedText("ΑΙ", options: .caseInsensitive)))
    }

    @Test func foldedBytesOfTypicalNames() {
        let options: TextComparisonOptions = [.caseInsensitive, .diacriticInsensitive]
        #expect(FoldedText("Crème Brûlée", options: options).description == "creme brulee")
        #expect(FoldedText("STRAẞE", options: options).description == "strasse")
        #expect(FoldedText("Ærøskøbing", options: options).description == "ærøskøbing")
        #expect(FoldedText("ΌΣΟΣ", options: .caseInsensitive).description == "ο\u{301}σοσ")
        #expect(FoldedText("", options: options).isEmpty)
    }

    @Test(arguments: testSeeds(count: 6))
    func generatedStringsMatchFoundation(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        var mismatches: [String] = []
        for _ in 0..<400 {
            let haystack = TextSamples.string(&rng)
            let needle = TextSamples.needle(for: haystack, &rng)
            for options in Self.allOptions {
                let foundation = Self.foundationOptions(options)
                let text = FoldedText(haystack, options: options)
                let pattern = FoldedText(needle, options: options)
                let expected = (
                    haystack.range(of: needle, options: foundation) != nil,
                    haystack.range(of: needle, options: foundation.union(.anchored)) != nil,
                    Self.foundationHasSuffix(haystack, needle, foundation)
                )
                let actual = (text.contains(pattern), text.hasPrefix(pattern), text.hasSuffix(pattern))
                if expected != actual && !Self.isDocumentedCorner(haystack, needle, options) {
                    mismatches.append("\(haystack.debugDescription) \(needle.debugDescription) \(options): foundation \(expected) folded \(actual)")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches:\n\(mismatches.prefix(40).joined(separator: "\n"))")
    }
}
