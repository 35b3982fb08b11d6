/// How reads of the objects of one graph are handled at the moment.
@usableFromInline
internal enum _ReadMode: UInt8 {
    /// Plain reads: no Observation, no tracking (``ObjectGraph/withoutObservation(_:)``).
    case untracked
    /// Reads register with each object's Observation registrar (the default).
    case observed
    /// Reads are recorded for ``ObjectGraph/trackReads(_:)``.
    case tracking
    /// The object is in no graph (not yet inserted, rolled back, or its graph is gone).
    case detached
}

/// What an object's reads and writes consult: the read mode and the owning graph.
///
/// Every object of a graph points at the graph's one context (objects not in a graph share
/// a detached one), so the read getter's check is one load and one compare. The context
/// outlives its graph if objects do; the graph clears `graph` when it goes away.
///
/// In tracking mode the context records the reads itself, without reaching the graph or
/// counting a reference: a tracked read is the hot path of every fetch.
@usableFromInline
internal final class _GraphContext {
    @usableFromInline
    @exclusivity(unchecked)
    internal var _readMode: _ReadMode

    /// The graph, unretained, or `nil` for the detached context and after the graph is gone.
    ///
    /// Read by every setter (inlined into the module that declares the entity), which reaches
    /// the graph through it without counting a reference; written only by the graph's `init`
    /// and `deinit`, in the graph's isolation domain, so the dynamic exclusivity check (a
    /// runtime call per write of any property) is dropped.
    @usableFromInline
    @exclusivity(unchecked)
    internal var _unretainedGraph: _Unretained<ObjectGraph>?

    /// The graph, or `nil` for the detached context and after the graph is gone.
    @usableFromInline
    internal var graph: ObjectGraph? {
        @inline(__always) get { _unretainedGraph?.object }
        set { _unretainedGraph = newValue.map(_Unretained.init) }
    }

    // The tracking fields below are read and written only in the graph's isolation domain,
    // by tracked reads and the scopes of `ObjectGraph+ReadTracking.swift`, never across a
    // call that could reach them again: the dynamic exclusivity checks are dropped.

    /// The reads recorded in tracking mode, in order, with repeats; nested scopes share it,
    /// each remembering where its own reads start.
    @exclusivity(unchecked)
    internal var _reads: [PropertyRead] = []

    /// The identity of the object whose own reads the innermost split scope collects as bits
    /// in ``_ownerBits`` instead of appending them to ``_reads``; `nil` when no split scope is
    /// innermost.
    @exclusivity(unchecked)
    internal var _owner: ObjectIdentifier?

    /// Bit `i` is set when the split scope's owner read its property `i` (below 64).
    @exclusivity(unchecked)
    internal var _ownerBits: UInt64 = 0

    /// The number of tracking scopes open; the outermost one empties ``_reads`` when it ends.
    @exclusivity(unchecked)
    internal var _trackingDepth = 0

    init(readMode: _ReadMode) {
        _readMode = readMode
    }

    /// The context of objects that are in no graph. Never mutated.
    nonisolated(unsafe) static let detached = _GraphContext(readMode: .detached)

    /// The slow half of a wrapper's getter: Observation, read tracking, or prototype probing.
    ///
    /// - Parameters:
    ///   - object: The object read.
    ///   - offset: The storage offset of the property read.
    @usableFromInline
    @inline(never)
    internal func _noteRead(_ object: GraphObject, offset: Int) {
        switch _readMode {
        case .untracked:
            return
        case .observed:
            graph?._noteRead(object, index: graph!._index(of: object, offset: offset))
        case .tracking:
            _track(object, index: Self._index(of: object, offset: offset))
        case .detached:
            if object._flags & GraphObject._prototypeFlag != 0 {
                // The first read of a probe names the property; a second makes it ambiguous.
                object._pendingSlot = object._pendingSlot == 0 ? Int32(offset) : -1
            }
        }
    }

    /// Records a tracked read: a bit when the innermost split scope's owner read one of its
    /// first 64 properties, an appended ``PropertyRead`` otherwise.
    ///
    /// - Parameters:
    ///   - object: The object read, of this context's graph.
    ///   - index: The property's index in the object's entity.
    /// - Complexity: O(1) amortized; no reference is counted.
    @inline(__always)
    internal func _track(_ object: GraphObject, index: Int) {
        if _owner == ObjectIdentifier(object), index < 64 {
            _ownerBits |= 1 << UInt64(index)
            return
        }
        // Unowned: descriptions are immortal, so the ID is made without counting a reference.
        unowned(unsafe) let entity = object._entity.unsafelyUnwrapped
        _reads.append(PropertyRead(objectID: ObjectID(_bits: object._idBits, entity: entity), property: PropertyIndex(index)))
    }

    /// The property index of a storage offset in an object of a graph, found in the
    /// object's entity without reaching the graph.
    ///
    /// - Complexity: O(*p*) for the entity's *p* properties.
    @inline(__always)
    internal static func _index(of object: GraphObject, offset: Int) -> Int {
        // Borrowed: descriptions are immortal and `offsets` is a constant, so the search
        // counts no reference to either.
        let found = _Unretained(object._entity.unsafelyUnwrapped).borrow {
            $0.offsets.firstIndex(of: offset)
        }
        guard let index = found else {
            requirementFailure("\(type(of: object)) must be a final class that declares its @Attribute and @Relationship properties itself")
        }
        return index
    }
}
