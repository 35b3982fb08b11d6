/// An AND or OR whose operands are reordered by cost and measured selectivity.
///
/// An AND is decided by its first false operand, an OR by its first true one. With
/// independent operands, the order that minimizes the expected cost sorts by
/// `cost / P(operand decides)`; the probabilities are measured over the last evaluations
/// and the order recomputed every ``period`` evaluations. Reordering never changes a result:
/// operands are pure.
final class PredicateJunction {
    static let period = 1024

    let isConjunction: Bool
    private(set) var steps: [PredicateStep]
    private(set) var evaluated: [Int]
    private(set) var decided: [Int]
    private(set) var countdown = PredicateJunction.period

    init(isConjunction: Bool, steps: [PredicateStep]) {
        self.isConjunction = isConjunction
        // Static order first: cheapest first, written order among equals.
        self.steps = steps.enumerated().sorted { lhs, rhs in
            lhs.element.cost != rhs.element.cost ? lhs.element.cost < rhs.element.cost : lhs.offset < rhs.offset
        }.map(\.element)
        self.evaluated = Array(repeating: 0, count: steps.count)
        self.decided = Array(repeating: 0, count: steps.count)
        _checkInvariants()
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
        _checkInvariants()
    }

    func describe() -> String {
        steps.map { step in
            let text = step.describe()
            return text.contains(" AND ") || text.contains(" OR ") ? "(\(text))" : text
        }.joined(separator: isConjunction ? " AND " : " OR ")
    }
}

@available(*, unavailable)
extension PredicateJunction: Sendable {}
