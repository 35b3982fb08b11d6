/// What a composition token carries besides its place in a sequence.
protocol CompositionPayload {
    /// The payload of a node that is not a live token (a run or a tombstone).
    init()
}

extension ChangeAccumulator {
    /// A forest of sequences, each describing the current state of a list (the sections, or the
    /// rows of one section) relative to its state at the last flush, at a cost that depends on
    /// the number of changes and not on the length of the list.
    ///
    /// A sequence is stored as an implicit treap (a randomized balanced tree ordered by
    /// position) of three kinds of node:
    ///
    /// - a **run** of consecutive *untouched* original elements, `start ..< start + width`
    ///   (original positions); a fresh sequence is one run of unbounded length, so the length
    ///   of the list never needs to be known;
    /// - a **tombstone** for an original element that was touched (removed, moved away, or
    ///   replaced by a live token); it has no width and stays where the original element was,
    ///   so the original elements (runs and tombstones) always appear in original order;
    /// - a **live** token of width 1: an element of the current state that is not an untouched
    ///   original — an inserted element, or an original one that moved or changed.
    ///
    /// Every node's subtree width (the number of current elements below it) gives logarithmic
    /// lookup by current position. Nodes live in one array; trees are named by their root's
    /// index, so one forest holds the row sequences of every section. Nodes are never freed
    /// before the whole forest is dropped at a flush: each operation adds at most two.
    struct TokenForest<Payload: CompositionPayload> {
        /// The kind of a node.
        enum Kind: UInt8 {
            case run
            case tombstone
            case live
        }

        /// One node of a treap.
        struct Node {
            var left: Int32 = -1
            var right: Int32 = -1
            var priority: UInt32
            var kind: Kind
            /// For a run, its first original position; for a tombstone, the original position
            /// it stands for; unused for a live token.
            var start: Int
            /// The number of current elements the node stands for: a run's length, 1 for a live
            /// token, 0 for a tombstone.
            var width: Int
            /// The width of the node's whole subtree.
            var total: Int
            var payload: Payload
        }

        /// The position found by `locate(_:in:)`.
        struct Location {
            /// The node that holds the position.
            var node: Int32
            /// The position's offset inside the node (0 for a live token).
            var offset: Int
        }

        /// The length given to the run that stands for the unknown rest of an original list.
        static var unboundedLength: Int { Int.max / 8 }

        /// Every node; changed only by the forest's own operations (the split and merge
        /// recursions of `Unsafe/ChangeAccumulator.TokenForest+InPlace.swift` among them).
        var nodes: [Node] = []
        private var randomState: UInt64 = 0x2545_F491_4F6C_DD1D

        /// Creates an empty forest.
        init() {}

        /// The number of nodes ever created, the size of the structure.
        var nodeCount: Int { nodes.count }

        // MARK: Building blocks

        private mutating func nextPriority() -> UInt32 {
            randomState ^= randomState << 13
            randomState ^= randomState >> 7
            randomState ^= randomState << 17
            return UInt32(truncatingIfNeeded: randomState >> 16)
        }

        private mutating func makeNode(_ kind: Kind, start: Int, width: Int, payload: Payload) -> Int32 {
            let priority = nextPriority()
            nodes.append(Node(priority: priority, kind: kind, start: start, width: width, total: width, payload: payload))
            return Int32(nodes.count - 1)
        }

        @inline(__always)
        func total(_ tree: Int32) -> Int {
            tree < 0 ? 0 : nodes[Int(tree)].total
        }

        @inline(__always)
        private mutating func update(_ node: Int32) {
            let n = nodes[Int(node)]
            nodes[Int(node)].total = n.width + total(n.left) + total(n.right)
        }

        /// Creates a tree that stands for an untouched original list: one unbounded run.
        mutating func makeOriginalTree() -> Int32 {
            makeNode(.run, start: 0, width: Self.unboundedLength, payload: Payload())
        }

        /// Creates a live node that is not yet in any tree.
        mutating func makeLive(_ payload: Payload) -> Int32 {
            makeNode(.live, start: -1, width: 1, payload: payload)
        }

        /// Reads the payload of a node.
        func payload(_ node: Int32) -> Payload {
            nodes[Int(node)].payload
        }

        /// Replaces the payload of a node; positions do not change.
        mutating func setPayload(_ payload: Payload, of node: Int32) {
            nodes[Int(node)].payload = payload
        }

        /// Splits `tree` into the nodes before current position `position` and the rest,
        /// cutting a run in two when the position falls inside it. Tombstones exactly at the
        /// position go to the right part.
        ///
        /// - Complexity: O(log n) expected.
        private mutating func split(_ tree: Int32, at position: Int) -> (Int32, Int32) {
            guard tree >= 0 else { return (-1, -1) }
            var tail: (start: Int, width: Int)?
            let (a, b) = splitInPlace(tree, at: position, cutTail: &tail)
            guard let tail else { return (a, b) }
            // The tail of a cut run goes in front of the right part, as a node of its own with a
            // fresh random priority (reusing the run's would pile equal priorities up into a
            // chain); merging it here, at the top, keeps the heap order.
            let node = makeNode(.run, start: tail.start, width: tail.width, payload: Payload())
            return (a, merge(node, b))
        }

        /// Joins two trees whose elements are in order (every element of `a` before every one
        /// of `b`).
        ///
        /// - Complexity: O(log n) expected.
        private mutating func merge(_ a: Int32, _ b: Int32) -> Int32 {
            if a < 0 { return b }
            if b < 0 { return a }
            return mergeInPlace(a, b)
        }

        // MARK: Operations

        /// Finds the node that holds current position `position`.
        ///
        /// - Precondition: `position < total(tree)`.
        /// - Complexity: O(log n) expected.
        func locate(_ position: Int, in tree: Int32) -> Location {
            var node = tree
            var position = position
            while node >= 0 {
                let n = nodes[Int(node)]
                let leftWidth = total(n.left)
                if position < leftWidth {
                    node = n.left
                } else if position < leftWidth + n.width {
                    return Location(node: node, offset: position - leftWidth)
                } else {
                    position -= leftWidth + n.width
                    node = n.right
                }
            }
            requirementFailure("internal inconsistency: position beyond the end of an unbounded sequence")
        }

        /// Inserts a detached node at current position `position`.
        ///
        /// - Complexity: O(log n) expected.
        mutating func insert(_ node: Int32, at position: Int, in tree: inout Int32) {
            nodes[Int(node)].left = -1
            nodes[Int(node)].right = -1
            update(node)
            let (a, b) = split(tree, at: position)
            tree = merge(merge(a, node), b)
        }

        /// Removes the element at current position `position`. An untouched original element
        /// leaves a tombstone; a live token is detached and returned so it can be inserted
        /// elsewhere.
        ///
        /// - Returns: The original position of an untouched element (`.original`), or the
        ///   detached live node (`.live`).
        /// - Complexity: O(log n) expected.
        mutating func remove(at position: Int, in tree: inout Int32) -> Removed {
            let (a, rest) = split(tree, at: position)
            // `element` holds the tombstones just before the element and the element itself
            // (a run cut down to one original, or a live token).
            var (element, b) = split(rest, at: 1)
            let removed = detachFirstElement(&element)
            tree = merge(merge(a, element), b)
            return removed
        }

        /// What `remove(at:in:)` took out.
        enum Removed {
            /// An untouched original element, by its original position; a tombstone now marks
            /// its place.
            case original(Int)
            /// A live token, detached from the tree.
            case live(Int32)
        }

        /// Makes the element at current position `position` a live token, replacing an
        /// untouched original element by a tombstone followed by a live token made by
        /// `makePayload` from its original position.
        ///
        /// - Returns: The live node now at the position.
        /// - Complexity: O(log n) expected.
        mutating func touch(at position: Int, in tree: inout Int32, makePayload: (Int) -> Payload) -> Int32 {
            let location = locate(position, in: tree)
            if nodes[Int(location.node)].kind == .live { return location.node }
            let (a, rest) = split(tree, at: position)
            var (element, b) = split(rest, at: 1)
            guard case .original(let original) = detachFirstElement(&element) else {
                requirementFailure("internal inconsistency: an untouched element was not an original one")
            }
            // The tombstone stays in `element`; the live token follows it.
            let live = makeLive(makePayload(original))
            tree = merge(merge(merge(a, element), live), b)
            return live
        }

        /// In a tree of exactly one element (and any number of tombstones), turns a one-original
        /// run into a tombstone in place, or unlinks a live token.
        private mutating func detachFirstElement(_ tree: inout Int32) -> Removed {
            var path: [Int32] = []
            var node = tree
            var element: Int32 = -1
            while node >= 0 {
                let n = nodes[Int(node)]
                if total(n.left) > 0 {
                    path.append(node)
                    node = n.left
                } else if n.width > 0 {
                    element = node
                    break
                } else {
                    path.append(node)
                    node = n.right
                }
            }
            require(element >= 0, "internal inconsistency: no element at the position")
            let n = nodes[Int(element)]
            assert(n.width == 1, "internal inconsistency: the split left more than one element")
            if n.kind == .run {
                nodes[Int(element)].kind = .tombstone
                nodes[Int(element)].width = 0
                update(element)
                for ancestor in path.reversed() { update(ancestor) }
                return .original(n.start)
            }
            let replacement = merge(n.left, n.right)
            if let parent = path.last {
                if nodes[Int(parent)].left == element {
                    nodes[Int(parent)].left = replacement
                } else {
                    nodes[Int(parent)].right = replacement
                }
                for ancestor in path.reversed() { update(ancestor) }
            } else {
                tree = replacement
            }
            nodes[Int(element)].left = -1
            nodes[Int(element)].right = -1
            update(element)
            return .live(element)
        }

        /// Calls `body` for every node of `tree` in order, with the current position of the
        /// node's first element.
        ///
        /// - Complexity: O(n) for n nodes.
        func forEachNode(in tree: Int32, _ body: (_ node: Node, _ position: Int) -> Void) {
            var stack: [Int32] = []
            var node = tree
            var position = 0
            while node >= 0 || !stack.isEmpty {
                while node >= 0 {
                    stack.append(node)
                    node = nodes[Int(node)].left
                }
                let current = stack.removeLast()
                let n = nodes[Int(current)]
                body(n, position)
                position += n.width
                node = n.right
            }
        }
    }
}
