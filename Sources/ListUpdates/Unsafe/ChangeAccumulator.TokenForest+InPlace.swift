// The treap's split and merge recursions, on the node array's buffer: the recursion of a
// split or a merge touches a few nodes per level, and through the array each access would pay
// a uniqueness check and a bounds check.
//
// Invariant: the node array does not grow during a recursion (a cut run's tail is made a node
// only after the split returns), so the buffer's address stays valid; every node index is one
// the forest made (below `nodes.count`), and -1 (no node) is tested before any access.

extension ChangeAccumulator.TokenForest {
    /// Splits `tree` before current position `position`, cutting the run the position falls
    /// inside (its tail is handed back in `cutTail`).
    ///
    /// - Complexity: O(log n) expected.
    mutating func splitInPlace(_ tree: Int32, at position: Int, cutTail: inout (start: Int, width: Int)?) -> (Int32, Int32) {
        nodes.withUnsafeMutableBufferPointer { buffer in
            Self.split(buffer.baseAddress!, tree, at: position, cutTail: &cutTail)
        }
    }

    /// Joins two non-empty trees whose elements are in order.
    ///
    /// - Complexity: O(log n) expected.
    mutating func mergeInPlace(_ a: Int32, _ b: Int32) -> Int32 {
        nodes.withUnsafeMutableBufferPointer { buffer in Self.merge(buffer.baseAddress!, a, b) }
    }

    @inline(__always)
    fileprivate static func total(_ n: UnsafeMutablePointer<Node>, _ tree: Int32) -> Int {
        tree < 0 ? 0 : n[Int(tree)].total
    }

    @inline(__always)
    fileprivate static func update(_ n: UnsafeMutablePointer<Node>, _ node: Int32) {
        let i = Int(node)
        n[i].total = n[i].width + total(n, n[i].left) + total(n, n[i].right)
    }

    /// The recursion of `split(_:at:)` on the node buffer, which must not grow meanwhile: a
    /// cut run keeps its head, and its tail is handed back in `cutTail`.
    fileprivate static func split(
        _ n: UnsafeMutablePointer<Node>, _ tree: Int32, at position: Int, cutTail: inout (start: Int, width: Int)?
    ) -> (Int32, Int32) {
        guard tree >= 0 else { return (-1, -1) }
        let t = Int(tree)
        let leftWidth = total(n, n[t].left)
        if position <= leftWidth {
            let (a, b) = split(n, n[t].left, at: position, cutTail: &cutTail)
            n[t].left = b
            update(n, tree)
            return (a, tree)
        }
        let width = n[t].width
        if position >= leftWidth + width {
            let (a, b) = split(n, n[t].right, at: position - leftWidth - width, cutTail: &cutTail)
            n[t].right = a
            update(n, tree)
            return (tree, b)
        }
        // Strictly inside a run: keep its head here; the right subtree is the right part.
        assert(n[t].kind == .run, "internal inconsistency: only a run is wider than one element")
        let cut = position - leftWidth
        cutTail = (n[t].start + cut, width - cut)
        let right = n[t].right
        n[t].right = -1
        n[t].width = cut
        update(n, tree)
        return (tree, right)
    }

    fileprivate static func merge(_ n: UnsafeMutablePointer<Node>, _ a: Int32, _ b: Int32) -> Int32 {
        if a < 0 { return b }
        if b < 0 { return a }
        if n[Int(a)].priority >= n[Int(b)].priority {
            n[Int(a)].right = merge(n, n[Int(a)].right, b)
            update(n, a)
            return a
        } else {
            n[Int(b)].left = merge(n, a, n[Int(b)].left)
            update(n, b)
            return b
        }
    }
}
