@testable import FetchedResults
import Foundation
import Testing
import TestSupport

@Suite("Totals: exact floating-point sums")
struct ExactSumTests {
    /// A million additions and removals of values of every size: huge ones that come and go,
    /// tiny ones, and values of the form k·2^e whose exact sum an `Int128` holds. After every
    /// 10,000 operations the kept sum equals that exact sum rounded once, bit for bit, and a
    /// sum built afresh from the values held.
    @Test(arguments: testSeeds(count: 2))
    func aMillionAdditionsAndRemovalsDoNotDrift(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        var kept = ExactSum()
        // The values held, each as k·2^e with e in -30...30, and its exact value times 2^30.
        var held: [(value: Double, scaled: Int128)] = []
        var exact: Int128 = 0
        var huge: [Double] = []
        for operation in 1...1_000_000 {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0...4:
                let k = Int64.random(in: -(1 << 31)...(1 << 31), using: &rng)
                let e = Int.random(in: -30...30, using: &rng)
                let value = Double(k) * pow(2.0, Double(e))
                let scaled = Int128(k) << (e + 30)
                held.append((value, scaled))
                exact += scaled
                kept.add(value)
            case 5...7 where !held.isEmpty:
                let position = Int.random(in: 0..<held.count, using: &rng)
                held.swapAt(position, held.count - 1)
                let (value, scaled) = held.removeLast()
                exact -= scaled
                kept.add(value, times: -1)
            case 8:
                // A value far larger or smaller than the others, removed again later.
                let value = [1e300, -1e300, 1e-300, Double.leastNonzeroMagnitude, 1e200, -7e150].randomElement(using: &rng)!
                huge.append(value)
                kept.add(value)
            default:
                if let value = huge.popLast() { kept.add(value, times: -1) }
            }
            guard operation % 10_000 == 0 || operation == 1_000_000 else { continue }
            var withoutHuge = kept
            for value in huge { withoutHuge.add(value, times: -1) }
            let expected = Double(exact) / pow(2.0, 30)
            #expect(withoutHuge.value.bitPattern == expected.bitPattern, "seed \(seed), operation \(operation): \(withoutHuge.value) vs \(expected)")
            var fresh = ExactSum()
            for (value, _) in held { fresh.add(value) }
            for value in huge { fresh.add(value) }
            #expect(fresh == kept, "seed \(seed), operation \(operation): the kept sum differs from one built afresh")
        }
    }

    /// Infinities and NaNs are counted apart, and leave no trace once removed.
    @Test func infinitiesAndNaNsAreKeptApart() {
        var sum = ExactSum()
        sum.add(1.5)
        sum.add(.infinity)
        #expect(sum.value == .infinity)
        sum.add(-.infinity)
        #expect(sum.value.isNaN)
        sum.add(.infinity, times: -1)
        #expect(sum.value == -.infinity)
        sum.add(-.infinity, times: -1)
        sum.add(.nan)
        #expect(sum.value.isNaN)
        sum.add(.nan, times: -1)
        #expect(sum.value == 1.5)
        sum.add(-0.0)
        sum.add(1.5, times: -1)
        #expect(sum.value == 0)
    }

    /// The classic case where adding in floating point loses everything: 1e16 + 1 - 1e16.
    @Test func largeAndSmallValuesCancelExactly() {
        var sum = ExactSum()
        sum.add(1e16)
        sum.add(1)
        sum.add(-1e16)
        #expect(sum.value == 1)
        sum.add(0.1)
        sum.add(0.2)
        sum.add(0.1, times: -1)
        sum.add(0.2, times: -1)
        #expect(sum.value == 1)
        sum.add(.greatestFiniteMagnitude)
        sum.add(.greatestFiniteMagnitude)
        #expect(sum.value == .infinity)
        sum.add(.greatestFiniteMagnitude, times: -1)
        #expect(sum.value == .greatestFiniteMagnitude)
    }

    /// Two sums added together (the totals of every row are their sections' added up) equal
    /// one sum of every value, bit for bit, whatever their signs and sizes.
    @Test(arguments: testSeeds(count: 2))
    func sumsAddedTogetherEqualOneSum(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<200 {
            var parts = [ExactSum(), ExactSum(), ExactSum()]
            var whole = ExactSum()
            for _ in 0..<Int.random(in: 0..<40, using: &generator) {
                let exponent = Double(Int.random(in: -1070...1020, using: &generator))
                var value = Double.random(in: -1...1, using: &generator) * pow(2, exponent)
                if Int.random(in: 0..<50, using: &generator) == 0 { value = [.infinity, -.infinity, .nan][Int.random(in: 0..<3, using: &generator)] }
                parts[Int.random(in: 0..<3, using: &generator)].add(value)
                whole.add(value)
            }
            var added = ExactSum()
            for part in parts { added.add(part) }
            #expect(added == whole, "seed \(seed)")
            #expect(added.value.bitPattern == whole.value.bitPattern || added.value.isNaN && whole.value.isNaN, "seed \(seed)")
        }
    }
}
