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
    internal var _unretainedGraph: Unmanaged<ObjectGraph>?

    /// The graph, or `nil` for the detached context and after the graph is gone.
    @usableFromInline
    internal var graph: ObjectGraph? {
        @inline(__always) get { _unretainedGraph?.takeUnretainedValue() }
        set { _unretainedGraph = newValue.map { Unmanaged.passUnretained($0) } }
    }

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
            graph?._noteRead(object, index: graph!._index(of: object, offset: offset))
        case .detached:
            if object._flags & GraphObject._prototypeFlag != 0 {
                // The first read of a probe names the property; a second makes it ambiguous.
                object._pendingSlot = object._pendingSlot == 0 ? Int32(offset) : -1
            }
        }
    }
}
