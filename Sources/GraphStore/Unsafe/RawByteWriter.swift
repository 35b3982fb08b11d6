import Foundation

/// Bytes being encoded into memory the writer manages itself, in the same encodings as
/// ``ByteWriter``: what a snapshot's records are filled in, a million values at a time.
///
/// Each value costs one capacity check and a few stores: no array uniqueness check, no
/// per-byte bookkeeping. Not copyable, since it owns its memory.
struct RawByteWriter: ~Copyable {
    /// The bytes: `count` of them are written, `capacity` allocated. Every allocated byte is
    /// initialized (the bytes past `count` to zero), so a two-word load that runs past
    /// `count` reads initialized memory.
    private(set) var base: UnsafeMutablePointer<UInt8>
    /// How many bytes are written.
    var count = 0
    private var capacity: Int

    /// - Parameter capacity: The bytes allocated at first (the writer grows as needed).
    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 64)
        base = .allocate(capacity: self.capacity)
        base.initialize(repeating: 0, count: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if _slowPath(capacity &- count < extra) { grow(count + extra) }
    }

    @inline(never)
    private mutating func grow(_ needed: Int) {
        let newCapacity = Swift.max(needed, capacity * 2)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.initialize(from: base, count: count)
        (grown + count).initialize(repeating: 0, count: newCapacity - count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    @inline(__always)
    mutating func byte(_ value: UInt8) {
        reserve(1)
        base[count] = value
        count &+= 1
    }

    @inline(__always)
    mutating func varint(_ value: UInt64) {
        reserve(10)
        if value < 0x80 {
            base[count] = UInt8(truncatingIfNeeded: value)
            count &+= 1
            return
        }
        var value = value
        var position = count
        while value >= 0x80 {
            base[position] = UInt8(truncatingIfNeeded: value) | 0x80
            value >>= 7
            position &+= 1
        }
        base[position] = UInt8(truncatingIfNeeded: value)
        count = position &+ 1
    }

    @inline(__always)
    mutating func varint(_ value: Int) { varint(UInt64(value)) }

    /// The same byte `count` times.
    ///
    /// - Complexity: O(`count`).
    mutating func byte(_ value: UInt8, repeated count: Int) {
        guard count > 0 else { return }
        reserve(count)
        (base + self.count).update(repeating: value, count: count)
        self.count &+= count
    }

    /// Runs `body` with the address of the first free byte, `room` bytes reserved; `body`
    /// writes at most `room` bytes there and returns the address after the last.
    ///
    /// - Complexity: O(`room`) when the writer grows, O(1) otherwise, plus `body`.
    @inline(__always)
    mutating func withRoom(_ room: Int, _ body: (UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8>) {
        reserve(room)
        let start = base + count
        let written = body(start) - start
        require(written >= 0 && written <= room, "internal inconsistency: \(written) bytes written in room for \(room)")
        count &+= written
    }

    /// Writes a varint at `target`, in room for ten bytes (the bytes `varint(_:)` writes).
    ///
    /// - Returns: The address after it.
    @inline(__always)
    static func put(_ value: UInt64, at target: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var value = value
        var target = target
        while value >= 0x80 {
            target.pointee = UInt8(truncatingIfNeeded: value) | 0x80
            value >>= 7
            target += 1
        }
        target.pointee = UInt8(truncatingIfNeeded: value)
        return target + 1
    }

    /// A signed integer, zigzag-encoded so small negatives stay short.
    @inline(__always)
    mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    @inline(__always)
    mutating func fixed64(_ value: UInt64) {
        reserve(8)
        UnsafeMutableRawPointer(base + count).storeBytes(of: value.littleEndian, as: UInt64.self)
        count &+= 8
    }

    /// Raw bytes, without a length.
    @inline(__always)
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    /// A length, then the bytes.
    @inline(__always)
    mutating func blob(_ bytes: UnsafeRawBufferPointer) {
        varint(bytes.count)
        append(bytes)
    }

    /// A string's UTF-8 bytes, with their length.
    @inline(__always)
    mutating func string(_ text: String) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { blob(UnsafeRawBufferPointer($0)) }
        if done == nil {
            var copy = text
            copy.withUTF8 { blob(UnsafeRawBufferPointer($0)) }
        }
    }

    /// Writes again the bytes written at `range` (a repeated value).
    @inline(__always)
    mutating func repeatBytes(_ range: Range<Int>) {
        if range.count <= 16 {
            // Two words, loaded before they are stored: the source may run past `count` (into
            // reserved, initialized memory) and overlap the target; only `range.count` bytes
            // are kept.
            reserve(16)
            let source = UnsafeRawPointer(base + range.lowerBound)
            let low = source.loadUnaligned(as: UInt64.self)
            let high = source.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            let target = UnsafeMutableRawPointer(base + count)
            target.storeBytes(of: low, as: UInt64.self)
            target.storeBytes(of: high, toByteOffset: 8, as: UInt64.self)
        } else {
            reserve(range.count)
            (base + count).update(from: base + range.lowerBound, count: range.count)
        }
        count &+= range.count
    }

    /// Writes `bytes` at `offset`, within what is written already.
    mutating func overwrite(at offset: Int, with bytes: UnsafeRawBufferPointer) {
        require(offset >= 0 && offset + bytes.count <= count, "internal inconsistency: an overwrite past the bytes written")
        guard let source = bytes.baseAddress else { return }
        UnsafeMutableRawPointer(base + offset).copyMemory(from: source, byteCount: bytes.count)
    }
}
