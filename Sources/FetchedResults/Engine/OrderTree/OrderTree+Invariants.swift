extension OrderTree {
    #if FRK_INVARIANT_CHECKS
        /// Checks every count, every cached first slot and digest, and the order of all slots.
        func _checkInvariants<O: SlotOrdering>(_ ordering: O) {
            var previous: Int32?
            func check(_ node: Node, isRoot: Bool) -> Int {
                if node.isLeaf {
                    require(isRoot || !node.slots.isEmpty, "internal inconsistency: empty leaf below the root")
                    require(node.slots.count <= Self.leafCapacity, "internal inconsistency: overfull leaf")
                    for slot in node.slots.array {
                        if let previous {
                            require(ordering.less(previous, slot), "internal inconsistency: slots \(previous), \(slot) out of order")
                        }
                        previous = slot
                    }
                    var fencePosition: Int32 = -1
                    for fence in node.fences.array {
                        require(fence.position > fencePosition && Int(fence.position) < node.slots.count,
                                     "internal inconsistency: leaf fences out of order or outside the leaf")
                        fencePosition = fence.position
                        if ordering.hasDigests {
                            require(fence.digest.isIdentical(to: ordering.digest(of: node.slots[Int(fence.position)])),
                                         "internal inconsistency: stale leaf fence")
                        }
                    }
                    require(node.total == node.slots.count, "internal inconsistency: leaf total \(node.total) ≠ \(node.slots.count)")
                    return node.total
                }
                require(!node.children.isEmpty, "internal inconsistency: internal node without children")
                require(node.children.count <= Self.branchCapacity, "internal inconsistency: overfull branch")
                require(node.counts.count == node.children.count && node.firsts.count == node.children.count
                                 && node.childLines.count == node.children.count,
                             "internal inconsistency: branch arrays of different lengths")
                require(node.digests.isEmpty || node.digests.count == node.firsts.count,
                             "internal inconsistency: digests of some children only")
                if ordering.hasDigests && node.digests.count == node.firsts.count {
                    for (first, digest) in zip(node.firsts.array, node.digests.array) {
                        require(digest.isIdentical(to: ordering.digest(of: first)), "internal inconsistency: stale digest")
                    }
                }
                var sum = 0
                for (index, child) in node.children.array.enumerated() {
                    let childTotal = check(child, isRoot: false)
                    require(Int(node.counts[index]) == childTotal, "internal inconsistency: stale child count")
                    require(node.firsts[index] == child.first, "internal inconsistency: stale first slot")
                    sum += childTotal
                }
                require(node.total == sum, "internal inconsistency: branch total \(node.total) ≠ \(sum)")
                return sum
            }
            _ = check(root, isRoot: true)
        }
    #else
        @inline(__always)
        func _checkInvariants<O: SlotOrdering>(_ ordering: O) {}
    #endif
}
