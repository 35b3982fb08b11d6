import Foundation

extension ListSimulator {
    /// The largest state, in rows, that a failure report prints in full.
    static var reportedStateRowLimit: Int { 40 }

    /// A readable report of why applying `stages` to `old` does not yield `new`, or `nil`
    /// when it does: the error (the broken rule, or the element-level difference), the
    /// operations applied before it, and both states when they are small.
    ///
    /// This is the pure function behind the Swift Testing expectations, for use from any
    /// test framework.
    ///
    /// - Parameters:
    ///   - stages: The batches of one update, in order.
    ///   - old: The state before the update.
    ///   - new: The state it must produce.
    ///   - strict: Whether tier B rules are enforced too.
    /// - Returns: The report, or `nil` when the update is accepted and yields `new`.
    /// - Complexity: O(s·n + c log c) for s stages, n rows and c changes.
    public static func failureReport(
        applying stages: [ListChanges],
        from old: [Section],
        to new: [Section],
        strict: Bool = true
    ) -> String? {
        var operations: [ListOperation] = []
        guard let error = check(applying: stages, from: old, to: new, strict: strict, operations: &operations) else {
            return nil
        }
        var lines = ["Applying \(stages.count == 1 ? "\(stages[0])" : "\(stages.count) stages \(stages)") failed:"]
        lines.append(error.description)
        if !operations.isEmpty {
            lines.append("Operations applied:")
            lines += operations.map(\.description)
        }
        let rows = (old + new).reduce(0) { $0 + $1.rows.count }
        if rows <= reportedStateRowLimit {
            lines.append("Old state: \(old.map(\.description).joined(separator: " | "))")
            lines.append("New state: \(new.map(\.description).joined(separator: " | "))")
        }
        return lines.joined(separator: "\n")
    }
}
