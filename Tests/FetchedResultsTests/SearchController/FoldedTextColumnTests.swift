@testable import FetchedResults
import Testing
import TestSupport

@Suite("FoldedTextColumn")
struct FoldedTextColumnTests {
    /// Strings with accents, case, ligatures and decomposed marks: under `[c]` some fold
    /// with match boundaries (kept whole), the others as plain bytes.
    private static let strings = ["Banana", "bañera", "Cafe\u{301}", "ﬃx", "ßa", "", "Crème", "ÉCLAIR", "e\u{301}\u{302}", "nacho"]
    private static let needles = ["a", "é", "e", "fix", "sa", "an", "ss", "x", "cafe"]

    @Test(arguments: testSeeds(count: 6))
    func writesRemovesAndSearchesMatchADictionary(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let graph = ObjectGraph()
        let ids = (0..<200).map { _ in graph.insert(Item()).objectID }
        let options: TextComparisonOptions = Bool.random(using: &rng) ? [.caseInsensitive] : [.caseInsensitive, .diacriticInsensitive]
        var column = FoldedTextColumn(options: options)
        var model: [ObjectID: FoldedText] = [:]
        // Rewrites far outnumber the objects, so the buffer is compacted many times.
        for _ in 0..<3_000 {
            let id = ids.randomElement(using: &rng)!
            if Int.random(in: 0..<5, using: &rng) == 0 {
                column[id] = nil
                model[id] = nil
            } else {
                // A long string now and then, so garbage grows past the compaction threshold.
                let string = Self.strings.randomElement(using: &rng)! + String(repeating: "x", count: Int.random(in: 0..<3, using: &rng) * 40)
                let folded = FoldedText(string, options: options)
                column[id] = folded
                model[id] = folded
            }
        }
        #expect(column.count == model.count)
        #expect(model.values.contains { $0.boundaries != nil } || options.contains(.diacriticInsensitive))
        for needleString in Self.needles {
            let needle = FoldedText(needleString, options: options)
            let candidates = column.candidates(containing: needle)
            for id in ids {
                let serial = id.entitySerial
                let bit = candidates[serial >> 6] & (1 << UInt64(serial & 63)) != 0
                if let folded = model[id] {
                    #expect(column[id] == folded, "\(id)")
                    #expect(column.contains(id, needle) == folded.contains(needle), "\(id) \(folded) \(needleString)")
                    #expect(bit == folded.contains(needle), "candidate bit of \(id) \(folded) for \(needleString)")
                    var texts = SlotTexts(ranked: true)
                    #expect(column.appendFolding(of: id, to: &texts, rank: 7))
                    #expect(texts.contains(slot: 0, needle) ?? folded.contains(needle) == folded.contains(needle))
                    #expect(texts.ranks == [7])
                } else {
                    #expect(column[id] == nil)
                    #expect(column.contains(id, needle) == nil)
                    #expect(bit, "an object without a folding is a candidate")
                    var texts = SlotTexts(ranked: false)
                    #expect(!column.appendFolding(of: id, to: &texts, rank: 0))
                    #expect(texts.count == 0)
                }
            }
        }
    }

    /// Forgetting an object of another entity (a search forgets every deleted object) before
    /// the column holds any folding must not claim the column for that entity.
    @Test func forgettingAnotherEntityFirstLeavesTheColumnForTheSearchedOne() {
        let graph = ObjectGraph()
        let location = graph.insert(Location()).objectID
        let items = (0..<3).map { _ in graph.insert(Item()).objectID }
        var column = FoldedTextColumn(options: [.caseInsensitive, .diacriticInsensitive])
        column[location] = nil
        column[items[2]] = nil
        #expect(column.count == 0)
        let folded = FoldedText("Éclair", options: [.caseInsensitive, .diacriticInsensitive])
        column[items[1]] = folded
        #expect(column[items[1]] == folded)
        #expect(column[items[0]] == nil && column[location] == nil)
        // A folding of another entity is still refused, and forgetting one is a no-op.
        column[location] = nil
        #expect(column.count == 1 && column[items[1]] == folded)
    }
}
