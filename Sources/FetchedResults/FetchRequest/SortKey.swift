import Foundation

/// One key a fetch request sorts by: a key path, a direction and, for strings, a comparison.
///
/// The controller extracts the key once per object (and again only when something it read
/// changes) into a compact ``SortValue``; strings are folded for their comparison at that
/// moment, so sorting never applies a key path or calls Foundation.
///
/// Floating-point keys sort in ``SortValue``'s total order: `-infinity < … < -0.0 == 0.0 <
/// … < +infinity < NaN`, with `nil` before every number.
///
/// ```swift
/// let byName = SortKey(\Item.name, comparison: .localizedStandard)
/// let newestFirst = SortKey(\Item.added, ascending: false)
/// ```
public struct SortKey<Object: GraphObject> {
    @usableFromInline
    let extract: (Object) -> SortValue
    /// Whether smaller values come first.
    public var ascending: Bool
    /// A readable description of the key, for debugging.
    public let name: String

    @usableFromInline
    init(name: String, ascending: Bool, extract: @escaping (Object) -> SortValue) {
        self.name = name
        self.ascending = ascending
        self.extract = extract
    }

    /// Sorts by a value the controller keeps without boxing (strings compare exactly).
    ///
    /// - Parameters:
    ///   - keyPath: The value to sort by; it may cross relationships (`\.location?.name`).
    ///   - ascending: Whether smaller values come first.
    /// - Complexity: O(1).
    public init<Value: SortValueConvertible>(_ keyPath: KeyPath<Object, Value>, ascending: Bool = true) {
        self.init(name: "\(keyPath)", ascending: ascending) { $0[keyPath: keyPath].sortValue }
    }

    /// Sorts by a string under a comparison: exact, case-insensitive, case- and
    /// diacritic-insensitive, or localized standard (numbers in the text compare as numbers).
    ///
    /// - Parameters:
    ///   - keyPath: The string to sort by.
    ///   - ascending: Whether smaller values come first.
    ///   - comparison: How the strings compare.
    /// - Complexity: O(1).
    public init(_ keyPath: KeyPath<Object, String>, ascending: Bool = true, comparison: StringComparison) {
        self.init(name: "\(keyPath)", ascending: ascending) { .string(comparison.fold($0[keyPath: keyPath])) }
    }

    /// Sorts by an optional string under a comparison; `nil` sorts first when ascending.
    ///
    /// - Parameters:
    ///   - keyPath: The string to sort by.
    ///   - ascending: Whether smaller values come first.
    ///   - comparison: How the strings compare.
    /// - Complexity: O(1).
    public init(_ keyPath: KeyPath<Object, String?>, ascending: Bool = true, comparison: StringComparison) {
        self.init(name: "\(keyPath)", ascending: ascending) { object in
            object[keyPath: keyPath].map { .string(comparison.fold($0)) } ?? .null
        }
    }

    /// Sorts by a value read by a closure, the fastest way to read a key: a closure calls the
    /// property getters directly, where a key path is projected at run time.
    ///
    /// ```swift
    /// SortKey { $0.name }
    /// SortKey(ascending: false) { $0.location?.name }
    /// ```
    ///
    /// - Parameters:
    ///   - name: A description of the key, for debugging.
    ///   - ascending: Whether smaller values come first.
    ///   - value: Reads the value; it may cross relationships, and must be deterministic.
    ///
    /// The initializer is inlined into the caller, so the extraction is specialized for
    /// `Value` there (no generic dispatch per object).
    /// - Complexity: O(1).
    @inlinable
    public init<Value: SortValueConvertible>(
        name: String = "closure", ascending: Bool = true, _ value: @escaping (Object) -> Value
    ) {
        self.init(name: name, ascending: ascending) { value($0).sortValue }
    }

    /// Sorts by a string read by a closure, under a comparison.
    ///
    /// - Parameters:
    ///   - name: A description of the key, for debugging.
    ///   - ascending: Whether smaller values come first.
    ///   - comparison: How the strings compare.
    ///   - value: Reads the string.
    /// - Complexity: O(1).
    @inlinable
    public init(
        name: String = "closure", ascending: Bool = true, comparison: StringComparison, _ value: @escaping (Object) -> String
    ) {
        self.init(name: name, ascending: ascending) { .string(comparison.fold(value($0))) }
    }

    /// Sorts by any `Comparable` value, kept boxed and compared through its own `<` (slower
    /// than the types that conform to ``SortValueConvertible``).
    ///
    /// - Parameters:
    ///   - keyPath: The value to sort by.
    ///   - ascending: Whether smaller values come first.
    /// - Complexity: O(1).
    public init<Value: Hashable & Comparable & Sendable>(comparable keyPath: KeyPath<Object, Value>, ascending: Bool = true) {
        self.init(name: "\(keyPath)", ascending: ascending) { .opaque(OpaqueSortValue($0[keyPath: keyPath])) }
    }

    /// Sorts as a Foundation `SortDescriptor` does.
    ///
    /// The descriptor's key path is read through `Any` and cast on every extraction, which is
    /// slower than a typed key path; its value must conform to ``SortValueConvertible``
    /// (strings, numbers, Booleans, dates, UUIDs and their optionals do). A string
    /// comparator's case, diacritic and numeric options choose the ``StringComparison``.
    ///
    /// - Parameter descriptor: The descriptor; it must have a key path.
    /// - Throws: ``FetchError/unsupportedSortDescriptor(_:)`` when the descriptor has no key
    ///   path, or its value does not conform to ``SortValueConvertible``.
    /// - Complexity: O(1).
    public init(_ descriptor: SortDescriptor<Object>) throws(FetchError) {
        guard let keyPath = descriptor.keyPath else {
            throw .unsupportedSortDescriptor("\(descriptor) has no key path to extract")
        }
        let valueType = type(of: keyPath).valueType
        guard valueType is any SortValueConvertible.Type else {
            throw .unsupportedSortDescriptor("the value of \(keyPath) (\(valueType)) does not conform to SortValueConvertible")
        }
        var comparison = StringComparison.exact
        if let comparator = descriptor.stringComparator {
            // Linux's Foundation keeps the comparator's options internal; read them by reflection.
            let options = Mirror(reflecting: comparator).descendant("options") as? String.CompareOptions ?? []
            if options.contains(.numeric) {
                comparison = .localizedStandard
            } else if options.contains(.diacriticInsensitive) {
                comparison = .caseDiacriticInsensitive
            } else if options.contains(.caseInsensitive) {
                comparison = .caseInsensitive
            }
        }
        let name = "\(keyPath)"
        self.init(name: name, ascending: descriptor.order == .forward) { object in
            Self.sortValue(of: object[keyPath: keyPath], comparison: comparison, name: name)
        }
    }

    /// The sort value of a value read through `Any`.
    static func sortValue(of value: Any, comparison: StringComparison, name: String) -> SortValue {
        if let text = value as? String { return .string(comparison.fold(text)) }
        if let text = value as? String? { return text.map { .string(comparison.fold($0)) } ?? .null }
        if let convertible = value as? any SortValueConvertible { return convertible.sortValue }
        requirementFailure("internal inconsistency: sort key \(name) read a \(type(of: value)), which its descriptor was checked not to hold")
    }

    /// Sorts ascending by a value.
    ///
    /// - Parameter keyPath: The value to sort by.
    /// - Returns: The sort key.
    /// - Complexity: O(1).
    public static func ascending<Value: SortValueConvertible>(_ keyPath: KeyPath<Object, Value>) -> SortKey {
        SortKey(keyPath, ascending: true)
    }

    /// Sorts descending by a value.
    ///
    /// - Parameter keyPath: The value to sort by.
    /// - Returns: The sort key.
    /// - Complexity: O(1).
    public static func descending<Value: SortValueConvertible>(_ keyPath: KeyPath<Object, Value>) -> SortKey {
        SortKey(keyPath, ascending: false)
    }
}

@available(*, unavailable)
extension SortKey: Sendable {}
