import Foundation
import Glibc

// The journal file's policy: framed bytes written a chunk at a time, zeros preallocated ahead
// of the last record (none where the disk has no room), syncs never retried, write-back
// started early, closes in the background, and a writer poisoned by any failed write, sync or
// truncation.

extension RecordWriter {
    /// Whether a failure stopped the writer.
    package var isPoisoned: Bool { failure != nil }

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

    func poison(_ error: any Error, _ operation: StoreFileError.Operation) -> RecordFileError {
        var cause = error as? StoreFileError ?? StoreFileError(operation, path: path, code: EIO)
        // The handle keeps the name the file was opened under; name it where it is now.
        cause.path = path
        failure = cause
        return RecordFileError.poisoned(path: path, cause: cause)
    }

    /// Writes the framed bytes at ``writtenEnd``, then, when they reach past the zeros
    /// written ahead and `preallocating`, more zeros (``preallocation``).
    ///
    /// - Parameter preallocating: Whether to add zeros; `false` for a chunk in the middle of
    ///   a streamed record, which the next chunk follows (zeros there would be written twice).
    func writeBuffer(preallocating: Bool = true) throws {
        guard !framer.framed.isEmpty else { return }
        do {
            try framer.framed.withUnsafeBytes { try file.write($0, at: writtenEnd) }
        } catch {
            throw poison(error, .write)
        }
        writtenEnd += UInt64(framer.framed.count)
        framer.removeFramed()
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
    func writeZeros(from start: UInt64, to end: UInt64) throws {
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
}
