import Foundation

/// How an attribute's values are written: a closed set of kinds the store knows, each with
/// a name that is saved in the schema, so a file read later knows what it holds.
indirect enum StoredValueKind: Equatable, Sendable, CustomStringConvertible {
    case signed(bits: Int)
    case unsigned(bits: Int)
    case double
    case float
    case bool
    case string
    case date
    case uuid
    case data
    case url
    case decimal
    case optional(StoredValueKind)
    /// A `RawRepresentable` type stored as its raw value.
    case raw(StoredValueKind)
    /// A `Codable` type stored as JSON (the fallback).
    case json

    var description: String {
        switch self {
        case .signed(let bits): "Int\(bits)"
        case .unsigned(let bits): "UInt\(bits)"
        case .double: "Double"
        case .float: "Float"
        case .bool: "Bool"
        case .string: "String"
        case .date: "Date"
        case .uuid: "UUID"
        case .data: "Data"
        case .url: "URL"
        case .decimal: "Decimal"
        case .optional(let wrapped): "Optional<\(wrapped)>"
        case .raw(let raw): "Raw<\(raw)>"
        case .json: "JSON"
        }
    }

    /// The kind named by ``description``, or `nil`.
    init?(name: Substring) {
        func inner(_ prefix: String) -> Substring? {
            guard name.hasPrefix(prefix + "<"), name.hasSuffix(">") else { return nil }
            return name.dropFirst(prefix.count + 1).dropLast()
        }
        if let wrapped = inner("Optional") {
            guard let kind = StoredValueKind(name: wrapped) else { return nil }
            self = .optional(kind)
            return
        }
        if let raw = inner("Raw") {
            guard let kind = StoredValueKind(name: raw) else { return nil }
            self = .raw(kind)
            return
        }
        switch name {
        case "Double": self = .double
        case "Float": self = .float
        case "Bool": self = .bool
        case "String": self = .string
        case "Date": self = .date
        case "UUID": self = .uuid
        case "Data": self = .data
        case "URL": self = .url
        case "Decimal": self = .decimal
        case "JSON": self = .json
        default:
            for bits in [8, 16, 32, 64] {
                if name == "Int\(bits)" { self = .signed(bits: bits); return }
                if name == "UInt\(bits)" { self = .unsigned(bits: bits); return }
            }
            return nil
        }
    }

    /// The kind that stores values of `type`, or `nil` when the store cannot persist it.
    static func resolve(_ type: any Any.Type) -> StoredValueKind? {
        switch type {
        case is Int.Type: return .signed(bits: 64)
        case is Int8.Type: return .signed(bits: 8)
        case is Int16.Type: return .signed(bits: 16)
        case is Int32.Type: return .signed(bits: 32)
        case is Int64.Type: return .signed(bits: 64)
        case is UInt.Type: return .unsigned(bits: 64)
        case is UInt8.Type: return .unsigned(bits: 8)
        case is UInt16.Type: return .unsigned(bits: 16)
        case is UInt32.Type: return .unsigned(bits: 32)
        case is UInt64.Type: return .unsigned(bits: 64)
        case is Double.Type: return .double
        case is Float.Type: return .float
        case is Bool.Type: return .bool
        case is String.Type: return .string
        case is Date.Type: return .date
        case is UUID.Type: return .uuid
        case is Data.Type: return .data
        case is URL.Type: return .url
        case is Decimal.Type: return .decimal
        default: break
        }
        if let optional = type as? any _StoredOptional.Type {
            // Nested optionals would need a presence flag per level; not worth supporting.
            guard !(optional.wrappedType is any _StoredOptional.Type), let wrapped = resolve(optional.wrappedType) else { return nil }
            return .optional(wrapped)
        }
        if let raw = type as? any RawRepresentable.Type, let rawKind = resolve(rawValueType(raw)), rawKind.isPlain {
            return .raw(rawKind)
        }
        if type is any Codable.Type { return .json }
        return nil
    }

    /// Whether the kind is one of the primitive ones (not optional, raw or JSON).
    var isPlain: Bool {
        switch self {
        case .optional, .raw, .json: false
        default: true
        }
    }
}

/// The raw value type of a `RawRepresentable` type.
private func rawValueType<T: RawRepresentable>(_ type: T.Type) -> any Any.Type { T.RawValue.self }

/// `Optional`, seen through its wrapped type, so a stored value can be put back as the
/// right `Optional`.
protocol _StoredOptional {
    static var wrappedType: any Any.Type { get }
    /// The wrapped value, or `nil` for `.none`.
    var storedWrapped: Any? { get }
    /// `value` (of the wrapped type) or `.none`, as this optional type; `nil` when `value` is
    /// of another type.
    static func storedWrapping(_ value: Any?) -> Any?
}

extension Optional: _StoredOptional {
    static var wrappedType: any Any.Type { Wrapped.self }
    var storedWrapped: Any? { self.map { $0 as Any } }
    static func storedWrapping(_ value: Any?) -> Any? {
        guard let value else { return Optional<Wrapped>.none as Any }
        guard let wrapped = value as? Wrapped else { return nil }
        return Optional(wrapped) as Any
    }
}

/// A value as stored, independent of the Swift type it came from: what schema evolution
/// converts between.
enum PlainValue: Equatable {
    case null
    case signed(Int64)
    case unsigned(UInt64)
    case double(Double)
    case bool(Bool)
    case string(String)
    case bytes([UInt8])
}

/// Why a value could not be stored or read back.
struct StoredValueError: Error, CustomStringConvertible {
    var description: String
}

extension StoredValueKind {
    /// The plain form of a value of this kind.
    func plain(_ value: Any) throws(StoredValueError) -> PlainValue {
        func mismatch() -> StoredValueError { StoredValueError(description: "a \(type(of: value)) is not a \(self)") }
        switch self {
        case .signed:
            guard let integer = value as? any BinaryInteger, let wide = Int64(exactly: integer) else { throw mismatch() }
            return .signed(wide)
        case .unsigned:
            guard let integer = value as? any BinaryInteger, let wide = UInt64(exactly: integer) else { throw mismatch() }
            return .unsigned(wide)
        case .double:
            guard let number = value as? Double else { throw mismatch() }
            return .double(number)
        case .float:
            guard let number = value as? Float else { throw mismatch() }
            return .double(Double(number))
        case .bool:
            guard let flag = value as? Bool else { throw mismatch() }
            return .bool(flag)
        case .string:
            guard let text = value as? String else { throw mismatch() }
            return .string(text)
        case .date:
            guard let date = value as? Date else { throw mismatch() }
            return .double(date.timeIntervalSinceReferenceDate)
        case .uuid:
            guard let uuid = value as? UUID else { throw mismatch() }
            return .bytes(withUnsafeBytes(of: uuid.uuid) { Array($0) })
        case .data:
            guard let data = value as? Data else { throw mismatch() }
            return .bytes(Array(data))
        case .url:
            guard let url = value as? URL else { throw mismatch() }
            return .string(url.absoluteString)
        case .decimal:
            guard let decimal = value as? Decimal else { throw mismatch() }
            return .string(decimal.description)
        case .optional(let wrapped):
            guard let optional = value as? any _StoredOptional else { throw mismatch() }
            guard let inner = optional.storedWrapped else { return .null }
            return try wrapped.plain(inner)
        case .raw(let raw):
            guard let representable = value as? any RawRepresentable else { throw mismatch() }
            return try raw.plain(representable.rawValue)
        case .json:
            guard let encodable = value as? any Encodable else { throw mismatch() }
            do {
                return .bytes(Array(try JSONEncoder().encode(encodable)))
            } catch {
                throw StoredValueError(description: "a \(type(of: value)) could not be encoded as JSON: \(error)")
            }
        }
    }

    /// Writes the plain form of a value of this kind.
    func write(_ plain: PlainValue, to writer: inout ByteWriter) {
        switch (self, plain) {
        case (.optional, .null): writer.byte(0)
        case (.optional(let wrapped), _):
            writer.byte(1)
            wrapped.write(plain, to: &writer)
        case (.raw(let raw), _): raw.write(plain, to: &writer)
        case (_, .signed(let value)): writer.signed(value)
        case (_, .unsigned(let value)): writer.varint(value)
        case (_, .double(let value)): writer.fixed64(value.bitPattern)
        case (_, .bool(let value)): writer.byte(value ? 1 : 0)
        case (_, .string(let value)): writer.string(value)
        case (_, .bytes(let value)): writer.blob(value)
        case (_, .null): writer.byte(0)
        }
    }

    /// Reads the plain form of a value of this kind.
    func read(from reader: inout ByteReader) throws(ByteReaderError) -> PlainValue {
        switch self {
        case .signed: return .signed(try reader.signed())
        case .unsigned: return .unsigned(try reader.varint())
        case .double, .float, .date: return .double(Double(bitPattern: try reader.fixed64()))
        case .bool: return .bool(try reader.byte() != 0)
        case .string, .url, .decimal: return .string(try reader.string())
        case .uuid, .data, .json: return .bytes(Array(try reader.blob()))
        case .optional(let wrapped):
            switch try reader.byte() {
            case 0: return .null
            case 1: return try wrapped.read(from: &reader)
            default: throw reader.failure("an optional's flag is neither 0 nor 1")
            }
        case .raw(let raw): return try raw.read(from: &reader)
        }
    }

    /// The Swift value of `type` (whose kind is `self`) for a plain value, converting where
    /// it is exact (an integer of another width, an integer to a floating-point number);
    /// `nil` when it cannot.
    func value(_ plain: PlainValue, as type: any Any.Type) -> Any? {
        switch self {
        case .signed, .unsigned:
            let integer = type as? any BinaryInteger.Type
            switch plain {
            case .signed(let value): return integer.flatMap { exactInteger($0, value) }
            case .unsigned(let value): return integer.flatMap { exactInteger($0, value) }
            default: return nil
            }
        case .double:
            switch plain {
            case .double(let value): return value
            case .signed(let value): return Double(exactly: value)
            case .unsigned(let value): return Double(exactly: value)
            default: return nil
            }
        case .float:
            switch plain {
            case .double(let value): return Float(value)
            case .signed(let value): return Float(exactly: value)
            case .unsigned(let value): return Float(exactly: value)
            default: return nil
            }
        case .bool:
            guard case .bool(let value) = plain else { return nil }
            return value
        case .string:
            guard case .string(let value) = plain else { return nil }
            return value
        case .date:
            guard case .double(let value) = plain else { return nil }
            return Date(timeIntervalSinceReferenceDate: value)
        case .uuid:
            guard case .bytes(let value) = plain, value.count == 16 else { return nil }
            return UUID(storedBytes: value, at: 0)
        case .data:
            guard case .bytes(let value) = plain else { return nil }
            return Data(value)
        case .url:
            guard case .string(let value) = plain else { return nil }
            return URL(string: value)
        case .decimal:
            guard case .string(let value) = plain else { return nil }
            return Decimal(string: value, locale: Locale(identifier: "en_US_POSIX"))
        case .optional(let wrapped):
            guard let optional = type as? any _StoredOptional.Type else { return nil }
            if plain == .null { return optional.storedWrapping(nil) }
            guard let inner = wrapped.value(plain, as: optional.wrappedType) else { return nil }
            return optional.storedWrapping(inner)
        case .raw(let raw):
            guard let representable = type as? any RawRepresentable.Type else { return nil }
            return rawValue(representable, plain, raw)
        case .json:
            guard case .bytes(let value) = plain, let decodable = type as? any Decodable.Type else { return nil }
            return decodeJSON(decodable, value)
        }
    }
}

private func exactInteger<T: BinaryInteger>(_ type: T.Type, _ value: some BinaryInteger) -> Any? {
    T(exactly: value)
}

private func rawValue<T: RawRepresentable>(_ type: T.Type, _ plain: PlainValue, _ raw: StoredValueKind) -> Any? {
    guard let rawValue = raw.value(plain, as: T.RawValue.self) as? T.RawValue else { return nil }
    return T(rawValue: rawValue)
}

private func decodeJSON<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) -> Any? {
    try? JSONDecoder().decode(T.self, from: Data(bytes))
}
