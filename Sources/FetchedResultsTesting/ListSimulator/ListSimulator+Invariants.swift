import Foundation

extension ListSimulator {
    #if FRK_INVARIANT_CHECKS
        /// Checks the counters against each other and the log: every reload and batch logs at
        /// least one entry, and every counted update applied at least one batch. O(1), so a
        /// long-running test with a long log does not pay for it.
        func _checkInvariants() {
            require(reloadCount >= 0 && batchCount >= 0, "internal inconsistency: negative counter")
            require(
                operations.count >= reloadCount + batchCount,
                "internal inconsistency: \(reloadCount) reloads and \(batchCount) batches but \(operations.count) log entries"
            )
            require(
                animatedUpdateCount <= batchCount,
                "internal inconsistency: \(animatedUpdateCount) updates but only \(batchCount) batches"
            )
        }
    #else
        @inline(__always)
        func _checkInvariants() {}
    #endif
}
