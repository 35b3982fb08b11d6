import Synchronization

/// One registered observer.
internal struct _Observer {
    let id: Int
    /// Delivers changes; returns `false` when the observer is gone and can be removed.
    let deliver: (GraphChanges) -> Bool
    /// Called when the graph goes away.
    let finish: (() -> Void)?
}

/// A registration made by ``ObjectGraph/addObserver(_:)``: keep it to keep observing.
///
/// Observing stops when ``cancel()`` is called or the token is deallocated. Like the
/// graph, it belongs to the graph's isolation domain.
public final class GraphObservation {
    private weak var graph: ObjectGraph?
    private let id: Int

    internal init(graph: ObjectGraph, id: Int) {
        self.graph = graph
        self.id = id
    }

    /// Stops the observer; it is not called again, even for a delivery in progress.
    public func cancel() {
        graph?._removeObserver(id)
        graph = nil
    }

    deinit {
        graph?._removeObserver(id)
    }
}

@available(*, unavailable, message: "an observation belongs to its graph's isolation domain")
extension GraphObservation: Sendable {}

/// Whether the consumer of a ``ObjectGraph/changes`` stream went away; set from any thread
/// by the stream's termination handler, read by the graph. Guarded by its atomic.
private final class _StreamTermination: Sendable {
    let isTerminated = Atomic<Bool>(false)
}

extension ObjectGraph {
    /// Calls `body` with the changes of every commit from now on.
    ///
    /// Observers are called synchronously at the end of each commit, in commit order and in
    /// registration order. An observer may write to the graph: those writes become the
    /// next commit (committed after the current delivery if the observer does not commit
    /// them itself), delivered once the current delivery finishes — nothing recurses and
    /// nothing is lost. Use ``GraphChanges/author`` to skip your own writes.
    ///
    /// - Parameter body: The observer.
    /// - Returns: A token; observing stops when it is cancelled or deallocated.
    public func addObserver(_ body: @escaping (GraphChanges) -> Void) -> GraphObservation {
        let id = _addObserver(deliver: { changes in body(changes); return true }, finish: nil)
        return GraphObservation(graph: self, id: id)
    }

    /// The changes of every commit from now on, as an asynchronous sequence.
    ///
    /// Each access makes a new subscription that buffers every commit until it is read; it
    /// ends when the graph goes away. Stop iterating (or cancel the task) to unsubscribe.
    public var changes: AsyncStream<GraphChanges> {
        let (stream, continuation) = AsyncStream.makeStream(of: GraphChanges.self)
        let termination = _StreamTermination()
        continuation.onTermination = { _ in termination.isTerminated.store(true, ordering: .releasing) }
        _ = _addObserver(
            deliver: { changes in
                guard !termination.isTerminated.load(ordering: .acquiring) else { return false }
                continuation.yield(changes)
                return true
            },
            finish: { continuation.finish() }
        )
        return stream
    }

    internal func _addObserver(deliver: @escaping (GraphChanges) -> Bool, finish: (() -> Void)?) -> Int {
        let id = _nextObserverID
        _nextObserverID += 1
        _observers.append(_Observer(id: id, deliver: deliver, finish: finish))
        return id
    }

    internal func _removeObserver(_ id: Int) {
        _observers.removeAll { $0.id == id }
    }

    /// Delivers a commit's changes, or queues them when a delivery is in progress; after
    /// each delivery, commits what the observers wrote.
    internal func _publish(_ changes: GraphChanges) {
        _deliveryQueue.append(changes)
        guard !_isDelivering else { return }
        _isDelivering = true
        defer {
            _isDelivering = false
            _deliveryQueue.removeAll()
        }
        var next = 0
        var autoCommit = true
        while next < _deliveryQueue.count {
            let current = _deliveryQueue[next]
            next += 1
            for observer in _observers where _observers.contains(where: { $0.id == observer.id }) {
                if !observer.deliver(current) { _removeObserver(observer.id) }
            }
            if autoCommit && hasChanges {
                do {
                    try commit()
                } catch {
                    autoCommit = false  // the writes stay pending for the next commit
                }
            }
        }
    }
}
