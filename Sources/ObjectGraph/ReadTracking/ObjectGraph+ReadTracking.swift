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
        let scope = _openScope(owner: nil)
        defer { _closeScope(scope) }
        let result = try body()
        return (result, ReadSet(_context._reads[scope.start...]))
    }

    /// Runs `body` with plain reads: no Observation bookkeeping and no read tracking.
    ///
    /// The fast path for extracting keys from many objects; a read costs one branch more
    /// than a stored property.
    ///
    /// - Parameter body: The code whose reads skip Observation.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` throws.
    /// - Complexity: O(1), plus the cost of `body`.
    public func withoutObservation<Result>(_ body: () throws -> Result) rethrows -> Result {
        let mode = _context._readMode
        _context._readMode = .untracked
        defer { _context._readMode = mode }
        return try body()
    }

    /// What a tracking scope restores when it ends.
    internal struct _TrackingScope {
        /// The read mode before the scope.
        var mode: _ReadMode
        /// The owner of the enclosing split scope, if any.
        var owner: ObjectIdentifier?
        /// Where the scope's reads start in the context's buffer.
        var start: Int
    }

    /// Opens a tracking scope: tracking mode, reads appended from the buffer's current end.
    ///
    /// - Parameter owner: The object whose reads of its first 64 properties the scope
    ///   collects as bits (a split scope), or `nil` to append every read. Ignored inside
    ///   another scope, whose caller expects every read in the buffer.
    /// - Returns: What ``_closeScope(_:)`` restores.
    @inline(__always)
    internal func _openScope(owner: GraphObject?) -> _TrackingScope {
        let context = _context
        let scope = _TrackingScope(mode: context._readMode, owner: context._owner, start: context._reads.count)
        if let owner, context._trackingDepth == 0 {
            context._owner = ObjectIdentifier(owner)
            context._ownerBits = 0
        } else {
            context._owner = nil
        }
        context._trackingDepth += 1
        context._readMode = .tracking
        return scope
    }

    /// Closes a tracking scope; the outermost one empties the buffer, keeping its capacity.
    ///
    /// Read what the scope recorded before calling it.
    @inline(__always)
    internal func _closeScope(_ scope: _TrackingScope) {
        let context = _context
        context._readMode = scope.mode
        context._owner = scope.owner
        context._trackingDepth -= 1
        if context._trackingDepth == 0 {
            // Usually a read or two: removed one by one, cheaper than `removeAll(keepingCapacity:)`
            // (a general range replacement); many at once keep the capacity too.
            if context._reads.count > 8 {
                context._reads.removeAll(keepingCapacity: true)
            } else {
                while !context._reads.isEmpty { context._reads.removeLast() }
            }
        }
    }
}
