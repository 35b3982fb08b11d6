// The bounded snapshot columns: integers and booleans written from a write position kept
// in a register, into room the writer reserved once (`RawByteWriter.withRoom(_:_:)`).
//
// Invariant: `put(_:at:)` writes at most `columnByteBound` bytes, and `writeColumn` reserves
// that many per object, so no write passes the room; the objects are the slot's class,
// unretained and kept alive by the graph's tables for the call.

import ObjectGraph

/// A type whose values take at most a few bytes each in a snapshot's column: the column is
/// written into room reserved once, from a write position kept in a register, instead of
/// one capacity check and one reload of the writer's fields per value.
protocol BoundedColumnValue: StoredPrimitive {
    /// The most bytes one value takes.
    static var columnByteBound: Int { get }
    /// Writes `value` at `target`, in room for ``columnByteBound`` bytes (the same bytes as
    /// `write(to:)`).
    ///
    /// - Returns: The address after the value's bytes.
    static func put(_ value: Self, at target: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8>
}

extension BoundedColumnValue {
    /// Writes the value of each object in `slot` (a slot of values of this type:
    /// `precondition`), the objects of the slot's class, unretained and alive for the call,
    /// into `writer`: the same bytes as `write(to:)` of each.
    ///
    /// - Complexity: O(*k*) for *k* objects.
    static func writeColumn<Slotted>(
        _ objects: Snapshot.ObjectChunk, slot: AttributeValueSlot<Slotted>, to writer: inout RawByteWriter
    ) {
        let slot = slot.retyped(as: Self.self)
        writer.withRoom(columnByteBound * objects.count) { start in
            var target = start
            for object in objects { target = put(slot.value(in: object), at: target) }
            return target
        }
    }
}

extension BoundedColumnValue where Self: FixedWidthInteger & SignedInteger {
    static var columnByteBound: Int { 10 }

    @inline(__always)
    static func put(_ value: Self, at target: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        let wide = Int64(value)
        return RawByteWriter.put(UInt64(bitPattern: (wide << 1) ^ (wide >> 63)), at: target)
    }
}

extension BoundedColumnValue where Self: FixedWidthInteger & UnsignedInteger {
    static var columnByteBound: Int { 10 }

    @inline(__always)
    static func put(_ value: Self, at target: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        RawByteWriter.put(UInt64(value), at: target)
    }
}

extension Int: BoundedColumnValue {}
extension Int8: BoundedColumnValue {}
extension Int16: BoundedColumnValue {}
extension Int32: BoundedColumnValue {}
extension Int64: BoundedColumnValue {}
extension UInt: BoundedColumnValue {}
extension UInt8: BoundedColumnValue {}
extension UInt16: BoundedColumnValue {}
extension UInt32: BoundedColumnValue {}
extension UInt64: BoundedColumnValue {}

extension Bool: BoundedColumnValue {
    static var columnByteBound: Int { 1 }

    @inline(__always)
    static func put(_ value: Bool, at target: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        target.pointee = value ? 1 : 0
        return target + 1
    }
}
