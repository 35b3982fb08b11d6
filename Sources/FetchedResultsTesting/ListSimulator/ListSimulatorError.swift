import Foundation

/// Why a ``ListSimulator`` refused an update. The simulator's state is unchanged.
public enum ListSimulatorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A batch breaks a batch rule.
    ///
    /// `stage` counts from 1 among the update's `stageCount` stages; `changes` is that stage.
    case rejected(BatchUpdateError, stage: Int, stageCount: Int, changes: ListChanges)

    /// Every batch was valid, but the result is not the new state: the difference lists each
    /// section or row that differs (identifiers first; contents when identifiers agree).
    case doesNotProduceNewState(ListDifference)

    /// The broken batch rule, if the update was rejected for one.
    public var batchError: BatchUpdateError? {
        if case let .rejected(error, _, _, _) = self { error } else { nil }
    }

    /// The number of the broken batch rule, if any.
    public var rule: Int? { batchError?.rule }

    /// The difference from the new state, if the update produced the wrong state.
    public var difference: ListDifference? {
        if case let .doesNotProduceNewState(difference) = self { difference } else { nil }
    }

    /// The rule message with the stage it broke, or the element-level difference.
    public var description: String {
        switch self {
        case let .rejected(error, stage, stageCount, changes):
            let which = stageCount > 1 ? " (stage \(stage) of \(stageCount): \(changes))" : " (\(changes))"
            return "\(error)\(which)"
        case let .doesNotProduceNewState(difference):
            return "The update does not produce the new state:\n\(difference)"
        }
    }
}
