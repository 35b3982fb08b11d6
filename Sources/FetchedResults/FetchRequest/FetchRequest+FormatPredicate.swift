import ObjectGraph

extension FetchPredicate {
    /// A predicate that runs a bound format predicate.
    ///
    /// ```swift
    /// let bound = try FormatPredicate("name CONTAINS[cd] %@", "milk").bind(to: Item.self)
    /// let request = FetchRequest(Item.self, predicate: FetchPredicate(bound) && .greater(\.quantity, 0))
    /// ```
    ///
    /// The controller records what the format predicate reads (it reads through
    /// `GraphObject.value(forKey:)`), across relationships too, so its dependencies are exact.
    ///
    /// - Parameter predicate: A format predicate bound to the entity of `Object`.
    /// - Complexity: O(1).
    public init(_ predicate: BoundFormatPredicate<Object>) {
        self.init { predicate.evaluate($0) }
    }

    /// A predicate that runs a format predicate bound to the entity a schema made for
    /// `Object`, typed for any `GraphObject`.
    ///
    /// - Parameter predicate: A predicate bound to the entity of `Object` (a predicate bound
    ///   to another entity reads keys `Object` may not have, which read as `nil`).
    /// - Complexity: O(1).
    public init(_ predicate: BoundFormatPredicate<GraphObject>) {
        self.init { predicate.evaluate($0) }
    }

    /// Parses a format string and binds it to `Object`, deriving what it needs from the
    /// entity description.
    ///
    /// ```swift
    /// let listed = try FetchPredicate<Item>(format: "listed == YES AND location.name ==[c] %@", "fridge")
    /// ```
    ///
    /// - Parameters:
    ///   - format: The predicate in NSPredicate syntax.
    ///   - arguments: One value per `%@`, `%K`, `%d` or `%f`, in order.
    /// - Throws: ``PredicateSyntaxError`` from parsing or binding (an unknown key, a type
    ///   mismatch…), with the offset of the offending token in `format`.
    /// - Complexity: O(p + n): one prototype per class reached, for p properties in all,
    ///   and O(n) in the length of `format`.
    public init(format: String, _ arguments: PredicateValue...) throws(PredicateSyntaxError) {
        self.init(try FormatPredicate(format: format, arguments: arguments).bind(to: Object.self))
    }

    /// Parses a format string and binds it to the entity `schema` made for `Object`.
    ///
    /// ```swift
    /// let listed = try FetchPredicate<Item>(format: "listed == YES AND location.name ==[c] %@", "fridge", schema: schema)
    /// ```
    ///
    /// - Parameters:
    ///   - format: The predicate in NSPredicate syntax.
    ///   - arguments: One value per `%@`, `%K`, `%d` or `%f`, in order.
    ///   - schema: A schema that includes `Object`.
    /// - Throws: ``PredicateSyntaxError`` from parsing or binding (an unknown key, a type
    ///   mismatch, an unbound variable, a schema without `Object`…).
    /// - Complexity: O(n) in the length of `format`.
    public init(format: String, _ arguments: PredicateValue..., schema: GraphPredicateSchema) throws(PredicateSyntaxError) {
        self.init(try FormatPredicate(format: format, arguments: arguments).bind(to: schema, as: Object.self))
    }
}

extension FetchRequest {
    /// Creates a request whose predicate is a bound format predicate.
    ///
    /// ```swift
    /// let request = FetchRequest(
    ///     Item.self,
    ///     predicate: try FormatPredicate("name BEGINSWITH[c] %@", "b").bind(to: Item.self),
    ///     sortedBy: [SortKey(\.name)])
    /// ```
    ///
    /// - Parameters:
    ///   - entity: The type of object fetched.
    ///   - predicate: Which objects are included: a format predicate bound to `Object`
    ///     (``FormatPredicate/bind(to:variables:)-(Object.Type,_)``), or to the entity a
    ///     schema made for it.
    ///   - sortKeys: The keys rows sort by inside a section.
    ///   - sectionKey: What rows are grouped by, or `nil`.
    ///   - fetchLimit: The most rows, or `nil`.
    ///   - fetchOffset: Leading rows skipped.
    /// - Complexity: O(1).
    public init(
        _ entity: Object.Type = Object.self,
        predicate: BoundFormatPredicate<Object>,
        sortedBy sortKeys: [SortKey<Object>] = [],
        sectionKey: SectionKey<Object>? = nil,
        fetchLimit: Int? = nil,
        fetchOffset: Int = 0
    ) {
        self.init(
            entity, predicate: FetchPredicate(predicate), sortedBy: sortKeys, sectionKey: sectionKey,
            fetchLimit: fetchLimit, fetchOffset: fetchOffset)
    }

    /// Creates a request whose predicate is a format string, bound to `Object` with what its
    /// entity description says: no schema to build.
    ///
    /// ```swift
    /// let request = try FetchRequest(Item.self, format: "listed == YES AND quantity > %d", 1, sortedBy: [SortKey(\.name)])
    /// ```
    ///
    /// - Parameters:
    ///   - entity: The type of object fetched.
    ///   - format: The predicate in NSPredicate syntax.
    ///   - arguments: One value per `%@`, `%K`, `%d` or `%f`, in order.
    ///   - sortKeys: The keys rows sort by inside a section.
    ///   - sectionKey: What rows are grouped by, or `nil`.
    ///   - fetchLimit: The most rows, or `nil`.
    ///   - fetchOffset: Leading rows skipped.
    /// - Throws: ``PredicateSyntaxError`` from parsing or binding, with the offset of the
    ///   offending token in `format` (an unknown key, a type mismatch…).
    /// - Complexity: O(p + n): one prototype per class reached, for p properties in all,
    ///   and O(n) in the length of `format`.
    public init(
        _ entity: Object.Type = Object.self,
        format: String,
        _ arguments: PredicateValue...,
        sortedBy sortKeys: [SortKey<Object>] = [],
        sectionKey: SectionKey<Object>? = nil,
        fetchLimit: Int? = nil,
        fetchOffset: Int = 0
    ) throws(PredicateSyntaxError) {
        let bound = try FormatPredicate(format: format, arguments: arguments).bind(to: entity)
        self.init(
            entity, predicate: bound, sortedBy: sortKeys, sectionKey: sectionKey, fetchLimit: fetchLimit,
            fetchOffset: fetchOffset)
    }

    /// Creates a request whose predicate is a format string, bound to the entity `schema`
    /// made for `Object`.
    ///
    /// - Parameters:
    ///   - entity: The type of object fetched.
    ///   - format: The predicate in NSPredicate syntax.
    ///   - arguments: One value per `%@`, `%K`, `%d` or `%f`, in order.
    ///   - schema: A schema that includes `Object`.
    ///   - sortKeys: The keys rows sort by inside a section.
    ///   - sectionKey: What rows are grouped by, or `nil`.
    ///   - fetchLimit: The most rows, or `nil`.
    ///   - fetchOffset: Leading rows skipped.
    /// - Throws: ``PredicateSyntaxError`` from parsing or binding.
    /// - Complexity: O(n) in the length of `format`.
    public init(
        _ entity: Object.Type = Object.self,
        format: String,
        _ arguments: PredicateValue...,
        schema: GraphPredicateSchema,
        sortedBy sortKeys: [SortKey<Object>] = [],
        sectionKey: SectionKey<Object>? = nil,
        fetchLimit: Int? = nil,
        fetchOffset: Int = 0
    ) throws(PredicateSyntaxError) {
        let bound = try FormatPredicate(format: format, arguments: arguments).bind(to: schema, as: entity)
        self.init(
            entity, predicate: bound, sortedBy: sortKeys, sectionKey: sectionKey, fetchLimit: fetchLimit,
            fetchOffset: fetchOffset)
    }
}
