/// A counted B-tree of slots: insert, remove, rank and select in O(log n).
///
/// Leaves hold up to ``leafCapacity`` slots in order; internal nodes hold their children,
/// each child's element count and each child's first slot, which is what a search compares
/// with. Nodes that fall below a quarter of their capacity merge with a neighbour when the
/// two fit in one node, so the tree stays within a constant factor of its minimal height.
///
/// With an ordering that has digests (``SlotOrdering/hasDigests``), internal nodes also keep
/// the digest of each child's first slot, and a search compares digests — integers in the
/// node itself — instead of reading a first slot's keys from the ordering's columns, a
/// cache miss each in a large tree. The digests also bound each child's groups, so a leaf
/// search knows without reading keys whether its leaf lies inside the searched group.
/// Leaves may keep fences, the digests of every ``fenceSpacing``-th slot with their
/// positions: a search finds the gap between two fences by digests and reads the keys of
/// that gap's slots only, and a removal finds its slot by number in that gap. Internal
/// digests are computed by the first search that needs them; fences by
/// ``init(sorted:_:)`` and when a leaf splits. Changes that do not keep them (the bulk
/// operations) drop them, and searches fall back to the keys (``OrderTree+Digests.swift``).
struct OrderTree {
    // A node's fields are read and written only by the tree's own operations, in the
    // owning controller's isolation domain, and no operation holds an access to a field
    // across a call that reaches the same node's field again: the dynamic exclusivity
    // checks (a runtime call per access, about 8% of a large commit) are dropped. Each field
    // is a `NodeBuffer`, whose address and count are in the node itself, so reading a buffer
    // retains nothing; with `childLines`, a descent asks for a child's first lines and the
    // buffers its search reads first at once.
    final class Node {
        let isLeaf: Bool
        /// The number of slots under this node.
        @exclusivity(unchecked) var total: Int
        /// The slots of a leaf, in order. Empty in an internal node.
        @exclusivity(unchecked) var slots: NodeBuffer<Int32>
        /// The digests of some slots of a leaf with their positions, in order
        /// (``OrderTree+Digests.swift``); empty in an internal node and in a leaf whose
        /// fences are not computed.
        @exclusivity(unchecked) var fences: NodeBuffer<LeafFence>
        /// The digest of each first slot, when as many as ``firsts``; otherwise (empty) not
        /// computed yet, and the next search with an ordering that has digests computes them.
        /// A change that does not keep them empties them.
        @exclusivity(unchecked) var digests: NodeBuffer<SlotDigest>
        /// The number of slots under each child, in 32 bits (a tree holds fewer than 2^32
        /// slots: slots are 32-bit numbers), so the counts a descent sums span half the lines.
        @exclusivity(unchecked) var counts: NodeBuffer<UInt32>
        /// The children of an internal node. Empty in a leaf.
        @exclusivity(unchecked) var children: NodeBuffer<Node>
        /// The first slot under each child.
        @exclusivity(unchecked) var firsts: NodeBuffer<Int32>
        /// Where each child's buffers were when this node last changed it (``NodeLines``): a
        /// descent asks for them with the child's first lines, instead of reading those first.
        @exclusivity(unchecked) var childLines: NodeBuffer<NodeLines>

        init(leaf slots: [Int32]) {
            isLeaf = true
            total = slots.count
            self.slots = NodeBuffer(slots, spare: OrderTree.leafSpare)
            fences = NodeBuffer()
            digests = NodeBuffer()
            counts = NodeBuffer()
            children = NodeBuffer()
            firsts = NodeBuffer()
            childLines = NodeBuffer()
        }

        init(children: [Node]) {
            isLeaf = false
            let counts = children.map { UInt32($0.total) }
            total = children.reduce(0) { $0 + $1.total }
            slots = NodeBuffer()
            fences = NodeBuffer()
            digests = NodeBuffer()
            self.counts = NodeBuffer(counts)
            self.children = NodeBuffer(children)
            firsts = NodeBuffer(children.map(\.first))
            childLines = NodeBuffer(children.map(\.lines))
        }

        /// Where the buffers a search of this node reads first are now: a leaf's fences and
        /// slots, a branch's digests and children (it asks for its counts itself, while it
        /// searches the digests: the descent reads them only after it has moved on).
        var lines: NodeLines {
            isLeaf ? NodeLines(fences.extent, slots.extent) : NodeLines(digests.extent, children.extent)
        }

        /// The first slot under this node; the node must not be empty.
        var first: Int32 { isLeaf ? slots[0] : firsts[0] }

        var width: Int { isLeaf ? slots.count : children.count }

        /// The sum of the counts of the children before `index`.
        ///
        /// Summed in 32 bits (a tree holds fewer than 2^32 slots), which the compiler turns
        /// into vector additions of eight counts at a time.
        @inline(__always)
        func countBefore(_ index: Int) -> Int {
            Int(counts.wrappingSum(ofFirst: index))
        }
    }

    static let leafCapacity = 256
    /// The room a new leaf keeps for insertions beyond its slots, so that a commit's first
    /// insertion into a leaf does not move it (about 0.4 bytes a row).
    static let leafSpare = 8
    static let branchCapacity = 128

    /// The root node; only the tree's own operations (here and in its extensions) replace it.
    var root: Node

    /// Creates an empty tree.
    init() {
        root = Node(leaf: [])
    }

    /// Creates a tree holding `sorted`, which must already be in the ordering's order,
    /// without digests or fences (``init(sorted:_:)`` computes them).
    ///
    /// - Complexity: O(n).
    init(sorted: [Int32]) {
        guard !sorted.isEmpty else {
            root = Node(leaf: [])
            return
        }
        let leafFill = Self.leafCapacity * 3 / 4
        var level: [Node] = stride(from: 0, to: sorted.count, by: leafFill).map { start in
            Node(leaf: Array(sorted[start..<min(start + leafFill, sorted.count)]))
        }
        let branchFill = Self.branchCapacity * 3 / 4
        while level.count > 1 {
            level = stride(from: 0, to: level.count, by: branchFill).map { start in
                Node(children: Array(level[start..<min(start + branchFill, level.count)]))
            }
        }
        root = level[0]
    }

    /// The number of slots in the tree.
    var count: Int { root.total }

    /// Inserts `slot` at its place in `ordering`'s order. The slot must not be in the tree.
    ///
    /// - Returns: The slot's rank once inserted (its rank in the tree as it is now).
    /// - Complexity: O(log n) comparisons.
    @discardableResult
    mutating func insert<O: SlotOrdering>(_ slot: Int32, _ ordering: O) -> Int {
        var rank = 0
        var search = Search(slot, ordering)
        if let split = Self.insert(slot, into: root, ordering, &search, rank: &rank) {
            root = Node(children: [root, split])
        }
        return rank
    }

    private static func insert<O: SlotOrdering>(
        _ slot: Int32, into node: Node, _ ordering: O, _ search: inout Search, rank: inout Int
    ) -> Node? {
        node.total += 1
        if node.isLeaf {
            let position = lowerBound(slot, in: node, ordering, search)
            rank += position
            node.slots.insert(slot, at: position)
            shiftFences(of: node, from: position, by: 1)
            guard node.slots.count > leafCapacity else { return nil }
            let half = node.slots.count / 2
            let right = Node(leaf: node.slots.array(half..<node.slots.count))
            node.slots.removeSubrange(half...)
            node.total = node.slots.count
            if ordering.hasDigests {
                computeFences(of: node, ordering)
                computeFences(of: right, ordering)
            } else {
                node.fences = NodeBuffer()
            }
            return right
        }
        let index = childIndex(slot, in: node, ordering, &search)
        prefetchChild(index, of: node)
        rank += node.countBefore(index)
        let split = node.children.withUnretained(index) { child in
            let split = insert(slot, into: child, ordering, &search, rank: &rank)
            node.counts[index] = UInt32(child.total)
            node.childLines[index] = child.lines
            return split
        }
        setFirst(of: node, at: index, ordering)
        if let split {
            node.children.insert(split, at: index + 1)
            node.counts.insert(UInt32(split.total), at: index + 1)
            node.firsts.insert(split.first, at: index + 1)
            node.childLines.insert(split.lines, at: index + 1)
            if node.digests.count + 1 == node.firsts.count {
                node.digests.insert(ordering.digest(of: split.first), at: index + 1)
            } else {
                node.digests = NodeBuffer()
            }
        }
        guard node.children.count > branchCapacity else { return nil }
        let half = node.children.count / 2
        let right = Node(children: node.children.array(half..<node.children.count))
        if node.digests.count == node.firsts.count {
            right.digests = NodeBuffer(node.digests.array(half..<node.digests.count))
            node.digests.removeSubrange(half...)
        } else {
            node.digests = NodeBuffer()
        }
        node.children.removeSubrange(half...)
        node.counts.removeSubrange(half...)
        node.firsts.removeSubrange(half...)
        node.childLines.removeSubrange(half...)
        node.total = node.countBefore(node.counts.count)
        return right
    }

    /// Removes `slot`, which must be in the tree with the keys `ordering` sees now.
    ///
    /// - Returns: The rank the slot had before it was removed.
    /// - Complexity: O(log n) comparisons.
    @discardableResult
    mutating func remove<O: SlotOrdering>(_ slot: Int32, _ ordering: O) -> Int {
        var rank = 0
        var search = Search(slot, ordering)
        Self.remove(slot, from: root, ordering, &search, rank: &rank)
        if !root.isLeaf && root.children.count == 1 {
            root = root.children[0]
        }
        return rank
    }

    private static func remove<O: SlotOrdering>(
        _ slot: Int32, from node: Node, _ ordering: O, _ search: inout Search, rank: inout Int
    ) {
        node.total -= 1
        if node.isLeaf {
            let position = position(ofPresent: slot, in: node, ordering, search)
            rank += position
            node.slots.remove(at: position)
            shiftFences(of: node, from: position, by: -1)
            return
        }
        let index = childIndex(slot, in: node, ordering, &search)
        prefetchChild(index, of: node)
        rank += node.countBefore(index)
        let (emptied, width, capacity) = node.children.withUnretained(index) { child in
            remove(slot, from: child, ordering, &search, rank: &rank)
            node.counts[index] = UInt32(child.total)
            node.childLines[index] = child.lines
            return (child.total == 0, child.width, child.isLeaf ? leafCapacity : branchCapacity)
        }
        if emptied {
            if node.digests.count == node.firsts.count {
                node.digests.remove(at: index)
            } else {
                node.digests = NodeBuffer()
            }
            node.children.remove(at: index)
            node.counts.remove(at: index)
            node.firsts.remove(at: index)
            node.childLines.remove(at: index)
            return
        }
        setFirst(of: node, at: index, ordering)
        guard width < capacity / 4, node.children.count > 1 else { return }
        let left = index > 0 ? index - 1 : index
        mergeIfFits(node, left)
    }

    /// Merges child `index + 1` into child `index` when their contents fit in one node.
    static func mergeIfFits(_ node: Node, _ index: Int) {
        let a = node.children[index]
        let b = node.children[index + 1]
        let capacity = a.isLeaf ? leafCapacity : branchCapacity
        guard a.width + b.width <= capacity * 3 / 4 else { return }
        if a.isLeaf {
            if !a.fences.isEmpty && !b.fences.isEmpty {
                let offset = Int32(a.slots.count)
                a.fences.append(contentsOf: b.fences.withElements { fences in
                    fences.map { LeafFence(position: $0.position + offset, digest: $0.digest) }
                })
            } else {
                a.fences = NodeBuffer()
            }
            a.slots.append(contentsOf: b.slots)
        } else {
            if a.digests.count == a.firsts.count && b.digests.count == b.firsts.count {
                a.digests.append(contentsOf: b.digests)
            } else {
                a.digests = NodeBuffer()
            }
            a.children.append(contentsOf: b.children.array)
            a.counts.append(contentsOf: b.counts)
            a.firsts.append(contentsOf: b.firsts)
            a.childLines.append(contentsOf: b.childLines)
        }
        a.total += b.total
        node.counts[index] = UInt32(a.total)
        node.childLines[index] = a.lines
        if node.digests.count == node.firsts.count {
            node.digests.remove(at: index + 1)
        } else {
            node.digests = NodeBuffer()
        }
        node.children.remove(at: index + 1)
        node.counts.remove(at: index + 1)
        node.firsts.remove(at: index + 1)
        node.childLines.remove(at: index + 1)
    }

    /// Asks for child `index` of `node` before the descent reads it: its first lines and,
    /// from ``Node/childLines``, its buffers, so they arrive together instead of one after
    /// the other. Nothing is retained (``NodeBuffer/prefetchObject(at:lines:)``); the first
    /// two lines hold the fields a descent reads first (the header, ``Node/isLeaf``,
    /// ``Node/total`` and the first buffers' addresses and counts).
    @inline(__always)
    private static func prefetchChild(_ index: Int, of node: Node) {
        guard index < node.children.count else { return }
        node.children.prefetchObject(at: index, lines: 2)
        if index < node.childLines.count { node.childLines[index].prefetch() }
    }

    /// Asks for the entries of children `candidates` of `node` that the descent reads once
    /// it has chosen one of them: their addresses and ``Node/childLines``. A search asks
    /// when a few children are left, so that these lines arrive while it compares the last
    /// digests, instead of after (the child lines are not asked for with the node's).
    @inline(__always)
    private static func prefetchChildEntries(_ candidates: Range<Int>, of node: Node) {
        NodeLines.prefetch(node.childLines.extent(of: candidates))
        NodeLines.prefetch(node.children.extent(of: candidates))
    }

    /// The number of slots that sort before `slot` (its position, when it is in the tree).
    ///
    /// - Complexity: O(log n) comparisons.
    func rank<O: SlotOrdering>(of slot: Int32, _ ordering: O) -> Int {
        var node = root
        var rank = 0
        var search = Search(slot, ordering)
        while !node.isLeaf {
            let index = Self.childIndex(slot, in: node, ordering, &search)
            rank += node.countBefore(index)
            node = node.children[index]
        }
        return rank + Self.lowerBound(slot, in: node, ordering, search)
    }

    /// The number of slots for which `isBefore` holds, where `isBefore` is true for a prefix
    /// of the order and false after it.
    ///
    /// - Complexity: O(log n) calls of `isBefore`.
    func partitionPoint(_ isBefore: (Int32) -> Bool) -> Int {
        var node = root
        var rank = 0
        while !node.isLeaf {
            // The last child whose first slot is still before the boundary holds it.
            var low = 0
            var high = node.firsts.count
            while low < high {
                let mid = (low + high) / 2
                if isBefore(node.firsts[mid]) { low = mid + 1 } else { high = mid }
            }
            let index = max(low - 1, 0)
            rank += node.countBefore(index)
            node = node.children[index]
        }
        var low = 0
        var high = node.slots.count
        while low < high {
            let mid = (low + high) / 2
            if isBefore(node.slots[mid]) { low = mid + 1 } else { high = mid }
        }
        return rank + low
    }

    /// The slot at position `rank`, which must be in `0..<count`.
    ///
    /// - Complexity: O(log n).
    func select(_ rank: Int) -> Int32 {
        require(rank >= 0 && rank < count, "internal inconsistency: rank \(rank) outside 0..<\(count)")
        var node = root
        var remaining = rank
        while !node.isLeaf {
            var index = 0
            while remaining >= Int(node.counts[index]) {
                remaining -= Int(node.counts[index])
                index += 1
            }
            node = node.children[index]
        }
        return node.slots[remaining]
    }

    /// Calls `body` with each slot at positions `range`, in order.
    ///
    /// - Complexity: O(log n + m) for m positions.
    func forEach(in range: Range<Int>, _ body: (Int32) -> Void) {
        guard !range.isEmpty else { return }
        require(range.lowerBound >= 0 && range.upperBound <= count, "internal inconsistency: range \(range) outside 0..<\(count)")
        Self.visit(root, skipping: range.lowerBound, taking: range.count, body)
    }

    /// Visits `take` slots under `node` after skipping `skip`; returns how many it visited.
    @discardableResult
    private static func visit(_ node: Node, skipping skip: Int, taking take: Int, _ body: (Int32) -> Void) -> Int {
        if node.isLeaf {
            let end = min(node.slots.count, skip + take)
            guard skip < end else { return 0 }
            for i in skip..<end { body(node.slots[i]) }
            return end - skip
        }
        var skip = skip
        var visited = 0
        for index in 0..<node.children.count where visited < take {
            let child = node.children[index]
            let childCount = Int(node.counts[index])
            if skip >= childCount {
                skip -= childCount
                continue
            }
            visited += visit(child, skipping: skip, taking: take - visited, body)
            skip = 0
        }
        return visited
    }

    /// The index of the child of `node` where `slot` belongs: the last child whose first slot
    /// does not sort after it. Narrows `search`'s group bounds to that child.
    ///
    /// With digests, a first slot's keys are read only when the digests tie.
    @inline(__always)
    private static func childIndex<O: SlotOrdering>(_ slot: Int32, in node: Node, _ ordering: O, _ search: inout Search) -> Int {
        let count = node.firsts.count
        guard ordering.hasDigests else {
            var low = 1
            var high = count
            while low < high {
                let mid = (low + high) / 2
                let first = node.firsts[mid]
                if first == slot || ordering.less(first, slot) { low = mid + 1 } else { high = mid }
            }
            search.lowerGroup = -1
            return low - 1
        }
        // A read (rank(of:)) may fill a node's digests too: a tree belongs to one index of
        // one non-Sendable controller, so no other thread reads it meanwhile.
        if node.digests.count != count { computeDigests(of: node, ordering) }
        // The counts, which the descent reads once the search is done (the parent asked for
        // the digests and children with the node's first lines, ``NodeLines``).
        node.counts.prefetch()
        let digest = search.digest
        let index = node.digests.withElements { digests in
            var low = 1
            var high = count
            var askedForChild = false
            while low < high {
                if !askedForChild && high - low <= 8 {
                    askedForChild = true
                    prefetchChildEntries(low - 1..<high, of: node)
                }
                let mid = (low + high) / 2
                let order = ordering.order(digests[mid], digest)
                let before: Bool
                if order != 0 {
                    before = order < 0
                } else {
                    let first = node.firsts[mid]
                    before = first == slot || ordering.less(first, slot)
                }
                if before { low = mid + 1 } else { high = mid }
            }
            return low - 1
        }
        search.lowerGroup = node.digests[index].group
        if index + 1 < count { search.upperGroup = node.digests[index + 1].group }
        return index
    }

    /// The position of `slot`, which is in the tree, in `leaf`, where a descent by its keys
    /// led.
    ///
    /// No key is read in the leaf: the slot is found by its number, in the gap between two
    /// fences that its digest falls in (a digest tie reads the fence slot's keys), or in
    /// the whole leaf without fences — a scan of adjacent memory instead of a binary search
    /// whose every step reads another row's keys.
    ///
    /// - Complexity: O(fenceSpacing) with fences, O(leafCapacity) without.
    @inline(__always)
    private static func position<O: SlotOrdering>(ofPresent slot: Int32, in leaf: Node, _ ordering: O, _ search: Search) -> Int {
        let count = leaf.slots.count
        var (low, high) = (0, count)
        if ordering.hasDigests && !leaf.fences.isEmpty {
            (low, high) = fenceGap(of: slot, in: leaf, ordering, search, grouped: search.isInsideGroup)
            // The first fence that does not sort before the slot may be the slot itself.
            high = min(high + 1, count)
        }
        let found = leaf.slots.withElements { slots in
            (low..<high).first { slots[$0] == slot } ?? slots.firstIndex(of: slot)
        }
        guard let found else {
            requirementFailure("internal inconsistency: slot \(slot) is not in the order tree under its keys")
        }
        assert(found >= low && found < high, "internal inconsistency: slot \(slot) outside its fence gap")
        return found
    }

    /// The first position in `leaf` whose slot does not sort before `slot`.
    ///
    /// With fences (a tree built by ``init(sorted:_:)``, or a leaf that split), the search
    /// first finds the gap between two fences by comparing digests, then reads the keys of
    /// the slots in that gap only. When the leaf's slots all share `slot`'s group
    /// (a leaf inside one section, the common case), the search compares the keys after
    /// the group only: one memory access fewer per comparison. The group bounds of `search`
    /// tell that without reading keys; without them, the leaf's first and last slots do.
    @inline(__always)
    private static func lowerBound<O: SlotOrdering>(_ slot: Int32, in leaf: Node, _ ordering: O, _ search: Search) -> Int {
        leaf.slots.withElements { slots in
            var low = 0
            var high = slots.count
            let grouped = search.isInsideGroup
                || (slots.first.map { ordering.shareGroup($0, slot) } ?? false) && ordering.shareGroup(slots[slots.count - 1], slot)
            if ordering.hasDigests && !leaf.fences.isEmpty {
                (low, high) = fenceGap(of: slot, in: leaf, ordering, search, grouped: grouped)
                // A binary search reads one slot's keys per step, which one depending on the last
                // comparison: each read of a large index's keys is a cache miss that waits for the
                // one before. Asking for the whole gap first (a few slots) lets them overlap.
                ordering.prefetchKeys(of: slots.rebased(low..<high), grouped: grouped)
            }
            if grouped {
                while low < high {
                    let mid = (low + high) / 2
                    if ordering.lessInGroup(slots[mid], slot) { low = mid + 1 } else { high = mid }
                }
                return low
            }
            while low < high {
                let mid = (low + high) / 2
                if ordering.less(slots[mid], slot) { low = mid + 1 } else { high = mid }
            }
            return low
        }
    }
}
