import Foundation

// Values read from and written to bytes at any offset: little-endian integers of file
// headers, fragment headers and record payloads, and UUIDs of file headers and values.
//
// Invariant: each load or store stays inside the bytes it is given (its callers check the
// room first; `assert` checks it again in debug builds, as the standard library's own
// unaligned loads do), and moves plain values with no alignment requirement
// (`loadUnaligned`, `storeBytes`), so any offset is sound.

/// The little-endian `Value` at `offset` in `bytes` (room for it: the caller checks).
///
/// - Complexity: O(1).
@inlinable
func loadLittleEndian<Value: FixedWidthInteger>(_: Value.Type, _ bytes: [UInt8], _ offset: Int) -> Value {
    assert(offset >= 0 && offset + MemoryLayout<Value>.size <= bytes.count, "internal inconsistency: a load past the bytes")
    return bytes.withUnsafeBytes { Value(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: Value.self)) }
}

/// The little-endian `Value` at `offset` from the first of `bytes` (room for it: the
/// caller checks).
///
/// - Complexity: O(1).
@inlinable
func loadLittleEndian<Value: FixedWidthInteger>(_: Value.Type, _ bytes: ArraySlice<UInt8>, _ offset: Int) -> Value {
    assert(offset >= 0 && offset + MemoryLayout<Value>.size <= bytes.count, "internal inconsistency: a load past the bytes")
    return bytes.withUnsafeBytes { Value(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: Value.self)) }
}

/// The little-endian `Value` at `offset` in `raw` (room for it: the caller checks).
///
/// - Complexity: O(1).
@inline(__always)
func loadLittleEndian<Value: FixedWidthInteger>(_: Value.Type, _ raw: UnsafeRawBufferPointer, _ offset: Int) -> Value {
    assert(offset >= 0 && offset + MemoryLayout<Value>.size <= raw.count, "internal inconsistency: a load past the bytes")
    return Value(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Value.self))
}

/// Writes `value` little-endian at `offset` in `raw` (room for it: the caller checks).
///
/// - Complexity: O(1).
@inline(__always)
func storeLittleEndian<Value: FixedWidthInteger>(_ value: Value, _ raw: UnsafeMutableRawBufferPointer, _ offset: Int) {
    assert(offset >= 0 && offset + MemoryLayout<Value>.size <= raw.count, "internal inconsistency: a store past the bytes")
    raw.storeBytes(of: value.littleEndian, toByteOffset: offset, as: Value.self)
}

extension UUID {
    /// The UUID whose 16 bytes start at `offset` in `bytes` (room for them: the caller checks).
    ///
    /// - Complexity: O(1).
    init(storedBytes bytes: [UInt8], at offset: Int) {
        assert(offset >= 0 && offset + 16 <= bytes.count, "internal inconsistency: a UUID past the bytes")
        self = bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(fromByteOffset: offset, as: uuid_t.self)) }
    }

    /// The UUID whose 16 bytes are `bytes` (exactly 16: the caller checks).
    ///
    /// - Complexity: O(1).
    init(storedBytes bytes: UnsafeBufferPointer<UInt8>) {
        assert(bytes.count == 16, "internal inconsistency: a UUID of \(bytes.count) bytes")
        self.init(uuid: UnsafeRawBufferPointer(bytes).loadUnaligned(as: uuid_t.self))
    }
}
