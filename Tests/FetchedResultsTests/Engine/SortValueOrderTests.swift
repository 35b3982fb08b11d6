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
            .double(.nan), .double(-.nan), .double(.signalingNaN), .double(0.0), .null,
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

    /// Floating-point values have one total order, with `==` and hashing to match:
    /// -inf < … < -0.0 == 0.0 < … < +inf < NaN, every NaN equal to every NaN.
    @Test func floatingPointValuesHaveOneTotalOrder() {
        let nans: [SortValue] = [.double(.nan), .double(-.nan), .double(.signalingNaN), .double(Double(nan: 7, signaling: false)), .double(0.0 / 0.0)]
        for a in nans {
            for b in nans {
                #expect(a == b && !(a < b) && a.hashValue == b.hashValue)
            }
            #expect(SortValue.double(.infinity) < a && SortValue.int(.max) < a && SortValue.double(-.infinity) < a)
            #expect(!(a < .double(.infinity)) && !(a < .int(.max)) && !(a < .int(.min)))
            #expect(a < .string("") && SortValue.null < a)
            #expect(Set([a, .double(.nan)]).count == 1)
        }
        #expect(SortValue.double(-0.0) == .double(0.0) && SortValue.double(-0.0).hashValue == SortValue.double(0.0).hashValue)
        #expect(!(SortValue.double(-0.0) < .double(0.0)) && !(SortValue.double(0.0) < .double(-0.0)))
        #expect(SortValue.double(-.infinity) < .double(-.greatestFiniteMagnitude) && SortValue.double(.greatestFiniteMagnitude) < .double(.infinity))
        #expect(Float.nan.sortValue == .double(.nan) && Optional<Double>.none.sortValue == .null)
        let sorted = ([.nan, 1, -0.0, .infinity, -.nan, 0.0, -.infinity, -1] as [Double]).map(SortValue.double).sorted()
        let numbers = sorted.prefix(6).map { value -> Double in if case .double(let number) = value { number } else { 99 } }
        #expect(numbers == [-.infinity, -1, 0, 0, 1, .infinity])
        #expect(sorted.suffix(2).allSatisfy { $0 == .double(.nan) })
    }
}
