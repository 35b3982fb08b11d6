extension FoldedTextColumn {
    #if FRK_INVARIANT_CHECKS
        /// Checks, on small columns, that the entries point inside the buffer, that the live
        /// byte and folding counts add up, and that exactly the irregular entries have a
        /// folding with boundaries.
        func _checkInvariants() {
            guard entries.count <= 4_096 else { return }
            var live = 0
            var foldings = 0
            for (serial, entry) in entries.enumerated() {
                switch entry.length {
                case Self.absent:
                    require(irregular[serial] == nil, "internal inconsistency: absent serial \(serial) has an irregular folding")
                case Self.irregularLength:
                    require(irregular[serial]?.boundaries != nil, "internal inconsistency: irregular serial \(serial) has no folding with boundaries")
                    foldings += 1
                default:
                    require(entry.length >= 0 && entry.start + Int(entry.length) <= bytes.count, "internal inconsistency: serial \(serial) points outside the buffer")
                    require(irregular[serial] == nil, "internal inconsistency: regular serial \(serial) also has an irregular folding")
                    live += Int(entry.length)
                    foldings += 1
                }
            }
            require(live == liveBytes, "internal inconsistency: \(liveBytes) live bytes counted, \(live) held")
            require(foldings == count && irregular.count <= count, "internal inconsistency: \(count) foldings counted, \(foldings) held")
        }
    #else
        @inline(__always)
        func _checkInvariants() {}
    #endif
}
