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
/// Not `Sendable`: a writer belongs to one isolation domain.
package final class RecordWriter {
    /// The file's path: where it was created, until ``moved(to:)`` says it was renamed.
    package private(set) var path: String
    /// The file's header.
    package let header: RecordFileHeader
    /// The offset just past the last appended record: where the next one goes.
    package private(set) var endOffset: UInt64
    /// The file's size as this writer left it: ``endOffset``, plus the zeros written ahead of
    /// it (``preallocation``) or kept from an earlier writer.
    package private(set) var allocatedEnd: UInt64
    /// The sequence number the next appended record gets.
    package private(set) var nextSequence: UInt64
    /// The failure that stopped the writer, if any.
    package private(set) var failure: StoreFileError?

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

    private let file: any StoreFile
    private let saltChecksum: UInt32
    /// Framed bytes of the open record not written yet (at most about ``chunkSize``); reused
    /// for every record, so an append allocates nothing once it has grown.
    private var buffer: [UInt8] = []
    /// Bytes of the open record not framed yet: less than two fragments' payloads.
    private var pending: [UInt8] = []
    /// Whether a record is open (begun, not finished or abandoned).
    private var isRecordOpen = false
    /// Whether the open record's next fragment is its first.
    private var isFirstFragment = true
    /// The file offset just past the framed bytes (written or buffered).
    private var framedEnd: UInt64 = 0
    /// The file offset just past what was written: where `buffer`'s first byte goes.
    private var writtenEnd: UInt64
    /// ``allocatedEnd`` when the open record began: what ``abandonRecord()`` restores.
    private var allocatedAtBegin: UInt64 = 0

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
        self.saltChecksum = RecordFormat.saltChecksum(header.salt)
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
        require(!isRecordOpen && buffer.isEmpty, "resume(at:nextSequence:zeroingTo:): a record is open or buffered")
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
        framedEnd = endOffset
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
        require(!isRecordOpen && buffer.isEmpty, "advance(past:nextSequence:): a record is open or buffered")
        self.endOffset = endOffset
        writtenEnd = endOffset
        framedEnd = endOffset
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

    /// Whether a failure stopped the writer.
    package var isPoisoned: Bool { failure != nil }

    /// Appends one record with the next sequence number; not durable until ``sync()``.
    ///
    /// A record that fits in ``chunkSize`` is written with one write; a longer one is
    /// streamed as with ``beginRecord()``.
    ///
    /// - Parameter payload: The record's bytes.
    /// - Returns: The record's sequence number and the offset of its first fragment.
    /// - Throws: ``RecordFileError/poisoned(path:cause:)`` when this or an earlier write or
    ///   sync failed.
    /// - Complexity: O(`payload.count`); no allocation once the reused buffers have grown.
    @discardableResult
    package func append(_ payload: UnsafeRawBufferPointer) throws -> (sequence: UInt64, offset: UInt64) {
        if let failure { throw RecordFileError.poisoned(path: path, cause: failure) }
        require(!isRecordOpen, "append(_:): a record is open; finish or abandon it first")
        if !holdsWholeRecords && payload.count > chunkSize {
            try beginRecord()
            try continueRecord(payload)
            return try finishRecord()
        }
        // Framed straight from `payload`, after what is held.
        framedEnd = endOffset
        isFirstFragment = true
        var sequence = nextSequence.littleEndian
        withUnsafeBytes(of: &sequence) { frameWhole(prefix: UnsafeRawBufferPointer($0), payload) }
        if !holdsWholeRecords {
            try writeBuffer()
        } else if buffer.count >= chunkSize {
            // The disk starts on these bytes while the next ones are encoded; the sync at the
            // end waits for less.
            try writeBuffer()
            file.startWriteBack()
        }
        let start = endOffset
        endOffset = framedEnd
        let appended = nextSequence
        nextSequence &+= 1
        if !holdsWholeRecords { shrinkBuffers() }
        return (appended, start)
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
        if !isRecordOpen { try writeBuffer() }
        do {
            try file.sync()
        } catch {
            throw poison(error, .sync)
        }
    }

    /// Starts writing what was written to the file to the disk, without waiting
    /// (``StoreFile/startWriteBack()``): a hint that makes nothing durable.
    package func startWriteBack() {
        if failure == nil { file.startWriteBack() }
    }

    /// Closes the file; later appends and syncs throw.
    package func close() {
        file.close()
        if failure == nil { failure = StoreFileError(.close, path: path, code: EBADF) }
    }

    /// Closes the file on another thread (``StoreFile/closeInBackground(_:)``), inside
    /// `group` until it is closed; later appends and syncs throw. For a file that a rename
    /// replaced, whose blocks the last close frees.
    ///
    /// - Parameter group: Entered now, left once the file is closed.
    package func closeInBackground(_ group: DispatchGroup) {
        file.closeInBackground(group)
        if failure == nil { failure = StoreFileError(.close, path: path, code: EBADF) }
    }

    private func poison(_ error: any Error, _ operation: StoreFileError.Operation) -> RecordFileError {
        var cause = error as? StoreFileError ?? StoreFileError(operation, path: path, code: EIO)
        // The handle keeps the name the file was opened under; name it where it is now.
        cause.path = path
        failure = cause
        return RecordFileError.poisoned(path: path, cause: cause)
    }

    // MARK: Streaming a record

    /// Starts a record with the next sequence number, to be given in parts with
    /// ``continueRecord(_:)`` and ended with ``finishRecord()`` (or ``abandonRecord()``).
    ///
    /// The record is written in chunks of about ``chunkSize`` bytes as its parts arrive, so a
    /// record of any size needs no more memory than a chunk and a fragment. It stays one
    /// logical record: its fragments are `first`, `middle`…, `last`, and a reader that finds
    /// no `last` (a crash or a failed write in the middle) drops the whole record as a torn
    /// tail. Until ``finishRecord()`` returns, ``endOffset`` and ``nextSequence`` describe
    /// the file without the record.
    ///
    /// - Throws: ``RecordFileError/poisoned(path:cause:)`` when an earlier write or sync
    ///   failed.
    package func beginRecord() throws {
        if let failure { throw RecordFileError.poisoned(path: path, cause: failure) }
        require(!isRecordOpen, "beginRecord(): a record is already open; finish or abandon it first")
        try writeBuffer()
        isRecordOpen = true
        framedEnd = endOffset
        allocatedAtBegin = allocatedEnd
        isFirstFragment = true
        pending.removeAll(keepingCapacity: true)
        buffer.removeAll(keepingCapacity: true)
        withUnsafeBytes(of: nextSequence.littleEndian) { pending.append(contentsOf: $0) }
    }

    /// Adds bytes to the open record, writing the chunks they complete.
    ///
    /// - Parameter bytes: The record's next bytes.
    /// - Throws: ``RecordFileError/poisoned(path:cause:)`` when this or an earlier write
    ///   failed; the record is then left unfinished in the file (a torn tail for the next
    ///   open) and the writer takes nothing more.
    /// - Complexity: O(`bytes.count`).
    package func continueRecord(_ bytes: UnsafeRawBufferPointer) throws {
        if let failure { throw RecordFileError.poisoned(path: path, cause: failure) }
        require(isRecordOpen, "continueRecord(_:): no record is open")
        var rest = bytes
        while !rest.isEmpty {
            // Take no more than a block at a time, so `pending` stays within two fragments.
            let taken = min(rest.count, RecordFormat.blockSize)
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest.prefix(taken)))
            rest = UnsafeRawBufferPointer(rebasing: rest.dropFirst(taken))
            frameFragments(final: false)
            if buffer.count >= chunkSize { try writeBuffer(preallocating: false) }
        }
    }

    /// Adds bytes to the open record.
    ///
    /// - Parameter bytes: The record's next bytes.
    /// - Throws: ``RecordFileError/poisoned(path:cause:)``.
    /// - Complexity: O(`bytes.count`).
    package func continueRecord(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try continueRecord($0) }
    }

    /// Ends the open record: writes its last fragment and what is still buffered.
    ///
    /// - Returns: The record's sequence number and the offset of its first fragment.
    /// - Throws: ``RecordFileError/poisoned(path:cause:)`` when this or an earlier write
    ///   failed (the record is then a torn tail, never a whole record).
    package func finishRecord() throws -> (sequence: UInt64, offset: UInt64) {
        if let failure { throw RecordFileError.poisoned(path: path, cause: failure) }
        require(isRecordOpen, "finishRecord(): no record is open")
        frameFragments(final: true)
        try writeBuffer()
        isRecordOpen = false
        let start = endOffset
        endOffset = framedEnd
        let sequence = nextSequence
        nextSequence &+= 1
        shrinkBuffers()
        return (sequence, start)
    }

    /// Drops the open record: what of it was written is cut off the file, or overwritten
    /// with zeros where it overwrote preallocated zeros, and that is synced, so the file is
    /// as it was before ``beginRecord()`` (with anything appended before it synced too).
    /// Nothing happens on disk when no chunk was written yet.
    ///
    /// - Throws: ``RecordFileError/poisoned(path:cause:)`` when the cut or its sync fails
    ///   (the writer then takes nothing more; the record is a torn tail for the next open).
    package func abandonRecord() throws {
        guard isRecordOpen else { return }
        isRecordOpen = false
        pending.removeAll(keepingCapacity: true)
        buffer.removeAll(keepingCapacity: true)
        shrinkBuffers()
        if let failure { throw RecordFileError.poisoned(path: path, cause: failure) }
        guard writtenEnd > endOffset else { return }
        // The zeros the record overwrote are written again, and what it added is cut.
        let zeroed = min(writtenEnd, allocatedAtBegin)
        if zeroed > endOffset {
            do {
                try writeZeros(from: endOffset, to: zeroed)
            } catch {
                throw poison(error, .write)
            }
        }
        if allocatedEnd > allocatedAtBegin {
            do {
                try file.truncate(to: allocatedAtBegin)
            } catch {
                throw poison(error, .truncate)
            }
        }
        do {
            try file.sync()
        } catch {
            throw poison(error, .sync)
        }
        writtenEnd = endOffset
        allocatedEnd = allocatedAtBegin
    }

    /// Writes the framed bytes at ``writtenEnd``, then, when they reach past the zeros
    /// written ahead and `preallocating`, more zeros (``preallocation``).
    ///
    /// - Parameter preallocating: Whether to add zeros; `false` for a chunk in the middle of
    ///   a streamed record, which the next chunk follows (zeros there would be written twice).
    private func writeBuffer(preallocating: Bool = true) throws {
        guard !buffer.isEmpty else { return }
        do {
            try buffer.withUnsafeBytes { try file.write($0, at: writtenEnd) }
        } catch {
            throw poison(error, .write)
        }
        writtenEnd += UInt64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
        guard writtenEnd > allocatedEnd else { return }
        allocatedEnd = writtenEnd
        guard preallocation > 0, preallocating else { return }
        let ahead = min(UInt64(preallocation), max(2 * UInt64(RecordFormat.blockSize), writtenEnd))
        let target = writtenEnd + ahead
        do {
            try writeZeros(from: allocatedEnd, to: target)
        } catch let error as StoreFileError where Self.meansNoSpace(error.code) {
            // The record is written; only the zeros ahead found no room. Some of them may
            // be in the file (zeros, which end the records as the end of the file does):
            // the next record goes where it would have gone, and its write tries again.
            return
        } catch {
            throw poison(error, .write)
        }
        allocatedEnd = target
    }

    /// Whether an `errno` says the file system (or the user's quota, or the file's size
    /// limit) has no room for more bytes.
    private static func meansNoSpace(_ code: Int32) -> Bool {
        code == ENOSPC || code == EDQUOT || code == EFBIG
    }

    /// Writes zeros over `start..<end`, a chunk at a time.
    private func writeZeros(from start: UInt64, to end: UInt64) throws {
        try Self.zeros.withUnsafeBytes { zeros in
            var offset = start
            while offset < end {
                let count = Int(min(end - offset, UInt64(zeros.count)))
                try file.write(UnsafeRawBufferPointer(rebasing: zeros.prefix(count)), at: offset)
                offset += UInt64(count)
            }
        }
    }

    /// The zeros preallocation writes, a chunk at a time.
    private static let zeros = [UInt8](repeating: 0, count: 256 << 10)

    /// Frames a whole record, `prefix` then `payload`, into `buffer` from ``framedEnd`` on,
    /// the last fragment marked so: the fragments ``frameFragments(final:)`` makes of the same
    /// bytes, copied once.
    private func frameWhole(prefix: UnsafeRawBufferPointer, _ payload: UnsafeRawBufferPointer) {
        let total = prefix.count + payload.count
        var consumed = 0
        while true {
            let capacity = roomInBlock()
            let available = total - consumed
            let isLast = available <= capacity
            let length = isLast ? available : capacity
            let end = consumed + length
            appendFragment(isLast: isLast, length: length) {
                if consumed < prefix.count {
                    buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: prefix[consumed..<Swift.min(end, prefix.count)]))
                }
                if end > prefix.count {
                    buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: payload[Swift.max(consumed, prefix.count) - prefix.count..<end - prefix.count]))
                }
            }
            consumed = end
            if isLast { break }
        }
    }

    /// Pads the block with zeros when a fragment header no longer fits in it, and returns how
    /// many payload bytes the next fragment can hold.
    private func roomInBlock() -> Int {
        let blockSize = RecordFormat.blockSize
        let left = blockSize - Int(framedEnd % UInt64(blockSize))
        guard left < RecordFormat.fragmentHeaderSize else { return left - RecordFormat.fragmentHeaderSize }
        buffer.append(contentsOf: repeatElement(0, count: left))
        framedEnd += UInt64(left)
        return blockSize - RecordFormat.fragmentHeaderSize
    }

    /// Appends one fragment of `length` payload bytes, which `appendPayload` appends to
    /// `buffer`, with its header: checksum, length and type (first, middle, last or full).
    private func appendFragment(isLast: Bool, length: Int, appendPayload: () -> Void) {
        let headerSize = RecordFormat.fragmentHeaderSize
        let type: RecordFormat.FragmentType = isFirstFragment ? (isLast ? .full : .first) : (isLast ? .last : .middle)
        let headerStart = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: headerSize))
        appendPayload()
        buffer.withUnsafeMutableBytes { raw in
            let fragment = UnsafeRawBufferPointer(rebasing: raw[(headerStart + headerSize)...])
            let checksum = RecordFormat.fragmentChecksum(saltChecksum: saltChecksum, type: type.rawValue, payload: fragment)
            storeLittleEndian(checksum, raw, headerStart)
            storeLittleEndian(UInt16(length), raw, headerStart + 4)
            raw[headerStart + 6] = type.rawValue
        }
        framedEnd += UInt64(headerSize + length)
        isFirstFragment = false
    }

    /// Frees the buffers a large record grew, so a writer keeps at most one chunk.
    private func shrinkBuffers() {
        if buffer.capacity > 2 * chunkSize { buffer = [] }
        if pending.capacity > 4 * RecordFormat.blockSize { pending = [] }
    }

    /// Moves the pending bytes into fragments in `buffer`: every fragment that is surely not
    /// the record's last (more bytes than it can hold are pending), or, when `final`, all of
    /// them, the last one marked so.
    private func frameFragments(final: Bool) {
        var consumed = 0
        while true {
            let capacity = roomInBlock()
            let available = pending.count - consumed
            let isLast = final && available <= capacity
            guard isLast || available > capacity else { break }
            let length = isLast ? available : capacity
            appendFragment(isLast: isLast, length: length) {
                pending.withUnsafeBytes { buffer.append(contentsOf: $0[consumed..<consumed + length]) }
            }
            consumed += length
            if isLast { break }
        }
        pending.removeFirst(consumed)
    }
}
