import Foundation

// Appending records: whole ones, framed straight from their bytes, and streamed ones, given
// in parts (``RecordWriter/beginRecord()``). The framing is ``RecordFramer``'s; the writes, and
// what a failed one does, are the file policy's (`RecordWriter+FilePolicy.swift`).

extension RecordWriter {
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
        withUnsafeBytes(of: nextSequence.littleEndian) { framer.frameWhole(at: endOffset, prefix: $0, payload) }
        if !holdsWholeRecords {
            try writeBuffer()
        } else if framer.framed.count >= chunkSize {
            // The disk starts on these bytes while the next ones are encoded; the sync at the
            // end waits for less.
            try writeBuffer()
            file.startWriteBack()
        }
        let start = endOffset
        endOffset = framer.framedEnd
        let appended = nextSequence
        nextSequence &+= 1
        if !holdsWholeRecords { framer.shrink(toChunk: chunkSize) }
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
        allocatedAtBegin = allocatedEnd
        withUnsafeBytes(of: nextSequence.littleEndian) { framer.beginRecord(at: endOffset, prefix: $0) }
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
            framer.continueRecord(UnsafeRawBufferPointer(rebasing: rest.prefix(taken)))
            rest = UnsafeRawBufferPointer(rebasing: rest.dropFirst(taken))
            if framer.framed.count >= chunkSize { try writeBuffer(preallocating: false) }
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
        framer.finishRecord()
        try writeBuffer()
        isRecordOpen = false
        let start = endOffset
        endOffset = framer.framedEnd
        let sequence = nextSequence
        nextSequence &+= 1
        framer.shrink(toChunk: chunkSize)
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
        framer.removeAll()
        framer.shrink(toChunk: chunkSize)
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
}
