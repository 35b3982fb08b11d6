/// A format predicate checked against an entity and compiled for evaluation.
///
/// Made by ``FormatPredicate/bind(to:variables:)-(PredicateEntity<Object>,_)`` and its
/// variants: every key path is resolved to typed read closures once, constants are converted
/// and folded once, `MATCHES` patterns are compiled once, and compound predicates are ordered
/// so the cheapest, most selective operands run first (see ``plan``). Evaluating reads each
/// needed value once per object and never looks a name up.
///
/// A ``FetchRequest`` takes it as its predicate:
///
/// ```swift
/// let request = FetchRequest(Item.self, predicate: try FormatPredicate("name BEGINSWITH %@", "a").bind(to: Item.self))
/// ```
///
/// Its `description` is the predicate in format syntax, arguments and variables substituted
/// (`name BEGINSWITH "a"`); its `debugDescription` adds the entity and the evaluation plan.
///
/// Not `Sendable`: it reads objects and updates folded-text caches and selectivity counters
/// in their isolation domain.
public struct BoundFormatPredicate<Object: AnyObject>: CustomStringConvertible, CustomDebugStringConvertible {
    /// The predicate as parsed.
    public let predicate: FormatPredicate
    /// The values its `$VARIABLES` were bound to.
    let variables: [String: PredicateValue]
    /// The name of the entity it was bound to.
    let entityName: String
    let root: PredicateStep
    /// The schema derived for this predicate alone, when binding derived one.
    let derivedSchema: GraphPredicateSchema?

    init(
        predicate: FormatPredicate, variables: [String: PredicateValue], entityName: String, root: PredicateStep,
        derivedSchema: GraphPredicateSchema? = nil
    ) {
        self.predicate = predicate
        self.variables = variables
        self.entityName = entityName
        self.root = root
        self.derivedSchema = derivedSchema
    }

    /// The same compiled predicate, typed for another kind of object of the same entity.
    func retyped<Other: AnyObject>(
        as type: Other.Type = Other.self, derivedSchema: GraphPredicateSchema? = nil
    ) -> BoundFormatPredicate<Other> {
        BoundFormatPredicate<Other>(
            predicate: predicate, variables: variables, entityName: entityName, root: root,
            derivedSchema: derivedSchema ?? self.derivedSchema)
    }

    /// Whether `object` satisfies the predicate.
    ///
    /// - Parameter object: The object to test.
    /// - Returns: The predicate's value for `object`.
    /// - Complexity: O(1) per comparison for numbers, Booleans and dates; O(n) in the
    ///   folded length for text comparisons (the folding itself is cached per object);
    ///   O(k) for `ANY`/`ALL`/`NONE` over k related objects.
    @inline(__always)
    public func evaluate(_ object: Object) -> Bool {
        root.evaluate(object)
    }

    /// The order in which operands are evaluated now, in format syntax: compound operands
    /// are sorted by estimated cost and measured selectivity, so this may differ from the
    /// written order (and change as selectivity is measured).
    ///
    /// - Complexity: O(n) in the size of the predicate.
    public var plan: String { root.describe() }

    /// The predicate in canonical format syntax, its arguments and variables substituted:
    /// `name BEGINSWITH "a" AND quantity > 1`. It parses back to the same predicate.
    ///
    /// - Complexity: O(n) in the size of the predicate.
    public var description: String {
        predicate.root.substituting(variables).description
    }

    /// The description with the entity and the current evaluation plan:
    /// `BoundFormatPredicate<Item>(name BEGINSWITH "a", plan: name BEGINSWITH "a")`.
    ///
    /// - Complexity: O(n) in the size of the predicate.
    public var debugDescription: String {
        "BoundFormatPredicate<\(entityName)>(\(description), plan: \(plan))"
    }
}

@available(*, unavailable)
extension BoundFormatPredicate: Sendable {}

extension FormatPredicate.Node {
    /// The tree with the variables that have a value replaced by it.
    func substituting(_ variables: [String: PredicateValue]) -> Self {
        guard !variables.isEmpty else { return self }
        switch self {
        case .constant: return self
        case .not(let node): return .not(node.substituting(variables))
        case .and(let nodes): return .and(nodes.map { $0.substituting(variables) })
        case .or(let nodes): return .or(nodes.map { $0.substituting(variables) })
        case .comparison(var comparison):
            comparison.lhs = comparison.lhs.substituting(variables)
            comparison.rhs = comparison.rhs.substituting(variables)
            return .comparison(comparison)
        }
    }
}

extension FormatPredicate.Expression {
    /// The operand with the variables that have a value replaced by it.
    func substituting(_ variables: [String: PredicateValue]) -> Self {
        switch self {
        case .variable(let name, let offset): variables[name].map { .value($0, offset: offset) } ?? self
        case .array(let elements, let offset): .array(elements.map { $0.substituting(variables) }, offset: offset)
        case .keyPath, .value: self
        }
    }
}
