@testable import FetchedResults
import Testing
import TestSupport

@Suite("SortValue order")
struct SortValueOrderTests {
    /// Integers and doubles compare exactly, beyond 2^53 too, so a mixed column has a strict
    /// weak order: a load and a commit put its rows in one consistent order.
    @Test(arguments: testSeeds(count: 4))
    func mixedNumbersOrderTransitively(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let big: Int64 = 1 << 53
        let values: [SortValue] = [
            .int(big - 1), .int(big), .int(big + 1), .int(big + 2), .int(.max), .int(.min), .int(0), .int(-1),
            .double(Double(big)), .double(Double(big) + 2), .double(9_223_372_036_854_775_808.0), .double(-9_223_372_036_854_775_808.0),
            .double(.infinity), .double(-.infinity), .double(-0.0), .double(0.5), .double(-0.5), .double(-1),
        ]
        #expect(SortValue.int(big + 1) > .double(Double(big)))
        #expect(SortValue.double(Double(big)) < .int(big + 1))
        #expect(SortValue.int(.max) < .double(9_223_372_036_854_775_808.0))
        #expect(!(SortValue.int(0) < .double(-0.0)) && !(SortValue.double(-0.0) < .int(0)))
        func equivalent(_ a: SortValue, _ b: SortValue) -> Bool { !(a < b) && !(b < a) }
        for _ in 0..<3_000 {
            let a = values.randomElement(using: &rng)!, b = values.randomElement(using: &rng)!, c = values.randomElement(using: &rng)!
            #expect(!(a < a))
            if a < b && b < c { #expect(a < c, "\(a) < \(b) < \(c)") }
            if equivalent(a, b) && equivalent(b, c) { #expect(equivalent(a, c), "\(a) ~ \(b) ~ \(c)") }
        }
    }
}
