/// One compiled node: how to evaluate it, what it costs, how to print it.
struct PredicateStep {
    var evaluate: (AnyObject) -> Bool
    /// Estimated cost, in units of one numeric comparison.
    var cost: Double
    var describe: () -> String

    static func constant(_ value: Bool) -> PredicateStep {
        PredicateStep(evaluate: { _ in value }, cost: 0, describe: { value ? "TRUEPREDICATE" : "FALSEPREDICATE" })
    }
}
