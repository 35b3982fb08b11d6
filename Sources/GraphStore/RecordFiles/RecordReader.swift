import Foundation

/// Reads the logical records of a journal or snapshot file in order, reporting damage
/// precisely and resynchronising after it.
///
/// ``next()`` yields ``Event/record(_:)`` for each intact record and ``Event/damage(_:)`` for
/// each damaged span *followed by an intact record* (damage in the middle of the file),
/// just before that record. Damage with nothing intact after it is the file's torn
/// ``tail``, the normal result of a crash during an append, available once `next()` returned
/// `nil`. Zeros from the end of the last record (or from a block's start after it) to the end
/// of the file are not damage: a writer preallocates them (``RecordWriter/preallocation``),
/// and a record whose write never reached the disk leaves them as they were. A bad or foreign
/// header throws from the initializer.
///
/// After a bad fragment the reader first trusts its length field: when a valid fragment
/// follows exactly there, it resumes at once; otherwise it skips to the next 32 KiB block and
/// drops fragments that continue a record begun before the damage. So a damaged byte costs at
/// most the records with a fragment in its block.
///
/// A record is never returned unless every fragment's salted checksum matched, so records of
/// another file or an older generation left in a reused region are never taken for new ones.
package struct RecordReader {
    /// A record read intact.
    package struct Record: Equatable, Sendable {
        /// Its sequence number.
        package var sequence: UInt64
        /// The file offset of its first fragment's header.
        package var offset: UInt64
        /// The file offset just past its last fragment.
        package var endOffset: UInt64
        /// Its bytes (after the sequence number). A slice of the file's bytes when the
        /// record is a single fragment, so reading does not copy it.
        package var payload: ArraySlice<UInt8>
    }

    /// What was wrong at the start of a damaged span.
    package enum DamageReason: Equatable, Sendable, CustomStringConvertible {
        /// A fragment's checksum does not match its contents (or its salt: another file's data).
        case checksumMismatch
        /// A fragment's length runs past its block.
        case badLength
        /// A fragment's length runs past the end of the file.
        case truncatedFragment
        /// Fewer bytes than a fragment header remain at the end of the file.
        case truncatedHeader
        /// A fragment header of zeros: a zeroed or never-written region.
        case zeroedRegion
        /// The bytes at the end of a block, which must be zeros, are not.
        case badBlockPadding
        /// A checksummed fragment has an unknown type.
        case unknownFragmentType(UInt8)
        /// A middle or last fragment with no first before it, or a record left unfinished by
        /// a new first or full fragment.
        case fragmentOutOfOrder
        /// A record too short to hold its sequence number.
        case shortRecord
        /// An intact record whose sequence number is not the previous one plus one.
        case sequenceGap(expected: UInt64, found: UInt64)

        package var description: String {
            switch self {
            case .checksumMismatch: "checksum mismatch"
            case .badLength: "bad fragment length"
            case .truncatedFragment: "fragment cut off by the end of the file"
            case .truncatedHeader: "fragment header cut off by the end of the file"
            case .zeroedRegion: "zeroed region"
            case .badBlockPadding: "non-zero block padding"
            case .unknownFragmentType(let type): "unknown fragment type \(type)"
            case .fragmentOutOfOrder: "fragments out of order"
            case .shortRecord: "record shorter than its sequence number"
            case .sequenceGap(let expected, let found): "sequence gap: expected \(expected), found \(found)"
            }
        }
    }

    /// A damaged span of the file.
    package struct Damage: Equatable, Sendable {
        /// The file offset where the damage starts (the first byte not part of an intact record).
        package var offset: UInt64
        /// How many bytes were skipped (0 for a sequence gap between intact records).
        package var length: UInt64
        /// What was wrong first.
        package var reason: DamageReason
        /// The sequence number of the last intact record before the span, if any.
        package var afterSequence: UInt64?
        /// The sequence number of the first intact record after it (`nil` for a torn tail).
        package var beforeSequence: UInt64?

        /// The error a caller that refuses damage throws.
        ///
        /// - Parameter path: The file.
        /// - Returns: ``RecordFileError/damaged(path:offset:length:afterSequence:beforeSequence:reason:)``.
        package func error(path: String) -> RecordFileError {
            .damaged(
                path: path, offset: offset, length: length, afterSequence: afterSequence,
                beforeSequence: beforeSequence, reason: reason.description)
        }
    }

    /// One step of reading.
    package enum Event: Equatable, Sendable {
        case record(Record)
        case damage(Damage)
    }

    /// The file's path, for errors.
    package let path: String
    /// The file's header.
    package let header: RecordFileHeader
    /// The damage at the end of the file with nothing intact after it, once ``next()``
    /// returned `nil`; `nil` for a clean end.
    package private(set) var tail: Damage?
    /// The offset just past the last intact record (or the header): where an appending
    /// writer continues.
    package private(set) var validEnd: UInt64
    /// When the file ends inside a record whose first fragments are intact (a record cut
    /// short, or torn): the payload of those fragments, sequence number included. Their
    /// checksums hold, so what they say is what was written; the rest of the record is lost.
    package private(set) var tailPartialPayload: [UInt8]?

    private let bytes: [UInt8]
    /// The file offset of `bytes`' first byte (a multiple of the block size): positions are
    /// in `bytes`, offsets reported are in the file.
    private let base: Int
    private let saltChecksum: UInt32
    private var position: Int
    private var lastSequence: UInt64?
    /// A record whose first fragment was read: its offset and payload so far.
    private var partialStart: Int?
    private var partial: [UInt8] = []
    /// The last record in progress that damage ended: its offset and payload so far.
    private var abandoned: (start: Int, payload: [UInt8])?
    /// The start and first reason of a damaged span not yet closed by an intact record.
    private var damageStart: Int?
    private var damageReason: DamageReason = .checksumMismatch
    private var queued: Event?
    private var finished = false

    /// Starts reading a file's bytes.
    ///
    /// - Parameters:
    ///   - bytes: The whole file.
    ///   - path: The file's path, for errors.
    ///   - kind: The expected kind, or `nil` for any.
    ///   - graphID: The expected graph, or `nil` for any.
    ///   - generation: The expected generation, or `nil` for any.
    /// - Throws: ``RecordFileError/badHeader(path:reason:)`` or
    ///   ``RecordFileError/foreignHeader(path:field:expected:found:)``.
    package init(
        bytes: [UInt8],
        path: String,
        kind: RecordFileKind? = nil,
        graphID: UUID? = nil,
        generation: UInt64? = nil
    ) throws {
        let header = try RecordFileHeader.decode(bytes, path: path)
        try header.check(kind: kind, graphID: graphID, generation: generation, path: path)
        self.path = path
        self.header = header
        self.bytes = bytes
        self.base = 0
        self.saltChecksum = RecordFormat.saltChecksum(header.salt)
        self.position = RecordFormat.fileHeaderSize
        self.validEnd = UInt64(RecordFormat.fileHeaderSize)
    }

    /// Starts reading a file from a record boundary, given the bytes from the start of that
    /// offset's block: what a reader of a journal others append to reads past what it read.
    ///
    /// - Parameters:
    ///   - header: The file's header, read before.
    ///   - path: The file's path, for errors.
    ///   - bytes: The file's bytes from offset `base`.
    ///   - base: The offset of `bytes` in the file: a multiple of the block size.
    ///   - offset: Where to start reading: the end of a record (or of the header), at least `base`.
    ///   - lastSequence: The sequence number of the record that ends at `offset`, if any.
    package init(continuing header: RecordFileHeader, path: String, bytes: [UInt8], base: Int, from offset: Int, lastSequence: UInt64?) {
        require(base % RecordFormat.blockSize == 0 && offset >= base && offset >= RecordFormat.fileHeaderSize,
                "a record reader continues from a record boundary, with the bytes from its block's start")
        self.path = path
        self.header = header
        self.bytes = bytes
        self.base = base
        self.saltChecksum = RecordFormat.saltChecksum(header.salt)
        self.position = offset - base
        self.validEnd = UInt64(offset)
        self.lastSequence = lastSequence
    }

    /// The next intact record or mid-file damage, or `nil` at the end of the file.
    ///
    /// - Returns: The next event.
    /// - Complexity: O(bytes read); amortized O(1) per byte of the file.
    package mutating func next() -> Event? {
        if let event = queued {
            queued = nil
            return event
        }
        while !finished {
            if let event = step() { return event }
        }
        return nil
    }

    // MARK: Parsing

    /// Reads one fragment (or padding) and returns an event when one is complete.
    private mutating func step() -> Event? {
        let blockSize = RecordFormat.blockSize
        let headerSize = RecordFormat.fragmentHeaderSize
        let end = bytes.count
        if position >= end {
            finish()
            return nil
        }
        let blockLeft = blockSize - position % blockSize
        if blockLeft < headerSize {
            let paddingEnd = min(position + blockLeft, end)
            if bytes[position..<paddingEnd].contains(where: { $0 != 0 }) {
                markDamage(at: position, .badBlockPadding)
            }
            position = paddingEnd
            return nil
        }
        if bytes[position] == 0, partialStart == nil, damageStart == nil, isZeroToEnd(from: position) {
            // Preallocated space, or records never written: the end of the records.
            position = end
            finish()
            return nil
        }
        guard end - position >= headerSize else {
            markDamage(at: position, bytes[position...].allSatisfy { $0 == 0 } ? .zeroedRegion : .truncatedHeader)
            position = end
            return nil
        }
        switch parseFragment(at: position, blockLeft: blockLeft) {
        case .valid(let type, let length):
            let start = position
            position += headerSize + length
            return accept(type: type, payloadStart: start + headerSize, length: length, fragmentStart: start)
        case .invalid(let reason, let trustedLength):
            markDamage(at: position, reason)
            if let trustedLength {
                let next = position + headerSize + trustedLength
                let nextLeft = blockSize - next % blockSize
                if next < end, nextLeft >= headerSize, next / blockSize == position / blockSize,
                    case .valid = parseFragment(at: next, blockLeft: nextLeft)
                {
                    position = next
                    return nil
                }
            }
            position = resynchronize(from: position + 1, blockEnd: min(position + blockLeft, end))
            return nil
        }
    }

    /// Whether every byte from `start` to the end of the file is zero.
    ///
    /// - Complexity: O(bytes to the first non-zero one), eight at a time.
    private func isZeroToEnd(from start: Int) -> Bool {
        bytes.withUnsafeBytes { raw in
            var index = start
            let end = raw.count
            while index + 8 <= end {
                if loadLittleEndian(UInt64.self, raw, index) != 0 { return false }
                index += 8
            }
            while index < end {
                if raw[index] != 0 { return false }
                index += 1
            }
            return true
        }
    }

    /// The first offset in `start..<blockEnd` where an intact fragment begins, or `blockEnd`.
    ///
    /// Searching byte by byte, rather than skipping to the next block, finds the records
    /// after damage in the last block of a file, so damage there is told apart from a torn
    /// last record. Only offsets whose type byte names a fragment type are checksummed
    /// (random bytes pass that test once in 64); a checksum includes the file's salt, so
    /// damage passes for a fragment about once in 2^32 tries.
    ///
    /// - Complexity: O(*b*·*c*) for a block of *b* bytes and *c* candidate offsets; only
    ///   damaged blocks are searched.
    private func resynchronize(from start: Int, blockEnd: Int) -> Int {
        let headerSize = RecordFormat.fragmentHeaderSize
        var candidate = start
        while candidate + headerSize <= blockEnd {
            if RecordFormat.FragmentType(rawValue: bytes[candidate + 6]) != nil,
                case .valid = parseFragment(at: candidate, blockLeft: RecordFormat.blockSize - candidate % RecordFormat.blockSize)
            {
                return candidate
            }
            candidate += 1
        }
        return blockEnd
    }

    private enum Fragment {
        case valid(type: RecordFormat.FragmentType, length: Int)
        /// Damage; `trustedLength` is the length field when it fits the block (resume there
        /// if a valid fragment follows).
        case invalid(DamageReason, trustedLength: Int?)
    }

    private func parseFragment(at start: Int, blockLeft: Int) -> Fragment {
        let headerSize = RecordFormat.fragmentHeaderSize
        guard bytes.count - start >= headerSize else { return .invalid(.truncatedHeader, trustedLength: nil) }
        return bytes.withUnsafeBytes { raw in
            let stored = loadLittleEndian(UInt32.self, raw, start)
            let length = Int(loadLittleEndian(UInt16.self, raw, start + 4))
            let typeByte = raw[start + 6]
            if stored == 0 && length == 0 && typeByte == 0 { return .invalid(.zeroedRegion, trustedLength: nil) }
            if length > blockLeft - headerSize { return .invalid(.badLength, trustedLength: nil) }
            if start + headerSize + length > raw.count { return .invalid(.truncatedFragment, trustedLength: nil) }
            let payload = UnsafeRawBufferPointer(rebasing: raw[(start + headerSize)..<(start + headerSize + length)])
            let computed = RecordFormat.fragmentChecksum(saltChecksum: saltChecksum, type: typeByte, payload: payload)
            guard computed == stored else { return .invalid(.checksumMismatch, trustedLength: length) }
            guard let type = RecordFormat.FragmentType(rawValue: typeByte) else {
                return .invalid(.unknownFragmentType(typeByte), trustedLength: length)
            }
            return .valid(type: type, length: length)
        }
    }

    /// Takes a checksummed fragment into the record being assembled.
    private mutating func accept(type: RecordFormat.FragmentType, payloadStart: Int, length: Int, fragmentStart: Int)
        -> Event?
    {
        let payload = bytes[payloadStart..<payloadStart + length]
        switch type {
        case .full, .first:
            if let partialStart {
                // The record begun before has no last fragment.
                markDamage(at: partialStart, .fragmentOutOfOrder)
            }
            if type == .full {
                partialStart = nil
                partial.removeAll(keepingCapacity: true)
                return complete(start: fragmentStart, payload: payload)
            }
            partialStart = fragmentStart
            partial.removeAll(keepingCapacity: true)
            partial.append(contentsOf: payload)
            return nil
        case .middle, .last:
            guard let start = partialStart else {
                markDamage(at: fragmentStart, .fragmentOutOfOrder)
                return nil
            }
            partial.append(contentsOf: payload)
            guard type == .last else { return nil }
            partialStart = nil
            let record = ArraySlice(partial)
            partial.removeAll(keepingCapacity: true)
            return complete(start: start, payload: record)
        }
    }

    /// Finishes a record whose fragments all matched.
    private mutating func complete(start: Int, payload: ArraySlice<UInt8>) -> Event? {
        guard payload.count >= RecordFormat.sequenceSize else {
            markDamage(at: start, .shortRecord)
            return nil
        }
        let sequence = loadLittleEndian(UInt64.self, payload, 0)
        let record = Record(
            sequence: sequence, offset: UInt64(base + start), endOffset: UInt64(base + position),
            payload: payload.dropFirst(RecordFormat.sequenceSize))
        var damage: Damage?
        if let damageStart {
            damage = Damage(
                offset: UInt64(base + damageStart), length: UInt64(start - damageStart), reason: damageReason,
                afterSequence: lastSequence, beforeSequence: sequence)
            self.damageStart = nil
        } else if let lastSequence, sequence != lastSequence &+ 1 {
            damage = Damage(
                offset: UInt64(base + start), length: 0, reason: .sequenceGap(expected: lastSequence &+ 1, found: sequence),
                afterSequence: lastSequence, beforeSequence: sequence)
        }
        lastSequence = sequence
        validEnd = UInt64(base + position)
        if let damage {
            queued = .record(record)
            return .damage(damage)
        }
        return .record(record)
    }

    /// Opens a damaged span at `offset` unless one is open; a record in progress joins it.
    private mutating func markDamage(at offset: Int, _ reason: DamageReason) {
        var start = offset
        if let partialStart {
            abandoned = (partialStart, partial)
            start = min(start, partialStart)
            self.partialStart = nil
            partial.removeAll(keepingCapacity: true)
        }
        if let damageStart {
            self.damageStart = min(damageStart, start)
        } else {
            damageStart = start
            damageReason = reason
        }
    }

    private mutating func finish() {
        finished = true
        if let partialStart {
            markDamage(at: partialStart, .truncatedFragment)
        }
        if let damageStart {
            if let abandoned, abandoned.start == damageStart { tailPartialPayload = abandoned.payload }
            // The zeros after the last damaged byte are preallocated space, not the tail's.
            let end = RecordReader.dataEnd(of: bytes)
            tail = Damage(
                offset: UInt64(base + damageStart), length: UInt64(max(end, damageStart) - damageStart), reason: damageReason,
                afterSequence: lastSequence, beforeSequence: nil)
        }
    }

    /// The offset just past the last byte of a file that is not zero: where its data ends,
    /// before any preallocated zeros.
    ///
    /// - Parameter bytes: The file.
    /// - Returns: The offset, 0 for a file of zeros.
    /// - Complexity: O(trailing zeros).
    package static func dataEnd(of bytes: [UInt8]) -> Int {
        (bytes.lastIndex { $0 != 0 } ?? -1) + 1
    }
}

/// How a caller treats damage before the end of a file (a torn tail is always accepted).
package enum RecordRecoveryMode: Sendable {
    /// Throw at the first damage, naming the file, offset and sequence numbers.
    case refuse
    /// Keep the records before the first damage and ignore the rest.
    case stopAtDamage
    /// Keep every intact record, skipping damaged spans.
    case salvage
}

/// A whole file read at once: its header, intact records, damage and tail.
package struct RecordScan: Sendable {
    /// The file's header.
    package var header: RecordFileHeader
    /// The intact records kept, in file order.
    package var records: [RecordReader.Record]
    /// The mid-file damage met (at most one, the first, unless the mode is `.salvage`).
    package var damages: [RecordReader.Damage]
    /// The torn tail, if any (for `.stopAtDamage` after damage, `nil`: the rest is ignored).
    package var tail: RecordReader.Damage?
    /// Where an appending writer continues: just past the last record kept.
    package var validEnd: UInt64
    /// The intact first fragments of a record the file ends inside (``RecordReader/tailPartialPayload``).
    package var tailPartialPayload: [UInt8]?

    /// Reads a file's bytes.
    ///
    /// - Parameters:
    ///   - bytes: The whole file.
    ///   - path: The file's path, for errors.
    ///   - kind: The expected kind, or `nil`.
    ///   - graphID: The expected graph, or `nil`.
    ///   - generation: The expected generation, or `nil`.
    ///   - mode: What to do with mid-file damage; `.salvage` by default.
    /// - Throws: ``RecordFileError`` for a bad or foreign header, and in `.refuse` mode
    ///   ``RecordFileError/damaged(path:offset:length:afterSequence:beforeSequence:reason:)``.
    /// - Complexity: O(`bytes.count`).
    package init(
        bytes: [UInt8],
        path: String,
        kind: RecordFileKind? = nil,
        graphID: UUID? = nil,
        generation: UInt64? = nil,
        mode: RecordRecoveryMode = .salvage
    ) throws {
        var reader = try RecordReader(bytes: bytes, path: path, kind: kind, graphID: graphID, generation: generation)
        header = reader.header
        records = []
        damages = []
        tail = nil
        validEnd = UInt64(RecordFormat.fileHeaderSize)
        while let event = reader.next() {
            switch event {
            case .record(let record):
                records.append(record)
                validEnd = record.endOffset
            case .damage(let damage):
                switch mode {
                case .refuse: throw damage.error(path: path)
                case .stopAtDamage:
                    damages.append(damage)
                    return
                case .salvage: damages.append(damage)
                }
            }
        }
        tail = reader.tail
        tailPartialPayload = reader.tailPartialPayload
    }
}
