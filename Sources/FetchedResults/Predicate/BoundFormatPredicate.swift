/// A format predicate checked against an entity and compiled for evaluation.
///
/// Made by ``FormatPredicate/bind(to:variables:)``: every key path is resolved to typed read
/// closures once, constants are converted and folded once, `MATCHES` patterns are compiled
/// once, and compound predicates are ordered so the cheapest, most selective operands run
/// first (see ``plan``). Evaluating reads each needed value once per object and never
/// looks a name up.
///
/// Not `Sendable`: it reads objects and updates folded-text caches and selectivity counters
/// in their isolation domain.
public struct BoundFormatPredicate<Object: AnyObject> {
    /// The predicate as parsed.
    public let predicate: FormatPredicate
    let root: PredicateStep

    init(predicate: FormatPredicate, root: PredicateStep) {
        self.predicate = predicate
        self.root = root
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
    public var plan: String { root.describe() }
}

@available(*, unavailable)
extension BoundFormatPredicate: Sendable {}
