import Foundation
import TestSupport

@testable import GraphStore

/// A record file written through `RecordWriter` on a simulated file system, with the
/// payloads it holds, for reader tests.
struct RecordFixture {
    static let path = "/store/journal"
    static let graphID = UUID(uuidString: "6F1B7C9A-3D2E-4F5A-8B6C-1D2E3F4A5B6C")!

    let fileSystem: SimulatedFileSystem
    let header: RecordFileHeader
    /// Payload of each record, by sequence number (starting at `firstSequence`).
    var payloads: [UInt64: [UInt8]] = [:]
    /// Where each record starts and ends.
    var extents: [UInt64: Range<UInt64>] = [:]

    /// Writes records of the given payload sizes (bytes are a pattern of the sequence).
    init(sizes: [Int], generation: UInt64 = 1, salt: UInt64 = 0xA5A5_0001, firstSequence: UInt64 = 1) throws {
        fileSystem = SimulatedFileSystem()
        try fileSystem.createDirectory("/store")
        header = RecordFileHeader(
            kind: .journal, schemaFingerprint: 42, graphID: Self.graphID, generation: generation, salt: salt)
        let writer = try RecordWriter.create(
            path: Self.path, fileSystem: fileSystem, header: header, firstSequence: firstSequence)
        try writer.sync()
        try fileSystem.syncDirectory("/store")
        for size in sizes {
            let sequence = writer.nextSequence
            let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(sequence) &* 7) }
            let (written, offset) = try writer.append(payload)
            payloads[written] = payload
            extents[written] = offset..<writer.endOffset
        }
        try writer.sync()
    }

    var bytes: [UInt8] {
        get throws { try fileSystem.readFile(Self.path) }
    }

    func scan(_ bytes: [UInt8], mode: RecordRecoveryMode = .salvage) throws -> RecordScan {
        try RecordScan(bytes: bytes, path: Self.path, graphID: Self.graphID, mode: mode)
    }
}

extension Array where Element == UInt8 {
    /// Writes a little-endian `UInt16` at `offset`.
    mutating func storeUInt16(_ value: UInt16, at offset: Int) {
        self[offset] = UInt8(value & 0xFF)
        self[offset + 1] = UInt8(value >> 8)
    }
}
