import Foundation
import Synchronization

/// One registered observer.
internal struct _Observer {
    let id: Int
    /// Delivers changes; returns `false` when the observer is gone and can be removed.
    let deliver: (GraphChanges) -> Bool
    /// Told when the commit of the writes the observer left pending fails.
    let followUpFailed: ((CommitError) -> Void)?
    /// Called when the graph goes away.
    let finish: (() -> Void)?
}

/// A registration made by ``ObjectGraph/addObserver(onFollowUpFailure:_:)``: keep it to keep observing.
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
    ///
    /// - Complexity: O(*o*) for *o* observers of the graph.
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
    /// registration order. An observer may write to the graph: what it leaves pending is
    /// committed for it as soon as it returns, and delivered once the current delivery
    /// finishes — nothing recurses and nothing is lost. Use ``GraphChanges/author`` to skip
    /// your own writes.
    ///
    /// When that follow-up commit throws, its writes are rolled back (the graph is as the
    /// observer found it, and no later, unrelated commit inherits them) and the error goes to
    /// `onFollowUpFailure`; without one, it is written to standard error. An observer that
    /// wants to handle the error where it happens commits its writes itself.
    ///
    /// - Parameters:
    ///   - onFollowUpFailure: Told why the commit of the writes `body` left pending failed,
    ///     after they are rolled back.
    ///   - body: The observer.
    /// - Returns: A token; observing stops when it is cancelled or deallocated.
    /// - Complexity: O(1) amortized. Each commit then calls `body` once.
    public func addObserver(
        onFollowUpFailure: ((CommitError) -> Void)? = nil,
        _ body: @escaping (GraphChanges) -> Void
    ) -> GraphObservation {
        let id = _addObserver(deliver: { changes in body(changes); return true }, followUpFailed: onFollowUpFailure, finish: nil)
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
            followUpFailed: nil,
            finish: { continuation.finish() }
        )
        return stream
    }

    internal func _addObserver(
        deliver: @escaping (GraphChanges) -> Bool,
        followUpFailed: ((CommitError) -> Void)?,
        finish: (() -> Void)?
    ) -> Int {
        let id = _nextObserverID
        _nextObserverID += 1
        _observers.append(_Observer(id: id, deliver: deliver, followUpFailed: followUpFailed, finish: finish))
        return id
    }

    /// Whether a commit is waiting for delivery behind the one being delivered: observers
    /// that have heard of every commit so far may not agree with those still to hear of it.
    ///
    /// - Complexity: O(1).
    package var hasQueuedDeliveries: Bool { _deliveryQueue.count > _deliveredCount }

    internal func _removeObserver(_ id: Int) {
        guard let position = _observers.firstIndex(where: { $0.id == id }) else { return }
        // The observer's closure may hold the last reference to something whose deinit
        // removes another observer (a controller does): release it only after the access
        // to `_observers` has ended.
        let removed = _observers.remove(at: position)
        withExtendedLifetime(removed) {}
    }

    /// Delivers a commit's changes, or queues them when a delivery is in progress; after
    /// each observer, commits what it wrote.
    internal func _publish(_ changes: GraphChanges) {
        _publish(contentsOf: CollectionOfOne(changes))
    }

    /// Delivers several commits' changes in order, as one delivery: the graph is already in
    /// the state after the last, so every deletion among them stays registered until every
    /// observer has heard of all of them (external commits applied at the start of a commit
    /// of this graph, then that commit).
    internal func _publish(contentsOf batch: some Collection<GraphChanges>) {
        guard !batch.isEmpty else { return }
        _deliveryQueue.append(contentsOf: batch)
        guard !_isDelivering else { return }
        _isDelivering = true
        defer {
            _isDelivering = false
            _deliveryQueue.removeAll()
            _deliveredCount = 0
            // Every observer has heard of every deletion committed so far.
            _undeliveredDeletions.removeAll()
        }
        var next = 0
        while next < _deliveryQueue.count {
            let current = _deliveryQueue[next]
            next += 1
            _deliveredCount = next
            for observer in _observers where _observers.contains(where: { $0.id == observer.id }) {
                if !observer.deliver(current) { _removeObserver(observer.id) }
                // Nothing was pending when the observer was called (the commit before it
                // emptied the pending changes): what is pending now is the observer's.
                if hasChanges && _followUpsSuspended == 0 { _commitFollowUp(of: observer) }
            }
        }
    }

    /// Commits the writes an observer left pending; when that fails, rolls them back and
    /// tells the observer why.
    private func _commitFollowUp(of observer: _Observer) {
        do {
            try commit()
        } catch {
            rollback()
            if let followUpFailed = observer.followUpFailed {
                followUpFailed(error)
            } else {
                var standardError = _StandardError()
                print("ObjectGraph: the writes an observer left pending were rolled back: \(error)", to: &standardError)
            }
        }
    }
}

/// Standard error as a `print` target.
private struct _StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        FileHandle.standardError.write(Data(string.utf8))
    }
}
