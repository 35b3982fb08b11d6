import ObjectGraph

extension FormatPredicate {
    /// Checks the predicate against a `GraphObject` class and compiles it for evaluation,
    /// deriving what it needs from the class's entity description: no schema to build.
    ///
    /// ```swift
    /// let fridge = try FormatPredicate("location.name ==[c] %@", "fridge").bind(to: Item.self)
    /// let request = FetchRequest(Item.self, predicate: fridge, sortedBy: [SortKey(\.name)])
    /// ```
    ///
    /// The attributes of type `String`, `Int`, `Double`, `Bool` and `Date` (optional or not)
    /// of the class, and of every class its relationships reach, are visible (see
    /// ``GraphPredicateSchema``). `[c]`/`[d]` comparisons keep each object's folded text;
    /// from the first object folded, the foldings follow the commits of its graph (written
    /// names are refolded, deleted objects forgotten) for as long as the predicate lives.
    /// Bind many predicates to one ``GraphPredicateSchema`` instead to share the foldings.
    ///
    /// - Parameters:
    ///   - type: The class of the objects the predicate will test.
    ///   - variables: Values for the `$NAME` variables (names without the `$`).
    /// - Returns: The executable predicate, typed for `Object`.
    /// - Throws: ``PredicateSyntaxError`` with the offset of the offending key, literal or
    ///   variable in the format: an unknown key (the message lists the entity's keys), an
    ///   attribute of a type predicates cannot compare, a type mismatch, an unbound variable,
    ///   an invalid regular expression.
    /// - Complexity: O(p + n): one prototype per class reached, for p properties in all,
    ///   and O(n) in the size of the tree, plus compiling `MATCHES` patterns.
    public func bind<Object: GraphObject>(
        to type: Object.Type, variables: [String: PredicateValue] = [:]
    ) throws(PredicateSyntaxError) -> BoundFormatPredicate<Object> {
        let schema = GraphPredicateSchema([type], maintainsFoldedTextOnFirstUse: true)
        return try bind(to: schema, as: type, variables: variables).retyped(as: Object.self, derivedSchema: schema)
    }

    /// Checks the predicate against the entity `schema` made for `Object` and compiles it
    /// for evaluation, typed for `Object`.
    ///
    /// ```swift
    /// let schema = GraphPredicateSchema(Item.self)
    /// let request = FetchRequest(Item.self, predicate: try FormatPredicate("quantity > %d", 1).bind(to: schema))
    /// ```
    ///
    /// - Parameters:
    ///   - schema: A schema that includes `Object` (directly or through relationships).
    ///   - type: The class of the objects the predicate will test; inferred from the context
    ///     when it can be.
    ///   - variables: Values for the `$NAME` variables (names without the `$`).
    /// - Returns: The executable predicate.
    /// - Throws: ``PredicateSyntaxError``: ``PredicateSyntaxError/Kind/unknownEntity`` when
    ///   the schema does not include `Object`, and every error of
    ///   ``bind(to:variables:)-(PredicateEntity<Object>,_)``.
    /// - Complexity: O(n) in the size of the tree, plus compiling `MATCHES` patterns.
    public func bind<Object: GraphObject>(
        to schema: GraphPredicateSchema, as type: Object.Type = Object.self, variables: [String: PredicateValue] = [:]
    ) throws(PredicateSyntaxError) -> BoundFormatPredicate<Object> {
        guard let entity = schema.entityIfPresent(for: type) else {
            let known = schema.entities.keys.sorted().joined(separator: ", ")
            throw PredicateSyntaxError(.unknownEntity, format: format, offset: 0, token: type.entity.name,
                expected: "an entity of the schema (\(known))")
        }
        return try bind(to: entity, variables: variables)
    }

    /// Parses a format string and binds it to a `GraphObject` class in one step, deriving
    /// what it needs from the class's entity description.
    ///
    /// ```swift
    /// let cheap = try FormatPredicate.bind("price < %f", to: Item.self, 2.5)
    /// ```
    ///
    /// - Parameters:
    ///   - format: The predicate in NSPredicate syntax.
    ///   - type: The class of the objects the predicate will test.
    ///   - arguments: One value per `%@`, `%K`, `%d` or `%f`, in order.
    /// - Returns: The executable predicate.
    /// - Throws: ``PredicateSyntaxError`` from parsing or binding, with the offset of the
    ///   offending token in `format`.
    /// - Complexity: O(p + n): one prototype per class reached, for p properties in all,
    ///   and O(n) in the length of `format`.
    public static func bind<Object: GraphObject>(
        _ format: String, to type: Object.Type, _ arguments: PredicateValue...
    ) throws(PredicateSyntaxError) -> BoundFormatPredicate<Object> {
        try FormatPredicate(format: format, arguments: arguments).bind(to: type)
    }
}
