extension FoldedText {
    #if FRK_INVARIANT_CHECKS
        /// Checks that the boundaries cover every byte position and that the bytes are UTF-8.
        func _checkInvariants() {
            require(String(validating: bytes, as: UTF8.self) != nil, "FoldedText: folded bytes are not UTF-8")
            if let boundaries {
                require(boundaries.starts.count * 64 > bytes.count, "FoldedText: start bitmap too short")
                require(boundaries.ends.count * 64 > bytes.count, "FoldedText: end bitmap too short")
                require(boundaries.canStart(0) || bytes.isEmpty, "FoldedText: position 0 must start a match")
                require(boundaries.canEnd(bytes.count), "FoldedText: the end must end a match")
                for i in 0..<bytes.count where bytes[i] & 0xC0 == 0x80 {
                    require(!boundaries.canStart(i) && !boundaries.canEnd(i), "FoldedText: a boundary inside a scalar")
                }
            }
        }
    #else
        /// Checks nothing: invariant checks are compiled out.
        @inline(__always) func _checkInvariants() {}
    #endif
}
