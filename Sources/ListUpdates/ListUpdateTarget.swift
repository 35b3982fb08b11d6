/// What a list view is told to do when an accumulator flushes.
public enum ListUpdate: Sendable, Equatable {
    /// Throw away every cell and reload the whole list from the data source.
    case reload
    /// Perform these batches one after another, each in its own batch update. Every stage is
    /// valid for the list as the previous stage left it.
    case animate([ListChanges])
}

/// A list view that an accumulator drives: the adapter an app writes around its table or
/// collection view, or `ListSimulator` in tests.
///
/// The protocol is not isolated to an actor; conform on the actor your view lives on (for
/// example `extension MyTable: @MainActor ListUpdateTarget`) and flush the accumulator there.
public protocol ListUpdateTarget: AnyObject {
    /// Whether the list is on screen now. Read when an accumulator flushes, never earlier.
    var isVisible: Bool { get }

    /// The number of rows the list displays now in each of its sections, in section order (as
    /// UIKit's `numberOfRows(inSection:)` would answer). Read at flush time: reload policies
    /// compare a batch with a share of the rows, and an accumulator checks a batch's
    /// before-positions against it.
    var displayedRowCounts: [Int] { get }

    /// Reloads every section and row from the data source, without animation.
    func reloadData()

    /// Performs the stages in order, each as one animated batch update.
    ///
    /// - Parameter stages: Batches to apply in order; each is valid for the state the previous
    ///   one leaves.
    func performBatch(stages: [ListChanges])
}

extension ListUpdateTarget {
    /// The number of rows the list displays now, over all sections.
    ///
    /// - Complexity: O(s) for s sections.
    public var displayedRowCount: Int { displayedRowCounts.reduce(0, +) }
}
