import Foundation
import ObjectGraph

extension Snapshot {
    /// Encodes the values records of a snapshot a batch of chunks at a time, and appends
    /// them in order.
    ///
    /// The chunks of a batch are independent records, so an entity whose columns only read
    /// the graph (attributes and to-one relationships; see
    /// ``ColumnEncoder/readsOnly(entity:)``) has the first half of each batch encoded on the
    /// calling thread and the second half on another, each into its own lane; the records
    /// are then appended in chunk order, so the file is byte for byte the one a single
    /// thread writes. Batches take turns between two sets of lanes: while the
    /// ``Appender`` appends one set's records (on its own queue, when it has one), the next
    /// batch is encoded into the other.
    ///
    /// `@unchecked Sendable` without a lock; what guards each field during a batch, when a
    /// second thread runs (`DispatchQueue.concurrentPerform` returns only once both threads
    /// are done, so nothing below outlives the batch):
    /// - ``chunksPerBatch`` and ``columns``: immutable; the codecs only read the graph, which
    ///   no one changes during the call (entities with to-many columns, whose reads may
    ///   write deferred inverses, are never split: ``ColumnEncoder/readsOnly(entity:)``).
    /// - ``spans`` and ``slots``: written only by ``write(_:slots:code:concurrently:to:)``,
    ///   before and after its batches; during a batch both threads read them, each its own
    ///   disjoint range of chunks, and each gathers its chunks' objects into its own lane
    ///   (``ObjectSlots`` is a view that only reads, of a graph no one changes during the
    ///   call; the appender reads the lanes' records alone).
    /// - ``laneSets``: the arrays are immutable. A set belongs to the caller from its
    ///   `available.wait()` until it hands the set to the appender; then to the appender's
    ///   work item until its completion resets the lanes and signals `available`. While the
    ///   caller owns a set, lane `i` is written only by iteration `i` of the batch
    ///   (whichever thread runs it).
    final class ValuesEncoder: @unchecked Sendable {
        /// Chunks encoded per batch (objects per batch: this times ``Snapshot/objectsPerChunk``).
        let chunksPerBatch: Int
        private let columns: ColumnEncoder
        private let laneSets: [LaneSet]
        /// The set the next batch is encoded into.
        private var nextSet = 0
        /// The chunks of the list being written, and the objects of its entity.
        private var spans: [ChunkSpan] = []
        private var slots: ObjectSlots?

        /// - Parameters:
        ///   - columns: How each entity's values are written.
        ///   - chunksPerBatch: Chunks per batch (at least 1).
        init(columns: ColumnEncoder, chunksPerBatch: Int) {
            require(chunksPerBatch >= 1, "internal inconsistency: a batch of no chunks")
            self.columns = columns
            self.chunksPerBatch = chunksPerBatch
            laneSets = [LaneSet(), LaneSet()]
        }

        /// Appends the values records of the chunks `spans` of the entity `code`, one record
        /// per chunk.
        ///
        /// - Parameters:
        ///   - spans: The chunks, in serial order.
        ///   - slots: The entity's objects, by serial.
        ///   - code: The entity's code in the schema.
        ///   - concurrently: Whether a batch may be split between two threads (only when
        ///     the entity's columns read the graph and nothing else).
        ///   - file: The snapshot being written.
        /// - Complexity: O(*s* + *r*) for *s* serials the chunks span and *r* references of
        ///   to-many relationships.
        func write(_ spans: [ChunkSpan], slots: ObjectSlots, code: Int, concurrently: Bool, to file: Appender) throws {
            self.spans = spans
            self.slots = slots
            defer {
                self.spans = []
                self.slots = nil
            }
            // After a failed append nothing more reaches the file: the caller's finish() throws.
            for start in stride(from: 0, to: spans.count, by: chunksPerBatch) where !file.hasFailed {
                try encodeAndAppend(start..<Swift.min(start + chunksPerBatch, spans.count), code: code, concurrently: concurrently, to: file)
            }
        }

        /// Encodes the chunks `batch` of ``spans`` into the next set of lanes, and hands their
        /// records to `file`.
        private func encodeAndAppend(_ batch: Range<Int>, code: Int, concurrently: Bool, to file: Appender) throws {
            let setIndex = nextSet
            let set = laneSets[setIndex]
            nextSet = 1 - nextSet
            // The set's records of two batches ago are appended.
            set.available.wait()
            if concurrently && batch.count > 1 {
                let split = batch.lowerBound + (batch.count + 1) / 2
                DispatchQueue.concurrentPerform(iterations: 2) { lane in
                    encode(laneSets[setIndex].lanes[lane], chunks: lane == 0 ? batch.lowerBound..<split : split..<batch.upperBound, code: code)
                }
            } else {
                encode(set.lanes[0], chunks: batch, code: code)
            }
            for lane in set.lanes {
                if let failure = lane.failure {
                    set.release()
                    throw failure
                }
            }
            file.run({ writer in
                for lane in set.lanes {
                    for record in lane.records {
                        _ = try writer.append(UnsafeRawBufferPointer(rebasing: lane.writer.bytes[record]))
                    }
                }
            }, completion: set.release)
        }

        /// Encodes chunks of ``spans`` into a lane.
        private func encode(_ lane: Lane, chunks: Range<Int>, code: Int) {
            guard let slots else { preconditionFailure("internal inconsistency: a batch without its entity's objects") }
            for chunk in chunks {
                do {
                    try lane.encode(spans[chunk], of: slots, columns: columns, code: code)
                } catch {
                    lane.failure = error
                    return
                }
            }
        }
    }

    /// A chunk of a list of live objects: the serials of its first and last objects, and how
    /// many live objects lie from one to the other (at most ``Snapshot/objectsPerChunk``).
    struct ChunkSpan: Equatable {
        var first: Int
        var last: Int
        var count: Int
    }

    /// The lanes of a batch, one per thread, and whether they are free for the next batch.
    private final class LaneSet {
        let lanes = [Lane(), Lane()]
        /// Signalled when the lanes are empty, their records appended.
        let available = DispatchSemaphore(value: 1)

        /// Empties the lanes and gives the set to the next batch.
        func release() {
            for lane in lanes { lane.reset() }
            available.signal()
        }
    }

    /// Where one thread encodes its chunks of a batch: their records one after the other,
    /// each with its header.
    private final class Lane {
        var writer = RawByteWriter(capacity: 1 << 16)
        /// Where each record lies in ``writer``.
        var records: [Range<Int>] = []
        /// The error that stopped this lane's encoding.
        var failure: GraphStoreError?
        /// The objects of the chunk being encoded, unretained: gathered by the thread that
        /// encodes them, so that their references are written in its own cache.
        private let objects = UnsafeMutableBufferPointer<Unmanaged<GraphObject>>.allocate(capacity: objectsPerChunk)
        private let scratch = UnsafeMutableBufferPointer<Int>.allocate(capacity: objectsPerChunk)

        deinit {
            objects.deallocate()
            scratch.deallocate()
        }

        /// Encodes the values record of the chunk `span` of `slots` after the records already
        /// encoded.
        func encode(_ span: ChunkSpan, of slots: ObjectSlots, columns: ColumnEncoder, code: Int) throws(GraphStoreError) {
            let (count, last) = slots.liveObjects(from: span.first, into: UnsafeMutableBufferPointer(rebasing: objects[0..<span.count]))
            require(count == span.count && last == span.last, "internal inconsistency: a chunk's objects changed while it was written")
            // Room for the header, which needs the count, filled in once the body is written.
            let start = writer.count
            writer.reserve(recordHeaderRoom)
            writer.count += recordHeaderRoom
            try columns.write(
                UnsafeBufferPointer(rebasing: objects[0..<count]), first: span.first, last: span.last, code: code, to: &writer,
                scratch: scratch)
            let header = recordHeader(.values, code: code, count: count)
            let headerStart = start + recordHeaderRoom - header.bytes.count
            header.bytes.withUnsafeBytes { writer.overwrite(at: headerStart, with: $0) }
            records.append(headerStart..<writer.count)
        }

        /// Forgets the records encoded, keeping the memory.
        func reset() {
            writer.count = 0
            records.removeAll(keepingCapacity: true)
            failure = nil
        }
    }

    /// The most a record header takes: a type byte and two varints of up to 64 bits.
    static let recordHeaderRoom = 1 + 10 + 10

    /// The header of a snapshot record: its type, its entity's code and its count of objects.
    static func recordHeader(_ type: GraphRecordType, code: Int, count: Int) -> ByteWriter {
        var header = ByteWriter(capacity: recordHeaderRoom)
        header.byte(type.rawValue)
        header.varint(code)
        header.varint(count)
        return header
    }
}
