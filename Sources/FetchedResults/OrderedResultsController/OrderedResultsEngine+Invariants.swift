extension OrderedResultsEngine {
    #if FRK_INVARIANT_CHECKS
        /// Checks the index, and for up to 4,096 members that the labels increase along the
        /// relationship and that every row's keys hold its member's label.
        func _checkOrderedInvariants() {
            _checkInvariants()
            require(userEdit == nil, "internal inconsistency: a user's edit outlived its commit")
            guard labels.count <= 4_096 else { return }
            let list = currentMembers()
            require(list.count == labels.count,
                         "internal inconsistency: \(labels.count) order labels for \(list.count) members")
            var previous = Int64.min
            for member in list {
                guard let label = labels[member.objectID] else {
                    requirementFailure("internal inconsistency: member \(member.objectID) has no order label")
                }
                require(label > previous, "internal inconsistency: order labels do not increase at \(member.objectID)")
                previous = label
            }
            for id in index.visibleIDs {
                guard let label = labels[id], let keys = index.keys(of: id) else {
                    requirementFailure("internal inconsistency: row \(id) is not a labelled member")
                }
                require(keys.sort == [.int(label), .int(0)], "internal inconsistency: row \(id) sorts by \(keys.sort), its label is \(label)")
            }
        }
    #else
        @inline(__always)
        func _checkOrderedInvariants() {}
    #endif
}
