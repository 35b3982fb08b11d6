@testable import GraphStore
import Testing
import TestSupport

/// The reference the reader is checked against: LEB128 decoded one byte at a time, with the
/// reader's errors (a varint may have ten bytes; an eleventh is "too long").
private struct ReferenceReader {
    let bytes: [UInt8]
    var position = 0

    mutating func varint() -> Result<UInt64, ByteReaderError> {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < bytes.count else { return .failure(ByteReaderError(offset: position, reason: "the record ends early")) }
            let next = bytes[position]
            position += 1
            guard shift < 64 else { return .failure(ByteReaderError(offset: position, reason: "a number is too long")) }
            result |= UInt64(next & 0x7F) << shift
            if next & 0x80 == 0 { return .success(result) }
            shift += 7
        }
    }
}

@Suite("ByteReader: the cursor's reads are the byte-by-byte reads")
struct ByteReaderTests {
    /// Bytes of varints of every length (one to ten bytes, some over-long: eleven and more),
    /// with random bytes and a random cut at the end.
    private static func varintBytes(_ generator: inout SeededGenerator) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<Int.random(in: 1...40, using: &generator) {
            let length = Int.random(in: 1...12, using: &generator)
            for index in 0..<length {
                let low = UInt8.random(in: 0...0x7F, using: &generator)
                bytes.append(index == length - 1 ? low : low | 0x80)
            }
        }
        bytes.removeLast(Int.random(in: 0...min(3, bytes.count), using: &generator))
        return bytes
    }

    @Test("Varints, counts and signed numbers of every length, cut anywhere, read as byte by byte, errors and offsets included", arguments: testSeeds(count: 8))
    func varints(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        for round in 0..<200 {
            let bytes = Self.varintBytes(&generator)
            // A slice that does not start at 0, as a record's payload does.
            let padded = [0xEE] + bytes + [0xEE]
            let slice = padded[1..<(1 + bytes.count)]
            var reference = ReferenceReader(bytes: bytes)
            var reader = ByteReader(slice)
            var cursorReader = ByteReader(slice)
            while true {
                let expected = reference.varint()
                let kind = Int.random(in: 0..<3, using: &generator)
                func read(_ reader: inout ByteReader) -> Result<UInt64, ByteReaderError> {
                    do throws(ByteReaderError) {
                        switch kind {
                        case 0: return .success(try reader.varint())
                        case 1: return .success(UInt64(bitPattern: try reader.signed()))
                        default: return .success(UInt64(try reader.count(limit: Int.max)))
                        }
                    } catch {
                        return .failure(error)
                    }
                }
                let direct = read(&reader)
                let throughCursor = try cursorReader.withCursor { cursor -> Result<UInt64, ByteReaderError> in
                    do throws(ByteReaderError) {
                        switch kind {
                        case 0: return .success(try cursor.varint())
                        case 1: return .success(UInt64(bitPattern: try cursor.signed()))
                        default: return .success(UInt64(try cursor.count(limit: Int.max)))
                        }
                    } catch {
                        return .failure(error)
                    }
                }
                switch expected {
                case .success(let value):
                    let wanted: UInt64 = switch kind {
                    case 1: UInt64(bitPattern: Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1))))
                    default: value
                    }
                    guard kind != 2 || value <= UInt64(Int.max) else { break }
                    #expect(try direct.get() == wanted, "seed \(seed), round \(round)")
                    #expect(try throughCursor.get() == wanted, "seed \(seed), round \(round)")
                    #expect(reader.position - slice.startIndex == reference.position, "seed \(seed), round \(round)")
                    #expect(cursorReader.position == reader.position, "seed \(seed), round \(round)")
                case .failure(let error):
                    for result in [direct, throughCursor] {
                        guard case .failure(let found) = result else {
                            Issue.record("seed \(seed), round \(round): no error where \(error) was expected")
                            continue
                        }
                        #expect(found.offset == error.offset && found.reason == error.reason, "seed \(seed), round \(round): \(found) for \(error)")
                    }
                }
                if case .failure = expected { break }
                if kind == 2, case .success(let value) = expected, value > UInt64(Int.max) { break }
            }
        }
    }

    @Test("Fixed-width numbers, blobs and strings read through a cursor as through the reader, and an empty slice ends early")
    func otherReads() throws {
        var writer = ByteWriter()
        writer.fixed64(0x0102_0304_0506_0708)
        writer.blob([1, 2, 3])
        writer.string("Item")
        writer.string("Item")
        writer.string("Itex")
        writer.string("é")
        let padded = [0xEE] + writer.bytes
        var reader = ByteReader(padded[1...])
        #expect(try reader.fixed64() == 0x0102_0304_0506_0708)
        #expect(Array(try reader.blob()) == [1, 2, 3])
        try reader.withCursor { cursor throws(ByteReaderError) in
            let first = try cursor.string(previous: nil)
            #expect(first == "Item")
            // The same bytes: the previous string itself.
            #expect(try cursor.string(previous: first) == "Item")
            // Bytes of the same length that differ: decoded.
            let third = try cursor.string(previous: first)
            #expect(third == "Itex")
            #expect(try cursor.string(previous: third) == "é")
            #expect(cursor.remaining == 0)
        }
        #expect(reader.isAtEnd)
        var empty = ByteReader([][...])
        #expect(throws: ByteReaderError.self) { try empty.withCursor { cursor throws(ByteReaderError) in try cursor.byte() } }
        #expect(throws: ByteReaderError.self) { try empty.varint() }
        #expect(throws: ByteReaderError.self) { try empty.string() }
        var short = ByteReader([1, 2, 3][...])
        #expect(throws: ByteReaderError.self) { try short.fixed64() }
    }

    @Test("A blob whose length counts its own length bytes as room throws, through the reader and through a cursor")
    func blobLengthPastEnd() throws {
        // A length of 3 with two bytes after it (three after the length's first byte), in a
        // slice of a larger array: the bytes past the slice must not be taken.
        let bytes: [UInt8] = [0x03, 0x61, 0x62, 0x63, 0x64]
        var reader = ByteReader(bytes[0..<3])
        #expect(throws: ByteReaderError.self) { try reader.blob() }
        var cursorReader = ByteReader(bytes[0..<3])
        #expect(throws: ByteReaderError.self) {
            try cursorReader.withCursor { cursor throws(ByteReaderError) in _ = try cursor.blob() }
        }
        var stringReader = ByteReader(bytes[0..<3])
        #expect(throws: ByteReaderError.self) { try stringReader.string() }
        // A two-byte length: 128 bytes after its first byte, 127 after the length.
        let long: [UInt8] = [0x80, 0x01] + [UInt8](repeating: 0x61, count: 127) + [0x61]
        var longReader = ByteReader(long[0..<129])
        #expect(throws: ByteReaderError.self) {
            try longReader.withCursor { cursor throws(ByteReaderError) in _ = try cursor.blob() }
        }
    }
}
