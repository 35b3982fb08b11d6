@testable import FetchedResults
import Foundation
import Testing
import TestSupport

@Suite("SortValueSummary")
struct SortValueSummaryTests {
    /// Whenever two summaries decide an order, it is the order of their values.
    @Test(arguments: testSeeds(count: 4))
    func decidedOrdersAgreeWithTheValues(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let pieces = ["a", "B", "item ", "Item ", "0", "9", "é", "e\u{301}", "\u{0}", "zz", "ÅÄ", "1234567", "x"]
        func randomValue() -> SortValue {
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: .null
            case 1: .bool(Bool.random(using: &rng))
            case 2: .int(Int64.random(in: -5...5, using: &rng))
            case 3: Bool.random(using: &rng) ? .double(Double.random(in: -5...5, using: &rng)) : .double([-0.0, 0.0, .nan, -.nan, .signalingNaN, .infinity, -.infinity].randomElement(using: &rng)!)
            default:
                // Lengths around the 15- and 16-byte edges of the prefix.
                .string((0..<Int.random(in: 0...9, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined())
            }
        }
        for _ in 0..<4_000 {
            let a = randomValue()
            let b = randomValue()
            let order = SortValueSummary.order(SortValueSummary(a), SortValueSummary(b))
            if order < 0 { #expect(a < b, "\(a) vs \(b)") }
            if order > 0 { #expect(b < a, "\(a) vs \(b)") }
            if a == b { #expect(order == 0) }
        }
    }

    /// A monotone summary, read as a 128-bit integer, never orders its value after a greater
    /// one, across kinds too.
    @Test(arguments: testSeeds(count: 4))
    func monotoneSummariesNeverInvertTheOrder(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let pieces = ["a", "B", "Item ", "0", "9", "\u{0}", "zz", "1234567", "é"]
        func randomValue() -> SortValue {
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: .null
            case 1: .bool(Bool.random(using: &rng))
            case 2: .int(Int64.random(in: -5...5, using: &rng) + (Bool.random(using: &rng) ? 1 << 53 : 0))
            case 3: .double([-0.0, 0.0, 2.5, -7, Double(1 << 53) + 2, .nan, -.nan, .infinity, -.infinity].randomElement(using: &rng)!)
            case 4: .opaque(OpaqueSortValue(Int.random(in: 0..<3, using: &rng)))
            default: .string((0..<Int.random(in: 0...9, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined())
            }
        }
        for _ in 0..<4_000 {
            let a = randomValue(), b = randomValue()
            let sa = SortValueSummary(a), sb = SortValueSummary(b)
            if case .string(let text) = a { #expect(sa.isMonotone == text.utf8.prefix(16).allSatisfy { $0 < 0x80 }) }
            guard sa.isMonotone, sb.isMonotone, a < b else { continue }
            #expect((sa.high, sa.low) <= (sb.high, sb.low), "\(a) vs \(b)")
        }
    }
}
