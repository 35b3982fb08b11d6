import Foundation

/// The changes that turn one state of a sectioned list into another, in the index spaces a
/// list view's batch update uses.
///
/// Positions follow the rules of a UIKit batch update:
///
/// - deletes, reloads and reconfigures name positions in the state **before** the change;
/// - inserts name positions in the state **after** the change;
/// - a move goes from a before-position to an after-position;
/// - header refreshes (``reconfiguredSections``), which a view performs once the batch is
///   done, name positions in the state **after** the change.
///
/// The order of the elements inside each field carries no meaning, and equality ignores it.
///
/// A value of this type is either a *stage* — one batch that a list view accepts under every
/// rule of the simulator's strict mode — or a general set of changes, which may also say that
/// a moved row changed (its before-position is both a move source and reconfigured) or that
/// rows changed inside a moved section. `staged()` turns a general set into stages.
public struct ListChanges: Sendable {
    /// A section that moves: from its position before the change to its position after it.
    public struct SectionMove: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// The section's position before the change.
        public var from: Int
        /// The section's position after the change.
        public var to: Int

        /// Creates a section move.
        ///
        /// - Parameters:
        ///   - from: The section's position before the change.
        ///   - to: The section's position after the change.
        /// - Complexity: O(1).
        @inlinable
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }

        /// Orders moves by source, then by destination.
        ///
        /// - Complexity: O(1).
        public static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.from, lhs.to) < (rhs.from, rhs.to)
        }

        /// The move as `from→to`, such as `0→2`.
        public var description: String { "\(from)→\(to)" }
    }

    /// A row that moves: from its index path before the change to its index path after it.
    public struct RowMove: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// The row's index path before the change.
        public var from: IndexPath
        /// The row's index path after the change.
        public var to: IndexPath

        /// Creates a row move.
        ///
        /// - Parameters:
        ///   - from: The row's index path before the change.
        ///   - to: The row's index path after the change.
        /// - Complexity: O(1).
        @inlinable
        public init(from: IndexPath, to: IndexPath) {
            self.from = from
            self.to = to
        }

        /// Orders moves by source, then by destination.
        ///
        /// - Complexity: O(1) for `section.row` index paths.
        public static func < (lhs: Self, rhs: Self) -> Bool {
            lhs.from != rhs.from ? lhs.from < rhs.from : lhs.to < rhs.to
        }

        /// The move as `section.row→section.row`, such as `0.2→1.0`.
        public var description: String { "\(from.listDescription)→\(to.listDescription)" }
    }

    /// Sections removed, as positions **before** the change.
    public var deletedSections: [Int]
    /// Sections added, as positions **after** the change.
    public var insertedSections: [Int]
    /// Sections that move, each from a position **before** the change to one **after** it.
    public var movedSections: [SectionMove]
    /// Sections whose every row is recreated, as positions **before** the change. A reload is a
    /// delete at the before-position plus an insert at the matching after-position.
    public var reloadedSections: [Int]

    /// Rows removed, as index paths **before** the change.
    public var deletedRows: [IndexPath]
    /// Rows added, as index paths **after** the change.
    public var insertedRows: [IndexPath]
    /// Rows that move, each from an index path **before** the change to one **after** it.
    public var movedRows: [RowMove]
    /// Rows whose cells are recreated (a delete plus an insert of the same row), as index
    /// paths **before** the change.
    public var reloadedRows: [IndexPath]
    /// Rows whose cells are refreshed in place with their new content, as index paths
    /// **before** the change. In a general set of changes a reconfigured row may also be a move
    /// source (a moved row whose content changed); `staged()` then refreshes it at its
    /// after-position in a later stage.
    public var reconfiguredRows: [IndexPath]
    /// Sections whose header or footer content changed (per-section totals, for example) and
    /// is refreshed in place, without touching their rows, as positions **after** the change.
    ///
    /// Unlike every other position of a refresh, these are after-positions: a view refreshes a
    /// header once the batch is done, where the section is then. A section may be listed here
    /// when it also moves (at its destination) or when its rows change; a section inserted or
    /// reloaded by the same change is never listed, since it shows a fresh header anyway.
    /// `staged()` puts every header refresh in the last stage, and drops those of sections
    /// that its stages insert or reload. Kept sorted and unique by the library.
    public var reconfiguredSections: [Int]

    /// Creates a set of changes. Every field defaults to empty.
    ///
    /// - Parameters:
    ///   - deletedSections: Sections removed, positions before the change.
    ///   - insertedSections: Sections added, positions after the change.
    ///   - movedSections: Section moves, before → after.
    ///   - reloadedSections: Sections recreated, positions before the change.
    ///   - deletedRows: Rows removed, index paths before the change.
    ///   - insertedRows: Rows added, index paths after the change.
    ///   - movedRows: Row moves, before → after.
    ///   - reloadedRows: Rows recreated, index paths before the change.
    ///   - reconfiguredRows: Rows refreshed in place, index paths before the change.
    ///   - reconfiguredSections: Sections whose header or footer is refreshed in place,
    ///     positions **after** the change.
    /// - Complexity: O(1).
    public init(
        deletedSections: [Int] = [],
        insertedSections: [Int] = [],
        movedSections: [SectionMove] = [],
        reloadedSections: [Int] = [],
        deletedRows: [IndexPath] = [],
        insertedRows: [IndexPath] = [],
        movedRows: [RowMove] = [],
        reloadedRows: [IndexPath] = [],
        reconfiguredRows: [IndexPath] = [],
        reconfiguredSections: [Int] = []
    ) {
        self.deletedSections = deletedSections
        self.insertedSections = insertedSections
        self.movedSections = movedSections
        self.reloadedSections = reloadedSections
        self.deletedRows = deletedRows
        self.insertedRows = insertedRows
        self.movedRows = movedRows
        self.reloadedRows = reloadedRows
        self.reconfiguredRows = reconfiguredRows
        self.reconfiguredSections = reconfiguredSections
    }

    /// Whether the value holds no change at all.
    ///
    /// - Complexity: O(1).
    public var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && movedSections.isEmpty
            && reloadedSections.isEmpty && deletedRows.isEmpty && insertedRows.isEmpty
            && movedRows.isEmpty && reloadedRows.isEmpty && reconfiguredRows.isEmpty
            && reconfiguredSections.isEmpty
    }

    /// The number of individual section and row changes the value holds, the size a reload
    /// policy compares with its threshold.
    ///
    /// Header refreshes (``reconfiguredSections``) do not count: a view refreshes at most one
    /// header per section, in place, whatever the batch; a commit that changes one row and its
    /// section's totals is one change.
    ///
    /// - Complexity: O(1).
    public var count: Int {
        deletedSections.count + insertedSections.count + movedSections.count + reloadedSections.count
            + deletedRows.count + insertedRows.count + movedRows.count + reloadedRows.count
            + reconfiguredRows.count
    }

    /// A copy with every field sorted ascending and exact duplicates removed, the canonical
    /// form that equality compares.
    ///
    /// - Complexity: O(c log c) for c changes.
    public func normalized() -> ListChanges {
        ListChanges(
            deletedSections: sortedUnique(deletedSections),
            insertedSections: sortedUnique(insertedSections),
            movedSections: sortedUnique(movedSections),
            reloadedSections: sortedUnique(reloadedSections),
            deletedRows: sortedUnique(deletedRows),
            insertedRows: sortedUnique(insertedRows),
            movedRows: sortedUnique(movedRows),
            reloadedRows: sortedUnique(reloadedRows),
            reconfiguredRows: sortedUnique(reconfiguredRows),
            reconfiguredSections: sortedUnique(reconfiguredSections)
        )
    }
}

extension ListChanges: Equatable {
    /// Whether two values hold the same changes, whatever order each field lists them in.
    ///
    /// - Complexity: O(c log c) for c changes.
    public static func == (lhs: ListChanges, rhs: ListChanges) -> Bool {
        let l = lhs.normalized()
        let r = rhs.normalized()
        return l.deletedSections == r.deletedSections && l.insertedSections == r.insertedSections
            && l.movedSections == r.movedSections && l.reloadedSections == r.reloadedSections
            && l.deletedRows == r.deletedRows && l.insertedRows == r.insertedRows
            && l.movedRows == r.movedRows && l.reloadedRows == r.reloadedRows
            && l.reconfiguredRows == r.reconfiguredRows
            && l.reconfiguredSections == r.reconfiguredSections
    }
}

extension ListChanges: CustomStringConvertible {
    /// A compact, readable summary such as `ListChanges(rows: -[0.1] +[0.3] ↻[1.0])`.
    public var description: String {
        var parts: [String] = []
        func add<T>(_ symbol: String, _ values: [T], _ render: (T) -> String) {
            if !values.isEmpty { parts.append("\(symbol)[\(values.map(render).joined(separator: ", "))]") }
        }
        let n = normalized()
        add("-s", n.deletedSections, String.init)
        add("+s", n.insertedSections, String.init)
        add("→s", n.movedSections, \.description)
        add("↻s", n.reloadedSections, String.init)
        add("-", n.deletedRows, \.listDescription)
        add("+", n.insertedRows, \.listDescription)
        add("→", n.movedRows, \.description)
        add("↻", n.reloadedRows, \.listDescription)
        add("~", n.reconfiguredRows, \.listDescription)
        add("~s", n.reconfiguredSections, String.init)
        return "ListChanges(\(parts.isEmpty ? "none" : parts.joined(separator: " ")))"
    }
}

extension IndexPath {
    /// `section.row`, the short form the library's messages use.
    package var listDescription: String {
        count == 2 ? "\(self[0]).\(self[1])" : "\(Array(self))"
    }
}
