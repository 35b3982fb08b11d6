extension ObjectGraph {
    /// Runs `body` and appends the (object, property) pairs it read on this graph's objects
    /// to `reads`, a buffer the caller owns and reuses: the allocation-free form of
    /// ``trackReads(_:)`` for evaluating many objects in a row.
    ///
    /// The reads are appended in the order they were made, with repeats; nothing is sorted
    /// and no ``ReadSet`` is made. Scopes nest with ``trackReads(_:)`` as that function's
    /// scopes nest with each other: an outer scope sees the reads of an inner one too.
    ///
    /// ```swift
    /// var reads: [PropertyRead] = []
    /// for item in items {
    ///     reads.removeAll(keepingCapacity: true)
    ///     let key = graph.trackReads(appendingTo: &reads) { item.location?.name }
    ///     …
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - reads: The buffer the reads are appended to; its earlier contents are kept.
    ///   - body: The code whose reads to record.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` throws.
    /// - Complexity: O(*r*) for *r* reads, with no allocation once `reads` has the capacity.
    public func trackReads<Result>(
        appendingTo reads: inout [PropertyRead], _ body: () throws -> Result
    ) rethrows -> Result {
        let mode = _context._readMode
        let start = _readBuffer.count
        _context._readMode = .tracking
        defer {
            _context._readMode = mode
            if _readBuffer.count > start { reads.append(contentsOf: _readBuffer[start...]) }
            if start == 0 { _readBuffer.removeAll(keepingCapacity: true) }
        }
        return try body()
    }

    /// The ID this graph gives the object of `entity` numbered `entitySerial`: the inverse
    /// of ``ObjectID/entitySerial``, for recorders that keep numbers instead of IDs.
    ///
    /// - Parameters:
    ///   - entity: The object's entity.
    ///   - entitySerial: A number this graph issued for an object of `entity`.
    /// - Returns: The ID; its object may since have been deleted.
    /// - Complexity: O(1).
    public func objectID(of entity: EntityDescription, entitySerial: Int) -> ObjectID {
        ObjectID(graphTag: tag, entity: entity, serial: entitySerial)
    }
}

extension ObjectID {
    /// The object's number among the objects of its entity in its graph: the graph numbers
    /// them densely from 0 in insertion order and never reuses a number.
    ///
    /// A recorder of reads (such as a results controller's dependency table) can keep one
    /// column entry per number instead of a hash table keyed by ID. Numbers of different
    /// entities or graphs overlap; compare ``entity`` first.
    ///
    /// - Complexity: O(1).
    public var entitySerial: Int { serial }
}
