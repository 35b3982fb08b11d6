import Foundation

/// A headless table or collection view for tests: it holds sections of rows, applies batch
/// updates the way UIKit does, and rejects every batch UIKit would reject.
///
/// Each row carries its identifier and the content its cell was last rendered with. Inserts,
/// reloads and reconfigures render from the new state (the data source); moved and untouched
/// rows keep their old rendering, as real cells do. So after a successful update the
/// simulator shows what a device would show, and comparing it with the new state catches a
/// changed row that was moved but never refreshed.
///
/// ```swift
/// let table = ListSimulator<String, Int, String>([
///     .init(id: "fruit", rows: [.init(id: 1, content: "apple"), .init(id: 2, content: "pear")]),
/// ])
/// try table.apply(
///     ListChanges(insertedRows: [IndexPath(row: 2, section: 0)]),
///     newState: [.init(id: "fruit", rows: [.init(id: 1, content: "apple"), .init(id: 2, content: "pear"),
///                                           .init(id: 3, content: "plum")])]
/// )
/// ```
///
/// In strict mode, the default, the simulator also rejects the batches that UIKit accepts
/// but that corrupt its state or show stale cells (tier B of the batch rules, 14–17).
/// On any error the simulator's state is unchanged.
///
/// As a `ListUpdateTarget` it reads its ``dataSource`` for the new state and, since the
/// protocol does not throw, records rejected updates in ``failures``.
public final class ListSimulator<SectionID: Hashable, RowID: Hashable, Content: Equatable>: ListUpdateTarget {
    /// The sections on display, each with its rows as last rendered.
    public private(set) var sections: [Section]

    /// The current state of the data, read by ``reloadData()`` and ``performBatch(stages:)``.
    public var dataSource: (() -> [Section])?

    /// Whether tier B rules (14–17) are enforced too. On by default.
    public var isStrict: Bool

    /// Whether an update must also leave every cell showing the new state's content (on by
    /// default). When off, only identifiers are compared and stale cells stay visible in
    /// ``sections``, as they would on a device; strict mode still rejects moved stale rows
    /// (rule 16).
    public var verifiesContent: Bool = true

    /// Whether the list is on screen. In strict mode a batch update while not visible is
    /// rejected (rule 17).
    public var isVisible: Bool = true

    /// Every operation applied so far, in order, as a readable log.
    public private(set) var operations: [ListOperation] = []

    /// The updates ``performBatch(stages:)`` rejected, in order; the state stayed unchanged
    /// for each.
    public private(set) var failures: [ListSimulatorError] = []

    /// How many times the whole list was reloaded (``reloadData()`` or ``reloadData(_:)``).
    public private(set) var reloadCount = 0

    /// How many animated updates succeeded (one per ``apply(stages:newState:)`` or
    /// ``performBatch(stages:)`` call with at least one stage, however many it had).
    public private(set) var animatedUpdateCount = 0

    /// How many batches (stages) succeeded over all animated updates.
    public private(set) var batchCount = 0

    /// Creates a simulator that displays `sections`, as if loaded already.
    ///
    /// - Parameters:
    ///   - sections: The initial state; not counted as a reload.
    ///   - strict: Whether tier B rules are enforced too.
    /// - Complexity: O(1).
    public init(_ sections: [Section] = [], strict: Bool = true) {
        self.sections = sections
        self.isStrict = strict
        _checkInvariants()
    }

    /// Creates a simulator that reads its data from `dataSource` and loads it now.
    ///
    /// - Parameters:
    ///   - strict: Whether tier B rules are enforced too.
    ///   - dataSource: Returns the current state of the data. The first load is not counted
    ///     as a reload.
    /// - Complexity: O(1), plus one call of `dataSource`.
    public convenience init(strict: Bool = true, dataSource: @escaping () -> [Section]) {
        self.init(dataSource(), strict: strict)
        self.dataSource = dataSource
    }

    /// The number of rows displayed in each section.
    ///
    /// - Complexity: O(s) for s sections.
    public var displayedRowCounts: [Int] { sections.map(\.rows.count) }

    /// The identifiers of the displayed sections, in order.
    public var sectionIDs: [SectionID] { sections.map(\.id) }

    /// The identifiers of the displayed rows, section by section.
    public var rowIDs: [[RowID]] { sections.map { $0.rows.map(\.id) } }

    /// The row displayed at an index path.
    ///
    /// - Parameter indexPath: A `section.row` index path that exists now.
    /// - Complexity: O(1).
    public subscript(indexPath: IndexPath) -> Row {
        require(indexPath.count == 2, "ListSimulator subscript needs a section.row index path")
        require(sections.indices.contains(indexPath[0]), "section \(indexPath[0]) does not exist")
        require(sections[indexPath[0]].rows.indices.contains(indexPath[1]), "row \(indexPath) does not exist")
        return sections[indexPath[0]].rows[indexPath[1]]
    }

    /// The log of applied operations, one per line.
    public var logDescription: String {
        operations.map(\.description).joined(separator: "\n")
    }

    /// Replaces everything on display with `sections`, without animation.
    ///
    /// - Parameter sections: The new state.
    /// - Complexity: O(n) for n rows.
    public func reloadData(_ sections: [Section]) {
        self.sections = sections
        reloadCount += 1
        operations.append(.reloadData(sectionCount: sections.count, rowCount: sections.reduce(0) { $0 + $1.rows.count }))
        _checkInvariants()
    }

    /// Reloads everything from ``dataSource``, without animation.
    ///
    /// - Complexity: O(n) for n rows.
    public func reloadData() {
        guard let dataSource else {
            requirementFailure("ListSimulator.reloadData() needs a dataSource; set one or call reloadData(_:)")
        }
        reloadData(dataSource())
    }

    /// Applies the stages of an animated update, reading the new state from ``dataSource``.
    ///
    /// A rejected update leaves the state unchanged and is recorded in ``failures``.
    ///
    /// - Parameter stages: Batches to apply in order.
    /// - Complexity: O(s·n + c log c) for s stages, n rows and c changes.
    public func performBatch(stages: [ListChanges]) {
        guard let dataSource else {
            requirementFailure("ListSimulator.performBatch(stages:) needs a dataSource to read the new state from")
        }
        do {
            try apply(stages: stages, newState: dataSource())
        } catch {
            failures.append(error)
        }
    }

    /// Forgets the log, the failures and the counters (the state on display stays).
    ///
    /// - Complexity: O(k) for the k logged operations and failures it releases.
    public func resetHistory() {
        operations.removeAll()
        failures.removeAll()
        reloadCount = 0
        animatedUpdateCount = 0
        batchCount = 0
        _checkInvariants()
    }

    /// Records a successful update; used by the apply machinery.
    func commit(_ sections: [Section], operations newOperations: [ListOperation], stageCount: Int) {
        self.sections = sections
        operations += newOperations
        if stageCount > 0 { animatedUpdateCount += 1 }
        batchCount += stageCount
        _checkInvariants()
    }
}

@available(*, unavailable)
extension ListSimulator: Sendable {}
