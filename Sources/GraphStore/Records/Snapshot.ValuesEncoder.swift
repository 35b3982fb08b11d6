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
    /// - ``objects`` and ``serials``: written by the caller only between calls of
    ///   ``write(count:code:concurrently:to:)``; during a batch each thread reads its own
    ///   disjoint range of chunks (the appender reads the lanes alone).
    /// - ``laneSets``: the arrays are immutable. A set belongs to the caller from its
    ///   `available.wait()` until it hands the set to the appender; then to the appender's
    ///   work item until its completion resets the lanes and signals `available`. While the
    ///   caller owns a set, lane `i` is written only by iteration `i` of the batch
    ///   (whichever thread runs it).
    final class ValuesEncoder: @unchecked Sendable {
        /// Chunks encoded per batch (objects per batch: this times ``Snapshot/objectsPerChunk``).
        let chunksPerBatch: Int
        /// Live objects of one entity, unretained, in serial order, and their serials: the
        /// caller's list of objects (one objects record's), encoded a batch at a time.
        let objects: ObjectList
        private let columns: ColumnEncoder
        private let laneSets: [LaneSet]
        /// The set the next batch is encoded into.
        private var nextSet = 0

        /// - Parameters:
        ///   - columns: How each entity's values are written.
        ///   - chunksPerBatch: Chunks per batch (at least 1).
        ///   - objectsPerList: The most objects a list holds (``objects`` and ``serials``).
        init(columns: ColumnEncoder, chunksPerBatch: Int, objectsPerList: Int) {
            require(chunksPerBatch >= 1, "internal inconsistency: a batch of no chunks")
            self.columns = columns
            self.chunksPerBatch = chunksPerBatch
            objects = ObjectList(capacity: objectsPerList)
            laneSets = [LaneSet(), LaneSet()]
        }

        /// Appends the values records of the first `count` of ``objects``, live objects of the
        /// entity `code`, ``Snapshot/objectsPerChunk`` objects each (the last one fewer).
        ///
        /// - Parameters:
        ///   - count: How many of ``objects`` and ``serials`` the caller filled.
        ///   - code: The entity's code in the schema.
        ///   - concurrently: Whether a batch may be split between two threads (only when
        ///     the entity's columns read the graph and nothing else).
        ///   - file: The snapshot being written.
        /// - Complexity: O(*k* + *r*) for *k* objects and *r* references of to-many
        ///   relationships.
        func write(count: Int, code: Int, concurrently: Bool, to file: Appender) throws {
            let batch = chunksPerBatch * objectsPerChunk
            // After a failed append nothing more reaches the file: the caller's finish() throws.
            for start in stride(from: 0, to: count, by: batch) where !file.hasFailed {
                try encodeAndAppend(start..<Swift.min(start + batch, count), code: code, concurrently: concurrently, to: file)
            }
        }

        /// Encodes the objects at `batch` of ``objects`` in chunks into the next set of lanes,
        /// and hands their records to `file`.
        private func encodeAndAppend(_ batch: Range<Int>, code: Int, concurrently: Bool, to file: Appender) throws {
            let setIndex = nextSet
            let set = laneSets[setIndex]
            nextSet = 1 - nextSet
            // The set's records of two batches ago are appended.
            set.available.wait()
            let chunks = (batch.count + objectsPerChunk - 1) / objectsPerChunk
            if concurrently && chunks > 1 {
                let split = (chunks + 1) / 2
                DispatchQueue.concurrentPerform(iterations: 2) { lane in
                    encode(laneSets[setIndex].lanes[lane], chunks: lane == 0 ? 0..<split : split..<chunks, of: batch, code: code)
                }
            } else {
                encode(set.lanes[0], chunks: 0..<chunks, of: batch, code: code)
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

        /// Encodes chunks of a batch (chunk 0 starts at the batch's start) into a lane.
        private func encode(_ lane: Lane, chunks: Range<Int>, of batch: Range<Int>, code: Int) {
            for chunk in chunks {
                let start = batch.lowerBound + chunk * objectsPerChunk
                let range = start..<Swift.min(start + objectsPerChunk, batch.upperBound)
                do {
                    try lane.encode(objects[range], columns: columns, code: code)
                } catch {
                    lane.failure = error
                    return
                }
            }
        }
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
        private let scratch = SerialScratch(capacity: objectsPerChunk)

        /// Encodes the values record of `objects` after the records already encoded.
        func encode(_ objects: ObjectChunk, columns: ColumnEncoder, code: Int) throws(GraphStoreError) {
            // Room for the header, which needs the count, filled in once the body is written.
            let start = writer.count
            writer.reserve(recordHeaderRoom)
            writer.count += recordHeaderRoom
            try columns.write(objects, code: code, to: &writer, scratch: scratch)
            let header = recordHeader(.values, code: code, count: objects.count)
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
