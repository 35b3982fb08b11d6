import Foundation
import ObjectGraph

/// A Swift type whose values the store writes itself, in its ``StoredValueKind``'s bytes
/// (the same bytes as the `PlainValue` path writes), without boxing them in `Any`.
protocol StoredPrimitive {
    /// The kind ``StoredValueKind/resolve(_:)`` gives this type.
    static var storedKind: StoredValueKind { get }
    /// Writes the value.
    func write(to writer: inout ByteWriter)
    /// Writes the value into a snapshot's buffer (the same bytes).
    func write(to writer: inout RawByteWriter)
    /// Reads a value; `nil` when the bytes are well formed but make no value of this type (an
    /// integer out of range, a URL that does not parse).
    static func read(from reader: inout ByteCursor) throws(ByteReaderError) -> Self?
    /// In a column, skips the next value when its bytes are those of the value the cursor
    /// read last, and says so (`false`, having read nothing, unless the type can tell).
    static func skipRepeat(_ reader: inout ByteCursor) -> Bool
}

extension StoredPrimitive {
    @inline(__always)
    static func skipRepeat(_ reader: inout ByteCursor) -> Bool { false }

    /// Reads a value from a reader, as ``read(from:)`` does from a cursor.
    @inline(__always)
    static func read(from reader: inout ByteReader) throws(ByteReaderError) -> Self? {
        try reader.withCursor { cursor throws(ByteReaderError) in try read(from: &cursor) }
    }
}

extension StoredPrimitive where Self: FixedWidthInteger & SignedInteger {
    func write(to writer: inout ByteWriter) { writer.signed(Int64(self)) }
    static func read(from reader: inout ByteCursor) throws(ByteReaderError) -> Self? { Self(exactly: try reader.signed()) }
}

extension StoredPrimitive where Self: FixedWidthInteger & UnsignedInteger {
    func write(to writer: inout ByteWriter) { writer.varint(UInt64(self)) }
    static func read(from reader: inout ByteCursor) throws(ByteReaderError) -> Self? { Self(exactly: try reader.varint()) }
}

extension Int: StoredPrimitive { static var storedKind: StoredValueKind { .signed(bits: 64) } }
extension Int8: StoredPrimitive { static var storedKind: StoredValueKind { .signed(bits: 8) } }
extension Int16: StoredPrimitive { static var storedKind: StoredValueKind { .signed(bits: 16) } }
extension Int32: StoredPrimitive { static var storedKind: StoredValueKind { .signed(bits: 32) } }
extension Int64: StoredPrimitive { static var storedKind: StoredValueKind { .signed(bits: 64) } }
extension UInt: StoredPrimitive { static var storedKind: StoredValueKind { .unsigned(bits: 64) } }
extension UInt8: StoredPrimitive { static var storedKind: StoredValueKind { .unsigned(bits: 8) } }
extension UInt16: StoredPrimitive { static var storedKind: StoredValueKind { .unsigned(bits: 16) } }
extension UInt32: StoredPrimitive { static var storedKind: StoredValueKind { .unsigned(bits: 32) } }
extension UInt64: StoredPrimitive { static var storedKind: StoredValueKind { .unsigned(bits: 64) } }

extension Double: StoredPrimitive {
    static var storedKind: StoredValueKind { .double }
    func write(to writer: inout ByteWriter) { writer.fixed64(bitPattern) }
    static func read(from reader: inout ByteCursor) throws(ByteReaderError) -> Double? { Double(bitPattern: try reader.fixed64()) }
}

extension Float: StoredPrimitive {
    static var storedKind: StoredValueKind { .float }
    func write(to writer: inout ByteWriter) { writer.fixed64(Double(self).bitPattern) }
    static func read(from reader: inout ByteCursor) throws(ByteReaderError) -> Float? { Float(Double(bitPattern: try reader.fixed64())) }
}

extension Bool: StoredPrimitive {
    static var storedKind: StoredValueKind { .bool }
    func write(to writer: inout ByteWriter) { writer.byte(self ? 1 : 0) }
    static func read(from reader: inout ByteCursor) throws(ByteReaderError) -> Bool? { try reader.byte() != 0 }
}

extension String: StoredPrimitive {
    static var storedKind: StoredValueKind { .string }
    func write(to writer: inout ByteWriter) { writer.string(self) }
    static func read(from reader: inout ByteCursor) throws(ByteReaderError) -> String? { try reader.string() }
    @inline(__always)
    static func skipRepeat(_ reader: inout ByteCursor) -> Bool { reader.skipRepeatedString() }
}

extension Date: StoredPrimitive {
    static var storedKind: StoredValueKind { .date }
    func write(to writer: inout ByteWriter) { writer.fixed64(timeIntervalSinceReferenceDate.bitPattern) }
    static func read(from reader: inout ByteCursor) throws(ByteReaderError) -> Date? {
        Date(timeIntervalSinceReferenceDate: Double(bitPattern: try reader.fixed64()))
    }
}

extension UUID: StoredPrimitive {
    static var storedKind: StoredValueKind { .uuid }
    func write(to writer: inout ByteWriter) {
        writer.varint(16)
        withUnsafeBytes(of: uuid) { writer.bytes.append(contentsOf: $0) }
    }
    static func read(from reader: inout ByteCursor) throws(ByteReaderError) -> UUID? {
        let bytes = try reader.blob()
        guard bytes.count == 16 else { return nil }
        return UUID(storedBytes: bytes)
    }
}

extension Data: StoredPrimitive {
    static var storedKind: StoredValueKind { .data }
    func write(to writer: inout ByteWriter) { writer.blob(self) }
    static func read(from reader: inout ByteCursor) throws(ByteReaderError) -> Data? { Data(try reader.blob()) }
}

extension URL: StoredPrimitive {
    static var storedKind: StoredValueKind { .url }
    func write(to writer: inout ByteWriter) { writer.string(absoluteString) }
    static func read(from reader: inout ByteCursor) throws(ByteReaderError) -> URL? { URL(string: try reader.string()) }
}

extension Decimal: StoredPrimitive {
    static var storedKind: StoredValueKind { .decimal }
    func write(to writer: inout ByteWriter) { writer.string(description) }
    static func read(from reader: inout ByteCursor) throws(ByteReaderError) -> Decimal? {
        Decimal(string: try reader.string(), locale: Locale(identifier: "en_US_POSIX"))
    }
}

/// How the store writes and reads one attribute of one class: resolved once per schema, so
/// a value of a primitive type (or an optional of one) goes from the object's storage to the
/// bytes and back without `Any`, dynamic casts or a ``PlainValue`` in between.
struct AttributeCodec {
    /// Writes the attribute of an object of the class.
    let write: (GraphObject, inout ByteWriter) throws(StoredValueError) -> Void
    /// Reads a value written with the attribute's kind and, unless the object (of the class,
    /// in the graph) is `nil`, stores it; `false` when the bytes make no value of the
    /// attribute's type.
    let read: (inout ByteReader, GraphObject?, ObjectGraph) throws(ByteReaderError) -> Bool
    /// Writes the attribute of each object, in order (a snapshot's column).
    let writeColumn: ([GraphObject], inout ByteWriter) throws(StoredValueError) -> Void
    /// Writes the attribute of each object, in order, into a snapshot's buffer: the objects
    /// are of the class, unretained, alive for the call.
    let writeSnapshotColumn: (Snapshot.ObjectChunk, inout RawByteWriter) throws(StoredValueError) -> Void
    /// Reads one value per object, in order, and stores each; `false` when some bytes make
    /// no value of the attribute's type (the objects after it keep their values).
    let readColumn: (inout ByteReader, [GraphObject], ObjectGraph) throws(ByteReaderError) -> Bool

    /// The codec of an attribute whose kind is `kind` (as ``StoredValueKind/resolve(_:)``
    /// gives it for the attribute's type): a direct one for the primitive kinds and their
    /// optionals, otherwise one through ``StoredValueKind/plain(_:)`` and
    /// ``StoredValueKind/value(_:as:)``.
    ///
    /// - Complexity: O(1); made once per property and schema.
    init(entity: EntityDescription, index: PropertyIndex, kind: StoredValueKind) {
        let type = entity.valueType(of: index)
        if let direct = Self.direct(type, entity: entity, index: index, kind: kind) {
            self = direct
            return
        }
        let write = { (object: GraphObject, writer: inout ByteWriter) throws(StoredValueError) in
            kind.write(try kind.plain(object.storedValue(at: index)), to: &writer)
        }
        let read = { (reader: inout ByteReader, object: GraphObject?, graph: ObjectGraph) throws(ByteReaderError) -> Bool in
            let plain = try kind.read(from: &reader)
            guard let object else { return true }
            guard let value = kind.value(plain, as: type) else { return false }
            return graph.restoreAttribute(object, index, value)
        }
        self.init(
            write: write, read: read,
            writeColumn: { objects, writer throws(StoredValueError) in
                for object in objects { try write(object, &writer) }
            },
            writeSnapshotColumn: { objects, writer throws(StoredValueError) in
                var bytes = ByteWriter()
                for position in objects.indices {
                    bytes.bytes.removeAll(keepingCapacity: true)
                    try write(objects.object(at: position), &bytes)
                    bytes.bytes.withUnsafeBytes { writer.append($0) }
                }
            },
            readColumn: { reader, objects, graph throws(ByteReaderError) in
                for object in objects { guard try read(&reader, object, graph) else { return false } }
                return true
            })
    }

    private init(
        write: @escaping (GraphObject, inout ByteWriter) throws(StoredValueError) -> Void,
        read: @escaping (inout ByteReader, GraphObject?, ObjectGraph) throws(ByteReaderError) -> Bool,
        writeColumn: @escaping ([GraphObject], inout ByteWriter) throws(StoredValueError) -> Void,
        writeSnapshotColumn: @escaping (Snapshot.ObjectChunk, inout RawByteWriter) throws(StoredValueError) -> Void,
        readColumn: @escaping (inout ByteReader, [GraphObject], ObjectGraph) throws(ByteReaderError) -> Bool
    ) {
        self.write = write
        self.read = read
        self.writeColumn = writeColumn
        self.writeSnapshotColumn = writeSnapshotColumn
        self.readColumn = readColumn
    }

    /// A direct codec for the primitive types and their optionals; `nil` for the others.
    private static func direct(_ type: any Any.Type, entity: EntityDescription, index: PropertyIndex, kind: StoredValueKind) -> AttributeCodec? {
        // Each call names its type, so each is compiled for it.
        let candidates: [AttributeCodec?] = [
            primitive(Int.self, type, entity, index, kind),
            primitive(String.self, type, entity, index, kind),
            primitive(Bool.self, type, entity, index, kind),
            primitive(Double.self, type, entity, index, kind),
            primitive(Date.self, type, entity, index, kind),
            primitive(UUID.self, type, entity, index, kind),
            primitive(Int64.self, type, entity, index, kind),
            primitive(Int32.self, type, entity, index, kind),
            primitive(Int16.self, type, entity, index, kind),
            primitive(Int8.self, type, entity, index, kind),
            primitive(UInt.self, type, entity, index, kind),
            primitive(UInt64.self, type, entity, index, kind),
            primitive(UInt32.self, type, entity, index, kind),
            primitive(UInt16.self, type, entity, index, kind),
            primitive(UInt8.self, type, entity, index, kind),
            primitive(Float.self, type, entity, index, kind),
            primitive(Data.self, type, entity, index, kind),
            primitive(URL.self, type, entity, index, kind),
            primitive(Decimal.self, type, entity, index, kind),
        ]
        return candidates.lazy.compactMap { $0 }.first
    }

    /// The codec of a `Value` or `Value?` attribute; `nil` when `type` is neither, or the
    /// kind is not the one the store gives it.
    ///
    /// Always inlined into ``direct(_:entity:index:kind:)``, once per type: called that many
    /// times, the optimizer would otherwise leave it generic, and every value would be read,
    /// copied and written through its type's metadata.
    @inline(__always)
    private static func primitive<Value: StoredPrimitive>(
        _ value: Value.Type, _ type: any Any.Type, _ entity: EntityDescription, _ index: PropertyIndex, _ kind: StoredValueKind
    ) -> AttributeCodec? {
        if type == Value.self, kind == Value.storedKind, let storage = entity.attributeStorage(at: index, as: Value.self) {
            let value = AttributeValueSlot<Value>(storage)
            return AttributeCodec(
                write: { object, writer in storage.read(object).write(to: &writer) },
                read: { reader, object, _ throws(ByteReaderError) in
                    guard let read = try Value.read(from: &reader) else { return false }
                    if let object { value.write(read, into: object) }
                    return true
                },
                writeColumn: { objects, writer in
                    for object in objects { value.value(in: object).write(to: &writer) }
                },
                writeSnapshotColumn: { objects, writer in
                    if let bounded = Value.self as? any BoundedColumnValue.Type {
                        bounded.writeColumn(objects, slot: value, to: &writer)
                        return
                    }
                    guard !_isPOD(Value.self) else {
                        for object in objects { value.value(in: object).write(to: &writer) }
                        return
                    }
                    // A value with the same bits as the one before it (a string many objects
                    // share) has the same bytes: they are copied, the value is not touched.
                    var previous: Int?
                    var previousBytes = 0..<0
                    for position in objects.indices {
                        if let previous, value.sameBits(in: objects[previous], and: objects[position]) {
                            writer.repeatBytes(previousBytes)
                        } else {
                            let start = writer.count
                            value.value(in: objects[position]).write(to: &writer)
                            previousBytes = start..<writer.count
                            previous = position
                        }
                    }
                },
                readColumn: { reader, objects, _ throws(ByteReaderError) in
                    try reader.withCursor { cursor throws(ByteReaderError) in
                        // A value that repeats the one before is stored again, not decoded.
                        var previous: Value?
                        var failure: ByteReaderError?
                        let complete = value.restoreValues(of: objects) { _ -> Value? in
                            if let repeated = previous, Value.skipRepeat(&cursor) { return repeated }
                            do throws(ByteReaderError) {
                                guard let read = try Value.read(from: &cursor) else { return nil }
                                previous = read
                                return read
                            } catch {
                                failure = error
                                return nil
                            }
                        }
                        if let failure { throw failure }
                        return complete
                    }
                })
        }
        if type == Value?.self, kind == .optional(Value.storedKind), let storage = entity.attributeStorage(at: index, as: Value?.self) {
            let value = AttributeValueSlot<Value?>(storage)
            return AttributeCodec(
                write: { object, writer in
                    if let value = storage.read(object) {
                        writer.byte(1)
                        value.write(to: &writer)
                    } else {
                        writer.byte(0)
                    }
                },
                read: { reader, object, _ throws(ByteReaderError) in
                    guard let read = try reader.withCursor({ cursor throws(ByteReaderError) in try readOptional(Value.self, &cursor) }) else { return false }
                    if let object { value.write(read, into: object) }
                    return true
                },
                writeColumn: { objects, writer in
                    for object in objects {
                        if let stored = value.value(in: object) {
                            writer.byte(1)
                            stored.write(to: &writer)
                        } else {
                            writer.byte(0)
                        }
                    }
                },
                writeSnapshotColumn: { objects, writer in
                    for object in objects {
                        if let stored = value.value(in: object) {
                            writer.byte(1)
                            stored.write(to: &writer)
                        } else {
                            writer.byte(0)
                        }
                    }
                },
                readColumn: { reader, objects, _ throws(ByteReaderError) in
                    try reader.withCursor { cursor throws(ByteReaderError) in
                        var failure: ByteReaderError?
                        let complete = value.restoreValues(of: objects) { _ -> Value?? in
                            do throws(ByteReaderError) {
                                return try readOptional(Value.self, &cursor)
                            } catch {
                                failure = error
                                return nil
                            }
                        }
                        if let failure { throw failure }
                        return complete
                    }
                })
        }
        return nil
    }

    /// Reads an optional's flag and value: `.some(nil)` for `nil`, `nil` when the bytes make
    /// no value of the type.
    @inline(__always)
    private static func readOptional<Value: StoredPrimitive>(_ type: Value.Type, _ reader: inout ByteCursor) throws(ByteReaderError) -> Value?? {
        switch try reader.byte() {
        case 0: return .some(nil)
        case 1:
            guard let wrapped = try Value.read(from: &reader) else { return nil }
            return .some(wrapped)
        default: throw reader.failure("an optional's flag is neither 0 nor 1")
        }
    }
}
