import Foundation
import Testing

// Expectations for Swift Testing: each applies an update with a ListSimulator, and on failure
// records one Issue at the caller's source location whose comment names the broken rule or
// lists the element-level difference, followed by the operations that were applied.

/// Expects one batch, applied to `old`, to be accepted and to yield `new` (identifiers and
/// contents).
///
/// - Parameters:
///   - changes: The batch.
///   - old: The state before it.
///   - new: The state it must produce.
///   - strict: Whether tier B rules are enforced too (the default).
///   - comment: Context to prefix the failure with.
///   - sourceLocation: Where to report a failure; the caller's by default.
/// - Returns: Whether the expectation held.
/// - Complexity: O(s·n + c log c) for s stages, n rows and c changes, as
///   ``ListSimulator/apply(stages:newState:)``.
@discardableResult
public func expectApplying<SectionID, RowID, Content>(
    _ changes: ListChanges,
    from old: [ListSimulator<SectionID, RowID, Content>.Section],
    yields new: [ListSimulator<SectionID, RowID, Content>.Section],
    strict: Bool = true,
    _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    expectApplying(stages: [changes], from: old, yields: new, strict: strict, comment, sourceLocation: sourceLocation)
}

/// Expects the stages of one update, applied to `old` in order, to be accepted and to yield
/// `new` (identifiers and contents).
///
/// - Parameters:
///   - stages: The batches, in order.
///   - old: The state before the update.
///   - new: The state it must produce.
///   - strict: Whether tier B rules are enforced too (the default).
///   - comment: Context to prefix the failure with.
///   - sourceLocation: Where to report a failure; the caller's by default.
/// - Returns: Whether the expectation held.
/// - Complexity: O(s·n + c log c) for s stages, n rows and c changes, as
///   ``ListSimulator/apply(stages:newState:)``.
@discardableResult
public func expectApplying<SectionID, RowID, Content>(
    stages: [ListChanges],
    from old: [ListSimulator<SectionID, RowID, Content>.Section],
    yields new: [ListSimulator<SectionID, RowID, Content>.Section],
    strict: Bool = true,
    _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    guard let report = ListSimulator.failureReport(applying: stages, from: old, to: new, strict: strict) else {
        return true
    }
    let text = comment.map { "\($0.rawValue)\n\(report)" } ?? report
    Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation)
    return false
}

/// Expects an accumulator's decision, applied to `old`, to yield `new`: a reload always does;
/// an animated update must be accepted stage by stage.
///
/// - Parameters:
///   - update: The decision.
///   - old: The state before it.
///   - new: The state it must produce.
///   - strict: Whether tier B rules are enforced too (the default).
///   - comment: Context to prefix the failure with.
///   - sourceLocation: Where to report a failure; the caller's by default.
/// - Returns: Whether the expectation held.
/// - Complexity: O(s·n + c log c) for s stages, n rows and c changes, as
///   ``ListSimulator/apply(stages:newState:)``.
@discardableResult
public func expectApplying<SectionID, RowID, Content>(
    _ update: ListUpdate,
    from old: [ListSimulator<SectionID, RowID, Content>.Section],
    yields new: [ListSimulator<SectionID, RowID, Content>.Section],
    strict: Bool = true,
    _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    switch update {
    case .reload:
        return true
    case let .animate(stages):
        return expectApplying(stages: stages, from: old, yields: new, strict: strict, comment, sourceLocation: sourceLocation)
    }
}

/// Expects one batch, applied to `old` with the data source at `new`, to be rejected for
/// breaking `rule`.
///
/// - Parameters:
///   - changes: The batch.
///   - old: The state before it.
///   - new: The data source's state.
///   - rule: The batch rule it must break (4–17).
///   - strict: Whether tier B rules are enforced too (the default).
///   - sourceLocation: Where to report a failure; the caller's by default.
/// - Returns: The rejection, or `nil` (after recording an issue) when the batch was accepted
///   or rejected for another reason.
/// - Complexity: O(n + c log c) for n rows and c changes.
@discardableResult
public func expectRejecting<SectionID, RowID, Content>(
    _ changes: ListChanges,
    from old: [ListSimulator<SectionID, RowID, Content>.Section],
    to new: [ListSimulator<SectionID, RowID, Content>.Section],
    rule: Int,
    strict: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
) -> BatchUpdateError? {
    guard let error = ListSimulator.check(applying: [changes], from: old, to: new, strict: strict) else {
        Issue.record("Expected \(changes) to be rejected by rule \(rule), but it was accepted", sourceLocation: sourceLocation)
        return nil
    }
    guard let batchError = error.batchError, batchError.rule == rule else {
        Issue.record("Expected \(changes) to be rejected by rule \(rule), got: \(error)", sourceLocation: sourceLocation)
        return nil
    }
    return batchError
}
