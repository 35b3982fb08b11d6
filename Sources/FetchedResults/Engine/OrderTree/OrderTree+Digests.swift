/// A fixed-size digest of a slot's keys that an ordering computes (``SlotOrdering/digest(of:)``)
/// and compares (``SlotOrdering/order(_:_:)``) without reading any column: the slot's group
/// and an order-preserving summary of its first key after the group.
struct SlotDigest {
    /// The slot's group (a section handle), or -1 when unknown.
    var group: Int32
    /// The summary of the slot's first key after the group.
    var summary: SortValueSummary

    /// The digest of no slot: an unknown group and the summary of `.null`.
    static var unknown: SlotDigest { SlotDigest(group: -1, summary: SortValueSummary(.null)) }

    /// Whether two digests hold the same bits (what an invariant check compares).
    func isIdentical(to other: SlotDigest) -> Bool {
        group == other.group && summary.high == other.summary.high && summary.low == other.summary.low
    }
}

extension OrderTree {
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
        let first = node.children[index].first
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
        node.digests = node.firsts.map { ordering.digest(of: $0) }
    }
}
