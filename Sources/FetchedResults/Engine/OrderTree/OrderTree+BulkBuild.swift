extension OrderTree {
    /// Removes the slots at positions `range` and returns them in order.
    ///
    /// Whole subtrees inside the range are dropped without being visited slot by slot; at
    /// most two partly covered nodes per level are trimmed and merged with a neighbour when
    /// they become small. No key is compared.
    ///
    /// - Parameter range: Positions in the tree as it is now.
    /// - Returns: The removed slots, in order.
    /// - Complexity: O(m + log n) for m removed slots.
    @discardableResult
    mutating func removeSubrange(_ range: Range<Int>) -> [Int32] {
        require(range.lowerBound >= 0 && range.upperBound <= count, "internal inconsistency: range \(range) outside 0..<\(count)")
        var removed: [Int32] = []
        guard !range.isEmpty else { return removed }
        removed.reserveCapacity(range.count)
        forEach(in: range) { removed.append($0) }
        Self.removeRange(range.lowerBound, range.upperBound, from: root)
        while !root.isLeaf && root.children.count == 1 {
            root = root.children[0]
        }
        if !root.isLeaf && root.children.isEmpty {
            root = Node(leaf: [])
        }
        return removed
    }

    /// Removes positions `low..<high` (relative to `node`) from `node`'s subtree.
    private static func removeRange(_ low: Int, _ high: Int, from node: Node) {
        node.total -= high - low
        if node.isLeaf {
            node.slots.removeSubrange(low..<high)
            // No ordering here to keep the fences with: the next search recomputes them.
            node.fences = NodeBuffer()
            return
        }
        // No ordering here to keep the digests with: the next search recomputes them.
        node.digests = NodeBuffer()
        var start = 0
        var index = 0
        var firstTouched: Int?
        while index < node.children.count && start < high {
            let childCount = Int(node.counts[index])
            let end = start + childCount
            guard end > low else {
                start = end
                index += 1
                continue
            }
            if firstTouched == nil { firstTouched = index }
            let childLow = max(low, start) - start
            let childHigh = min(high, end) - start
            if childLow == 0 && childHigh == childCount {
                node.children.remove(at: index)
                node.counts.remove(at: index)
                node.firsts.remove(at: index)
                node.childLines.remove(at: index)
            } else {
                let child = node.children[index]
                removeRange(childLow, childHigh, from: child)
                node.counts[index] = UInt32(child.total)
                node.firsts[index] = child.first
                node.childLines[index] = child.lines
                index += 1
            }
            start = end
        }
        // The trimmed children sit at `firstTouched` and the one after it; merge the small
        // ones with a neighbour.
        guard let firstTouched, node.children.count > 1 else { return }
        let low = max(0, firstTouched - 1)
        let high = min(node.children.count - 2, firstTouched + 1)
        guard low <= high else { return }
        for candidate in stride(from: high, through: low, by: -1) where candidate + 1 < node.children.count {
            let a = node.children[candidate]
            let b = node.children[candidate + 1]
            let capacity = a.isLeaf ? leafCapacity : branchCapacity
            if a.width < capacity / 4 || b.width < capacity / 4 {
                mergeIfFits(node, candidate)
            }
        }
    }

    /// Inserts `run`, slots in order, at position `rank`: every slot before `rank` must sort
    /// before the run and every slot from `rank` on after it, in the ordering the tree keeps.
    ///
    /// The run goes into one leaf, which splits into as many leaves as it needs; the parents
    /// split the same way. No key is compared.
    ///
    /// - Parameters:
    ///   - run: The slots to insert, in order; none may be in the tree.
    ///   - rank: A position in `0...count` of the tree as it is now.
    /// - Complexity: O(m + log n) for m inserted slots.
    mutating func insert(contentsOf run: [Int32], atRank rank: Int) {
        require(rank >= 0 && rank <= count, "internal inconsistency: rank \(rank) outside 0...\(count)")
        guard !run.isEmpty else { return }
        let siblings = Self.insertRun(run[...], at: rank, into: root)
        guard !siblings.isEmpty else { return }
        var level = [root] + siblings
        let branchFill = Self.branchCapacity * 3 / 4
        while level.count > 1 {
            level = Self.pieces(of: level.count, fill: branchFill).map { Node(children: Array(level[$0])) }
        }
        root = level[0]
    }

    /// Inserts `run` at `rank` under `node`; returns the new right siblings of `node` when it
    /// overflowed and split.
    private static func insertRun(_ run: ArraySlice<Int32>, at rank: Int, into node: Node) -> [Node] {
        node.total += run.count
        if node.isLeaf {
            node.slots.insert(contentsOf: run, at: rank)
            node.fences = NodeBuffer()
            guard node.slots.count > leafCapacity else { return [] }
            let parts = pieces(of: node.slots.count, fill: leafCapacity * 3 / 4)
            let siblings = parts.dropFirst().map { Node(leaf: node.slots.array($0)) }
            node.slots.removeSubrange(parts[0].upperBound...)
            node.total = node.slots.count
            return siblings
        }
        // No ordering here to keep the digests with: the next search recomputes them.
        node.digests = NodeBuffer()
        var index = 0
        var remaining = rank
        while index < node.children.count - 1 && remaining > Int(node.counts[index]) {
            remaining -= Int(node.counts[index])
            index += 1
        }
        let child = node.children[index]
        let split = insertRun(run, at: remaining, into: child)
        node.counts[index] = UInt32(child.total)
        node.firsts[index] = child.first
        node.childLines[index] = child.lines
        if !split.isEmpty {
            node.children.insert(contentsOf: split, at: index + 1)
            node.counts.insert(contentsOf: split.map { UInt32($0.total) }, at: index + 1)
            node.firsts.insert(contentsOf: split.map(\.first), at: index + 1)
            node.childLines.insert(contentsOf: split.map(\.lines), at: index + 1)
        }
        guard node.children.count > branchCapacity else { return [] }
        let parts = pieces(of: node.children.count, fill: branchCapacity * 3 / 4)
        let siblings = parts.dropFirst().map { Node(children: node.children.array($0)) }
        node.children.removeSubrange(parts[0].upperBound...)
        node.counts.removeSubrange(parts[0].upperBound...)
        node.firsts.removeSubrange(parts[0].upperBound...)
        node.childLines.removeSubrange(parts[0].upperBound...)
        node.total = node.countBefore(node.counts.count)
        return siblings
    }

    /// Splits `count` elements into the fewest consecutive pieces of at most `fill`
    /// elements, of sizes that differ by at most one.
    private static func pieces(of count: Int, fill: Int) -> [Range<Int>] {
        let pieceCount = (count + fill - 1) / fill
        let base = count / pieceCount
        let larger = count % pieceCount
        var start = 0
        return (0..<pieceCount).map { piece in
            let size = base + (piece < larger ? 1 : 0)
            defer { start += size }
            return start..<(start + size)
        }
    }
}
