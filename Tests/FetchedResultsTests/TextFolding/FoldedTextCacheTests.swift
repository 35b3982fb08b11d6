import FetchedResults
import Testing

@Suite struct FoldedTextCacheTests {
    final class Box {
        var text: String
        init(_ text: String) { self.text = text }
    }

    @Test func cacheRefoldsOnlyChangedValues() {
        let cache = FoldedTextCache(options: [.caseInsensitive, .diacriticInsensitive])
        let a = Box("Crème"), b = Box("Ñandú")
        #expect(cache.folded(a.text, for: a).description == "creme")
        #expect(cache.folded(b.text, for: b).description == "nandu")
        #expect(cache.count == 2)
        a.text = "BRÛLÉE"
        #expect(cache.folded(a.text, for: a).description == "brulee")
        cache.refresh("Œuf", for: a)
        #expect(cache.folded("Œuf", for: a).description == "œuf")
        cache.removeValue(for: a)
        #expect(cache.count == 1)
        cache.removeAll()
        #expect(cache.count == 0)
    }

    @Test func slotKeepsOneFoldingPerOptions() {
        let slot = FoldedTextSlot()
        #expect(slot.folded("Ärger", options: .caseInsensitive).description == "a\u{308}rger")
        #expect(slot.folded("Ärger", options: .diacriticInsensitive).description == "Arger")
        #expect(slot.folded("Ärger", options: [.caseInsensitive, .diacriticInsensitive]).description == "arger")
        #expect(slot.folded("Ärger", options: []).description == "A\u{308}rger")
        #expect(slot.folded("Öl", options: [.caseInsensitive, .diacriticInsensitive]).description == "ol")
        slot.removeAll()
        #expect(slot.folded("Öl", options: .caseInsensitive).description == "o\u{308}l")
    }

    /// `(pattern, text, options, matches)`.
    static let likeCases: [(String, String, TextComparisonOptions, Bool)] = [
        ("*", "", [], true),
        ("", "", [], true),
        ("", "a", [], false),
        ("?", "é", [], true),
        ("?", "e\u{301}", .caseInsensitive, true),
        ("??", "e\u{301}", [], false),
        ("a*b", "aXYZb", [], true),
        ("a*b", "aXYZbc", [], false),
        ("a?c", "ABC", .caseInsensitive, true),
        ("*brulee", "Crème Brûlée", [.caseInsensitive, .diacriticInsensitive], true),
        ("creme*", "Crème Brûlée", [.caseInsensitive, .diacriticInsensitive], true),
        ("*me br*", "Crème Brûlée", [.caseInsensitive, .diacriticInsensitive], true),
        ("c?eme*", "Crème", .diacriticInsensitive, false),
        ("*s", "Straße", .caseInsensitive, false),
        ("stra?e", "Straße", .caseInsensitive, true),
        ("a\\*b", "a*b", [], true),
        ("a\\*b", "aXb", [], false),
        ("*?*?*", "ab", [], true),
        ("*?*?*", "a", [], false),
    ]

    @Test(arguments: likeCases)
    func wildcardPatterns(pattern: String, text: String, options: TextComparisonOptions, expected: Bool) {
        let folded = FoldedText(text, options: options)
        #expect(WildcardPattern(pattern, options: options).matches(folded) == expected)
    }
}
