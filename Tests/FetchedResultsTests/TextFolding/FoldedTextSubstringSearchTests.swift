@testable import FetchedResults
import Foundation
import Testing
import TestSupport

/// The byte search behind `CONTAINS` and search controllers: every start it accepts is a
/// start a naive scan finds, on random and periodic inputs, and the worst cases of a scan
/// by first byte and compare run in linear time.
@Suite("Folded text substring search")
struct FoldedTextSubstringSearchTests {
    /// Every start at which `needle` occurs in `hay`, the slow obvious way.
    private static func naiveStarts(_ hay: [UInt8], _ needle: [UInt8]) -> [Int] {
        guard !needle.isEmpty, needle.count <= hay.count else { return [] }
        return (0...(hay.count - needle.count)).filter { hay[$0..<$0 + needle.count].elementsEqual(needle) }
    }

    /// A needle that is periodic (a repeated short word, perhaps cut or followed by another
    /// byte) or random, over a two- or three-letter alphabet so that matches are frequent.
    private static func randomNeedle(_ rng: inout SeededGenerator, alphabet: [UInt8]) -> [UInt8] {
        let length = [1, 2, 5, 31, 32, 33, 40, 64, 100, 150].randomElement(using: &rng)!
        switch Int.random(in: 0..<3, using: &rng) {
        case 0:
            return (0..<length).map { _ in alphabet.randomElement(using: &rng)! }
        case 1:
            let word = (0..<Int.random(in: 1...4, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            return Array((0..<length).map { word[$0 % word.count] })
        default:
            let word = (0..<Int.random(in: 1...3, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            return Array((0..<length - 1).map { word[$0 % word.count] }) + [alphabet.randomElement(using: &rng)!]
        }
    }

    private static func randomHay(_ rng: inout SeededGenerator, alphabet: [UInt8], around needle: [UInt8]) -> [UInt8] {
        var hay: [UInt8] = []
        let target = Int.random(in: 0...600, using: &rng)
        while hay.count < target {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: hay += needle
            case 1: hay += needle.prefix(Int.random(in: 0...needle.count, using: &rng))
            default: hay.append(alphabet.randomElement(using: &rng)!)
            }
        }
        return hay
    }

    /// Starts found and accepted agree with the naive scan, whether every match counts, only
    /// some (so the scan goes on past rejected matches), or none; through the dispatching scan
    /// and the linear one from any start.
    @Test(arguments: testSeeds(count: 8))
    func agreesWithANaiveScan(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        for round in 0..<400 {
            let alphabet: [UInt8] = Array("abc".utf8.prefix(Int.random(in: 1...3, using: &rng)))
            let needle = Self.randomNeedle(&rng, alphabet: alphabet)
            let hay = Self.randomHay(&rng, alphabet: alphabet, around: needle)
            let starts = Self.naiveStarts(hay, needle)
            let modulus = Int.random(in: 1...5, using: &rng)
            let accepted = starts.first { $0 % modulus == 0 }
            var seen: [Int] = []
            let found = FoldedText.bytes(hay, contain: needle) { start in
                seen.append(start)
                return start % modulus == 0
            }
            #expect(found == (accepted != nil), "round \(round): \(needle.count)-byte needle in \(hay.count) bytes")
            // Every start offered to `accepts` is a real match, offered once, in order, up to the accepted one.
            #expect(seen == Array(starts.prefix { $0 != accepted } + (accepted.map { [$0] } ?? [])), "round \(round)")
            // The linear scan alone, from any start.
            let from = Int.random(in: 0...hay.count, using: &rng)
            var linearSeen: [Int] = []
            let linear = hay.withUnsafeBufferPointer { hay in
                needle.withUnsafeBufferPointer { needle in
                    FoldedText.linearBytes(hay.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: hay.count, from: from, contain: needle) {
                        linearSeen.append($0)
                        return false
                    }
                }
            }
            #expect(!linear && linearSeen == starts.filter { $0 >= from }, "round \(round): linear from \(from)")
        }
    }

    /// The worst case of a scan by first byte and compare: a mebibyte of `a`s and a needle of
    /// 100,000 `a`s and a `b` (1.7 s before, quadratic). Linear now; no time limit here.
    @Test func aPeriodicNeedleInAPeriodicTextRunsInLinearTime() {
        let hay = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        let needle = [UInt8](repeating: UInt8(ascii: "a"), count: 100_000) + [UInt8(ascii: "b")]
        let text = FoldedText(regularBytes: hay, options: [.caseInsensitive, .diacriticInsensitive])
        let pattern = FoldedText(regularBytes: needle, options: [.caseInsensitive, .diacriticInsensitive])
        #expect(!text.contains(pattern))
        let ending = FoldedText(regularBytes: hay + [UInt8(ascii: "b")], options: [.caseInsensitive, .diacriticInsensitive])
        #expect(ending.contains(pattern))
        // Through the public folding too, as a search controller's text is.
        let name = String(repeating: "a", count: 1 << 20)
        let typed = String(repeating: "A", count: 100_000) + "B"
        #expect(!FoldedText(name, options: .caseInsensitive).contains(FoldedText(typed, options: .caseInsensitive)))
        #expect(FoldedText(name + "b", options: .caseInsensitive).contains(FoldedText(typed, options: .caseInsensitive)))
    }
}
