import Synchronization

/// Everything that happened since the interactive session last looked: keys, signals, import
/// events, a fading mark, changes made in other windows. Threads and signal handlers post to it; the session takes it all at
/// once, handles every key already buffered, and draws once.
///
/// The mutex guards ``Batch`` (the only mutable state); the wake-up stream keeps at most one
/// pending wake-up, so a burst of posts costs the session one turn.
final class SessionInbox: Sendable {
    /// What happened since the last ``take()``.
    struct Batch: Sendable {
        /// Keys in the order they were typed.
        var keys: [Key] = []
        /// Whether standard input closed.
        var inputClosed = false
        /// A terminating signal (SIGTERM, SIGHUP or SIGINT) that arrived.
        var terminatingSignal: Int32?
        /// Whether a SIGTSTP asked the app to suspend.
        var suspend = false
        /// Whether the process was continued (SIGCONT) and must redraw whole.
        var continued = false
        /// Whether the terminal was resized (SIGWINCH).
        var resized = false
        /// Whether the marks of the last batch should fade.
        var fade = false
        /// Events of the running import, in order.
        var importEvents: [ImportJob.Event] = []
        /// Whether another window's (or command's) changes were applied to the graph and
        /// wait to be shown.
        var changedElsewhere = false
    }

    private let state = Mutex(Batch())
    private let continuation: AsyncStream<Void>.Continuation
    /// Yields once after one or more posts.
    let wakeUps: AsyncStream<Void>

    init() {
        (wakeUps, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Records something that happened and wakes the session.
    ///
    /// - Parameter change: Adds to the batch; runs under the lock, so it must be quick.
    func post(_ change: (inout Batch) -> Void) {
        state.withLock { change(&$0) }
        continuation.yield()
    }

    /// Takes everything posted so far.
    ///
    /// - Returns: The batch; the inbox is empty afterwards.
    func take() -> Batch {
        state.withLock { batch in
            defer { batch = Batch() }
            return batch
        }
    }
}
