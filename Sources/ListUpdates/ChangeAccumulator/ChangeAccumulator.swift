/// Coalesces the changes of a list between two updates of its view into one batch, and at
/// each flush decides whether the view animates that batch or reloads.
public final class ChangeAccumulator {
    var composer = Composer()

    /// Creates an accumulator.
    public init() {}

    /// Composes a batch of changes with everything accumulated since the last flush.
    ///
    /// - Parameter changes: A general set of changes whose before-positions are relative to
    ///   the state after every batch added so far.
    /// - Complexity: O(c log c + c log k) for c changes and k changes accumulated.
    public func add(_ changes: ListChanges) {
        composer.compose(changes)
        composer._checkInvariants()
    }

    /// The changes accumulated since the last flush, composed into one general set relative
    /// to the state at the last flush.
    public var pendingChanges: ListChanges { composer.result() }
}
