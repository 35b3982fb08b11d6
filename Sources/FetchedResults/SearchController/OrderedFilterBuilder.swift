import Foundation
import ObjectGraph

/// Builds a search's new index and the change from its old rows, from rows visited in the
/// base order: each row says whether the old index held it and whether the new one keeps
/// it, so the change is a pure filter (deletes and inserts, never a move).
///
/// Rows may come from different indexes (the old search index, the base index) as long as
/// they share the base controller's keys and arrive in its order; a kept row's keys are
/// copied from the index it came from, and the new index's slots are 0, 1, 2… in order.
struct OrderedFilterBuilder {
    /// The rows kept so far, or an index the caller replaces (``builds`` is `false`).
    private(set) var index: ResultsIndex<ObjectID>
    /// Whether kept rows are appended to ``index``.
    let builds: Bool
    private var diff = IndexDiff<ObjectID>()
    /// The current run of one section: where its first row came from, its handle there,
    /// its value, and its rows' changes.
    private var runSource = -1
    private var runHandle: Int32 = -1
    private var runValue: SortValue = .null
    /// The index paths of the run's deletes and inserts (the rows are reported at once;
    /// whether their paths are row changes depends on the whole run).
    private var runDeletes: [IndexPath] = []
    private var runInserts: [IndexPath] = []
    private var oldSections = 0
    private var newSections = 0
    private var oldRow = 0
    private var newRow = 0
    private var newHandle: Int32 = -1

    /// Creates a builder.
    ///
    /// - Parameters:
    ///   - template: An index with the base order's key directions.
    ///   - builds: Whether to build the new index from the kept rows; `false` when the
    ///     caller already has it (a cleared search shares the base index).
    ///   - capacity: About how many rows the new index keeps.
    ///   - deletes: About how many rows the change deletes.
    ///   - inserts: About how many rows the change inserts.
    init(like template: ResultsIndex<ObjectID>, builds: Bool, capacity: Int, deletes: Int = 0, inserts: Int = 0) {
        index = ResultsIndex(ascending: template.keys.ascending, sectionsAscending: template.keys.sectionsAscending)
        self.builds = builds
        diff.rows.reserveCapacity(deletes + inserts)
        diff.changes.deletedRows.reserveCapacity(deletes)
        diff.changes.insertedRows.reserveCapacity(inserts)
        guard builds else { return }
        index.keys.ids.reserveCapacity(capacity)
        index.keys.sectionOf.reserveCapacity(capacity)
        for column in index.keys.columns.indices { index.keys.columns[column].reserveCapacity(capacity) }
        index.slotByID.reserveCapacity(capacity)
    }

    /// Visits the next row in the base order.
    ///
    /// - Parameters:
    ///   - id: The row.
    ///   - source: The index that holds the row with the base controller's keys.
    ///   - sourceTag: A number naming `source` among the indexes this builder reads.
    ///   - slot: The row's slot in `source`.
    ///   - handle: The row's section handle in `source` (`source.keys.sectionOf[slot]`).
    ///   - was: Whether the old search index holds the row.
    ///   - keep: Whether the new one does.
    /// - Complexity: O(1) amortized, plus copying the keys of a kept row.
    @inline(__always)
    mutating func row(
        _ id: ObjectID, from source: borrowing ResultsIndex<ObjectID>, sourceTag: Int, slot: Int32, handle: Int32, was: Bool, keep: Bool
    ) {
        guard was || keep else { return }
        if sourceTag != runSource || handle != runHandle {
            let value = source.keys.sectionValues[Int(handle)]
            if runSource < 0 || value != runValue {
                closeRun()
                runValue = value
            }
            runSource = sourceTag
            runHandle = handle
        }
        if was {
            if !keep {
                let path = Self.indexPath(oldSections, oldRow)
                diff.rows.append(.delete(id, at: path))
                runDeletes.append(path)
            }
            oldRow += 1
        }
        guard keep else { return }
        if !was {
            let path = Self.indexPath(newSections, newRow)
            diff.rows.append(.insert(id, at: path))
            runInserts.append(path)
        }
        newRow += 1
        guard builds else { return }
        if newHandle < 0 {
            // Sections arrive in order, so the directory is built sorted.
            newHandle = index.internSection(runValue, placing: false)
        }
        index.appendRow(id, section: newHandle, copyingKeysOf: slot, in: source)
    }

    /// A section and row, built without the temporary array of `IndexPath(indexes:)` (a
    /// pass can report a million of them).
    @inline(__always)
    private static func indexPath(_ section: Int, _ row: Int) -> IndexPath {
        IndexPath(index: section).appending(row)
    }

    /// Ends the current section's run: reports its section change and its rows' changes.
    private mutating func closeRun() {
        guard runSource >= 0 else { return }
        let hadOld = oldRow > 0
        let hasNew = newRow > 0
        if hadOld && !hasNew { diff.deletedSections.append((oldSections, runValue)) }
        if hasNew && !hadOld { diff.insertedSections.append((newSections, runValue)) }
        if hasNew { diff.changes.deletedRows.append(contentsOf: runDeletes) }
        if hadOld { diff.changes.insertedRows.append(contentsOf: runInserts) }
        runDeletes.removeAll(keepingCapacity: true)
        runInserts.removeAll(keepingCapacity: true)
        if hadOld { oldSections += 1 }
        if hasNew { newSections += 1 }
        oldRow = 0
        newRow = 0
        newHandle = -1
        runSource = -1
    }

    /// Ends the pass.
    ///
    /// - Returns: The new index (its tree built from its slots in order; meaningless when
    ///   the builder does not build) and the changes, in the old index's space (deletes) and
    ///   the new one's (inserts).
    /// - Complexity: O(r) for the r kept rows.
    mutating func finish() -> (index: ResultsIndex<ObjectID>, diff: IndexDiff<ObjectID>) {
        closeRun()
        diff.changes.deletedSections = diff.deletedSections.map(\.index)
        diff.changes.insertedSections = diff.insertedSections.map(\.index)
        if builds {
            index.rebuildDirectory()
            index.tree = OrderTree(sorted: Array(0..<Int32(index.keys.ids.count)))
        }
        return (index, diff)
    }
}

@available(*, unavailable)
extension OrderedFilterBuilder: Sendable {}
