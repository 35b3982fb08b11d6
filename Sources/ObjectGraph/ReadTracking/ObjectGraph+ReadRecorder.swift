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
        let scope = _openScope(owner: nil)
        defer {
            if _context._reads.count > scope.start { reads.append(contentsOf: _context._reads[scope.start...]) }
            _closeScope(scope)
        }
        return try body()
    }

    /// Runs `body`, which evaluates `owner`, and records what it read in two parts: the
    /// owner's own properties (below index 64) as bits of `ownProperties`, every other read
    /// appended to `reads`. The fastest form of tracking, for a recorder that keeps the own
    /// reads of many evaluated objects as one set (they run the same code, so they read the
    /// same own properties) and the reads through relationships per object.
    ///
    /// Every read is recorded exactly once, in one of the two parts: a read of the owner's
    /// property with index 64 or more, and every read made inside another tracking scope
    /// (nested in `body`, or around this one, which expects every read in its buffer),
    /// is appended to `reads` as a ``PropertyRead`` of the owner instead.
    ///
    /// ```swift
    /// var own: UInt64 = 0
    /// var reads: [PropertyRead] = []
    /// for item in items {
    ///     reads.removeAll(keepingCapacity: true)
    ///     let key = graph.trackReads(of: item, ownProperties: &own, appendingTo: &reads) {
    ///         item.location?.name         // `location` is a bit of `own`, the name a read
    ///     }
    ///     …
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - owner: The object `body` evaluates, of this graph.
    ///   - ownProperties: Bit `i` is set (never cleared) when `body` read the owner's property
    ///     with index `i`.
    ///   - reads: The buffer the other reads are appended to, in the order they were made,
    ///     with repeats; its earlier contents are kept.
    ///   - body: The code whose reads to record.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` throws.
    /// - Complexity: O(*r*) for *r* reads; a read of the owner costs a compare and a bit, and
    ///   nothing allocates once `reads` has the capacity.
    package func trackReads<Result>(
        of owner: GraphObject, ownProperties: inout UInt64, appendingTo reads: inout [PropertyRead],
        _ body: () throws -> Result
    ) rethrows -> Result {
        let scope = _openScope(owner: owner)
        defer {
            let context = _context
            if context._owner != nil { ownProperties |= context._ownerBits }
            // One by one: a scope appends a read or two, which a slice's append costs more for.
            var position = scope.start
            while position < context._reads.count {
                reads.append(context._reads[position])
                position += 1
            }
            _closeScope(scope)
        }
        return try body()
    }

    /// Runs `body`, a part of an evaluation of `owner`, and reports what that part read: the
    /// owner's own properties as bits of `ownProperties` (bit `min(i, 63)` for property `i`,
    /// so bit 63 stands for every property from 63 up) and, in `readsOthers`, whether it
    /// read any property of another object. A recorder can tell by it which writes may
    /// change what the part computed.
    ///
    /// The part's reads count for the scope around it too, as if it were not there: inside
    /// the body of ``trackReads(of:ownProperties:appendingTo:_:)`` for `owner`, its reads of
    /// the owner's properties still set that scope's bits. Outside any tracking scope, the
    /// part's reads are tracked only for this report.
    ///
    /// - Parameters:
    ///   - owner: The object whose evaluation `body` is part of, of this graph.
    ///   - ownProperties: Bits set (never cleared) for the owner's properties `body` read.
    ///   - readsOthers: Set to `true` (never cleared) when `body` read another object.
    ///   - body: The part whose reads to report.
    /// - Returns: What `body` returned.
    /// - Complexity: O(1) plus the cost of `body` inside a scope tracking `owner` in which
    ///   `body` reads only the owner's first 63 properties; O(*r*) for *r* other reads.
    package func trackReadsOfPart<Result>(
        of owner: GraphObject, ownProperties: inout UInt64, readsOthers: inout Bool, _ body: () throws -> Result
    ) rethrows -> Result {
        let context = _context
        if context._trackingDepth > 0, context._owner == ObjectIdentifier(owner) {
            // A split scope on the owner: its bits so far are set aside while the part runs.
            let outerBits = context._ownerBits
            let start = context._reads.count
            context._ownerBits = 0
            defer {
                let partBits = context._ownerBits
                ownProperties |= partBits
                context._ownerBits = outerBits | partBits
                if context._reads.count > start {
                    Self.classify(context._reads[start...], of: owner.objectID, ownProperties: &ownProperties, readsOthers: &readsOthers)
                }
            }
            return try body()
        }
        let scope = _openScope(owner: nil)
        defer {
            if context._reads.count > scope.start {
                Self.classify(context._reads[scope.start...], of: owner.objectID, ownProperties: &ownProperties, readsOthers: &readsOthers)
            }
            _closeScope(scope)
        }
        return try body()
    }

    /// Sorts reads into bits of `owner`'s own properties and whether another object was read
    /// (``trackReadsOfPart(of:ownProperties:readsOthers:_:)``).
    private static func classify(
        _ reads: ArraySlice<PropertyRead>, of owner: ObjectID, ownProperties: inout UInt64, readsOthers: inout Bool
    ) {
        for read in reads {
            if read.objectID == owner {
                ownProperties |= 1 << UInt64(min(read.property.rawValue, 63))
            } else {
                readsOthers = true
            }
        }
    }

    /// How many reads the open tracking scopes hold so far, the reads of an owner's own
    /// properties aside: inside the body of ``trackReads(of:ownProperties:appendingTo:_:)``,
    /// the difference between two values is the number of reads made between them, so a
    /// recorder can tell apart the reads of the parts of one evaluation.
    ///
    /// - Complexity: O(1).
    package var trackedReadCount: Int { _context._reads.count }

    /// The ID this graph gives the object of `entity` numbered `entitySerial`: the inverse
    /// of `ObjectID.entitySerial`, for recorders that keep numbers instead of IDs.
    ///
    /// - Parameters:
    ///   - entity: The object's entity.
    ///   - entitySerial: A number this graph issued for an object of `entity`.
    /// - Returns: The ID; its object may since have been deleted.
    /// - Complexity: O(1).
    package func objectID(of entity: EntityDescription, entitySerial: Int) -> ObjectID {
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
    package var entitySerial: Int { serial }
}
