extension ObjectGraph {
    /// Runs `body` and returns the exact set of (object, property) pairs it read on this
    /// graph's objects, including through relationships (`item.location?.name` reads
    /// `location` of the item and `name` of the location).
    ///
    /// Inside, reads skip Observation entirely and append to one reused buffer: cheap
    /// enough to run per object over a million objects. Scopes nest: an outer scope sees the
    /// reads of an inner one too. ``GraphObject/value(forKey:)`` is tracked as well.
    ///
    /// - Parameter body: The code whose reads to record.
    /// - Returns: What `body` returned and what it read.
    /// - Throws: What `body` throws.
    /// - Complexity: O(*r* log *r*) for *r* reads.
    public func trackReads<Result>(_ body: () throws -> Result) rethrows -> (Result, ReadSet) {
        let mode = _context._readMode
        let start = _readBuffer.count
        _context._readMode = .tracking
        defer {
            _context._readMode = mode
            if start == 0 { _readBuffer.removeAll(keepingCapacity: true) }
        }
        let result = try body()
        return (result, ReadSet(_readBuffer[start...]))
    }

    /// Runs `body` with plain reads: no Observation bookkeeping and no read tracking.
    ///
    /// The fast path for extracting keys from many objects; a read costs one branch more
    /// than a stored property.
    ///
    /// - Parameter body: The code whose reads skip Observation.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` throws.
    public func withoutObservation<Result>(_ body: () throws -> Result) rethrows -> Result {
        let mode = _context._readMode
        _context._readMode = .untracked
        defer { _context._readMode = mode }
        return try body()
    }
}
