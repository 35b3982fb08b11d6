extension ResultsEngine {
    #if FRK_INVARIANT_CHECKS
        /// Checks the index and that every fetched row belongs to a live object.
        func _checkInvariants() {
            index._checkInvariants()
            if index.totalCount <= 4_096 {
                dependencies._checkInvariants()
                for id in index.visibleIDs {
                    require(graph.registeredObject(with: id) is Object, "internal inconsistency: fetched \(id) is not a registered \(Object.self)")
                }
            }
        }
    #else
        @inline(__always)
        func _checkInvariants() {}
    #endif
}
