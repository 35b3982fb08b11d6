import Foundation
import Glibc
import Testing

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
}
