/// Frames logical records into the fragments of ``RecordFormat``, what LevelDB's
/// `log_writer` does: a record is cut into fragments (`full`, or `first`, `middle`…, `last`)
/// that never cross a 32 KiB block, a block whose room is too small for a fragment header is
/// padded with zeros, and each fragment gets a 7-byte header (masked CRC-32C of the salt, type
/// and payload; length; type).
///
/// The framer writes nothing to a file: it fills ``framed`` with bytes that go at
/// ``framedEnd`` minus their count, for ``RecordWriter`` to write and empty.
struct RecordFramer {
    /// The checksum of the file's salt, where every fragment's checksum starts.
    private let saltChecksum: UInt32
    /// Framed bytes not handed over yet; reused for every record, so framing allocates
    /// nothing once it has grown.
    private(set) var framed: [UInt8] = []
    /// Bytes of the record being streamed not framed yet: less than two fragments' payloads.
    private var pending: [UInt8] = []
    /// Whether the record's next fragment is its first.
    private var isFirstFragment = true
    /// The file offset just past the framed bytes.
    private(set) var framedEnd: UInt64 = 0

    /// A framer for the file whose salt is `salt`.
    init(salt: UInt64) {
        saltChecksum = RecordFormat.saltChecksum(salt)
    }

    /// Frames a whole record, `prefix` then `payload`, after what is framed already, the first
    /// fragment at `offset` (where the framed bytes end): the fragments
    /// ``beginRecord(at:prefix:)``, ``continueRecord(_:)`` and ``finishRecord()`` make of the
    /// same bytes, copied once.
    ///
    /// - Complexity: O(`prefix.count + payload.count`).
    mutating func frameWhole(at offset: UInt64, prefix: UnsafeRawBufferPointer, _ payload: UnsafeRawBufferPointer) {
        framedEnd = offset
        isFirstFragment = true
        let total = prefix.count + payload.count
        var consumed = 0
        while true {
            let capacity = roomInBlock()
            let available = total - consumed
            let isLast = available <= capacity
            let length = isLast ? available : capacity
            let end = consumed + length
            appendFragment(isLast: isLast, length: length) { framed in
                if consumed < prefix.count {
                    framed.append(contentsOf: UnsafeRawBufferPointer(rebasing: prefix[consumed..<Swift.min(end, prefix.count)]))
                }
                if end > prefix.count {
                    framed.append(contentsOf: UnsafeRawBufferPointer(rebasing: payload[Swift.max(consumed, prefix.count) - prefix.count..<end - prefix.count]))
                }
            }
            consumed = end
            if isLast { break }
        }
    }

    /// Starts a streamed record whose first fragment goes at `offset`, its bytes starting
    /// with `prefix`; drops whatever was framed or pending.
    mutating func beginRecord(at offset: UInt64, prefix: UnsafeRawBufferPointer) {
        framedEnd = offset
        isFirstFragment = true
        pending.removeAll(keepingCapacity: true)
        framed.removeAll(keepingCapacity: true)
        pending.append(contentsOf: prefix)
    }

    /// Adds at most a block of bytes to the streamed record and frames every fragment that
    /// is surely not its last.
    ///
    /// - Complexity: O(`bytes.count`).
    mutating func continueRecord(_ bytes: UnsafeRawBufferPointer) {
        require(bytes.count <= RecordFormat.blockSize, "internal inconsistency: more than a block added to a record at once")
        pending.append(contentsOf: bytes)
        frameFragments(final: false)
    }

    /// Frames the rest of the streamed record, its last fragment marked so.
    mutating func finishRecord() {
        frameFragments(final: true)
    }

    /// Forgets the framed bytes, handed over (written), keeping the memory.
    mutating func removeFramed() {
        framed.removeAll(keepingCapacity: true)
    }

    /// Forgets what is framed or pending, keeping the memory: the record is dropped.
    mutating func removeAll() {
        pending.removeAll(keepingCapacity: true)
        framed.removeAll(keepingCapacity: true)
    }

    /// Frees the buffers a large record grew, so that a framer keeps at most one chunk.
    mutating func shrink(toChunk chunkSize: Int) {
        if framed.capacity > 2 * chunkSize { framed = [] }
        if pending.capacity > 4 * RecordFormat.blockSize { pending = [] }
    }

    /// Moves the framed end to `offset`, with nothing framed: the file's records end there.
    mutating func move(to offset: UInt64) {
        framedEnd = offset
    }

    /// Pads the block with zeros when a fragment header no longer fits in it, and returns how
    /// many payload bytes the next fragment can hold.
    private mutating func roomInBlock() -> Int {
        let blockSize = RecordFormat.blockSize
        let left = blockSize - Int(framedEnd % UInt64(blockSize))
        guard left < RecordFormat.fragmentHeaderSize else { return left - RecordFormat.fragmentHeaderSize }
        framed.append(contentsOf: repeatElement(0, count: left))
        framedEnd += UInt64(left)
        return blockSize - RecordFormat.fragmentHeaderSize
    }

    /// Appends one fragment of `length` payload bytes, which `appendPayload` appends to
    /// ``framed``, with its header: checksum, length and type (first, middle, last or full).
    private mutating func appendFragment(isLast: Bool, length: Int, appendPayload: (inout [UInt8]) -> Void) {
        let headerSize = RecordFormat.fragmentHeaderSize
        let type: RecordFormat.FragmentType = isFirstFragment ? (isLast ? .full : .first) : (isLast ? .last : .middle)
        let headerStart = framed.count
        framed.append(contentsOf: repeatElement(0, count: headerSize))
        appendPayload(&framed)
        let saltChecksum = saltChecksum
        framed.withUnsafeMutableBytes { raw in
            let fragment = UnsafeRawBufferPointer(rebasing: raw[(headerStart + headerSize)...])
            let checksum = RecordFormat.fragmentChecksum(saltChecksum: saltChecksum, type: type.rawValue, payload: fragment)
            storeLittleEndian(checksum, raw, headerStart)
            storeLittleEndian(UInt16(length), raw, headerStart + 4)
            raw[headerStart + 6] = type.rawValue
        }
        framedEnd += UInt64(headerSize + length)
        isFirstFragment = false
    }

    /// Moves the pending bytes into fragments: every fragment that is surely not the record's
    /// last (more bytes than it can hold are pending), or, when `final`, all of them, the
    /// last one marked so.
    private mutating func frameFragments(final: Bool) {
        var consumed = 0
        while true {
            let capacity = roomInBlock()
            let available = pending.count - consumed
            let isLast = final && available <= capacity
            guard isLast || available > capacity else { break }
            let length = isLast ? available : capacity
            let pending = pending
            appendFragment(isLast: isLast, length: length) { framed in
                pending.withUnsafeBytes { framed.append(contentsOf: $0[consumed..<consumed + length]) }
            }
            consumed += length
            if isLast { break }
        }
        pending.removeFirst(consumed)
    }
}
