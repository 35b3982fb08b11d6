import Foundation
import Glibc

/// Appends logical records to a journal or snapshot file, in the format of ``RecordFormat``.
///
/// Each ``append(_:)`` issues one write of all the record's fragments; ``sync()`` makes
/// everything appended durable. The writer is *fail-stop*: after any failed write, sync or
/// truncation, every later call throws ``RecordFileError/poisoned(path:cause:)`` and the file
/// is never synced again, because on Linux a second `fsync` after a failed one can report
/// success for data that is already lost. The store must be reopened, which recovers from
/// what is on disk.
///
/// Not `Sendable`: a writer belongs to one isolation domain.
package final class RecordWriter {
    /// The file's path.
    package let path: String
    /// The file's header.
    package let header: RecordFileHeader
    /// The offset just past the last appended record: the file's size as this writer wrote it.
    package private(set) var endOffset: UInt64
    /// The sequence number the next appended record gets.
    package private(set) var nextSequence: UInt64
    /// The failure that stopped the writer, if any.
    package private(set) var failure: StoreFileError?

    private let file: any StoreFile
    private let saltChecksum: UInt32
    /// Reused for every record, so an append allocates nothing once it has grown.
    private var buffer: [UInt8] = []

    private init(path: String, header: RecordFileHeader, file: any StoreFile, endOffset: UInt64, nextSequence: UInt64) {
        self.path = path
        self.header = header
        self.file = file
        self.endOffset = endOffset
        self.nextSequence = nextSequence
        self.saltChecksum = RecordFormat.saltChecksum(header.salt)
    }

    deinit { file.close() }

    /// Creates (or empties) a file and writes its header, not synced yet.
    ///
    /// The caller syncs the writer and then the directory before it relies on the file.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - fileSystem: Where it lives.
    ///   - header: Its header; use a fresh salt for every new file.
    ///   - firstSequence: The sequence number of the first record.
    /// - Returns: A writer positioned after the header.
    /// - Throws: ``StoreFileError`` when the file cannot be opened, emptied or written.
    package static func create(
        path: String,
        fileSystem: any StoreFileSystem,
        header: RecordFileHeader,
        firstSequence: UInt64
    ) throws -> RecordWriter {
        let file = try fileSystem.openFile(path, create: true)
        if try file.size() > 0 { try file.truncate(to: 0) }
        let bytes = header.encoded()
        try bytes.withUnsafeBytes { try file.append($0) }
        return RecordWriter(
            path: path, header: header, file: file, endOffset: UInt64(bytes.count), nextSequence: firstSequence)
    }

    /// Opens an existing file to append after a point the caller chose from a
    /// ``RecordReader`` scan (usually ``RecordScan/validEnd``), cutting off everything after it
    /// (a torn tail) and syncing the cut.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - fileSystem: Where it lives.
    ///   - header: The header the file was read with.
    ///   - endOffset: Where the next record goes (at least the header's size).
    ///   - nextSequence: The sequence number of the next record.
    /// - Returns: A writer positioned at `endOffset`.
    /// - Throws: ``StoreFileError`` when the file cannot be opened, cut or synced.
    package static func append(
        path: String,
        fileSystem: any StoreFileSystem,
        header: RecordFileHeader,
        endOffset: UInt64,
        nextSequence: UInt64
    ) throws -> RecordWriter {
        require(endOffset >= UInt64(RecordFormat.fileHeaderSize), "a record file's data starts after its header")
        let file = try fileSystem.openFile(path, create: false)
        let size = try file.size()
        require(endOffset <= size, "the append point is past the end of \(path)")
        if size > endOffset {
            try file.truncate(to: endOffset)
            try file.sync()
        }
        return RecordWriter(path: path, header: header, file: file, endOffset: endOffset, nextSequence: nextSequence)
    }

    /// Scans a file and opens it to append after its last intact record, cutting a torn tail.
    ///
    /// Damage before the end is not repaired here: the returned scan reports it and the
    /// caller decides (it may refuse to open, or choose another end with
    /// ``append(path:fileSystem:header:endOffset:nextSequence:)``).
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - fileSystem: Where it lives.
    ///   - kind: The expected kind of file, or `nil`.
    ///   - graphID: The expected graph, or `nil`.
    ///   - generation: The expected generation, or `nil`.
    ///   - firstSequence: The sequence number for the first record of an empty file.
    /// - Returns: The writer and the scan of the file's contents.
    /// - Throws: ``RecordFileError`` for a bad or foreign header, ``StoreFileError`` for I/O.
    /// - Complexity: O(file size).
    package static func openForAppend(
        path: String,
        fileSystem: any StoreFileSystem,
        kind: RecordFileKind? = nil,
        graphID: UUID? = nil,
        generation: UInt64? = nil,
        firstSequence: UInt64
    ) throws -> (writer: RecordWriter, scan: RecordScan) {
        let bytes = try fileSystem.readFile(path)
        let scan = try RecordScan(bytes: bytes, path: path, kind: kind, graphID: graphID, generation: generation)
        let next = scan.records.last.map { $0.sequence &+ 1 } ?? firstSequence
        let writer = try append(
            path: path, fileSystem: fileSystem, header: scan.header, endOffset: scan.validEnd, nextSequence: next)
        return (writer, scan)
    }

    /// Whether a failure stopped the writer.
    package var isPoisoned: Bool { failure != nil }

    /// Appends one record with the next sequence number; not durable until ``sync()``.
    ///
    /// - Parameter payload: The record's bytes.
    /// - Returns: The record's sequence number and the offset of its first fragment.
    /// - Throws: ``RecordFileError/poisoned(path:cause:)`` when this or an earlier write or
    ///   sync failed.
    /// - Complexity: O(`payload.count`); no allocation once the reused buffer fits the record.
    @discardableResult
    package func append(_ payload: UnsafeRawBufferPointer) throws -> (sequence: UInt64, offset: UInt64) {
        if let failure { throw RecordFileError.poisoned(path: path, cause: failure) }
        let sequence = nextSequence
        let start = endOffset
        let end = encode(sequence: sequence, payload: payload)
        do {
            try buffer.withUnsafeBytes { try file.append($0) }
        } catch {
            throw poison(error, .write)
        }
        endOffset = end
        nextSequence &+= 1
        return (sequence, start)
    }

    /// Appends one record with the next sequence number; not durable until ``sync()``.
    ///
    /// - Parameter payload: The record's bytes.
    /// - Returns: The record's sequence number and the offset of its first fragment.
    /// - Throws: ``RecordFileError/poisoned(path:cause:)``.
    /// - Complexity: O(`payload.count`).
    @discardableResult
    package func append(_ payload: [UInt8]) throws -> (sequence: UInt64, offset: UInt64) {
        try payload.withUnsafeBytes { try append($0) }
    }

    /// Makes every appended record durable (`fdatasync`). Never retried after a failure.
    ///
    /// - Throws: ``RecordFileError/poisoned(path:cause:)`` when this or an earlier write or
    ///   sync failed.
    package func sync() throws {
        if let failure { throw RecordFileError.poisoned(path: path, cause: failure) }
        do {
            try file.sync()
        } catch {
            throw poison(error, .sync)
        }
    }

    /// Closes the file; later appends and syncs throw.
    package func close() {
        file.close()
        if failure == nil { failure = StoreFileError(.close, path: path, code: EBADF) }
    }

    private func poison(_ error: any Error, _ operation: StoreFileError.Operation) -> RecordFileError {
        let cause = error as? StoreFileError ?? StoreFileError(operation, path: path, code: EIO)
        failure = cause
        return RecordFileError.poisoned(path: path, cause: cause)
    }

    /// Lays the record's fragments out in `buffer` from `endOffset`.
    ///
    /// - Returns: The file offset just past the record.
    private func encode(sequence: UInt64, payload: UnsafeRawBufferPointer) -> UInt64 {
        let blockSize = RecordFormat.blockSize
        let headerSize = RecordFormat.fragmentHeaderSize
        let sequenceSize = RecordFormat.sequenceSize
        let total = sequenceSize + payload.count
        buffer.removeAll(keepingCapacity: true)
        buffer.reserveCapacity(total + (total / (blockSize - headerSize) + 2) * (headerSize + headerSize))
        var position = Int(endOffset)
        var produced = 0
        var isFirst = true
        while true {
            let left = blockSize - position % blockSize
            if left < headerSize {
                buffer.append(contentsOf: repeatElement(0, count: left))
                position += left
                continue
            }
            let length = min(left - headerSize, total - produced)
            let isLast = produced + length == total
            let type: RecordFormat.FragmentType = isFirst ? (isLast ? .full : .first) : (isLast ? .last : .middle)
            let headerStart = buffer.count
            buffer.append(contentsOf: repeatElement(0, count: headerSize))
            // The fragment's payload: part of the sequence number, then part of the bytes.
            if produced < sequenceSize {
                let count = min(sequenceSize - produced, length)
                withUnsafeBytes(of: sequence.littleEndian) { buffer.append(contentsOf: $0[produced..<produced + count]) }
            }
            let payloadStart = max(produced, sequenceSize) - sequenceSize
            let payloadEnd = produced + length - sequenceSize
            if payloadEnd > payloadStart {
                buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: payload[payloadStart..<payloadEnd]))
            }
            buffer.withUnsafeMutableBytes { raw in
                let fragment = UnsafeRawBufferPointer(rebasing: raw[(headerStart + headerSize)...])
                let checksum = RecordFormat.fragmentChecksum(
                    saltChecksum: saltChecksum, type: type.rawValue, payload: fragment)
                raw.storeBytes(of: checksum.littleEndian, toByteOffset: headerStart, as: UInt32.self)
                raw.storeBytes(of: UInt16(length).littleEndian, toByteOffset: headerStart + 4, as: UInt16.self)
                raw[headerStart + 6] = type.rawValue
            }
            produced += length
            position += headerSize + length
            isFirst = false
            if isLast { return UInt64(position) }
        }
    }
}
