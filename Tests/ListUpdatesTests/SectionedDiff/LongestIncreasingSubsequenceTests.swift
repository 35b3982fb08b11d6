@testable import ListUpdates
import Testing
import TestSupport

@Suite("Longest increasing subsequence")
struct LongestIncreasingSubsequenceTests {
    /// The length of a longest strictly increasing subsequence, by the quadratic recurrence.
    private func referenceLength(_ values: [Int]) -> Int {
        var best = [Int](repeating: 1, count: values.count)
        for i in values.indices {
            for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
        }
        return best.max() ?? 0
    }

    @Test("Marks an increasing subsequence of the greatest length", arguments: testSeeds(count: 200))
    func matchesReference(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        var values = Array(0..<Int.random(in: 0...60, using: &rng)).map { $0 * 3 }
        // Mostly sorted, lightly or heavily shuffled.
        for _ in 0..<Int.random(in: 0...(values.count / 2 + 1), using: &rng) where values.count > 1 {
            values.swapAt(Int.random(in: values.indices, using: &rng), Int.random(in: values.indices, using: &rng))
        }
        var subsequence = LongestIncreasingSubsequence()
        // Run twice on different inputs first, so that reused buffers are exercised.
        subsequence.mark(Array((0..<80).reversed()))
        subsequence.mark(values)
        #expect(subsequence.keep.count == values.count)
        let kept = values.indices.filter { subsequence.keep[$0] }.map { values[$0] }
        #expect(zip(kept, kept.dropFirst()).allSatisfy { $0 < $1 }, "\(values) kept \(kept)")
        #expect(kept.count == referenceLength(values), "\(values) kept \(kept)")
    }

    /// The diff marks a lazy sequence of 32-bit values; it must keep exactly what the array
    /// form keeps (the results index and the accumulator use that one), equal values included.
    @Test("A sequence of 32-bit values marks what the array marks", arguments: testSeeds(count: 100))
    func sequenceMatchesArray(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let values = (0..<Int.random(in: 0...60, using: &rng)).map { _ in Int.random(in: 0..<40, using: &rng) }
        var fromArray = LongestIncreasingSubsequence()
        fromArray.mark(values)
        var fromSequence = LongestIncreasingSubsequence()
        fromSequence.mark(values.lazy.map { Int32($0) }, count: values.count)
        #expect(fromSequence.keep == fromArray.keep, "\(values)")
    }
}
