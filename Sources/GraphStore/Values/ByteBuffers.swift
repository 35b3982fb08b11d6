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
        return try ByteCursor.over(bytes, at: start, stop: &stop, body)
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
