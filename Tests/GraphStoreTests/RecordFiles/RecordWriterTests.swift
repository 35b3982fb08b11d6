import Foundation
import Glibc
import Testing
import TestSupport

@testable import GraphStore

@Suite("RecordWriter")
struct RecordWriterTests {
    @Test("a failed sync poisons the writer: later appends and syncs throw, and the sync is never retried")
    func failedSyncIsNeverRetried() throws {
        let fixture = try RecordFixture(sizes: [10])
        let fileSystem = fixture.fileSystem
        let (writer, _) = try RecordWriter.openForAppend(
            path: RecordFixture.path, fileSystem: fileSystem, firstSequence: 1)
        try writer.append([1, 2, 3])
        fileSystem.injectFailure(.sync, atOccurrence: 1)
        let syncsBefore = fileSystem.count(of: .sync)
        #expect(throws: RecordFileError.poisoned(path: RecordFixture.path, cause: StoreFileError(.sync, path: RecordFixture.path, code: EIO))) {
            try writer.sync()
        }
        #expect(writer.isPoisoned)
        #expect(throws: RecordFileError.self) { try writer.sync() }
        #expect(throws: RecordFileError.self) { try writer.append([4]) }
        // Exactly one sync reached the file system: the failed one.
        #expect(fileSystem.count(of: .sync) == syncsBefore + 1)
        // What the failed sync left is not durable, though a retried sync would have "worked".
        let durable = try #require(fileSystem.durableContents(RecordFixture.path))
        #expect(try RecordScan(bytes: durable, path: RecordFixture.path).records.map(\.sequence) == [1])
    }

    @Test("a failed write poisons the writer")
    func failedWrite() throws {
        let fixture = try RecordFixture(sizes: [10])
        let (writer, _) = try RecordWriter.openForAppend(
            path: RecordFixture.path, fileSystem: fixture.fileSystem, firstSequence: 1)
        fixture.fileSystem.injectFailure(.write, atOccurrence: 2)
        try writer.append([1])
        let error = #expect(throws: RecordFileError.self) { try writer.append([2]) }
        #expect(error.map { "\($0)" }?.contains("reopen") == true)
        #expect(throws: RecordFileError.self) { try writer.append([3]) }
        #expect(throws: RecordFileError.self) { try writer.sync() }
        #expect(writer.nextSequence == 3)
    }

    @Test("opening to append cuts a torn tail and continues the sequence")
    func appendAfterTornTail() throws {
        let fixture = try RecordFixture(sizes: [10, 20, 30_000])
        let full = try fixture.bytes
        let cutAt = Int(fixture.extents[3]!.lowerBound) + 100
        fixture.fileSystem.corrupt(RecordFixture.path, at: 0, with: [])
        let file = try fixture.fileSystem.openFile(RecordFixture.path, create: false)
        try file.truncate(to: UInt64(cutAt))
        try file.sync()
        let (writer, scan) = try RecordWriter.openForAppend(
            path: RecordFixture.path, fileSystem: fixture.fileSystem, graphID: RecordFixture.graphID, firstSequence: 1)
        #expect(scan.records.map(\.sequence) == [1, 2])
        #expect(scan.tail?.offset == fixture.extents[3]!.lowerBound)
        #expect(writer.endOffset == fixture.extents[2]!.upperBound)
        #expect(writer.nextSequence == 3)
        try writer.append([7, 7, 7])
        try writer.sync()
        let reread = try fixture.scan(try fixture.bytes, mode: .refuse)
        #expect(reread.records.map(\.sequence) == [1, 2, 3])
        #expect(Array(reread.records[2].payload) == [7, 7, 7])
        #expect(reread.tail == nil)
        #expect(full.count > cutAt)
    }

    @Test("a new file's header round-trips")
    func headerRoundTrip() throws {
        let header = RecordFileHeader(
            kind: .snapshot, schemaFingerprint: 0xDEAD_BEEF_0123_4567, graphID: UUID(), generation: 9)
        let bytes = header.encoded()
        #expect(bytes.count == 64)
        #expect(Array(bytes.prefix(8)) == Array("FRKGRAPH".utf8))
        #expect(try RecordFileHeader.decode(bytes, path: "x") == header)
    }

    /// A writer on a new file of a simulated file system.
    static func newWriter(_ fileSystem: SimulatedFileSystem, salt: UInt64 = 0x5A17) throws -> RecordWriter {
        try fileSystem.createDirectory("/store")
        let header = RecordFileHeader(kind: .journal, schemaFingerprint: 1, graphID: RecordFixture.graphID, generation: 1, salt: salt)
        let writer = try RecordWriter.create(path: RecordFixture.path, fileSystem: fileSystem, header: header, firstSequence: 1)
        try writer.sync()
        try fileSystem.syncDirectory("/store")
        return writer
    }

    /// A record given in random parts is laid out byte for byte as the same record given
    /// whole, at every size around the block boundaries, and reads back whole.
    @Test(arguments: testSeeds(count: 3))
    func streamedRecordsMatchWholeOnes(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let sizes = [0, 1, 32_752, 32_753, 32_754, 32_760, 32_761, 65_515, 100_000, 300_000]
        let streamed = SimulatedFileSystem()
        let whole = SimulatedFileSystem()
        let streamWriter = try Self.newWriter(streamed)
        let wholeWriter = try Self.newWriter(whole)
        streamWriter.chunkSize = 5_000
        var payloads: [[UInt8]] = []
        for size in sizes + sizes.shuffled(using: &rng) {
            let payload = (0..<size).map { _ in UInt8.random(in: 0...255, using: &rng) }
            payloads.append(payload)
            try wholeWriter.append(payload)
            try streamWriter.beginRecord()
            var start = 0
            while start < size {
                let end = min(size, start + Int.random(in: 0...70_000, using: &rng))
                try streamWriter.continueRecord(Array(payload[start..<end]))
                start = end
            }
            _ = try streamWriter.finishRecord()
            #expect(streamWriter.endOffset == wholeWriter.endOffset, "seed \(seed), size \(size)")
        }
        let bytes = try streamed.readFile(RecordFixture.path)
        #expect(bytes == (try whole.readFile(RecordFixture.path)), "seed \(seed)")
        let scan = try RecordScan(bytes: bytes, path: RecordFixture.path, mode: .refuse)
        #expect(scan.records.map { Array($0.payload) } == payloads)
        #expect(scan.records.map(\.sequence) == Array(1...UInt64(payloads.count)))
    }

    @Test("a long record is written a chunk at a time")
    func longRecordsAreWrittenInChunks() throws {
        let fileSystem = SimulatedFileSystem()
        let writer = try Self.newWriter(fileSystem)
        writer.chunkSize = 64 << 10
        let writes = fileSystem.count(of: .write)
        try writer.append([UInt8](repeating: 7, count: 1 << 20))
        #expect(fileSystem.count(of: .write) - writes == 16)
        // A short record is still one write.
        try writer.append([UInt8](repeating: 8, count: 1_000))
        #expect(fileSystem.count(of: .write) - writes == 17)
    }

    @Test("abandoning a record cuts what was written of it and syncs the cut; the sequence goes on")
    func abandonedRecord() throws {
        let fileSystem = SimulatedFileSystem()
        let writer = try Self.newWriter(fileSystem)
        writer.chunkSize = 8 << 10
        try writer.append([1, 2, 3])
        try writer.sync()
        let before = try fileSystem.readFile(RecordFixture.path)
        let (end, next) = (writer.endOffset, writer.nextSequence)
        // Nothing written yet: nothing to cut.
        try writer.beginRecord()
        try writer.continueRecord([9, 9])
        let truncates = fileSystem.count(of: .truncate)
        try writer.abandonRecord()
        #expect(fileSystem.count(of: .truncate) == truncates)
        // Chunks written: cut and synced.
        try writer.beginRecord()
        try writer.continueRecord([UInt8](repeating: 4, count: 100_000))
        #expect(try fileSystem.readFile(RecordFixture.path).count > before.count + 50_000)
        try writer.abandonRecord()
        #expect(try fileSystem.readFile(RecordFixture.path) == before)
        #expect(fileSystem.durableContents(RecordFixture.path) == before)
        #expect(writer.endOffset == end && writer.nextSequence == next && !writer.isPoisoned)
        try writer.append([5])
        try writer.sync()
        let scan = try RecordScan(bytes: try fileSystem.readFile(RecordFixture.path), path: RecordFixture.path, mode: .refuse)
        #expect(scan.records.map { Array($0.payload) } == [[1, 2, 3], [5]])
        #expect(scan.records.map(\.sequence) == [1, 2])
    }

    @Test("a write that fails in the middle of a record poisons the writer and leaves a torn tail")
    func failedWriteMidRecord() throws {
        let fileSystem = SimulatedFileSystem()
        let writer = try Self.newWriter(fileSystem)
        writer.chunkSize = 8 << 10
        try writer.append([1, 2, 3])
        fileSystem.injectFailure(.write, atOccurrence: 3)
        try writer.beginRecord()
        #expect(throws: RecordFileError.self) { try writer.continueRecord([UInt8](repeating: 4, count: 100_000)) }
        #expect(writer.isPoisoned)
        #expect(throws: RecordFileError.self) { try writer.finishRecord() }
        #expect(throws: RecordFileError.self) { try writer.abandonRecord() }
        let scan = try RecordScan(bytes: try fileSystem.readFile(RecordFixture.path), path: RecordFixture.path)
        #expect(scan.records.map(\.sequence) == [1])
        #expect(scan.tail != nil && scan.damages.isEmpty)
    }
}

@Suite("RecordWriter: whole records held until a chunk is full")
struct RecordWriterHoldingTests {
    @Test("Held records are written in few writes, with the same bytes as records written one by one")
    func heldRecordsHaveTheSameBytes() throws {
        var rng = SeededGenerator(seed: 0x401D)
        let sizes = (0..<200).map { index in index % 17 == 0 ? Int.random(in: 30_000...90_000, using: &rng) : Int.random(in: 0...3_000, using: &rng) }
        let header = RecordFileHeader(kind: .snapshot, schemaFingerprint: 1, graphID: UUID(), generation: 3, salt: 77)
        var files: [[UInt8]] = []
        var writes: [Int] = []
        for holds in [false, true] {
            let fileSystem = SimulatedFileSystem()
            try fileSystem.createDirectory("/d")
            let writer = try RecordWriter.create(path: "/d/f", fileSystem: fileSystem, header: header, firstSequence: 5)
            writer.holdsWholeRecords = holds
            writer.chunkSize = 64 << 10
            let before = fileSystem.count(of: .write)
            for (index, size) in sizes.enumerated() {
                let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) }
                let (sequence, _) = try writer.append(payload)
                #expect(sequence == 5 + UInt64(index))
            }
            try writer.sync()
            writes.append(fileSystem.count(of: .write) - before)
            let bytes = try fileSystem.readFile("/d/f")
            #expect(UInt64(bytes.count) == writer.endOffset)
            let scan = try RecordScan(bytes: bytes, path: "/d/f")
            #expect(scan.records.map(\.payload.count) == sizes)
            #expect(scan.damages.isEmpty && scan.tail == nil)
            files.append(bytes)
        }
        #expect(files[0] == files[1])
        #expect(writes[1] * 4 < writes[0], "\(writes)")
    }

    @Test("A streamed record after held ones writes them first; close drops what is held")
    func streamingAfterHeldRecords() throws {
        let fileSystem = SimulatedFileSystem()
        try fileSystem.createDirectory("/d")
        let header = RecordFileHeader(kind: .journal, schemaFingerprint: 1, graphID: UUID(), generation: 1)
        let writer = try RecordWriter.create(path: "/d/f", fileSystem: fileSystem, header: header, firstSequence: 1)
        writer.holdsWholeRecords = true
        try writer.append([1, 2, 3])
        try writer.beginRecord()
        try writer.continueRecord([4, 5])
        _ = try writer.finishRecord()
        try writer.append([6])
        try writer.sync()
        let scan = try RecordScan(bytes: try fileSystem.readFile("/d/f"), path: "/d/f")
        #expect(scan.records.map { Array($0.payload) } == [[1, 2, 3], [4, 5], [6]])
        try writer.append([7])
        writer.close()
        #expect(try fileSystem.readFile("/d/f").count == Int(scan.validEnd))
    }

    // MARK: Preallocation

    @Test("A preallocating writer keeps zeros ahead of its records, more as the file grows, up to its limit")
    func preallocationGrows() throws {
        let fileSystem = SimulatedFileSystem()
        let writer = try RecordWriterTests.newWriter(fileSystem)
        writer.preallocation = 200_000
        let block = UInt64(RecordFormat.blockSize)
        var sizes: [UInt64] = []
        for round in 0..<300 {
            try writer.append([UInt8](repeating: UInt8(truncatingIfNeeded: round), count: 1_000))
            let size = try fileSystem.fileSize(RecordFixture.path)
            #expect(size == writer.allocatedEnd && size > writer.endOffset)
            if sizes.last != size { sizes.append(size) }
        }
        try writer.sync()
        // Each growth adds what the file holds (at least two blocks), at most the limit.
        #expect(sizes.count >= 3)
        #expect(sizes[0] > 2 * block && sizes[0] < 2 * block + 2_000)
        for (before, after) in zip(sizes, sizes.dropFirst()) {
            #expect(after - before >= min(200_000, before) && after - before <= 200_000 + 2_000)
        }
        let bytes = try fileSystem.readFile(RecordFixture.path)
        #expect(bytes[Int(writer.endOffset)...].allSatisfy { $0 == 0 })
        // The reader ends cleanly at the zeros.
        let scan = try RecordScan(bytes: bytes, path: RecordFixture.path, mode: .refuse)
        #expect(scan.records.count == 300 && scan.tail == nil && scan.validEnd == writer.endOffset)
        // Nothing grows the file until its zeros are used up: a write lands in them.
        let writes = fileSystem.count(of: .write)
        let size = try fileSystem.fileSize(RecordFixture.path)
        try writer.append([1])
        let sizeAfter = try fileSystem.fileSize(RecordFixture.path)
        #expect(fileSystem.count(of: .write) == writes + 1 && sizeAfter == size)
    }

    @Test("A streamed record adds zeros after its last chunk only, so none of its bytes is written twice")
    func streamedRecordPreallocatesOnce() throws {
        let fileSystem = SimulatedFileSystem()
        let writer = try RecordWriterTests.newWriter(fileSystem)
        writer.preallocation = 100_000
        writer.chunkSize = 8 << 10
        try writer.beginRecord()
        let part = [UInt8](repeating: 6, count: 1_000)
        var writes = fileSystem.count(of: .write)
        var sizes: [UInt64] = []
        for _ in 0..<300 {
            try writer.continueRecord(part)
            let count = fileSystem.count(of: .write)
            if count > writes {
                // A chunk: data only, the file ends with it.
                #expect(count == writes + 1)
                sizes.append(try fileSystem.fileSize(RecordFixture.path))
                writes = count
            }
        }
        #expect(sizes.count >= 5 && zip(sizes, sizes.dropFirst()).allSatisfy { $0 < $1 })
        _ = try writer.finishRecord()
        // The last chunk, then the zeros after it.
        #expect(fileSystem.count(of: .write) == writes + 2)
        #expect(try fileSystem.fileSize(RecordFixture.path) == writer.endOffset + 100_000)
    }

    @Test("No room for the zeros is not a failure: the record stands and the next write tries again; no room for a record is")
    func noSpaceForZeros() throws {
        let fileSystem = SimulatedFileSystem()
        let writer = try RecordWriterTests.newWriter(fileSystem)
        writer.preallocation = 100_000
        // The first write is the record's, the second the zeros'.
        fileSystem.injectFailure(.write, atOccurrence: 2, code: ENOSPC)
        try writer.append([1, 2, 3])
        #expect(!writer.isPoisoned && writer.allocatedEnd == writer.endOffset)
        #expect(try fileSystem.fileSize(RecordFixture.path) == writer.endOffset)
        let writes = fileSystem.count(of: .write)
        try writer.append([4])
        #expect(fileSystem.count(of: .write) == writes + 2, "the next record's write adds the zeros")
        #expect(writer.allocatedEnd > writer.endOffset)
        try writer.sync()
        let scan = try RecordScan(bytes: try fileSystem.readFile(RecordFixture.path), path: RecordFixture.path, mode: .refuse)
        #expect(scan.records.map { Array($0.payload) } == [[1, 2, 3], [4]] && scan.tail == nil)
        // Any other failure of the zeros' write, and no room for a record, stop the writer.
        for (occurrence, code) in [(2, EIO), (1, ENOSPC)] {
            let other = SimulatedFileSystem()
            let stopped = try RecordWriterTests.newWriter(other)
            stopped.preallocation = 100_000
            other.injectFailure(.write, atOccurrence: occurrence, code: code)
            #expect(throws: RecordFileError.self) { try stopped.append([1]) }
            #expect(stopped.isPoisoned, "write \(occurrence) failing with errno \(code)")
        }
    }

    @Test("Opening to append reuses preallocated zeros, and cuts a torn record written in them")
    func reopenKeepsZeros() throws {
        let fileSystem = SimulatedFileSystem()
        let writer = try RecordWriterTests.newWriter(fileSystem)
        writer.preallocation = 100_000
        for size in [10, 50_000, 20] { try writer.append([UInt8](repeating: 3, count: size)) }
        try writer.sync()
        let end = writer.endOffset
        let size = try fileSystem.fileSize(RecordFixture.path)
        writer.close()
        // Clean zeros: kept, and the next record goes where the zeros begin.
        let (reopened, scan) = try RecordWriter.openForAppend(path: RecordFixture.path, fileSystem: fileSystem, firstSequence: 1)
        #expect(scan.tail == nil && scan.records.count == 3)
        #expect(reopened.endOffset == end && reopened.allocatedEnd == size)
        #expect(try fileSystem.fileSize(RecordFixture.path) == size)
        reopened.preallocation = 100_000
        // A record whose end never reached the disk: its first fragment, then zeros.
        try reopened.append([UInt8](repeating: 4, count: 40_000))
        try reopened.sync()
        let recordEnd = reopened.endOffset
        reopened.close()
        let blockEnd = (end / UInt64(RecordFormat.blockSize) + 1) * UInt64(RecordFormat.blockSize)
        #expect(recordEnd > blockEnd, "the record has a fragment in the next block")
        fileSystem.corrupt(RecordFixture.path, at: Int(blockEnd), with: [UInt8](repeating: 0, count: Int(recordEnd - blockEnd)))
        let (afterTear, tornScan) = try RecordWriter.openForAppend(path: RecordFixture.path, fileSystem: fileSystem, firstSequence: 1)
        #expect(tornScan.records.count == 3)
        let tail = try #require(tornScan.tail, "a first fragment followed by zeros is a torn record")
        #expect(tail.offset == end && tail.afterSequence == 3)
        // The torn record is cut, zeros and all: nothing of it can follow a later record.
        #expect(try fileSystem.fileSize(RecordFixture.path) == end)
        #expect(afterTear.endOffset == end && afterTear.allocatedEnd == end && afterTear.nextSequence == 4)
        try afterTear.append([5])
        try afterTear.sync()
        let final = try RecordScan(bytes: try fileSystem.readFile(RecordFixture.path), path: RecordFixture.path, mode: .refuse)
        #expect(final.records.map(\.sequence) == [1, 2, 3, 4] && final.tail == nil)
    }

    @Test("A byte that is not zero among the preallocated zeros is a torn tail, which ends with it")
    func garbageInZeros() throws {
        let fileSystem = SimulatedFileSystem()
        let writer = try RecordWriterTests.newWriter(fileSystem)
        writer.preallocation = 100_000
        for size in [10, 20] { try writer.append([UInt8](repeating: 3, count: size)) }
        try writer.sync()
        let end = Int(writer.endOffset)
        let size = Int(try fileSystem.fileSize(RecordFixture.path))
        writer.close()
        for offset in [end, end + 1, end + 7, size / 2, size - 1] {
            var bytes = try fileSystem.readFile(RecordFixture.path)
            bytes[offset] = 0x5A
            let scan = try RecordScan(bytes: bytes, path: RecordFixture.path, mode: .refuse)
            #expect(scan.records.count == 2 && scan.validEnd == UInt64(end), "byte \(offset)")
            let tail = try #require(scan.tail, "byte \(offset)")
            // The tail ends with its last byte that is not zero.
            #expect(tail.offset == UInt64(end) && tail.length == UInt64(offset + 1 - end), "byte \(offset)")
        }
    }
}
