import Foundation

// Invariant: a cursor lives only inside the `ByteCursor.over(_:at:stop:_:)` call that made it
// (the closure's `inout` parameter cannot escape), so its pointers stay inside the slice's
// storage, which the call keeps alive; every read checks `next` against `end` first (a
// varint of more than one byte reads ten bytes unchecked only when ten remain).

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

    /// Calls `body` with a cursor over the storage of `bytes` at `offset` (from their first
    /// byte, at most their count), and sets `stop` to the cursor's offset when it returns
    /// or throws.
    ///
    /// - Complexity: O(1) beyond `body`.
    @inline(__always)
    static func over<Result>(
        _ bytes: ArraySlice<UInt8>, at offset: Int, stop: inout Int, _ body: (inout ByteCursor) throws(ByteReaderError) -> Result
    ) throws(ByteReaderError) -> Result {
        try bytes.withUnsafeBufferPointer { (buffer) throws(ByteReaderError) -> Result in
            var cursor = ByteCursor(buffer, at: offset)
            defer { stop = cursor.offset }
            return try body(&cursor)
        }
    }

    /// A cursor at `offset` in `buffer` (at most its count).
    private init(_ buffer: UnsafeBufferPointer<UInt8>, at offset: Int) {
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
