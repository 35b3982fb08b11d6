import Foundation

// The bytes of each primitive type for a snapshot's columns, written into a
// ``RawByteWriter``: the same bytes as `write(to: inout ByteWriter)` writes.

extension StoredPrimitive where Self: FixedWidthInteger & SignedInteger {
    @inline(__always)
    func write(to writer: inout RawByteWriter) { writer.signed(Int64(self)) }
}

extension StoredPrimitive where Self: FixedWidthInteger & UnsignedInteger {
    @inline(__always)
    func write(to writer: inout RawByteWriter) { writer.varint(UInt64(self)) }
}

extension Double {
    @inline(__always)
    func write(to writer: inout RawByteWriter) { writer.fixed64(bitPattern) }
}

extension Float {
    @inline(__always)
    func write(to writer: inout RawByteWriter) { writer.fixed64(Double(self).bitPattern) }
}

extension Bool {
    @inline(__always)
    func write(to writer: inout RawByteWriter) { writer.byte(self ? 1 : 0) }
}

extension String {
    @inline(__always)
    func write(to writer: inout RawByteWriter) { writer.string(self) }
}

extension Date {
    @inline(__always)
    func write(to writer: inout RawByteWriter) { writer.fixed64(timeIntervalSinceReferenceDate.bitPattern) }
}

extension UUID {
    func write(to writer: inout RawByteWriter) {
        writer.byte(16)
        withUnsafeBytes(of: uuid) { writer.append($0) }
    }
}

extension Data {
    func write(to writer: inout RawByteWriter) {
        withUnsafeBytes { writer.blob($0) }
    }
}

extension URL {
    func write(to writer: inout RawByteWriter) { writer.string(absoluteString) }
}

extension Decimal {
    func write(to writer: inout RawByteWriter) { writer.string(description) }
}
