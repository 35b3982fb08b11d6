/// A fixed-size digest of a slot's keys that an ordering computes (``SlotOrdering/digest(of:)``)
/// and compares (``SlotOrdering/order(_:_:)``) without reading any column: the slot's group
/// and an order-preserving summary of its first key after the group.
///
/// Stored in 32-bit words, so that a digest takes 20 bytes and a ``LeafFence`` 24 (with
/// 64-bit words, 24 and 32): a search asks for every line of a node's digests or a leaf's
/// fences, and fewer lines arrive sooner.
struct SlotDigest {
    /// The slot's group (a section handle), or -1 when unknown.
    var group: Int32
    /// The summary's words, high then low, each as its high and low halves.
    private var words: (UInt32, UInt32, UInt32, UInt32)

    /// The digest of a slot in `group` whose first key after the group has `summary`.
    init(group: Int32, summary: SortValueSummary) {
        self.group = group
        words = (UInt32(truncatingIfNeeded: summary.high >> 32), UInt32(truncatingIfNeeded: summary.high),
                 UInt32(truncatingIfNeeded: summary.low >> 32), UInt32(truncatingIfNeeded: summary.low))
    }

    /// The summary of the slot's first key after the group.
    var summary: SortValueSummary {
        SortValueSummary(high: UInt64(words.0) << 32 | UInt64(words.1), low: UInt64(words.2) << 32 | UInt64(words.3))
    }

    /// The digest of no slot: an unknown group and the summary of `.null`.
    static var unknown: SlotDigest { SlotDigest(group: -1, summary: SortValueSummary(.null)) }

    /// Whether two digests hold the same bits (what an invariant check compares).
    func isIdentical(to other: SlotDigest) -> Bool {
        group == other.group && words == other.words
    }
}

/// A digest of one slot of a leaf, with the slot's position in the leaf.
struct LeafFence {
    /// The slot's position in its leaf.
    var position: Int32
    /// The slot's digest.
    var digest: SlotDigest
}

extension OrderTree {
    /// A leaf keeps the digest of about one slot in this many (its fences).
    static var fenceSpacing: Int { 16 }

    /// What a descent knows about the slot it searches for: its digest, and the groups of
    /// the first slot under the current subtree and of the first slot after it (-1 when
    /// unknown), which tell whether the leaf it reaches lies inside one group.
    struct Search {
        /// The digest of the searched slot (``SlotDigest/unknown`` without digests).
        let digest: SlotDigest
        /// The group of the first slot of the subtree the descent is in.
        var lowerGroup: Int32 = -1
        /// The group of the first slot after that subtree.
        var upperGroup: Int32 = -1

        init<O: SlotOrdering>(_ slot: Int32, _ ordering: O) {
            digest = ordering.hasDigests ? ordering.digest(of: slot) : .unknown
        }

        /// Whether every slot of the current subtree shares the searched slot's group: the
        /// first slot of the subtree and the first after it both do, and groups are
        /// contiguous runs of the order.
        var isInsideGroup: Bool {
            lowerGroup >= 0 && lowerGroup == digest.group && upperGroup == digest.group
        }
    }

    /// Sets the first slot of child `index` of `node` from the child, and its digest when
    /// the first slot changed and the node keeps digests.
    @inline(__always)
    static func setFirst<O: SlotOrdering>(of node: Node, at index: Int, _ ordering: O) {
        let first = node.children.withUnretained(index) { $0.first }
        guard node.firsts[index] != first else { return }
        node.firsts[index] = first
        if node.digests.count == node.firsts.count {
            node.digests[index] = ordering.digest(of: first)
        }
    }

    /// Computes the digest of every first slot of `node`.
    ///
    /// - Complexity: O(w) for w children, reading each first slot's keys.
    static func computeDigests<O: SlotOrdering>(of node: Node, _ ordering: O) {
        node.digests = NodeBuffer(node.firsts.withElements { firsts in firsts.map { ordering.digest(of: $0) } })
    }

    /// Creates a tree holding `sorted`, which must already be in `ordering`'s order, with
    /// the digests of its internal nodes and the fences of its leaves computed, so the
    /// first searches find them (``init(sorted:)`` leaves them to the searches).
    ///
    /// - Complexity: O(n) moves and O(n / fenceSpacing) key reads.
    init<O: SlotOrdering>(sorted: [Int32], _ ordering: O) {
        self.init(sorted: sorted)
        if ordering.hasDigests { Self.computeAllDigests(under: root, ordering) }
    }

    /// Computes the digests and fences of every node under `node`.
    private static func computeAllDigests<O: SlotOrdering>(under node: Node, _ ordering: O) {
        if node.isLeaf {
            if node.slots.count >= 2 * fenceSpacing { computeFences(of: node, ordering) }
            return
        }
        computeDigests(of: node, ordering)
        for index in 0..<node.children.count {
            let child = node.children[index]
            computeAllDigests(under: child, ordering)
            node.childLines[index] = child.lines
        }
    }

    /// Computes the fences of a leaf: the digests of the slots at every
    /// ``fenceSpacing``-th position.
    ///
    /// - Complexity: O(w / fenceSpacing) for w slots, reading each fenced slot's keys.
    static func computeFences<O: SlotOrdering>(of leaf: Node, _ ordering: O) {
        leaf.fences = NodeBuffer(leaf.slots.withElements { slots in
            stride(from: 0, to: slots.count, by: fenceSpacing).map { position in
                LeafFence(position: Int32(position), digest: ordering.digest(of: slots[position]))
            }
        })
    }

    /// Keeps a leaf's fences on their slots after one slot entered at `position` (`delta`
    /// 1) or left it (`delta` -1): fences after it move, and a fence on a slot that left is
    /// dropped.
    @inline(__always)
    static func shiftFences(of leaf: Node, from position: Int, by delta: Int32) {
        guard !leaf.fences.isEmpty else { return }
        let position = Int32(position)
        let index = leaf.fences.withElements { fences in
            var index = fences.count
            while index > 0 && fences[index - 1].position >= position { index -= 1 }
            return index
        }
        if delta < 0, index < leaf.fences.count, leaf.fences[index].position == position {
            leaf.fences.remove(at: index)
        }
        leaf.fences.updateEach(in: index..<leaf.fences.count) { $0.position += delta }
    }

    /// The range of positions of `leaf` where the first slot that does not sort before
    /// `slot` lies, from the fences: after the last fence whose slot sorts before `slot`,
    /// up to the first fence whose slot does not.
    ///
    /// A fence whose digest ties with `slot`'s reads its slot's keys.
    @inline(__always)
    static func fenceGap<O: SlotOrdering>(
        of slot: Int32, in leaf: Node, _ ordering: O, _ search: Search, grouped: Bool
    ) -> (low: Int, high: Int) {
        let digest = search.digest
        let slotCount = leaf.slots.count
        return leaf.fences.withElements { fences in
            var low = 0
            var high = fences.count
            while low < high {
                let mid = (low + high) / 2
                let fence = fences[mid]
                let order = ordering.order(fence.digest, digest)
                let before: Bool
                if order != 0 {
                    before = order < 0
                } else {
                    let probe = leaf.slots[Int(fence.position)]
                    before = grouped ? ordering.lessInGroup(probe, slot) : ordering.less(probe, slot)
                }
                if before { low = mid + 1 } else { high = mid }
            }
            return (low > 0 ? Int(fences[low - 1].position) + 1 : 0, low < fences.count ? Int(fences[low].position) : slotCount)
        }
    }
}
