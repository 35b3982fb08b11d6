import Foundation
import Testing

@testable import GraphStore

@Suite("RecordReader: the classic log-reader cases")
struct RecordReaderTests {
    let blockSize = RecordFormat.blockSize

    @Test("an empty file (header only) has no records and a clean end")
    func emptyFile() throws {
        let fixture = try RecordFixture(sizes: [])
        let scan = try fixture.scan(try fixture.bytes)
        #expect(scan.records.isEmpty)
        #expect(scan.damages.isEmpty)
        #expect(scan.tail == nil)
        #expect(scan.validEnd == UInt64(RecordFormat.fileHeaderSize))
        #expect(scan.header == fixture.header)
    }

    @Test("records of zero bytes, small and of many blocks read back exactly")
    func roundTrip() throws {
        let sizes = [0, 1, 100, 200_000, 5, 3 * 32_768, 7]
        let fixture = try RecordFixture(sizes: sizes)
        let scan = try fixture.scan(try fixture.bytes)
        #expect(scan.records.map(\.sequence) == Array(1...UInt64(sizes.count)))
        for record in scan.records {
            #expect(Array(record.payload) == fixture.payloads[record.sequence])
            #expect(record.offset..<record.endOffset == fixture.extents[record.sequence])
        }
        #expect(scan.damages.isEmpty && scan.tail == nil)
    }

    @Test(
        "records ending exactly at, 7 bytes before, and 1...6 bytes before a block boundary",
        arguments: [0, 1, 3, 6, 7, 8])
    func blockBoundaries(bytesLeftInBlock: Int) throws {
        // First record: header (64) + fragment header (7) + sequence (8) + payload fills the
        // block but `bytesLeftInBlock`.
        let first = blockSize - RecordFormat.fileHeaderSize - 7 - 8 - bytesLeftInBlock
        let fixture = try RecordFixture(sizes: [first, 10, blockSize - 15, 0, 20])
        #expect(fixture.extents[1]!.upperBound == UInt64(blockSize - bytesLeftInBlock))
        let scan = try fixture.scan(try fixture.bytes)
        #expect(scan.records.map(\.sequence) == [1, 2, 3, 4, 5])
        for record in scan.records {
            #expect(Array(record.payload) == fixture.payloads[record.sequence])
        }
        #expect(scan.damages.isEmpty && scan.tail == nil)
    }

    @Test("a checksum mismatch loses only the damaged record when its length is intact")
    func checksumMismatch() throws {
        let fixture = try RecordFixture(sizes: [30, 30, 30])
        var bytes = try fixture.bytes
        let second = fixture.extents[2]!
        bytes[Int(second.lowerBound) + 20] ^= 0x10
        let scan = try fixture.scan(bytes)
        #expect(scan.records.map(\.sequence) == [1, 3])
        #expect(
            scan.damages == [
                RecordReader.Damage(
                    offset: second.lowerBound, length: UInt64(second.count), reason: .checksumMismatch,
                    afterSequence: 1, beforeSequence: 3)
            ])
        #expect(scan.tail == nil)
    }

    @Test("a bad length is skipped up to the next intact fragment, in the same block, and what follows is kept")
    func badLength() throws {
        // Records 1...3 in block 0, record 4 starts block 1.
        let fill = blockSize - RecordFormat.fileHeaderSize - 3 * (7 + 8) - 200
        let fixture = try RecordFixture(sizes: [100, 100, fill, 50, 50])
        #expect(fixture.extents[4]!.lowerBound == UInt64(blockSize))
        var bytes = try fixture.bytes
        let second = Int(fixture.extents[2]!.lowerBound)
        bytes.storeUInt16(40_000, at: second + 4)
        let scan = try fixture.scan(bytes)
        #expect(scan.records.map(\.sequence) == [1, 3, 4, 5])
        #expect(scan.damages.count == 1)
        let damage = try #require(scan.damages.first)
        #expect(damage.reason == .badLength)
        #expect(damage.offset == UInt64(second))
        #expect(damage.length == fixture.extents[2]!.upperBound - UInt64(second))
        #expect(damage.afterSequence == 1 && damage.beforeSequence == 3)
    }

    @Test("a truncated trailing record is a torn tail, not damage, and the writer continues before it")
    func truncatedTrailingRecord() throws {
        let fixture = try RecordFixture(sizes: [40, 40_000])
        let bytes = try fixture.bytes
        let cut = Array(bytes[..<(Int(fixture.extents[2]!.lowerBound) + 5000)])
        let scan = try fixture.scan(cut, mode: .refuse)
        #expect(scan.records.map(\.sequence) == [1])
        #expect(scan.damages.isEmpty)
        let tail = try #require(scan.tail)
        #expect(tail.offset == fixture.extents[2]!.lowerBound)
        #expect(tail.afterSequence == 1 && tail.beforeSequence == nil)
        #expect(scan.validEnd == fixture.extents[1]!.upperBound)
    }

    @Test(
        "a tail of fewer bytes than a fragment header is torn, unless it is zeros",
        arguments: [[UInt8](), [0, 0, 0], [1, 2, 3], [9, 9, 9, 9, 9, 9], [0, 0, 0, 0, 0, 7]])
    func shortTail(extra: [UInt8]) throws {
        let fixture = try RecordFixture(sizes: [40, 50])
        let bytes = try fixture.bytes
        let scan = try fixture.scan(bytes + extra, mode: .refuse)
        #expect(scan.records.map(\.sequence) == [1, 2])
        if extra.allSatisfy({ $0 == 0 }) {
            // Nothing, or preallocated zeros: the records end cleanly.
            #expect(scan.tail == nil)
        } else {
            let tail = try #require(scan.tail)
            #expect(tail.offset == UInt64(bytes.count) && tail.length == UInt64(extra.count))
            #expect(tail.reason == .truncatedHeader)
        }
        #expect(scan.validEnd == UInt64(bytes.count))
    }

    @Test("a record split across a damaged block is dropped whole; the next record is kept")
    func recordAcrossDamagedBlock() throws {
        // Record 2 spans blocks 0, 1 and 2; record 3 follows it in block 2.
        let fixture = try RecordFixture(sizes: [10, 2 * blockSize, 10, 10])
        var bytes = try fixture.bytes
        bytes[blockSize + 1000] ^= 0xFF  // inside record 2's middle fragment
        let scan = try fixture.scan(bytes)
        #expect(scan.records.map(\.sequence) == [1, 3, 4])
        let damage = try #require(scan.damages.first)
        #expect(scan.damages.count == 1)
        #expect(damage.offset == fixture.extents[2]!.lowerBound)
        #expect(damage.length == UInt64(fixture.extents[2]!.count))
        #expect(damage.afterSequence == 1 && damage.beforeSequence == 3)
        #expect(Array(scan.records[1].payload) == fixture.payloads[3])
    }

    @Test("a zeroed region in the middle is reported with the records around it")
    func zeroedRegion() throws {
        let fixture = try RecordFixture(sizes: Array(repeating: 1000, count: 100))
        var bytes = try fixture.bytes
        let start = Int(fixture.extents[10]!.lowerBound)
        for index in start..<start + 3000 { bytes[index] = 0 }
        let scan = try fixture.scan(bytes)
        let damage = try #require(scan.damages.first)
        #expect(scan.damages.count == 1)
        #expect(damage.reason == .zeroedRegion)
        #expect(damage.offset == UInt64(start))
        #expect(damage.afterSequence == 9)
        // Everything from the first block after the zeroed span is kept.
        let resumed = try #require(damage.beforeSequence)
        #expect(fixture.extents[resumed]!.lowerBound <= UInt64(blockSize) + 1007)
        #expect(scan.records.map(\.sequence) == Array(1...9) + Array(resumed...100))
        #expect(throws: RecordFileError.self) { try fixture.scan(bytes, mode: .refuse) }
    }

    @Test("the three recovery modes")
    func recoveryModes() throws {
        let fixture = try RecordFixture(sizes: [30, 30, 30, 30])
        var bytes = try fixture.bytes
        let second = fixture.extents[2]!
        bytes[Int(second.lowerBound) + 10] ^= 1
        let error = #expect(throws: RecordFileError.self) { try fixture.scan(bytes, mode: .refuse) }
        #expect(
            error
                == .damaged(
                    path: RecordFixture.path, offset: second.lowerBound, length: UInt64(second.count), afterSequence: 1,
                    beforeSequence: 3, reason: "checksum mismatch"))
        #expect(error.map { "\($0)" }?.contains("offset \(second.lowerBound)") == true)
        let stopped = try fixture.scan(bytes, mode: .stopAtDamage)
        #expect(stopped.records.map(\.sequence) == [1])
        #expect(stopped.validEnd == fixture.extents[1]!.upperBound)
        let salvaged = try fixture.scan(bytes, mode: .salvage)
        #expect(salvaged.records.map(\.sequence) == [1, 3, 4])
    }

    @Test("a sequence gap between intact records is reported")
    func sequenceGap() throws {
        let fixture = try RecordFixture(sizes: [10, 10])
        let writer = try RecordWriter.append(
            path: RecordFixture.path, fileSystem: fixture.fileSystem, header: fixture.header,
            endOffset: fixture.extents[2]!.upperBound, nextSequence: 7)
        try writer.append([1, 2, 3])
        try writer.sync()
        let scan = try fixture.scan(try fixture.bytes)
        #expect(scan.records.map(\.sequence) == [1, 2, 7])
        #expect(scan.damages.map(\.reason) == [.sequenceGap(expected: 3, found: 7)])
        #expect(scan.damages.first?.length == 0)
    }

    @Test("a header from another store, a bad magic, version or checksum, a truncated header")
    func foreignAndBadHeaders() throws {
        let fixture = try RecordFixture(sizes: [10])
        let bytes = try fixture.bytes
        #expect(throws: RecordFileError.foreignHeader(
            path: RecordFixture.path, field: "graph identifier", expected: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)).uuidString,
            found: RecordFixture.graphID.uuidString)) {
            try RecordScan(bytes: bytes, path: RecordFixture.path, graphID: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)))
        }
        #expect(throws: RecordFileError.foreignHeader(path: RecordFixture.path, field: "generation", expected: "2", found: "1")) {
            try RecordScan(bytes: bytes, path: RecordFixture.path, generation: 2)
        }
        #expect(throws: RecordFileError.foreignHeader(path: RecordFixture.path, field: "kind", expected: "snapshot", found: "journal")) {
            try RecordScan(bytes: bytes, path: RecordFixture.path, kind: .snapshot)
        }
        for (index, reasonPrefix) in [(0, "wrong magic"), (8, "unsupported format version"), (30, "header checksum")] {
            var damaged = bytes
            damaged[index] ^= 0x01
            let error = #expect(throws: RecordFileError.self) { try fixture.scan(damaged) }
            guard case .badHeader(_, let reason) = error else {
                Issue.record("expected a bad header, got \(String(describing: error))")
                continue
            }
            #expect(reason.hasPrefix(reasonPrefix))
        }
        #expect(throws: RecordFileError.self) { try fixture.scan(Array(bytes.prefix(63))) }
    }

    @Test("a file reused by a newer generation never yields the older generation's records")
    func oldGenerationAfterCompaction() throws {
        let old = try RecordFixture(sizes: Array(repeating: 500, count: 200), generation: 1, salt: 111)
        let new = try RecordFixture(sizes: [500, 500, 500], generation: 2, salt: 222)
        // The newer generation overwrote the start of the region; the rest is the older one's.
        var bytes = try old.bytes
        let newer = try new.bytes
        bytes.replaceSubrange(0..<newer.count, with: newer)
        let scan = try RecordScan(bytes: bytes, path: RecordFixture.path, generation: 2, mode: .refuse)
        #expect(scan.header.generation == 2)
        #expect(scan.records.map(\.sequence) == [1, 2, 3])
        for record in scan.records {
            #expect(Array(record.payload) == new.payloads[record.sequence])
        }
        #expect(scan.tail?.offset == UInt64(newer.count))
        #expect(scan.validEnd == UInt64(newer.count))
    }

    @Test("a middle fragment without its first is damage")
    func orphanFragment() throws {
        let fixture = try RecordFixture(sizes: [10, blockSize, 10])
        var bytes = try fixture.bytes
        // Break record 2's first fragment (block 0); its last fragment in block 1 is an orphan.
        bytes[Int(fixture.extents[2]!.lowerBound) + 9] ^= 0x40
        let scan = try fixture.scan(bytes)
        #expect(scan.records.map(\.sequence) == [1, 3])
        #expect(scan.damages.first?.length == UInt64(fixture.extents[2]!.count))
    }
}
