import Foundation

/// A value that a controller can keep as a ``SortValue``: the types a sort or section key
/// reads without boxing.
///
/// Strings, integers, floating-point numbers, Booleans, dates, UUIDs and optionals of them
/// conform. Other `Comparable` types still work as keys; they are kept boxed and compared
/// through their own `<`, which is slower.
public protocol SortValueConvertible {
    /// The value in the form a controller keeps and compares.
    var sortValue: SortValue { get }
}

extension String: SortValueConvertible {
    /// The string, unfolded (exact comparison).
    @inlinable public var sortValue: SortValue { .string(self) }
}

extension Substring: SortValueConvertible {
    /// The substring as a string.
    @inlinable public var sortValue: SortValue { .string(String(self)) }
}

extension Bool: SortValueConvertible {
    /// The Boolean.
    @inlinable public var sortValue: SortValue { .bool(self) }
}

extension Int: SortValueConvertible {
    /// The integer.
    @inlinable public var sortValue: SortValue { .int(Int64(self)) }
}

extension Int8: SortValueConvertible {
    /// The integer.
    @inlinable public var sortValue: SortValue { .int(Int64(self)) }
}

extension Int16: SortValueConvertible {
    /// The integer.
    @inlinable public var sortValue: SortValue { .int(Int64(self)) }
}

extension Int32: SortValueConvertible {
    /// The integer.
    @inlinable public var sortValue: SortValue { .int(Int64(self)) }
}

extension Int64: SortValueConvertible {
    /// The integer.
    @inlinable public var sortValue: SortValue { .int(self) }
}

extension UInt8: SortValueConvertible {
    /// The integer.
    @inlinable public var sortValue: SortValue { .int(Int64(self)) }
}

extension UInt16: SortValueConvertible {
    /// The integer.
    @inlinable public var sortValue: SortValue { .int(Int64(self)) }
}

extension UInt32: SortValueConvertible {
    /// The integer.
    @inlinable public var sortValue: SortValue { .int(Int64(self)) }
}

extension Double: SortValueConvertible {
    /// The number.
    @inlinable public var sortValue: SortValue { .double(self) }
}

extension Float: SortValueConvertible {
    /// The number, widened to `Double`.
    @inlinable public var sortValue: SortValue { .double(Double(self)) }
}

extension Date: SortValueConvertible {
    /// Seconds since the reference date.
    @inlinable public var sortValue: SortValue { .double(timeIntervalSinceReferenceDate) }
}

extension UUID: SortValueConvertible {
    /// The UUID's string form, so UUIDs order as their strings do.
    @inlinable public var sortValue: SortValue { .string(uuidString) }
}

extension Optional: SortValueConvertible where Wrapped: SortValueConvertible {
    /// `.null` for `nil`, otherwise the wrapped value's sort value.
    @inlinable public var sortValue: SortValue { self?.sortValue ?? .null }
}
