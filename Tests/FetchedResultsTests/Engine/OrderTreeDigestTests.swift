@testable import FetchedResults
import Testing
import TestSupport

/// Orders slots by a group, then a string key, then slot, with digests: the group and the
/// summary of the string. Keys share long prefixes and some pass 15 bytes, so digests tie
/// often and searches must fall back to the keys.
private struct GroupedStringOrdering: SlotOrdering {
    var groups: [Int32]
    var keys: [String]
    /// The rank of each group in the order (groups are not ordered by their number).
    var groupRank: [Int32]
    var ascending: Bool

    func less(_ a: Int32, _ b: Int32) -> Bool {
        if groups[Int(a)] != groups[Int(b)] { return groupRank[Int(groups[Int(a)])] < groupRank[Int(groups[Int(b)])] }
        return lessInGroup(a, b)
    }

    func shareGroup(_ a: Int32, _ b: Int32) -> Bool { groups[Int(a)] == groups[Int(b)] }

    func lessInGroup(_ a: Int32, _ b: Int32) -> Bool {
        let ka = keys[Int(a)]
        let kb = keys[Int(b)]
        if ka != kb { return (ka < kb) == ascending }
        return a < b
    }

    var hasDigests: Bool { true }

    func digest(of slot: Int32) -> SlotDigest {
        SlotDigest(group: groups[Int(slot)], summary: SortValueSummary(.string(keys[Int(slot)])))
    }

    func order(_ a: SlotDigest, _ b: SlotDigest) -> Int {
        if a.group != b.group { return groupRank[Int(a.group)] < groupRank[Int(b.group)] ? -1 : 1 }
        let order = SortValueSummary.order(a.summary, b.summary)
        return ascending ? order : -order
    }

    /// A random key: a long shared prefix, then a few random characters, sometimes past
    /// the 15 bytes a summary holds.
    static func randomKey(using rng: inout SeededGenerator) -> String {
        let prefix = Bool.random(using: &rng) ? "Item " : "Item 1234567890 "
        let tail = (0..<Int.random(in: 0...3, using: &rng)).map { _ in "abc".randomElement(using: &rng)! }
        return prefix + String(tail)
    }
}

@Suite("OrderTree digests and fences")
struct OrderTreeDigestTests {
    /// Inserts, removes and re-keys slots at random, built from sorted slots with digests
    /// or without; the order, ranks and every digest and fence (the invariant check) match
    /// a sorted array.
    @Test(arguments: testSeeds(count: 6))
    func matchASortedArray(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let slotCount = 4_000
        var ordering = GroupedStringOrdering(
            groups: (0..<slotCount).map { _ in Int32.random(in: 0..<4, using: &rng) },
            keys: (0..<slotCount).map { _ in GroupedStringOrdering.randomKey(using: &rng) },
            groupRank: [2, 0, 3, 1],
            ascending: Bool.random(using: &rng))
        let initial = (0..<Int32(2_000)).sorted { ordering.less($0, $1) }
        var tree = Bool.random(using: &rng) ? OrderTree(sorted: initial, ordering) : OrderTree(sorted: initial)
        tree._checkInvariants(ordering)
        var reference = initial
        var present = Set(initial)
        for step in 0..<3_000 {
            let slot = Int32.random(in: 0..<Int32(slotCount), using: &rng)
            if present.contains(slot) {
                #expect(tree.remove(slot, ordering) == reference.firstIndex(of: slot))
                reference.removeAll { $0 == slot }
                present.remove(slot)
                if Bool.random(using: &rng) {
                    // Re-key and re-insert, as a commit does with a changed row.
                    ordering.keys[Int(slot)] = GroupedStringOrdering.randomKey(using: &rng)
                    ordering.groups[Int(slot)] = Int32.random(in: 0..<4, using: &rng)
                    let position = reference.firstIndex { !ordering.less($0, slot) } ?? reference.count
                    #expect(tree.insert(slot, ordering) == position)
                    present.insert(slot)
                    reference.insert(slot, at: position)
                }
            } else {
                let position = reference.firstIndex { !ordering.less($0, slot) } ?? reference.count
                #expect(tree.insert(slot, ordering) == position)
                present.insert(slot)
                reference.insert(slot, at: position)
            }
            if step % 101 == 0 {
                tree._checkInvariants(ordering)
                #expect(tree.slotsInOrder() == reference)
            }
            if !reference.isEmpty {
                let rank = Int.random(in: 0..<reference.count, using: &rng)
                #expect(tree.rank(of: reference[rank], ordering) == rank)
            }
        }
        tree._checkInvariants(ordering)
        for slot in reference.shuffled(using: &rng) { tree.remove(slot, ordering) }
        #expect(tree.count == 0)
        tree._checkInvariants(ordering)
    }

    /// Grows a tree by random insertions until its root has split into branches of
    /// branches, then shrinks it back by random removals: every branch split, merge and root
    /// change keeps the order, the counts, the digests and the fences (the invariant check).
    @Test(arguments: testSeeds(count: 2))
    func deepTreeGrowsAndShrinks(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        // Enough leaves (at most `leafCapacity` slots each) to overfill a root branch.
        let slotCount = OrderTree.leafCapacity * OrderTree.branchCapacity * 3 / 2
        let ordering = GroupedStringOrdering(
            groups: (0..<slotCount).map { _ in Int32.random(in: 0..<40, using: &rng) },
            keys: (0..<slotCount).map { _ in "Item \(UInt32.random(in: 0..<UInt32.max, using: &rng))" },
            groupRank: Array(0..<40).shuffled(using: &rng),
            ascending: Bool.random(using: &rng))
        var tree = OrderTree()
        var inserted: [Int32] = []
        for (step, slot) in (0..<Int32(slotCount)).shuffled(using: &rng).enumerated() {
            tree.insert(slot, ordering)
            inserted.append(slot)
            if step % 9_973 == 0 { tree._checkInvariants(ordering) }
        }
        tree._checkInvariants(ordering)
        let sorted = inserted.sorted { ordering.less($0, $1) }
        #expect(!tree.root.isLeaf && tree.root.children.array.contains { !$0.isLeaf }, "the tree did not grow three levels")
        for rank in stride(from: 0, to: sorted.count, by: 997) {
            #expect(tree.select(rank) == sorted[rank])
            #expect(tree.rank(of: sorted[rank], ordering) == rank)
        }
        var remaining = Set(inserted)
        for (step, slot) in inserted.shuffled(using: &rng).enumerated() {
            let rank = tree.remove(slot, ordering)
            remaining.remove(slot)
            if step % 4_999 == 0 {
                tree._checkInvariants(ordering)
                let before = sorted[..<(sorted.firstIndex(of: slot) ?? 0)]
                #expect(rank == before.lazy.filter { remaining.contains($0) }.count)
            }
        }
        #expect(tree.count == 0)
        tree._checkInvariants(ordering)
    }

    /// A tree built with digests has them in every internal node and fences in every leaf
    /// large enough, each on the right slot.
    @Test func sortedBuildComputesDigestsAndFences() throws {
        let count = 5_000
        let ordering = GroupedStringOrdering(
            groups: (0..<count).map { Int32($0 % 3) },
            keys: (0..<count).map { "Item \($0 * 7919 % 10_007)" },
            groupRank: [1, 2, 0],
            ascending: true)
        let tree = OrderTree(sorted: (0..<Int32(count)).sorted { ordering.less($0, $1) }, ordering)
        tree._checkInvariants(ordering)
        #expect(!tree.root.isLeaf)
        #expect(tree.root.digests.count == tree.root.firsts.count)
        let first = tree.root.children.array.first
        let leaf = try #require(first)
        #expect(leaf.isLeaf && leaf.fences.count == (leaf.slots.count + OrderTree.fenceSpacing - 1) / OrderTree.fenceSpacing)
    }

    /// A digest keeps its summary's words exactly in its 32-bit halves, and stays at 20
    /// bytes (24 for a fence): the size each node's search reads.
    @Test func digestKeepsItsSummaryInTwentyBytes() {
        let values: [SortValue] = [.null, .bool(true), .int(-1), .int(.max), .double(-.infinity), .double(0.5),
                                   .string(""), .string("Item 4294967295"), .string("zzzzzzzzzzzzzzzzzzzz"), .string("é")]
        for value in values {
            let summary = SortValueSummary(value)
            let digest = SlotDigest(group: 7, summary: summary)
            #expect(digest.group == 7)
            #expect(digest.summary.high == summary.high && digest.summary.low == summary.low, "\(value)")
            #expect(digest.isIdentical(to: SlotDigest(group: 7, summary: summary)))
            #expect(!digest.isIdentical(to: SlotDigest(group: 8, summary: summary)))
        }
        let flipped = SlotDigest(group: 0, summary: SortValueSummary(high: .max, low: 1))
        #expect(flipped.summary.high == .max && flipped.summary.low == 1)
        #expect(!flipped.isIdentical(to: SlotDigest(group: 0, summary: SortValueSummary(high: .max, low: 1 << 32))))
        #expect(MemoryLayout<SlotDigest>.stride == 20)
        #expect(MemoryLayout<LeafFence>.stride == 24)
    }
}
