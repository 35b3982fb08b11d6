/// Why a flush reloads the list (or owes it a reload) instead of animating.
public enum ReloadReason: Sendable, Hashable, CustomStringConvertible {
    /// `reloadAll()` was called.
    case requested
    /// The target was not visible (or gone) when it was flushed: a batch update to a view that
    /// is not on screen is unsafe (rule 17), so the view gets one reload when a flush finds it
    /// visible.
    case notVisible
    /// The batch held more changes than the policy's limit.
    case tooManyChanges(count: Int, limit: Int)
    /// The batch changed a larger share of the displayed rows than the policy's limit.
    case tooLargeShare(count: Int, displayedRows: Int, limit: Double)
    /// Staged, the batch would still break a batch rule against what the target displays.
    case wouldBreakRule(BatchUpdateError)
    /// The changes added contradicted themselves (for example a row removed twice in one
    /// batch), so no batch can be trusted.
    case inconsistentInput(String)
    /// A custom policy's own reason.
    case custom(String)

    /// A short sentence for logs, such as `12 changes exceed the limit of 10`.
    public var description: String {
        switch self {
        case .requested: "reload requested"
        case .notVisible: "target not visible"
        case .tooManyChanges(let count, let limit): "\(count) changes exceed the limit of \(limit)"
        case .tooLargeShare(let count, let rows, let limit):
            "\(count) changes exceed \(limit * 100)% of \(rows) displayed rows"
        case .wouldBreakRule(let error): "the batch would break a rule: \(error)"
        case .inconsistentInput(let problem): "inconsistent input: \(problem)"
        case .custom(let reason): reason
        }
    }
}

/// What a ``ReloadPolicy`` decides for one flush.
public enum ReloadDecision: Sendable, Hashable {
    /// Animate the staged batch.
    case animate
    /// Reload the whole list, for this reason.
    case reload(ReloadReason)
}

/// Everything a ``ReloadPolicy`` may look at, read when the accumulator flushes.
public struct ReloadContext: Sendable {
    /// Whether the target is on screen now.
    public var isVisible: Bool
    /// The composed batch since the last flush, a general set of changes (positions relative
    /// to the state at the last flush and the state now).
    public var changes: ListChanges
    /// The batch as the stages a list view would perform.
    public var stages: [ListChanges]
    /// The number of rows the target displays now in each section, in section order.
    public var displayedRowCounts: [Int]
    /// The first batch rule the stages break against the displayed rows, or `nil` when a list
    /// view accepts them.
    public var ruleViolation: BatchUpdateError?

    /// Creates a context.
    ///
    /// - Parameters:
    ///   - isVisible: Whether the target is on screen.
    ///   - changes: The composed batch.
    ///   - stages: The batch as stages.
    ///   - displayedRowCounts: The rows the target displays per section.
    ///   - ruleViolation: The first rule the stages break, if any.
    /// - Complexity: O(1).
    public init(
        isVisible: Bool, changes: ListChanges, stages: [ListChanges], displayedRowCounts: [Int],
        ruleViolation: BatchUpdateError?
    ) {
        self.isVisible = isVisible
        self.changes = changes
        self.stages = stages
        self.displayedRowCounts = displayedRowCounts
        self.ruleViolation = ruleViolation
    }

    /// The number of changes in the composed batch (``ListChanges/count``).
    public var changeCount: Int { changes.count }

    /// The number of rows the target displays now, over all sections.
    ///
    /// - Complexity: O(s) for s sections.
    public var displayedRowCount: Int { displayedRowCounts.reduce(0, +) }
}

/// Decides, at flush time, whether a list view animates the accumulated batch or reloads.
///
/// Whatever a policy decides, an accumulator never animates a target that is not visible
/// (it owes it one reload instead) and never delivers a batch that breaks a rule (it reloads
/// instead); a policy chooses among the safe outcomes.
public protocol ReloadPolicy {
    /// The decision for one flush.
    ///
    /// - Parameter context: The state at the moment of the flush.
    /// - Returns: `.animate`, or `.reload` with the reason.
    func decision(for context: ReloadContext) -> ReloadDecision
}

/// The default policy: reload when the target is not visible, when the batch would break a
/// rule, or when it is larger than a count or a share of the displayed rows; animate
/// otherwise.
public struct DefaultReloadPolicy: ReloadPolicy, Sendable, Hashable {
    /// The largest number of changes that still animates.
    public var maximumChangeCount: Int
    /// The largest share of the displayed rows (0.5 is half) that a batch may change and still
    /// animate. Not applied when no row is displayed.
    public var maximumShare: Double
    /// The number of changes from which the share rule applies: a smaller batch animates
    /// however few rows are displayed (deleting the last row of a one-row list animates).
    public var minimumChangeCountForShare: Int

    /// Creates the default policy.
    ///
    /// - Parameters:
    ///   - maximumChangeCount: The largest number of changes that still animates; 500 by
    ///     default.
    ///   - maximumShare: The largest share of the displayed rows a batch may change and still
    ///     animate; 0.5 by default. Pass `.infinity` to turn the share rule off.
    ///   - minimumChangeCountForShare: The batch size from which the share rule applies; 0 by
    ///     default (always).
    /// - Complexity: O(1).
    public init(maximumChangeCount: Int = 500, maximumShare: Double = 0.5, minimumChangeCountForShare: Int = 0) {
        require(maximumChangeCount >= 0, "maximumChangeCount must not be negative")
        require(maximumShare >= 0, "maximumShare must not be negative")
        require(minimumChangeCountForShare >= 0, "minimumChangeCountForShare must not be negative")
        self.maximumChangeCount = maximumChangeCount
        self.maximumShare = maximumShare
        self.minimumChangeCountForShare = minimumChangeCountForShare
    }

    /// Decides in this order: not visible, rule broken, too many changes, too large a share.
    ///
    /// - Parameter context: The state at the moment of the flush.
    /// - Returns: The decision and its reason.
    /// - Complexity: O(s) for s sections.
    public func decision(for context: ReloadContext) -> ReloadDecision {
        if !context.isVisible { return .reload(.notVisible) }
        if let violation = context.ruleViolation { return .reload(.wouldBreakRule(violation)) }
        let count = context.changeCount
        if count > maximumChangeCount { return .reload(.tooManyChanges(count: count, limit: maximumChangeCount)) }
        let rows = context.displayedRowCount
        if rows > 0 && count >= minimumChangeCountForShare && Double(count) > maximumShare * Double(rows) {
            return .reload(.tooLargeShare(count: count, displayedRows: rows, limit: maximumShare))
        }
        return .animate
    }
}

/// A policy made of a closure.
public struct ClosureReloadPolicy: ReloadPolicy {
    private let decide: (ReloadContext) -> ReloadDecision

    /// Creates a policy that asks `decide`.
    ///
    /// - Parameter decide: Returns the decision for a flush's context.
    /// - Complexity: O(1).
    public init(_ decide: @escaping (ReloadContext) -> ReloadDecision) {
        self.decide = decide
    }

    /// Asks the closure.
    ///
    /// - Parameter context: The state at the moment of the flush.
    /// - Returns: The closure's decision.
    /// - Complexity: The closure's.
    public func decision(for context: ReloadContext) -> ReloadDecision {
        decide(context)
    }
}

@available(*, unavailable)
extension ClosureReloadPolicy: Sendable {}

extension ReloadPolicy where Self == DefaultReloadPolicy {
    /// The default policy with its default limits.
    public static var `default`: DefaultReloadPolicy { DefaultReloadPolicy() }

    /// The default policy with the given limits.
    ///
    /// - Parameters:
    ///   - maximumChangeCount: The largest number of changes that still animates.
    ///   - maximumShare: The largest share of the displayed rows a batch may change and still
    ///     animate.
    ///   - minimumChangeCountForShare: The batch size from which the share rule applies.
    /// - Returns: The policy.
    /// - Complexity: O(1).
    public static func `default`(
        maximumChangeCount: Int = 500,
        maximumShare: Double = 0.5,
        minimumChangeCountForShare: Int = 0
    ) -> DefaultReloadPolicy {
        DefaultReloadPolicy(
            maximumChangeCount: maximumChangeCount,
            maximumShare: maximumShare,
            minimumChangeCountForShare: minimumChangeCountForShare
        )
    }
}

extension ReloadPolicy where Self == ClosureReloadPolicy {
    /// A policy made of a closure.
    ///
    /// - Parameter decide: Returns the decision for a flush's context.
    /// - Returns: The policy.
    /// - Complexity: O(1).
    public static func custom(_ decide: @escaping (ReloadContext) -> ReloadDecision) -> ClosureReloadPolicy {
        ClosureReloadPolicy(decide)
    }
}
