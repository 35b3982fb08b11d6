import Checksum

/// CRC-32C (Castagnoli, reflected polynomial `0x82F63B78`), the checksum of every record
/// fragment and file header the store writes.
///
/// Computed by the processor's CRC-32C instruction where it has one (SSE 4.2 on x86-64, the
/// CRC extension on arm64; the `Checksum` C target), eight bytes per instruction, and on
/// x86-64 three streams at once for long buffers (a record's fragment). Elsewhere
/// computed slicing-by-8 (``softwareUpdate(_:_:)``): eight 256-entry tables let the loop fold
/// eight bytes per step with eight table look-ups and no data-dependent branch. Both give
/// the same checksums.
///
/// Stored checksums are *masked* (``mask(_:)``), as LevelDB masks its own: the CRC of a byte
/// string that itself contains CRCs is otherwise prone to collide, and a masked value of an
/// all-zero region is not zero, so zeroed space never looks like a valid fragment.
package enum CRC32C {
    /// The checksum of nothing; pass it as `initial` to start a new computation.
    package static let empty: UInt32 = 0

    /// Extends a checksum with more bytes.
    ///
    /// `update(update(empty, a), b) == update(empty, a + b)`, so a constant prefix (a file's
    /// salt) can be folded in once and extended per record.
    ///
    /// - Parameters:
    ///   - crc: The checksum of the bytes so far (``empty`` to start).
    ///   - bytes: The bytes that follow.
    /// - Returns: The checksum of the bytes so far followed by `bytes`.
    /// - Complexity: O(`bytes.count`).
    @inlinable
    package static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return crc }
        if _crc32cInHardware { return frk_crc32c_hardware_update(crc, base, bytes.count) }
        return _crc32cTables.withUnsafeBufferPointer { table in
            _update(crc, base, bytes.count, table.baseAddress!)
        }
    }

    /// Whether ``update(_:_:)`` uses the processor's CRC-32C instruction on this machine.
    package static var usesHardware: Bool { _crc32cInHardware }

    /// Extends a checksum with more bytes by the portable table-driven method, whatever the
    /// processor: the fallback of ``update(_:_:)``, and its reference in tests.
    ///
    /// - Parameters:
    ///   - crc: The checksum of the bytes so far (``empty`` to start).
    ///   - bytes: The bytes that follow.
    /// - Returns: The checksum of the bytes so far followed by `bytes`.
    /// - Complexity: O(`bytes.count`).
    package static func softwareUpdate(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return crc }
        return _crc32cTables.withUnsafeBufferPointer { table in
            _update(crc, base, bytes.count, table.baseAddress!)
        }
    }

    /// Extends a checksum with the bytes of a collection.
    ///
    /// - Parameters:
    ///   - crc: The checksum of the bytes so far (``empty`` to start).
    ///   - bytes: The bytes that follow.
    /// - Returns: The checksum of the bytes so far followed by `bytes`.
    /// - Complexity: O(`bytes.count`); contiguous collections are not copied.
    @inlinable
    package static func update(_ crc: UInt32, _ bytes: some Collection<UInt8>) -> UInt32 {
        if let result = bytes.withContiguousStorageIfAvailable({ update(crc, UnsafeRawBufferPointer($0)) }) {
            return result
        }
        return Array(bytes).withUnsafeBytes { update(crc, $0) }
    }

    /// The checksum of a byte string.
    ///
    /// - Parameter bytes: The bytes.
    /// - Returns: Their CRC-32C (`checksum(Array("123456789".utf8)) == 0xE3069283`).
    /// - Complexity: O(`bytes.count`).
    @inlinable
    package static func checksum(_ bytes: some Collection<UInt8>) -> UInt32 {
        update(empty, bytes)
    }

    /// The form in which a checksum is stored: rotated right by 15 bits plus a constant.
    ///
    /// - Parameter crc: A checksum.
    /// - Returns: Its masked form.
    /// - Complexity: O(1).
    @inlinable
    package static func mask(_ crc: UInt32) -> UInt32 {
        ((crc >> 15) | (crc << 17)) &+ 0xA282_EAD8
    }

    @inlinable
    static func _update(
        _ crc: UInt32,
        _ base: UnsafeRawPointer,
        _ count: Int,
        _ table: UnsafePointer<UInt32>
    ) -> UInt32 {
        var state = ~crc
        var pointer = base
        var remaining = count
        // Single bytes until the pointer is 8-byte aligned.
        while remaining > 0, UInt(bitPattern: pointer) & 7 != 0 {
            state = table[Int((state ^ UInt32(pointer.load(as: UInt8.self))) & 0xFF)] ^ (state >> 8)
            pointer += 1
            remaining -= 1
        }
        while remaining >= 8 {
            let word = UInt64(littleEndian: pointer.load(as: UInt64.self)) ^ UInt64(state)
            state = table[7 * 256 + Int(word & 0xFF)]
                ^ table[6 * 256 + Int((word >> 8) & 0xFF)]
                ^ table[5 * 256 + Int((word >> 16) & 0xFF)]
                ^ table[4 * 256 + Int((word >> 24) & 0xFF)]
                ^ table[3 * 256 + Int((word >> 32) & 0xFF)]
                ^ table[2 * 256 + Int((word >> 40) & 0xFF)]
                ^ table[1 * 256 + Int((word >> 48) & 0xFF)]
                ^ table[Int(word >> 56)]
            pointer += 8
            remaining -= 8
        }
        while remaining > 0 {
            state = table[Int((state ^ UInt32(pointer.load(as: UInt8.self))) & 0xFF)] ^ (state >> 8)
            pointer += 1
            remaining -= 1
        }
        return ~state
    }
}

/// Whether the running processor has a CRC-32C instruction, asked once.
@usableFromInline
let _crc32cInHardware = frk_crc32c_hardware_available() != 0

/// The eight slicing tables, 256 entries each, one after the other: entry `k * 256 + b` is
/// the CRC register after byte `b` followed by `k` zero bytes.
@usableFromInline
let _crc32cTables: [UInt32] = {
    var tables = [UInt32](repeating: 0, count: 8 * 256)
    for byte in 0..<256 {
        var crc = UInt32(byte)
        for _ in 0..<8 {
            crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1
        }
        tables[byte] = crc
    }
    for slice in 1..<8 {
        for byte in 0..<256 {
            let previous = tables[(slice - 1) * 256 + byte]
            tables[slice * 256 + byte] = tables[Int(previous & 0xFF)] ^ (previous >> 8)
        }
    }
    return tables
}()
