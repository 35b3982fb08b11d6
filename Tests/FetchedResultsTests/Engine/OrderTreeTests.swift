@testable import FetchedResults
import Testing
import TestSupport

/// Orders slots by a key array, then by slot.
private struct KeyOrdering: SlotOrdering {
    var keys: [Int]
    func less(_ a: Int32, _ b: Int32) -> Bool {
        keys[Int(a)] != keys[Int(b)] ? keys[Int(a)] < keys[Int(b)] : a < b
    }
}

@Suite("OrderTree")
struct OrderTreeTests {
    @Test(arguments: testSeeds(count: 6))
    func matchesASortedArray(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let slotCount = 3_000
        var ordering = KeyOrdering(keys: (0..<slotCount).map { _ in Int.random(in: 0..<500, using: &rng) })
        let initial = (0..<Int32(1_200)).sorted { ordering.less($0, $1) }
        var tree = OrderTree(sorted: initial)
        var reference = initial
        var present = Set(initial)
        for step in 0..<2_500 {
            let slot = Int32.random(in: 0..<Int32(slotCount), using: &rng)
            if present.contains(slot) {
                tree.remove(slot, ordering)
                reference.removeAll { $0 == slot }
                present.remove(slot)
                if Bool.random(using: &rng) {
                    // Re-key and re-insert, as a commit does with a changed row.
                    ordering.keys[Int(slot)] = Int.random(in: 0..<500, using: &rng)
                    tree.insert(slot, ordering)
                    present.insert(slot)
                    reference.insert(slot, at: reference.firstIndex { !ordering.less($0, slot) } ?? reference.count)
                }
            } else {
                tree.insert(slot, ordering)
                present.insert(slot)
                reference.insert(slot, at: reference.firstIndex { !ordering.less($0, slot) } ?? reference.count)
            }
            #expect(tree.count == reference.count)
            if step % 97 == 0 {
                tree._checkInvariants(ordering)
                var walked: [Int32] = []
                tree.forEach(in: 0..<tree.count) { walked.append($0) }
                #expect(walked == reference)
            }
            if !reference.isEmpty {
                let rank = Int.random(in: 0..<reference.count, using: &rng)
                #expect(tree.select(rank) == reference[rank])
                #expect(tree.rank(of: reference[rank], ordering) == rank)
            }
        }
        // Remove everything: the tree shrinks back to an empty leaf.
        for slot in reference { tree.remove(slot, ordering) }
        #expect(tree.count == 0)
        tree._checkInvariants(ordering)
    }

    @Test func partitionPointCountsAPrefix() {
        let ordering = KeyOrdering(keys: Array(0..<10_000))
        let tree = OrderTree(sorted: Array(0..<Int32(10_000)))
        for boundary in [0, 1, 191, 192, 5_000, 9_999, 10_000] {
            #expect(tree.partitionPoint { Int($0) < boundary } == boundary)
        }
        #expect(tree.rank(of: 4_321, ordering) == 4_321)
    }

    @Test func rangeVisitsOnlyTheRange() {
        let tree = OrderTree(sorted: Array(0..<Int32(1_000)))
        var visited: [Int32] = []
        tree.forEach(in: 190..<450) { visited.append($0) }
        #expect(visited == Array(190..<Int32(450)))
    }
}
