import Foundation

/// The on-disk layout shared by journal and snapshot files.
///
/// All integers are little-endian. A file is a sequence of 32 KiB *blocks* (offset 0,
/// 32768, 65536, …); the last block may be partial.
///
/// ## File header (bytes 0 ..< 64 of block 0)
///
/// | offset | size | field |
/// | ------ | ---- | ----- |
/// | 0  | 8  | magic `"FRKGRAPH"` (`46 52 4B 47 52 41 50 48`) |
/// | 8  | 2  | format version (2) |
/// | 10 | 1  | file kind: 1 journal, 2 snapshot |
/// | 11 | 5  | reserved, zero |
/// | 16 | 8  | schema fingerprint |
/// | 24 | 16 | the graph's identifier (UUID bytes in order) |
/// | 40 | 8  | generation (grows by one per compaction) |
/// | 48 | 8  | salt (random per file) |
/// | 56 | 4  | reserved, zero |
/// | 60 | 4  | masked CRC-32C of bytes 0 ..< 60 |
///
/// ## Fragments (from byte 64 on)
///
/// Each fragment is a 7-byte header followed by its payload, never crossing a block
/// boundary:
///
/// | offset | size | field |
/// | ------ | ---- | ----- |
/// | 0 | 4 | masked CRC-32C of: salt (8 bytes), length (2), type (1), payload |
/// | 4 | 2 | payload length (at most 32761) |
/// | 6 | 1 | type: 1 full, 2 first, 3 middle, 4 last |
///
/// When fewer than 7 bytes remain in a block, they are zeros and the next fragment starts the
/// next block. Since the salt is in every checksum, a fragment of another file (an older
/// generation left in a reused region) never validates.
///
/// ## Logical records
///
/// A record is one `full` fragment, or `first`, any number of `middle`, then `last`. The
/// concatenated payload is the 8-byte sequence number followed by the record's bytes.
/// Sequence numbers grow by one per record.
///
/// ## The end of the records
///
/// A journal may hold zeros after its last record, written ahead so that the next records
/// overwrite them instead of growing the file (``RecordWriter/preallocation``). Zeros from a
/// fragment boundary to the end of the file end the records cleanly; a reader of version 2
/// before this rule (FetchedResultsKit 0.1.0) takes them for a torn tail, drops nothing with
/// them, and cuts them off.
package enum RecordFormat {
    /// The size of a block.
    package static let blockSize = 32_768
    /// The size of a fragment header: checksum (4), length (2), type (1).
    package static let fragmentHeaderSize = 7
    /// The size of the file header.
    package static let fileHeaderSize = 64
    /// The size of the sequence number at the start of each record's payload.
    package static let sequenceSize = 8
    /// The magic number, `"FRKGRAPH"` read as a little-endian `UInt64`.
    package static let magic: UInt64 = 0x4850_4152_474B_5246
    /// The format version this code reads and writes (2: snapshots save values in columns
    /// and one side of each inverse pair).
    package static let version: UInt16 = 2

    /// The type byte of a fragment.
    package enum FragmentType: UInt8, Sendable {
        case full = 1, first = 2, middle = 3, last = 4
    }

    /// The checksum state after the salt, the constant prefix of every fragment checksum.
    ///
    /// - Parameter salt: The file's salt.
    /// - Returns: The CRC-32C of the salt's 8 little-endian bytes.
    @inlinable
    package static func saltChecksum(_ salt: UInt64) -> UInt32 {
        withUnsafeBytes(of: salt.littleEndian) { CRC32C.update(CRC32C.empty, $0) }
    }

    /// The masked checksum stored in a fragment header.
    ///
    /// - Parameters:
    ///   - saltChecksum: ``saltChecksum(_:)`` of the file's salt.
    ///   - type: The fragment's type byte.
    ///   - payload: The fragment's payload (its length is part of the checksum).
    /// - Returns: The masked checksum.
    /// - Complexity: O(`payload.count`).
    @inlinable
    package static func fragmentChecksum(
        saltChecksum: UInt32,
        type: UInt8,
        payload: UnsafeRawBufferPointer
    ) -> UInt32 {
        let length = UInt16(payload.count)
        let lengthAndType: UInt32 = UInt32(length & 0xFF) | UInt32(length >> 8) << 8 | UInt32(type) << 16
        let crc = withUnsafeBytes(of: lengthAndType.littleEndian) {
            CRC32C.update(saltChecksum, UnsafeRawBufferPointer(rebasing: $0.prefix(3)))
        }
        return CRC32C.mask(CRC32C.update(crc, payload))
    }
}

/// The kind of a record file.
package enum RecordFileKind: UInt8, Sendable, CustomStringConvertible {
    case journal = 1
    case snapshot = 2

    package var description: String {
        switch self {
        case .journal: "journal"
        case .snapshot: "snapshot"
        }
    }
}

/// The header at the start of every journal and snapshot file.
package struct RecordFileHeader: Equatable, Sendable {
    /// Journal or snapshot.
    package var kind: RecordFileKind
    /// The fingerprint of the schema the records were written with.
    package var schemaFingerprint: UInt64
    /// The identifier of the graph the file belongs to.
    package var graphID: UUID
    /// Which compaction generation wrote the file.
    package var generation: UInt64
    /// A random number mixed into every record checksum of the file.
    package var salt: UInt64

    /// Creates a header.
    ///
    /// - Parameters:
    ///   - kind: Journal or snapshot.
    ///   - schemaFingerprint: The schema's fingerprint.
    ///   - graphID: The graph's identifier.
    ///   - generation: The compaction generation.
    ///   - salt: The salt; a fresh random one by default.
    package init(
        kind: RecordFileKind,
        schemaFingerprint: UInt64,
        graphID: UUID,
        generation: UInt64,
        salt: UInt64 = UInt64.random(in: 1...UInt64.max)
    ) {
        self.kind = kind
        self.schemaFingerprint = schemaFingerprint
        self.graphID = graphID
        self.generation = generation
        self.salt = salt
    }

    /// The 64 bytes of the header, checksum included.
    ///
    /// - Returns: The encoded header.
    package func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(RecordFormat.fileHeaderSize)
        appendLittleEndian(RecordFormat.magic, to: &bytes)
        appendLittleEndian(RecordFormat.version, to: &bytes)
        bytes.append(kind.rawValue)
        bytes.append(contentsOf: repeatElement(0, count: 5))
        appendLittleEndian(schemaFingerprint, to: &bytes)
        withUnsafeBytes(of: graphID.uuid) { bytes.append(contentsOf: $0) }
        appendLittleEndian(generation, to: &bytes)
        appendLittleEndian(salt, to: &bytes)
        appendLittleEndian(UInt32(0), to: &bytes)
        appendLittleEndian(CRC32C.mask(CRC32C.checksum(bytes)), to: &bytes)
        assert(bytes.count == RecordFormat.fileHeaderSize)
        return bytes
    }

    /// Decodes and checks a header.
    ///
    /// - Parameters:
    ///   - bytes: The start of a file.
    ///   - path: The file's path, for the error.
    /// - Returns: The header.
    /// - Throws: ``RecordFileError/badHeader(path:reason:)`` when the file is too short, the
    ///   magic or version is wrong, or the header's checksum does not match.
    package static func decode(_ bytes: some Collection<UInt8>, path: String) throws -> RecordFileHeader {
        let header = Array(bytes.prefix(RecordFormat.fileHeaderSize))
        guard header.count == RecordFormat.fileHeaderSize else {
            throw RecordFileError.badHeader(path: path, reason: "the file is shorter than its 64-byte header (\(header.count) bytes)")
        }
        guard loadLittleEndian(UInt64.self, header, 0) == RecordFormat.magic else {
            throw RecordFileError.badHeader(path: path, reason: "wrong magic number: not a graph store file")
        }
        let version = loadLittleEndian(UInt16.self, header, 8)
        guard version == RecordFormat.version else {
            throw RecordFileError.badHeader(path: path, reason: "unsupported format version \(version) (this code reads \(RecordFormat.version))")
        }
        let stored = loadLittleEndian(UInt32.self, header, 60)
        guard CRC32C.mask(CRC32C.checksum(header[0..<60])) == stored else {
            throw RecordFileError.badHeader(path: path, reason: "header checksum mismatch")
        }
        guard let kind = RecordFileKind(rawValue: header[10]) else {
            throw RecordFileError.badHeader(path: path, reason: "unknown file kind \(header[10])")
        }
        return RecordFileHeader(
            kind: kind,
            schemaFingerprint: loadLittleEndian(UInt64.self, header, 16),
            graphID: UUID(storedBytes: header, at: 24),
            generation: loadLittleEndian(UInt64.self, header, 40),
            salt: loadLittleEndian(UInt64.self, header, 48)
        )
    }

    /// Checks that this header belongs to the expected store.
    ///
    /// - Parameters:
    ///   - kind: The expected kind, or `nil` for any.
    ///   - graphID: The expected graph, or `nil` for any.
    ///   - generation: The expected generation, or `nil` for any.
    ///   - path: The file's path, for the error.
    /// - Throws: ``RecordFileError/foreignHeader(path:field:expected:found:)`` naming the
    ///   first field that differs.
    package func check(kind: RecordFileKind?, graphID: UUID?, generation: UInt64?, path: String) throws {
        if let kind, kind != self.kind {
            throw RecordFileError.foreignHeader(path: path, field: "kind", expected: "\(kind)", found: "\(self.kind)")
        }
        if let graphID, graphID != self.graphID {
            throw RecordFileError.foreignHeader(
                path: path, field: "graph identifier", expected: graphID.uuidString, found: self.graphID.uuidString)
        }
        if let generation, generation != self.generation {
            throw RecordFileError.foreignHeader(
                path: path, field: "generation", expected: "\(generation)", found: "\(self.generation)")
        }
    }
}

@inlinable
func appendLittleEndian<Value: FixedWidthInteger>(_ value: Value, to bytes: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
}
