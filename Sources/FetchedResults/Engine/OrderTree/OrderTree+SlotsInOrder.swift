extension OrderTree {
    /// Every slot of the tree, in order, in one array.
    ///
    /// A pass over every row reads this array in a plain loop instead of visiting the tree
    /// through a closure per slot.
    ///
    /// - Complexity: O(n), copying each leaf's slots at once.
    func slotsInOrder() -> [Int32] {
        var slots: [Int32] = []
        slots.reserveCapacity(count)
        Self.appendSlots(of: root, to: &slots)
        return slots
    }

    /// Appends the slots under `node` to `slots`, in order.
    private static func appendSlots(of node: Node, to slots: inout [Int32]) {
        if node.isLeaf {
            node.slots.append(to: &slots)
            return
        }
        for index in 0..<node.children.count { appendSlots(of: node.children[index], to: &slots) }
    }
}
