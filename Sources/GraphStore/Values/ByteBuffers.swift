import Foundation

/// Bytes being encoded: little-endian fixed-width integers and LEB128 varints.
struct ByteWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func varint(_ value: Int) { varint(UInt64(value)) }

    /// A signed integer, zigzag-encoded so small negatives stay short.
    mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func fixed64(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func blob(_ data: some Collection<UInt8>) {
        varint(data.count)
        bytes.append(contentsOf: data)
    }

    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { blob($0) }
    }
}

/// Why stored bytes could not be decoded: they end early or hold a value that makes no sense.
struct ByteReaderError: Error, CustomStringConvertible {
    var offset: Int
    var reason: String
    var description: String { "\(reason) at byte \(offset) of a record" }
}

/// Bytes being decoded, the inverse of ``ByteWriter``.
///
/// Every read goes through a ``ByteCursor`` over the slice's storage; a loop that reads many
/// values in a row (a snapshot's column) takes one cursor for all of them with
/// ``withCursor(_:)``, and pays for no bounds check of the slice per byte.
struct ByteReader {
    let bytes: ArraySlice<UInt8>
    private(set) var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    var isAtEnd: Bool { position == bytes.endIndex }

    func failure(_ reason: String) -> ByteReaderError {
        ByteReaderError(offset: position - bytes.startIndex, reason: reason)
    }

    /// Calls `body` with a cursor at the reader's position, then moves the reader to where
    /// the cursor stopped (also when `body` throws).
    ///
    /// - Complexity: O(1) beyond `body`.
    @inline(__always)
    mutating func withCursor<Result>(_ body: (inout ByteCursor) throws(ByteReaderError) -> Result) throws(ByteReaderError) -> Result {
        let start = position - bytes.startIndex
        var stop = start
        defer { position = bytes.startIndex + stop }
        return try bytes.withUnsafeBufferPointer { (buffer) throws(ByteReaderError) -> Result in
            var cursor = ByteCursor(buffer, at: start)
            defer { stop = cursor.offset }
            return try body(&cursor)
        }
    }

    mutating func byte() throws(ByteReaderError) -> UInt8 {
        guard position < bytes.endIndex else { throw failure("the record ends early") }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func varint() throws(ByteReaderError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        var index = position
        while index < bytes.endIndex {
            let next = bytes[index]
            index += 1
            guard shift < 64 else {
                position = index
                throw failure("a number is too long")
            }
            result |= UInt64(next & 0x7F) << shift
            if next & 0x80 == 0 {
                position = index
                return result
            }
            shift += 7
        }
        position = index
        throw failure("the record ends early")
    }

    /// A varint that must fit in an `Int` and be at most `limit`.
    mutating func count(limit: Int = Int(Int32.max)) throws(ByteReaderError) -> Int {
        let value = try varint()
        guard value <= UInt64(limit) else { throw failure("a count of \(value) is out of range") }
        return Int(value)
    }

    mutating func signed() throws(ByteReaderError) -> Int64 {
        let raw = try varint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    mutating func fixed64() throws(ByteReaderError) -> UInt64 {
        try withCursor { cursor throws(ByteReaderError) in try cursor.fixed64() }
    }

    mutating func blob() throws(ByteReaderError) -> ArraySlice<UInt8> {
        // The room left is measured after the length is read: measured before, it would let
        // the bytes run past the end by the length's own size.
        let value = try varint()
        guard value <= UInt64(bytes.endIndex - position) else { throw failure("a count of \(value) is out of range") }
        let length = Int(value)
        defer { position += length }
        return bytes[position..<position + length]
    }

    mutating func string() throws(ByteReaderError) -> String {
        try string(previous: nil)
    }

    /// A string; `previous` itself, without decoding, when the bytes are the same as its (a
    /// column of a snapshot often repeats a value).
    mutating func string(previous: String?) throws(ByteReaderError) -> String {
        try withCursor { cursor throws(ByteReaderError) in try cursor.string(previous: previous) }
    }
}

/// The bytes of a ``ByteReader`` seen through a pointer, from its position on: the reads of
/// ``ByteReader``, with the same results and the same errors (offsets from the reader's
/// first byte). Valid only inside the ``ByteReader/withCursor(_:)`` call that made it.
struct ByteCursor {
    /// The reader's first byte, the next byte to read, and the end.
    private let start: UnsafePointer<UInt8>
    private var next: UnsafePointer<UInt8>
    private let end: UnsafePointer<UInt8>
    /// The bytes of the last string read, for ``string(previous:)``.
    private var lastString: UnsafeBufferPointer<UInt8>?

    /// A cursor at `offset` in `buffer` (at most its count).
    fileprivate init(_ buffer: UnsafeBufferPointer<UInt8>, at offset: Int) {
        // An empty buffer may have no address: any address does, as nothing is read there.
        start = buffer.baseAddress ?? UnsafePointer(bitPattern: MemoryLayout<UInt64>.alignment).unsafelyUnwrapped
        next = start + offset
        end = start + buffer.count
    }

    /// The offset of the next byte from the reader's first.
    var offset: Int { next - start }

    /// The number of bytes left.
    var remaining: Int { end - next }

    func failure(_ reason: String) -> ByteReaderError {
        ByteReaderError(offset: offset, reason: reason)
    }

    @inline(__always)
    mutating func byte() throws(ByteReaderError) -> UInt8 {
        guard next < end else { throw failure("the record ends early") }
        defer { next += 1 }
        return next.pointee
    }

    @inline(__always)
    mutating func varint() throws(ByteReaderError) -> UInt64 {
        if next < end && next.pointee < 0x80 {
            defer { next += 1 }
            return UInt64(next.pointee)
        }
        return try longVarint()
    }

    /// A varint of more than one byte (or none: the error).
    @inline(never)
    private mutating func longVarint() throws(ByteReaderError) -> UInt64 {
        if end - next >= 10 {
            // Room for the longest varint: no end check per byte. One that is longer still
            // is read again below, for its error.
            var pointer = next
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while shift < 64 {
                let byte = pointer.pointee
                pointer += 1
                result |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 {
                    next = pointer
                    return result
                }
                shift += 7
            }
        }
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            guard shift < 64 else { throw failure("a number is too long") }
            result |= UInt64(next & 0x7F) << shift
            if next & 0x80 == 0 { return result }
            shift += 7
        }
    }

    /// A varint that must fit in an `Int` and be at most `limit`.
    @inline(__always)
    mutating func count(limit: Int = Int(Int32.max)) throws(ByteReaderError) -> Int {
        let value = try varint()
        guard value <= UInt64(limit) else { throw failure("a count of \(value) is out of range") }
        return Int(value)
    }

    @inline(__always)
    mutating func signed() throws(ByteReaderError) -> Int64 {
        let raw = try varint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    @inline(__always)
    mutating func fixed64() throws(ByteReaderError) -> UInt64 {
        guard end - next >= 8 else { throw failure("the record ends early") }
        defer { next += 8 }
        return UInt64(littleEndian: UnsafeRawPointer(next).loadUnaligned(as: UInt64.self))
    }

    /// A blob's bytes, valid as long as the cursor.
    @inline(__always)
    mutating func blob() throws(ByteReaderError) -> UnsafeBufferPointer<UInt8> {
        // The room left is measured after the length is read (see ``ByteReader/blob()``).
        let value = try varint()
        guard value <= UInt64(end - next) else { throw failure("a count of \(value) is out of range") }
        let length = Int(value)
        defer { next += length }
        return UnsafeBufferPointer(start: next, count: length)
    }

    mutating func string() throws(ByteReaderError) -> String {
        try string(previous: nil)
    }

    /// A string; `previous` itself, without decoding, when the bytes are the same as its (a
    /// column of a snapshot often repeats a value).
    ///
    /// - Parameter previous: `nil`, or the string this cursor read last when it read one
    ///   (then its bytes are compared where they lie, without looking into the string).
    @inline(__always)
    mutating func string(previous: String?) throws(ByteReaderError) -> String {
        let raw = try blob()
        let last = lastString
        lastString = raw
        if let previous {
            if let last {
                if Self.equal(last, raw) { return previous }
            } else {
                var previous = previous
                if previous.withUTF8({ Self.equal($0, raw) }) { return previous }
            }
        }
        return try decode(raw)
    }

    /// Skips the next string when its bytes are those of the string this cursor read last,
    /// and says so; reads nothing otherwise (a malformed length included: reading the string
    /// then reports it).
    ///
    /// - Complexity: O(*n*) for a string of *n* bytes.
    @inline(__always)
    mutating func skipRepeatedString() -> Bool {
        guard let last = lastString else { return false }
        var ahead = self
        guard let raw = try? ahead.blob(), Self.equal(last, raw) else { return false }
        next = ahead.next
        return true
    }

    /// The string of `raw`, which must be UTF-8.
    private func decode(_ raw: UnsafeBufferPointer<UInt8>) throws(ByteReaderError) -> String {
        // ASCII is UTF-8 that decodes byte for byte: nothing to compare afterwards.
        if Self.isASCII(raw) { return String(decoding: raw, as: UTF8.self) }
        // Decoding from a buffer is the standard library's fast path. It repairs what is not
        // UTF-8, so the bytes were valid exactly when it kept them all.
        var text = String(decoding: raw, as: UTF8.self)
        guard text.withUTF8({ Self.equal($0, raw) }) else { throw failure("a string is not UTF-8") }
        return text
    }

    /// Whether every byte is below 0x80, eight at a time.
    private static func isASCII(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = raw.baseAddress else { return true }
        var index = 0
        var bits: UInt64 = 0
        while index + 8 <= raw.count {
            bits |= UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            index += 8
        }
        while index < raw.count {
            bits |= UInt64(base[index])
            index += 1
        }
        return bits & 0x8080_8080_8080_8080 == 0
    }

    private static func equal(_ text: UnsafeBufferPointer<UInt8>, _ raw: UnsafeBufferPointer<UInt8>) -> Bool {
        text.count == raw.count && (raw.isEmpty || memcmp(text.baseAddress!, raw.baseAddress!, raw.count) == 0)
    }
}
