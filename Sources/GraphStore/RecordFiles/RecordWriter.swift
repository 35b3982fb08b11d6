import Foundation
import Glibc

/// Appends logical records to a journal or snapshot file, in the format of ``RecordFormat``.
///
/// A record is written in chunks of at most about ``chunkSize`` bytes (one write for a
/// commit of ordinary size), and a record of any size can be streamed in parts
/// (``beginRecord()``); ``sync()`` makes everything appended durable.
///
/// A writer with a ``preallocation`` keeps zeros written ahead of its last record, so that
/// most appends overwrite bytes already in the file: `fdatasync` then has no file size to
/// write, which on many file systems saves a metadata write per sync. A reader takes zeros
/// to the end of the file for the end of the records (``RecordReader``).
///
/// The writer is *fail-stop*: after any failed write, sync or
/// truncation, every later call throws ``RecordFileError/poisoned(path:cause:)`` and the file
/// is never synced again, because on Linux a second `fsync` after a failed one can report
/// success for data that is already lost. The store must be reopened, which recovers from
/// what is on disk.
///
/// The fragments and their headers are ``RecordFramer``'s; this type is the file's policy
/// around them, in three files: opening and positioning (here), appending whole and streamed
/// records (`RecordWriter+Records.swift`), and writing, preallocating, syncing, closing and
/// poisoning (`RecordWriter+FilePolicy.swift`).
///
/// Not `Sendable`: a writer belongs to one isolation domain.
package final class RecordWriter {
    /// The file's path: where it was created, until ``moved(to:)`` says it was renamed.
    package private(set) var path: String
    /// The file's header.
    package let header: RecordFileHeader
    /// The offset just past the last appended record: where the next one goes.
    package internal(set) var endOffset: UInt64
    /// The file's size as this writer left it: ``endOffset``, plus the zeros written ahead of
    /// it (``preallocation``) or kept from an earlier writer.
    package internal(set) var allocatedEnd: UInt64
    /// The sequence number the next appended record gets.
    package internal(set) var nextSequence: UInt64
    /// The failure that stopped the writer, if any.
    package internal(set) var failure: StoreFileError?

    /// About how many bytes of a record are buffered before they are written: a record
    /// longer than this is written in several writes (see ``beginRecord()``).
    package var chunkSize = RecordWriter.defaultChunkSize

    /// The default ``chunkSize``: 512 KiB, sixteen blocks.
    package static let defaultChunkSize = 512 << 10

    /// At most how many bytes of zeros a write that reaches the end of the allocated file
    /// adds after itself, so that the appends that follow overwrite zeros instead of growing
    /// the file; 0 (the default) adds none. Each time the file runs out of zeros it gets as
    /// many more as it holds already (at least two blocks), up to this: a small file stays
    /// small. When the disk has no room for the zeros, the record written before them stands
    /// and the writer goes on without them.
    package var preallocation = 0

    /// Whether records appended whole (``append(_:)-(UnsafeRawBufferPointer)``) stay buffered
    /// until about ``chunkSize`` bytes are framed, instead of being written one by one: a
    /// snapshot of many records is then written in a few large writes, each one's write-back
    /// started at once (``StoreFile/startWriteBack()``). ``sync()`` and ``beginRecord()``
    /// write what is buffered first; ``close()`` drops it.
    package var holdsWholeRecords = false

    let file: any StoreFile
    /// The records' fragments, framed and not written yet (at most about ``chunkSize`` bytes
    /// of them), and the bytes of the open record not framed yet.
    var framer: RecordFramer
    /// Whether a record is open (begun, not finished or abandoned).
    var isRecordOpen = false
    /// The file offset just past what was written: where the framer's first framed byte goes.
    var writtenEnd: UInt64
    /// ``allocatedEnd`` when the open record began: what ``abandonRecord()`` restores.
    var allocatedAtBegin: UInt64 = 0

    private init(
        path: String, header: RecordFileHeader, file: any StoreFile, endOffset: UInt64, allocatedEnd: UInt64,
        nextSequence: UInt64
    ) {
        self.path = path
        self.header = header
        self.file = file
        self.endOffset = endOffset
        self.allocatedEnd = allocatedEnd
        self.writtenEnd = endOffset
        self.nextSequence = nextSequence
        self.framer = RecordFramer(salt: header.salt)
    }

    /// Records that the file was renamed to `path`, so that errors name the file where it is.
    ///
    /// - Parameter path: The file's new path.
    /// - Complexity: O(1).
    package func moved(to path: String) {
        self.path = path
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
        try bytes.withUnsafeBytes { try file.write($0, at: 0) }
        let end = UInt64(bytes.count)
        return RecordWriter(
            path: path, header: header, file: file, endOffset: end, allocatedEnd: end, nextSequence: firstSequence)
    }

    /// Opens an existing file to append after a point the caller chose from a
    /// ``RecordReader`` scan (usually ``RecordScan/validEnd``), cutting off everything after it
    /// (a torn tail) and syncing the cut, unless it is all zeros (space an earlier writer
    /// preallocated, which the new one reuses).
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - fileSystem: Where it lives.
    ///   - header: The header the file was read with.
    ///   - endOffset: Where the next record goes (at least the header's size).
    ///   - nextSequence: The sequence number of the next record.
    /// - Returns: A writer positioned at `endOffset`.
    /// - Throws: ``StoreFileError`` when the file cannot be opened, read, cut or synced.
    /// - Complexity: O(*z*) for *z* bytes after `endOffset` (they are read to check they are
    ///   zeros).
    package static func append(
        path: String,
        fileSystem: any StoreFileSystem,
        header: RecordFileHeader,
        endOffset: UInt64,
        nextSequence: UInt64
    ) throws -> RecordWriter {
        require(endOffset >= UInt64(RecordFormat.fileHeaderSize), "a record file's data starts after its header")
        let file = try fileSystem.openFile(path, create: false)
        var size = try file.size()
        require(endOffset <= size, "the append point is past the end of \(path)")
        if try !isZero(file, from: endOffset, to: size) {
            try file.truncate(to: endOffset)
            try file.sync()
            size = endOffset
        }
        return RecordWriter(
            path: path, header: header, file: file, endOffset: endOffset, allocatedEnd: size, nextSequence: nextSequence)
    }

    /// Opens an existing file to append after `endOffset` without changing anything in it:
    /// for a journal that other processes append to, where only the holder of the write lock
    /// may cut a torn tail (see ``resume(at:nextSequence:zeroingTo:)``).
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - fileSystem: Where it lives.
    ///   - header: The header the file was read with.
    ///   - endOffset: The end of the last record read.
    ///   - nextSequence: The sequence number of the next record.
    /// - Returns: A writer positioned at `endOffset`.
    /// - Throws: ``StoreFileError`` when the file cannot be opened.
    /// - Complexity: O(1).
    package static func attach(
        path: String, fileSystem: any StoreFileSystem, header: RecordFileHeader, endOffset: UInt64, nextSequence: UInt64
    ) throws -> RecordWriter {
        let file = try fileSystem.openFile(path, create: false)
        let size = try file.size()
        return RecordWriter(
            path: path, header: header, file: file, endOffset: endOffset, allocatedEnd: max(size, endOffset),
            nextSequence: nextSequence)
    }

    /// Moves the append point past records that another writer of the same file appended
    /// (the caller read them, and holds the file's write lock), first overwriting with zeros
    /// and syncing `endOffset..<zeroingTo`, the torn tail a writer that died left there.
    ///
    /// - Parameters:
    ///   - endOffset: The end of the last intact record.
    ///   - nextSequence: The sequence number of the next record.
    ///   - zeroingTo: The end of a torn tail after `endOffset`, or `nil` for none.
    /// - Throws: ``RecordFileError/poisoned(path:cause:)`` when the writer failed before or
    ///   the zeros cannot be written or synced.
    /// - Complexity: O(1), or O(*t*) for a torn tail of *t* bytes.
    package func resume(at endOffset: UInt64, nextSequence: UInt64, zeroingTo tornEnd: UInt64? = nil) throws {
        if let failure { throw RecordFileError.poisoned(path: path, cause: failure) }
        require(!isRecordOpen && framer.framed.isEmpty, "resume(at:nextSequence:zeroingTo:): a record is open or buffered")
        let size: UInt64
        do {
            size = try file.size()
        } catch {
            throw poison(error, .read)
        }
        if let tornEnd, tornEnd > endOffset {
            do {
                try writeZeros(from: endOffset, to: min(tornEnd, size))
            } catch {
                throw poison(error, .write)
            }
            do {
                try file.sync()
            } catch {
                throw poison(error, .sync)
            }
        }
        self.endOffset = endOffset
        writtenEnd = endOffset
        framer.move(to: endOffset)
        allocatedEnd = max(size, endOffset)
        self.nextSequence = nextSequence
    }

    /// Moves the append point past one record another writer of the same file appended,
    /// without looking at the file (a reader follows with this; a writer calls
    /// ``resume(at:nextSequence:zeroingTo:)`` before it appends, which reads the file's size).
    ///
    /// - Parameters:
    ///   - endOffset: The end of the record.
    ///   - nextSequence: The sequence number after it.
    /// - Complexity: O(1).
    package func advance(past endOffset: UInt64, nextSequence: UInt64) {
        require(!isRecordOpen && framer.framed.isEmpty, "advance(past:nextSequence:): a record is open or buffered")
        self.endOffset = endOffset
        writtenEnd = endOffset
        framer.move(to: endOffset)
        allocatedEnd = max(allocatedEnd, endOffset)
        self.nextSequence = nextSequence
    }

    /// Reads bytes of the file: what other writers of a shared file appended.
    ///
    /// - Parameters:
    ///   - offset: Where to start.
    ///   - count: At most how many bytes (fewer at the end of the file).
    /// - Throws: ``StoreFileError`` when the read fails.
    package func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        try file.read(at: offset, count: count)
    }

    /// The file's size now, other writers' appends and zeros included.
    ///
    /// - Throws: ``StoreFileError`` when it cannot be read.
    package func fileSize() throws -> UInt64 {
        try file.size()
    }

    /// Whether the bytes `start..<end` of a file are all zeros, read a block at a time until
    /// one is not.
    private static func isZero(_ file: any StoreFile, from start: UInt64, to end: UInt64) throws -> Bool {
        var offset = start
        while offset < end {
            let count = Int(min(end - offset, UInt64(RecordFormat.blockSize)))
            let bytes = try file.read(at: offset, count: count)
            guard bytes.count == count, bytes.allSatisfy({ $0 == 0 }) else { return false }
            offset += UInt64(count)
        }
        return true
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
}
