@testable import FetchedResults
import Testing
import TestSupport

/// Orders slots by the slot number itself, so any run of consecutive numbers is in order.
private struct SlotNumberOrdering: SlotOrdering {
    func less(_ a: Int32, _ b: Int32) -> Bool { a < b }
}

@Suite("OrderTree bulk operations")
struct OrderTreeBulkBuildTests {
    /// The slots of a tree, in order.
    private func walk(_ tree: OrderTree) -> [Int32] {
        var walked: [Int32] = []
        tree.forEach(in: 0..<tree.count) { walked.append($0) }
        return walked
    }

    @Test(arguments: [0, 1, 200, 5_000])
    func sortedBuildEqualsIncrementalInserts(count: Int) {
        let ordering = SlotNumberOrdering()
        var incremental = OrderTree()
        for slot in Int32(0)..<Int32(count) { incremental.insert(slot, ordering) }
        let built = OrderTree(sorted: Array(Int32(0)..<Int32(count)))
        built._checkInvariants(ordering)
        #expect(walk(built) == walk(incremental))
        for rank in stride(from: 0, to: count, by: 97) {
            #expect(built.select(rank) == incremental.select(rank))
            #expect(built.rank(of: Int32(rank), ordering) == rank)
        }
    }

    /// Random blocks leave and re-enter elsewhere (a section moving), checked against an
    /// array after every step. Slots are renumbered on re-entry so the slot order stays
    /// the tree's order.
    @Test(arguments: testSeeds(count: 6))
    func blockMovesMatchAnArray(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let ordering = SlotNumberOrdering()
        // Slots are spaced so that runs fit between any two of them.
        var reference: [Int32] = (0..<Int32(4_000)).map { $0 * 1_000 }
        var tree = OrderTree(sorted: reference)
        for step in 0..<60 {
            let length = Int.random(in: 0...min(reference.count, step % 3 == 0 ? 2_000 : 300), using: &rng)
            let start = Int.random(in: 0...(reference.count - length), using: &rng)
            let removed = tree.removeSubrange(start..<(start + length))
            #expect(removed == Array(reference[start..<(start + length)]))
            reference.removeSubrange(start..<(start + length))
            tree._checkInvariants(ordering)
            #expect(tree.count == reference.count)

            // Re-enter a run of fresh slots between two neighbours.
            let rank = Int.random(in: 0...reference.count, using: &rng)
            let low = rank > 0 ? reference[rank - 1] : -1
            let high = rank < reference.count ? reference[rank] : low + 1_000_000
            let room = Int(high - low - 1)
            let runLength = min(room, Int.random(in: 0...2_500, using: &rng))
            let run = (0..<Int32(runLength)).map { low + 1 + $0 * Int32(room / max(runLength, 1)) }
            tree.insert(contentsOf: run, atRank: rank)
            reference.insert(contentsOf: run, at: rank)
            tree._checkInvariants(ordering)
            #expect(walk(tree) == reference)
            if !reference.isEmpty {
                let probe = Int.random(in: 0..<reference.count, using: &rng)
                #expect(tree.select(probe) == reference[probe])
                #expect(tree.rank(of: reference[probe], ordering) == probe)
            }
            // Single inserts and removals still work around the bulk edits.
            if let slot = reference.randomElement(using: &rng) {
                tree.remove(slot, ordering)
                reference.removeAll { $0 == slot }
                tree.insert(slot, ordering)
                reference.insert(slot, at: reference.firstIndex { $0 > slot } ?? reference.count)
            }
        }
        let everything = tree.removeSubrange(0..<tree.count)
        #expect(everything == reference)
        #expect(tree.count == 0)
        tree._checkInvariants(ordering)
    }
}
