import Dispatch
import Synchronization

extension Snapshot {
    /// Appends a snapshot's records to its file in the order they are given, on a serial
    /// queue of its own when the snapshot is written concurrently: framing, checksums and
    /// writes of one batch of records then run while the next batch is encoded.
    ///
    /// `@unchecked Sendable` without a lock; what guards each field:
    /// - ``queue``: immutable (a `DispatchQueue` is thread-safe).
    /// - ``writer``: used only by the work items of ``queue``, which run one at a time in
    ///   order, or, without a queue, by the caller alone; the caller touches it again only
    ///   after ``finish()`` waited for every item.
    /// - ``failure``: written only by the work items; read by the items that follow (same
    ///   queue) and by the caller after ``finish()``.
    /// - ``failed``: an `Atomic`, set with ``failure``; the caller reads it (``hasFailed``)
    ///   at any time.
    final class Appender: @unchecked Sendable {
        private let writer: RecordWriter
        private let queue: DispatchQueue?
        private var failure: (any Error)?
        private let failed = Atomic<Bool>(false)

        /// Whether an append has failed: the caller can stop encoding, ``finish()`` will
        /// throw.
        var hasFailed: Bool { failed.load(ordering: .relaxed) }

        /// - Parameters:
        ///   - writer: The snapshot's file, not touched by anyone else until ``finish()``.
        ///   - concurrently: Whether records are appended on a queue of their own.
        init(_ writer: RecordWriter, concurrently: Bool) {
            self.writer = writer
            queue = concurrently ? DispatchQueue(label: "FetchedResultsKit.GraphStore.snapshot-writes") : nil
        }

        /// Appends one record after everything given before (a copy, when a queue appends it).
        /// An error waits for ``finish()``.
        ///
        /// - Parameter payload: The record's bytes.
        /// - Complexity: O(`payload.count`).
        func append(_ payload: UnsafeRawBufferPointer) {
            guard queue != nil else {
                run { writer in _ = try writer.append(payload) }
                return
            }
            let copy = [UInt8](payload)
            run { writer in _ = try copy.withUnsafeBytes { try writer.append($0) } }
        }

        /// Appends one record after everything given before. An error waits for ``finish()``.
        ///
        /// - Parameter payload: The record's bytes.
        /// - Complexity: O(`payload.count`).
        func append(_ payload: [UInt8]) {
            run { writer in _ = try payload.withUnsafeBytes { try writer.append($0) } }
        }

        /// Runs `body` with the file after everything given before, then `completion`, which
        /// runs even when an earlier append failed and `body` does not. An error waits for
        /// ``finish()``.
        ///
        /// - Parameters:
        ///   - body: Appends records.
        ///   - completion: Hands back whatever `body` borrowed.
        func run(_ body: @escaping (RecordWriter) throws -> Void, completion: @escaping () -> Void = {}) {
            guard let queue else { return perform(WorkItem(body: body, completion: completion)) }
            let item = WorkItem(body: body, completion: completion)
            queue.async { [self] in perform(item) }
        }

        /// Runs an item's body unless an earlier one failed, then its completion.
        private func perform(_ item: WorkItem) {
            defer { item.completion() }
            guard failure == nil else { return }
            do {
                try item.body(writer)
            } catch {
                failure = error
                failed.store(true, ordering: .relaxed)
            }
        }

        /// Waits for every append, then throws the first error any of them met.
        ///
        /// - Throws: The first append's error, if any.
        func finish() throws {
            queue?.sync {}
            if let failure { throw failure }
        }
    }

    /// A work item sent to the queue. `@unchecked Sendable`; what guards each field:
    /// - `body` and `completion`: immutable closures that capture the buffers the caller
    ///   hands over (lanes, copied records), which the caller leaves alone until the
    ///   completion ran; they run on the queue only.
    private struct WorkItem: @unchecked Sendable {
        let body: (RecordWriter) throws -> Void
        let completion: () -> Void
    }
}
