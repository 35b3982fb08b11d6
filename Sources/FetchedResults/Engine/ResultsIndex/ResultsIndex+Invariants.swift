extension ResultsIndex {
    #if FRK_INVARIANT_CHECKS
        /// Checks the tree, the slot map, the section counts and the directory.
        func _checkInvariants() {
            tree._checkInvariants(keys)
            require(slots.count == tree.count, "internal inconsistency: \(slots.count) ids for \(tree.count) rows")
            var counts = [Int](repeating: 0, count: sectionCounts.count)
            tree.forEach(in: 0..<tree.count) { slot in
                require(slots[keys.ids[Int(slot)]] == slot, "internal inconsistency: slot map misses slot \(slot)")
                counts[Int(keys.sectionOf[Int(slot)])] += 1
            }
            for handle in counts.indices where directoryPosition[Int(handle)] != Self.freeHandleMark {
                require(counts[handle] == sectionCounts[handle], "internal inconsistency: section \(handle) counts \(sectionCounts[handle]), holds \(counts[handle])")
            }
            var start = 0
            for (position, handle) in directory.enumerated() {
                require(sectionCounts[Int(handle)] > 0, "internal inconsistency: empty section in the directory")
                require(directoryPosition[Int(handle)] == Int32(position), "internal inconsistency: stale directory position")
                require(directoryStarts[position] == start, "internal inconsistency: stale section start")
                if position > 0 {
                    let previous = keys.sectionValues[Int(directory[position - 1])]
                    let value = keys.sectionValues[Int(handle)]
                    require((previous < value) == keys.sectionsAscending && previous != value, "internal inconsistency: directory out of order")
                }
                start += sectionCounts[Int(handle)]
            }
            require(start == tree.count, "internal inconsistency: sections hold \(start) of \(tree.count) rows")
        }
    #else
        @inline(__always)
        func _checkInvariants() {}
    #endif
}
