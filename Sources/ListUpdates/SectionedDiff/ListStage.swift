/// One batch of a staged update, with the data the data source must show while the list view
/// applies it.
///
/// ``ListChanges/stagedDifferenceKeepingSections(from:to:rows:)`` and its siblings return
/// stages of this type. Each stage's ``data`` is the state the list displays once the batch is
/// applied: its sections, their order and their rows, with every row's value as its cell
/// shows it (a row that a later stage refreshes still has its old value). An adapter sets the
/// data inside each batch:
///
/// ```swift
/// for stage in stages {
///     tableView.performBatchUpdates {
///         dataSource.sections = stage.data
///         tableView.apply(stage.changes)
///     }
/// }
/// ```
///
/// The last stage's data is the new state.
public struct ListStage<Data> {
    /// The batch: positions before it are positions in the previous stage's data (the old state
    /// for the first stage), positions after it are positions in ``data``.
    public var changes: ListChanges

    /// What the data source shows during and after this batch.
    public var data: Data

    /// Creates a stage.
    ///
    /// - Parameters:
    ///   - changes: The batch.
    ///   - data: What the data source shows during and after it.
    /// - Complexity: O(1).
    @inlinable
    public init(changes: ListChanges, data: Data) {
        self.changes = changes
        self.data = data
    }
}

extension ListStage: Sendable where Data: Sendable {}

extension ListStage: Equatable where Data: Equatable {}
