extension ChangeAccumulator.TokenForest {
    /// The number of nodes on the longest path from the root of `tree` down, to check that
    /// the treap stays balanced (expected O(log n)).
    ///
    /// - Complexity: O(n).
    func height(of tree: Int32) -> Int {
        guard tree >= 0 else { return 0 }
        let node = nodes[Int(tree)]
        return 1 + Swift.max(height(of: node.left), height(of: node.right))
    }

    #if FRK_INVARIANT_CHECKS
        /// Checks one tree: subtree widths add up, priorities form a heap, node widths match
        /// their kinds, and the original elements (runs and tombstones) are exactly the
        /// original positions 0, 1, 2, … in order, ending with the unbounded run.
        func _checkInvariants(tree: Int32) {
            func check(_ node: Int32, maxPriority: UInt32) -> Int {
                guard node >= 0 else { return 0 }
                let n = nodes[Int(node)]
                require(n.priority <= maxPriority, "internal inconsistency: treap heap order broken")
                switch n.kind {
                case .run: require(n.width >= 1, "internal inconsistency: empty run")
                case .tombstone: require(n.width == 0, "internal inconsistency: tombstone with width")
                case .live: require(n.width == 1, "internal inconsistency: live token of width \(n.width)")
                }
                let total = n.width + check(n.left, maxPriority: n.priority) + check(n.right, maxPriority: n.priority)
                require(total == n.total, "internal inconsistency: subtree width \(n.total) != \(total)")
                return total
            }
            _ = check(tree, maxPriority: .max)
            var nextOriginal = 0
            var endsUnbounded = false
            forEachNode(in: tree) { node, _ in
                switch node.kind {
                case .run:
                    require(node.start == nextOriginal, "internal inconsistency: run at \(node.start), expected \(nextOriginal)")
                    nextOriginal += node.width
                    endsUnbounded = node.width >= Self.unboundedLength / 2
                case .tombstone:
                    require(node.start == nextOriginal, "internal inconsistency: tombstone \(node.start), expected \(nextOriginal)")
                    nextOriginal += 1
                    endsUnbounded = false
                case .live:
                    break
                }
            }
            require(endsUnbounded, "internal inconsistency: the original elements do not end with the unbounded run")
        }
    #else
        @inline(__always)
        func _checkInvariants(tree: Int32) {}
    #endif
}

extension ChangeAccumulator.Composer {
    #if FRK_INVARIANT_CHECKS
        /// Checks the section tree and the row tree of every tracked section, that a
        /// section's rows are tracked exactly when it is an original section not reloaded, and
        /// that only such a section remembers a header refresh.
        func _checkInvariants() {
            sections._checkInvariants(tree: sectionTree)
            sections.forEachNode(in: sectionTree) { node, _ in
                guard node.kind == .live else { return }
                let token = node.payload
                require(
                    token.tracksRows == (token.origin >= 0 && !token.isReloaded),
                    "internal inconsistency: section token \(token.origin) tracks rows wrongly")
                require(
                    !token.isHeaderRefreshed || token.tracksRows,
                    "internal inconsistency: header refresh kept for new or reloaded section "
                        + "\(token.origin)"
                )
                if token.tracksRows { rows._checkInvariants(tree: token.rows) }
            }
        }
    #else
        @inline(__always)
        func _checkInvariants() {}
    #endif
}

extension ChangeAccumulator {
    #if FRK_INVARIANT_CHECKS
        /// Checks the composition, and that it holds changes only while changes are pending and
        /// that controller events are recorded only inside a bracket.
        func _checkInvariants() {
            composer._checkInvariants()
            if machine.pending != .changes {
                require(composer.isEmpty, "internal inconsistency: changes composed while none are pending")
            }
            if machine.eventDepth == 0 {
                require(openEvents.isEmpty, "internal inconsistency: controller events recorded outside a bracket")
            }
        }
    #else
        @inline(__always)
        func _checkInvariants() {}
    #endif
}
