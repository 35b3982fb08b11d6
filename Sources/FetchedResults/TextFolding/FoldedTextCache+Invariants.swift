extension FoldedTextCache {
    #if FRK_INVARIANT_CHECKS
        /// Checks that every entry was folded with the cache's options from its source.
        func _checkInvariants() {
            for entry in entries.values {
                require(entry.text.options == options, "FoldedTextCache: an entry folded with other options")
                require(entry.text == FoldedText(entry.source, options: options), "FoldedTextCache: an entry is not the folding of its source")
            }
        }
    #else
        /// Checks nothing: invariant checks are compiled out.
        @inline(__always) func _checkInvariants() {}
    #endif
}
