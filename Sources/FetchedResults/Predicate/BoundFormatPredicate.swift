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
    let root: Step

    init(predicate: FormatPredicate, root: Step) {
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

/// One compiled node: how to evaluate it, what it costs, how to print it.
struct Step {
    var evaluate: (AnyObject) -> Bool
    /// Estimated cost, in units of one numeric comparison.
    var cost: Double
    var describe: () -> String

    static func constant(_ value: Bool) -> Step {
        Step(evaluate: { _ in value }, cost: 0, describe: { value ? "TRUEPREDICATE" : "FALSEPREDICATE" })
    }
}

/// An AND or OR whose operands are reordered by cost and measured selectivity.
///
/// An AND is decided by its first false operand, an OR by its first true one. With
/// independent operands, the order that minimizes the expected cost sorts by
/// `cost / P(operand decides)`; the probabilities are measured over the last evaluations
/// and the order recomputed every ``period`` evaluations. Reordering never changes a result:
/// operands are pure.
final class Junction {
    static let period = 1024

    let isConjunction: Bool
    private(set) var steps: [Step]
    private var evaluated: [Int]
    private var decided: [Int]
    private var countdown = Junction.period

    init(isConjunction: Bool, steps: [Step]) {
        self.isConjunction = isConjunction
        // Static order first: cheapest first, written order among equals.
        self.steps = steps.enumerated().sorted { lhs, rhs in
            lhs.element.cost != rhs.element.cost ? lhs.element.cost < rhs.element.cost : lhs.offset < rhs.offset
        }.map(\.element)
        self.evaluated = Array(repeating: 0, count: steps.count)
        self.decided = Array(repeating: 0, count: steps.count)
    }

    var cost: Double { steps.reduce(0) { $0 + $1.cost } }

    func evaluate(_ object: AnyObject) -> Bool {
        countdown -= 1
        if countdown == 0 { reorder() }
        let decisive = !isConjunction
        for index in steps.indices {
            evaluated[index] &+= 1
            if steps[index].evaluate(object) == decisive {
                decided[index] &+= 1
                return decisive
            }
        }
        return !decisive
    }

    /// Sorts by cost over measured probability of deciding, then halves the counters so
    /// the order follows changing data.
    private func reorder() {
        countdown = Self.period
        let ranked = steps.indices.map { index -> (rank: Double, index: Int) in
            let probability = evaluated[index] == 0 ? 0.5 : Double(decided[index]) / Double(evaluated[index])
            return (steps[index].cost / max(probability, 0.001), index)
        }.sorted { $0.rank != $1.rank ? $0.rank < $1.rank : $0.index < $1.index }
        if ranked.map(\.index) == Array(steps.indices) {
            for index in steps.indices {
                evaluated[index] /= 2
                decided[index] /= 2
            }
            return
        }
        steps = ranked.map { steps[$0.index] }
        evaluated = ranked.map { evaluated[$0.index] / 2 }
        decided = ranked.map { decided[$0.index] / 2 }
    }

    func describe() -> String {
        steps.map { step in
            let text = step.describe()
            return text.contains(" AND ") || text.contains(" OR ") ? "(\(text))" : text
        }.joined(separator: isConjunction ? " AND " : " OR ")
    }
}

@available(*, unavailable)
extension Junction: Sendable {}
