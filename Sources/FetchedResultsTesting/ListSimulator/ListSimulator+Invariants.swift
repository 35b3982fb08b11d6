import Foundation

extension ListSimulator {
    #if FRK_INVARIANT_CHECKS
        /// Checks the counters against the log: every reload and batch is logged once.
        func _checkInvariants() {
            let reloads = operations.count { if case .reloadData = $0 { true } else { false } }
            let batches = operations.count { if case .beginBatch = $0 { true } else { false } }
            precondition(reloads == reloadCount, "internal inconsistency: \(reloads) reloads logged, \(reloadCount) counted")
            precondition(batches == batchCount, "internal inconsistency: \(batches) batches logged, \(batchCount) counted")
            precondition(animatedUpdateCount <= batchCount || batchCount == 0 || animatedUpdateCount >= 0,
                         "internal inconsistency: negative update count")
        }
    #else
        @inline(__always)
        func _checkInvariants() {}
    #endif
}
