extension PredicateJunction {
    #if FRK_INVARIANT_CHECKS
        /// Checks that every operand has its counters and no operand decided more often
        /// than it ran.
        func _checkInvariants() {
            require(steps.count == evaluated.count && steps.count == decided.count, "PredicateJunction: counters out of step with operands")
            for index in steps.indices {
                require(decided[index] >= 0 && decided[index] <= evaluated[index], "PredicateJunction: operand \(index) decided more often than it ran")
            }
            require(countdown > 0 && countdown <= Self.period, "PredicateJunction: reorder countdown out of range")
        }
    #else
        /// Checks nothing: invariant checks are compiled out.
        @inline(__always) func _checkInvariants() {}
    #endif
}
