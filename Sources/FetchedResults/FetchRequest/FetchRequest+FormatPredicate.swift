import ObjectGraph

extension FetchPredicate {
    /// A predicate that runs a bound format predicate.
    ///
    /// ```swift
    /// let schema = GraphPredicateSchema(Item.self, Location.self)
    /// let bound = try FormatPredicate("name CONTAINS[cd] %@", "milk").bind(to: schema.entity(for: Item.self))
    /// let request = FetchRequest(Item.self, predicate: FetchPredicate(bound))
    /// ```
    ///
    /// The controller records what the format predicate reads (it reads through
    /// `GraphObject.value(forKey:)`), across relationships too, so its dependencies are exact.
    ///
    /// - Parameter predicate: A format predicate bound to the entity of `Object` (or to the
    ///   `GraphObject` entity a ``GraphPredicateSchema`` made for it).
    public init(_ predicate: BoundFormatPredicate<Object>) {
        self.init { predicate.evaluate($0) }
    }

    /// A predicate that runs a format predicate bound to the entity a schema made for
    /// `Object`.
    ///
    /// - Parameter predicate: A predicate bound by ``GraphPredicateSchema/entity(for:)``.
    public init(_ predicate: BoundFormatPredicate<GraphObject>) {
        self.init { predicate.evaluate($0) }
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
    ///   - schema: The schema that knows `Object` and every class the predicate reaches.
    /// - Throws: ``PredicateSyntaxError`` from parsing or binding (an unknown key, a type
    ///   mismatch, an unbound variable…).
    /// - Complexity: O(n) in the length of `format`.
    public init(format: String, _ arguments: PredicateValue..., schema: GraphPredicateSchema) throws(PredicateSyntaxError) {
        let bound = try FormatPredicate(format: format, arguments: arguments).bind(to: schema.entity(for: Object.self))
        self.init(bound)
    }
}

extension FetchRequest {
    /// Creates a request whose predicate is a format string, bound to the entity `schema`
    /// made for `Object`.
    ///
    /// - Parameters:
    ///   - entity: The type of object fetched.
    ///   - format: The predicate in NSPredicate syntax.
    ///   - arguments: One value per `%@`, `%K`, `%d` or `%f`, in order.
    ///   - schema: The schema that knows `Object` and every class the predicate reaches.
    ///   - sortKeys: The keys rows sort by inside a section.
    ///   - sectionKey: What rows are grouped by, or `nil`.
    /// - Throws: ``PredicateSyntaxError`` from parsing or binding.
    public init(
        _ entity: Object.Type = Object.self,
        format: String,
        _ arguments: PredicateValue...,
        schema: GraphPredicateSchema,
        sortedBy sortKeys: [SortKey<Object>] = [],
        sectionKey: SectionKey<Object>? = nil
    ) throws(PredicateSyntaxError) {
        let bound = try FormatPredicate(format: format, arguments: arguments).bind(to: schema.entity(for: Object.self))
        self.init(entity, predicate: FetchPredicate(bound), sortedBy: sortKeys, sectionKey: sectionKey)
    }
}
