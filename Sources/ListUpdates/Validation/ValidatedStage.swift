import Foundation

/// A batch that passed validation, in the normalized form an applier needs: duplicates and the
/// row changes of rule 12 dropped, sections mapped from their before- to their after-positions.
package struct ValidatedStage: Sendable {
    /// Where a section after the batch comes from.
    package enum SectionSource: Sendable, Hashable {
        /// A new section, inserted at this after-position.
        case inserted
        /// The section at this before-position, recreated (every row new).
        case reloaded(before: Int)
        /// The section at this before-position, moved here.
        case moved(before: Int)
        /// The section at this before-position, not moved itself.
        case kept(before: Int)

        /// The before-position the section comes from, `nil` for an inserted section.
        package var before: Int? {
            switch self {
            case .inserted: nil
            case let .reloaded(before), let .moved(before), let .kept(before): before
            }
        }

        /// Whether every row of the section comes from the data source.
        package var isNew: Bool {
            switch self {
            case .inserted, .reloaded: true
            case .moved, .kept: false
            }
        }
    }

    /// For each section after the batch, where it comes from.
    package private(set) var sectionSources: [SectionSource]
    /// For each section before the batch, its position after it (`nil` when deleted).
    package private(set) var sectionTargets: [Int?]
    /// Sorted, unique section moves.
    package private(set) var movedSections: [ListChanges.SectionMove]
    /// Sorted, unique row deletes outside deleted and reloaded sections, as ``key(_:)``s of
    /// before-positions.
    package private(set) var deletedRows: [Int]
    /// Sorted, unique row inserts outside inserted and reloaded sections, as ``key(_:)``s of
    /// after-positions.
    package private(set) var insertedRows: [Int]
    /// Unique row moves sorted by source, as ``key(_:)``s: before-position → after-position.
    package private(set) var movedRows: [(from: Int, to: Int)]
    /// Sorted, unique row reloads outside deleted and reloaded sections, as ``key(_:)``s of
    /// before-positions.
    package private(set) var reloadedRows: [Int]
    /// Sorted, unique row reconfigures outside deleted and reloaded sections, as ``key(_:)``s
    /// of before-positions.
    package private(set) var reconfiguredRows: [Int]
    /// Sorted, unique header refreshes, as section positions after the batch; none of them is
    /// an inserted or reloaded section.
    package private(set) var reconfiguredSections: [Int]
    /// The row count of each section after the batch: as given, or derived (`nil` for an
    /// inserted or reloaded section when no counts were given).
    package private(set) var afterRowCounts: [Int?]

    /// A row position packed into one integer, so the checks sort and hash integers rather
    /// than index paths: the section in the high 32 bits, the row in the low ones. Keys order
    /// as index paths do.
    @inline(__always)
    package static func key(section: Int, row: Int) -> Int {
        section << 32 | row
    }

    /// The key of a two-index path whose indexes are in bounds.
    @inline(__always)
    package static func key(_ path: IndexPath) -> Int {
        key(section: path[0], row: path[1])
    }

    /// The index path a key stands for.
    @inline(__always)
    package static func indexPath(_ key: Int) -> IndexPath {
        IndexPath(indexes: [key >> 32, key & 0xFFFF_FFFF])
    }

    /// The section of a key.
    @inline(__always)
    package static func section(_ key: Int) -> Int {
        key >> 32
    }

    /// Validates `changes` as one batch and normalizes it, in phases: the caller's input,
    /// the section rules (``SectionChanges``), the section mapping, the header refreshes, the
    /// row positions and their normalization (``RowChanges``), the row conflicts, the row
    /// counts, and in strict mode the tier B rules. Each phase throws the first error of its
    /// rules, in rule order.
    ///
    /// - Parameters:
    ///   - changes: The batch.
    ///   - beforeRowCounts: The row count of each section before the batch.
    ///   - givenAfter: The row count of each section after it, when the caller knows them.
    ///   - strict: Whether the tier B rules (14 to 16) apply.
    /// - Throws: The first ``BatchUpdateError`` found.
    /// - Complexity: O(*n* + *c* log *c*) for *n* sections and *c* changes.
    package init(
        _ changes: ListChanges,
        beforeRowCounts: [Int],
        afterRowCounts givenAfter: [Int]?,
        strict: Bool
    ) throws(BatchUpdateError) {
        Self.requireWellFormed(changes, beforeRowCounts: beforeRowCounts, afterRowCounts: givenAfter)
        let sections = try SectionChanges(changes, countBefore: beforeRowCounts.count, givenCountAfter: givenAfter?.count)
        let mapping = sections.mapping()
        try sections.checkHeaderRefreshes(mapping.sources)
        let rows = try RowChanges(
            changes, sections, sectionSources: mapping.sources, beforeRowCounts: beforeRowCounts, givenAfter: givenAfter)
        try rows.checkConflicts(sections, sectionSources: mapping.sources)
        let afterCounts = try rows.afterRowCounts(
            sections, mapping: mapping, beforeRowCounts: beforeRowCounts, givenAfter: givenAfter)
        if strict { try rows.checkStrictRules(sections, targets: mapping.targets) }

        self.sectionSources = mapping.sources
        self.sectionTargets = mapping.targets
        self.movedSections = sections.moves
        self.deletedRows = rows.deleted
        self.insertedRows = rows.inserted
        self.movedRows = rows.moves
        self.reloadedRows = rows.reloaded
        self.reconfiguredRows = rows.reconfigured
        self.reconfiguredSections = sections.reconfigured
        self.afterRowCounts = afterCounts
        _checkInvariants()
    }

    /// The caller's part: counts that are not negative and fit in a key, index paths of two
    /// indexes that fit in a key (programming errors, not batch errors).
    private static func requireWellFormed(_ changes: ListChanges, beforeRowCounts: [Int], afterRowCounts givenAfter: [Int]?) {
        require(beforeRowCounts.allSatisfy { $0 >= 0 }, "row counts before the batch must not be negative")
        require(givenAfter?.allSatisfy { $0 >= 0 } ?? true, "row counts after the batch must not be negative")
        for paths in [changes.deletedRows, changes.insertedRows, changes.reloadedRows, changes.reconfiguredRows] {
            for path in paths { checkShape(path) }
        }
        for move in changes.movedRows {
            checkShape(move.from)
            checkShape(move.to)
        }
        require(
            beforeRowCounts.count < 1 << 31 && beforeRowCounts.allSatisfy { $0 < 1 << 31 },
            "a list may have at most 2^31 sections and 2^31 rows per section"
        )
    }

    private static func checkShape(_ path: IndexPath) {
        require(path.count == 2, "a row index path must have exactly two indexes (section, row), got \(path)")
        require(
            (0..<1 << 31).contains(path[0]) && (0..<1 << 31).contains(path[1]),
            "a row index path's indexes must lie in 0..<2^31, got \(path)"
        )
    }

    /// The smallest element two sorted arrays share, found by merging them.
    static func firstCommon(_ a: [Int], _ b: [Int]) -> Int? {
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            if a[i] == b[j] { return a[i] }
            if a[i] < b[j] { i += 1 } else { j += 1 }
        }
        return nil
    }
}
