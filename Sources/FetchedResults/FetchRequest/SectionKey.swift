/// What a fetch request groups its results by: a key path to a `Hashable & Comparable`
/// value (usually a string), with an optional transform from the value to the section's name.
///
/// Rows sort by the section key first and by the request's sort keys inside each section, so
/// the sort keys never need to start with the section key.
///
/// ```swift
/// let byLocation = SectionKey(\Item.location?.name)            // name: the value itself
/// let byInitial = SectionKey(\Item.initial) { $0.uppercased() }
/// ```
public struct SectionKey<Object: GraphObject> {
    @usableFromInline
    let extract: (Object) -> SortValue
    @usableFromInline
    let sectionName: (Object) -> String
    /// Whether sections with smaller keys come first.
    public var ascending: Bool
    /// A readable description of the key, for debugging.
    public let name: String
    /// How a row takes another row's section, when the key was declared writable.
    var writer: SectionKeyWriter<Object>?

    /// Groups by a value the controller keeps without boxing (optionals included: `nil`
    /// sections sort first when ascending).
    ///
    /// - Parameters:
    ///   - keyPath: The value shared by the rows of a section; it may cross relationships.
    ///   - ascending: Whether sections with smaller keys come first.
    ///   - title: Makes a section's name from its value. By default a string is its own name,
    ///     `nil` is the empty name and any other value is described with `String(describing:)`.
    /// - Complexity: O(1).
    public init<Value: SortValueConvertible & Hashable>(
        _ keyPath: KeyPath<Object, Value>, ascending: Bool = true, title: ((Value) -> String)? = nil
    ) {
        name = "\(keyPath)"
        self.ascending = ascending
        extract = { $0[keyPath: keyPath].sortValue }
        sectionName = { object in
            let value = object[keyPath: keyPath]
            return title?(value) ?? Self.defaultName(value)
        }
    }

    /// Groups by a value read by a closure, the fastest way to read a key (a closure calls the
    /// property getters directly, where a key path is projected at run time).
    ///
    /// ```swift
    /// SectionKey { $0.location?.name }
    /// ```
    ///
    /// - Parameters:
    ///   - name: A description of the key, for debugging.
    ///   - ascending: Whether sections with smaller keys come first.
    ///   - title: Makes a section's name from its value; by default as for key paths.
    ///   - value: Reads the value shared by the rows of a section; it must be deterministic.
    ///
    /// The initializer is inlined into the caller, so the extraction is specialized for
    /// `Value` there (no generic dispatch per object).
    /// - Complexity: O(1).
    @inlinable
    public init<Value: SortValueConvertible & Hashable>(
        name: String = "closure", ascending: Bool = true, title: ((Value) -> String)? = nil,
        _ value: @escaping (Object) -> Value
    ) {
        self.init(name: name, ascending: ascending, extract: { value($0).sortValue },
                  sectionName: Self.sectionName(title: title, value))
    }

    @usableFromInline
    init(name: String, ascending: Bool, extract: @escaping (Object) -> SortValue, sectionName: @escaping (Object) -> String) {
        self.name = name
        self.ascending = ascending
        self.extract = extract
        self.sectionName = sectionName
    }

    /// Makes a section's name from an object: the title transform of its key, or the
    /// default name.
    @usableFromInline
    static func sectionName<Value>(title: ((Value) -> String)?, _ value: @escaping (Object) -> Value) -> (Object) -> String {
        { object in
            let key = value(object)
            return title?(key) ?? Self.defaultName(key)
        }
    }

    /// Groups by any `Hashable & Comparable` value, kept boxed and compared through its own
    /// `<` (slower than the types that conform to ``SortValueConvertible``).
    ///
    /// - Parameters:
    ///   - keyPath: The value shared by the rows of a section.
    ///   - ascending: Whether sections with smaller keys come first.
    ///   - title: Makes a section's name from its value; by default `String(describing:)`.
    /// - Complexity: O(1).
    public init<Value: Hashable & Comparable & Sendable>(
        comparable keyPath: KeyPath<Object, Value>, ascending: Bool = true, title: ((Value) -> String)? = nil
    ) {
        name = "\(keyPath)"
        self.ascending = ascending
        extract = { .opaque(OpaqueSortValue($0[keyPath: keyPath])) }
        sectionName = { object in
            let value = object[keyPath: keyPath]
            return title?(value) ?? String(describing: value)
        }
    }

    private static func defaultName(_ value: Any) -> String {
        switch value {
        case let text as String: text
        case let text as String?: text ?? ""
        case let optional as any OptionalProtocol: optional.isNil ? "" : optional.unwrappedDescription
        default: String(describing: value)
        }
    }
}

/// Lets a section name see through an optional of any type.
private protocol OptionalProtocol {
    var isNil: Bool { get }
    var unwrappedDescription: String { get }
}

extension Optional: OptionalProtocol {
    fileprivate var isNil: Bool { self == nil }
    fileprivate var unwrappedDescription: String { map { String(describing: $0) } ?? "" }
}

@available(*, unavailable)
extension SectionKey: Sendable {}
