import FetchedResultsKit

/// The app's reload policy: the library's default, except that a batch of only a few changes
/// always animates, however small the list (deleting the last search result animates).
///
/// Decisions and their reasons are the `DefaultReloadPolicy`'s, so the status line shows the
/// library's own wording.
public struct GroceryReloadPolicy: ReloadPolicy, Sendable, Hashable {
    /// The largest number of changes that still animates.
    public var maximumChangeCount: Int
    /// The largest share of the displayed rows a batch of at least ``shareThreshold`` changes
    /// may change and still animate.
    public var maximumShare: Double
    /// The number of changes from which the share rule applies.
    public var shareThreshold: Int

    /// Makes the policy.
    ///
    /// - Parameters:
    ///   - maximumChangeCount: The largest batch that animates; 500 by default.
    ///   - maximumShare: The largest share of the rows a batch may change; half by default.
    ///   - shareThreshold: The batch size from which the share rule applies; 8 by default.
    public init(maximumChangeCount: Int = 500, maximumShare: Double = 0.5, shareThreshold: Int = 8) {
        self.maximumChangeCount = maximumChangeCount
        self.maximumShare = maximumShare
        self.shareThreshold = shareThreshold
    }

    /// Asks the default policy, with the share rule switched off for small batches.
    ///
    /// - Parameter context: The state at the moment of the flush.
    /// - Returns: The decision and its reason.
    /// - Complexity: O(s) for s sections.
    public func decision(for context: ReloadContext) -> ReloadDecision {
        let share = context.changeCount < shareThreshold ? Double.infinity : maximumShare
        return DefaultReloadPolicy(maximumChangeCount: maximumChangeCount, maximumShare: share).decision(for: context)
    }
}
