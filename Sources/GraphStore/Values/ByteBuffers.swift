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

    mutating func byte() throws(ByteReaderError) -> UInt8 {
        guard position < bytes.endIndex else { throw failure("the record ends early") }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func varint() throws(ByteReaderError) -> UInt64 {
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
        guard bytes.endIndex - position >= 8 else { throw failure("the record ends early") }
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[position + index]) << (8 * UInt64(index)) }
        position += 8
        return value
    }

    mutating func blob() throws(ByteReaderError) -> ArraySlice<UInt8> {
        let length = try count(limit: bytes.endIndex - position)
        defer { position += length }
        return bytes[position..<position + length]
    }

    mutating func string() throws(ByteReaderError) -> String {
        try string(previous: nil)
    }

    /// A string; `previous` itself, without decoding, when the bytes are the same as its (a
    /// column of a snapshot often repeats a value).
    mutating func string(previous: String?) throws(ByteReaderError) -> String {
        let raw = try blob()
        if var previous, previous.withUTF8({ Self.equal($0, raw) }) { return previous }
        // Decoding from a buffer is the standard library's fast path (validating from a
        // collection is generic, and cost a snapshot's load a quarter of its time). It
        // repairs what is not UTF-8, so the bytes were valid exactly when it kept them all.
        var text = raw.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
        guard text.withUTF8({ Self.equal($0, raw) }) else { throw failure("a string is not UTF-8") }
        return text
    }

    private static func equal(_ text: UnsafeBufferPointer<UInt8>, _ raw: ArraySlice<UInt8>) -> Bool {
        raw.withUnsafeBufferPointer { bytes in
            text.count == bytes.count && (bytes.isEmpty || memcmp(text.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        }
    }
}
