import Foundation
import FetchedResultsKit

/// The list area of the screen for one ``GroceryList``: a `ListUpdateTarget` that shows what
/// its list held at the last update it was given, with a cursor, scrolling and marks on the
/// rows the last animated batch changed.
///
/// Like a table view, the screen keeps its own copy of what it displays (section titles, row
/// counts and the item of each row) and reads its data source again only when told to:
/// `reloadData()` re-reads everything and marks nothing; `performBatch(stages:)` re-reads too and
/// marks the rows at the after-positions of inserted, moved, reloaded and reconfigured rows
/// and the rows of inserted sections.
/// The cursor follows the selected item when it moves, and stays at its position when the
/// item goes away. ``isVisible`` asks the app whether this screen's tab is showing.
public final class ListScreen {
    /// The data source.
    public let list: GroceryList
    private let visibility: () -> Bool

    /// The section names displayed, in order.
    public private(set) var sectionNames: [String] = []
    /// The section index titles displayed, in order.
    public private(set) var indexTitles: [String] = []
    /// The rows displayed in each section, in section order.
    public private(set) var rowCounts: [Int] = []
    /// The item shown at each displayed row, by section.
    public private(set) var displayedIDs: [[ObjectID]] = []
    /// The flat position of each section's first row.
    private(set) var sectionStarts: [Int] = []

    /// The items the last animated batch changed; cleared by ``clearMarks()`` and by a reload.
    public private(set) var marked: Set<ObjectID> = []
    /// How many times the screen reloaded.
    public private(set) var reloadCount = 0
    /// How many animated updates the screen performed.
    public private(set) var batchCount = 0

    /// The flat position of the cursor among all rows (0 when there are none).
    public private(set) var cursor = 0
    /// The item under the cursor, followed across updates.
    private var selectedID: ObjectID?
    /// The first list line shown.
    private var scrollLine = 0

    /// Makes a screen and reads its list.
    ///
    /// - Parameters:
    ///   - list: The data source.
    ///   - isVisible: Whether the screen is showing now; read at each flush.
    public init(list: GroceryList, isVisible: @escaping () -> Bool) {
        self.list = list
        self.visibility = isVisible
        readAll()
        selectedID = displayedIDs.first { !$0.isEmpty }?.first
        _checkInvariants()
    }

    /// The number of rows displayed over all sections.
    public var totalRows: Int { rowCounts.reduce(0, +) }

    // MARK: Reading the data source

    private func readAll() {
        let summaries = list.sectionSummaries
        sectionNames = summaries.map(\.name)
        indexTitles = summaries.map(\.indexTitle)
        rowCounts = summaries.map(\.rowCount)
        displayedIDs = rowCounts.indices.map { section in
            (0..<rowCounts[section]).map { list.row(at: IndexPath(row: $0, section: section)).id }
        }
        var start = 0
        sectionStarts = rowCounts.map { count in
            defer { start += count }
            return start
        }
    }

    /// Puts the cursor back on the selected item, or keeps its position when the item is gone.
    private func restoreSelection() {
        if let id = selectedID, let path = list.indexPath(of: id), path.section < rowCounts.count {
            cursor = sectionStarts[path.section] + path.row
        }
        cursor = max(0, min(cursor, totalRows - 1))
        selectedID = indexPath(ofFlat: cursor).map { displayedIDs[$0.section][$0.row] }
    }

    // MARK: Cursor

    /// The index path of the row under the cursor, or `nil` when the list is empty.
    public var selectedIndexPath: IndexPath? { indexPath(ofFlat: cursor) }

    /// The item under the cursor, or `nil`.
    public var selectedItemID: ObjectID? { selectedIndexPath.map { displayedIDs[$0.section][$0.row] } }

    /// Moves the cursor by a number of rows, stopping at the ends.
    ///
    /// - Parameter delta: Rows to move; negative moves up.
    public func moveCursor(by delta: Int) {
        setCursor(cursor + delta)
    }

    /// Moves the cursor to the first row of the section `delta` sections away from the
    /// cursor's, as a tap on the section index does.
    ///
    /// - Parameter delta: Sections to move; negative moves up.
    public func moveCursor(sections delta: Int) {
        guard let current = selectedIndexPath?.section else { return }
        var target = current + delta
        // Skip sections with no rows (none is empty in practice, but stay safe).
        while target >= 0 && target < rowCounts.count && rowCounts[target] == 0 { target += delta > 0 ? 1 : -1 }
        guard target >= 0 && target < rowCounts.count else {
            setCursor(delta < 0 ? 0 : totalRows - 1)
            return
        }
        setCursor(sectionStarts[target])
    }

    /// Moves the cursor to a row.
    ///
    /// - Parameter flat: A flat row position; clamped to the rows.
    public func setCursor(_ flat: Int) {
        cursor = max(0, min(flat, totalRows - 1))
        selectedID = selectedItemID
        _checkInvariants()
    }

    /// Moves the cursor to an item's row.
    ///
    /// - Parameter id: The item.
    /// - Returns: Whether the screen shows the item.
    @discardableResult
    public func select(_ id: ObjectID) -> Bool {
        guard let path = list.indexPath(of: id), path.section < rowCounts.count, path.row < rowCounts[path.section],
              displayedIDs[path.section][path.row] == id
        else { return false }
        setCursor(sectionStarts[path.section] + path.row)
        return true
    }

    /// Forgets the marks of the last animated batch.
    public func clearMarks() {
        marked = []
    }

    // MARK: Layout

    /// The list lines that fit in `height` lines, scrolled so the cursor shows.
    ///
    /// - Parameter height: The number of list lines on screen.
    /// - Returns: Headers and rows, at most `height` of them.
    /// - Complexity: O(s + height) for s sections.
    public func lines(height: Int) -> [Frame.Line] {
        guard totalRows > 0 else { return [] }
        let cursorPath = indexPath(ofFlat: cursor)!
        let cursorLine = sectionStarts[cursorPath.section] + cursorPath.section + 1 + cursorPath.row
        let totalLines = totalRows + rowCounts.count
        let wanted = cursorPath.row == 0 ? cursorLine - 1 : cursorLine
        if wanted < scrollLine { scrollLine = wanted }
        if cursorLine >= scrollLine + height { scrollLine = cursorLine - height + 1 }
        scrollLine = max(0, min(scrollLine, totalLines - height))

        var result: [Frame.Line] = []
        var line = 0
        for section in rowCounts.indices {
            let sectionLines = rowCounts[section] + 1
            defer { line += sectionLines }
            guard line + sectionLines > scrollLine else { continue }
            if result.count >= height { break }
            var offset = max(0, scrollLine - line)
            while offset < sectionLines && result.count < height {
                if offset == 0 {
                    result.append(.header(title: sectionNames[section], count: rowCounts[section]))
                } else {
                    let row = list.row(at: IndexPath(row: offset - 1, section: section))
                    result.append(
                        .row(
                            name: row.name, listed: row.listed,
                            selected: sectionStarts[section] + offset - 1 == cursor,
                            marked: marked.contains(row.id)))
                }
                offset += 1
            }
        }
        return result
    }

    /// The index path of a flat row position, or `nil` when there is no such row.
    public func indexPath(ofFlat flat: Int) -> IndexPath? {
        guard flat >= 0 && flat < totalRows else { return nil }
        var section = 0
        while flat >= sectionStarts[section] + rowCounts[section] { section += 1 }
        return IndexPath(row: flat - sectionStarts[section], section: section)
    }
}

extension ListScreen: ListUpdateTarget {
    /// Whether the screen's tab (and search state) is the one showing.
    public var isVisible: Bool { visibility() }

    /// The rows the screen displays in each section.
    public var displayedRowCounts: [Int] { rowCounts }

    /// Re-reads every section and row; clears the marks.
    public func reloadData() {
        readAll()
        marked = []
        reloadCount += 1
        restoreSelection()
        _checkInvariants()
    }

    /// Re-reads the data source and marks the rows each stage inserted, moved, reloaded or
    /// reconfigured, at their after-positions.
    ///
    /// Stage positions of refreshed rows are before-positions; for the first stage they are
    /// looked up in what the screen displayed, for later stages (which only refresh rows, by
    /// their positions after the first) in the data source. Inserted and moved rows are looked
    /// up at their after-positions once the last stage that changes the structure is reached.
    ///
    /// - Parameter stages: The batches, in order.
    public func performBatch(stages: [ListChanges]) {
        let before = displayedIDs
        var changed: Set<ObjectID> = []
        let lastStructural = stages.lastIndex { stage in
            !(stage.deletedSections.isEmpty && stage.insertedSections.isEmpty && stage.movedSections.isEmpty
                && stage.reloadedSections.isEmpty && stage.deletedRows.isEmpty && stage.insertedRows.isEmpty
                && stage.movedRows.isEmpty)
        } ?? -1
        readAll()
        let after = displayedIDs
        func final(_ path: IndexPath) -> ObjectID? {
            guard path.section < after.count, path.row < after[path.section].count else { return nil }
            return after[path.section][path.row]
        }
        for (number, stage) in stages.enumerated() {
            for path in stage.reconfiguredRows + stage.reloadedRows {
                if number == 0 {
                    if path.section < before.count, path.row < before[path.section].count {
                        changed.insert(before[path.section][path.row])
                    }
                } else if number > lastStructural, let id = final(path) {
                    changed.insert(id)
                }
            }
            guard number >= lastStructural else { continue }
            for path in stage.insertedRows + stage.movedRows.map(\.to) {
                if let id = final(path) { changed.insert(id) }
            }
            for section in stage.insertedSections where section < after.count {
                changed.formUnion(after[section])
            }
        }
        marked = changed
        batchCount += 1
        restoreSelection()
        _checkInvariants()
    }
}

@available(*, unavailable, message: "a screen is confined to the isolation domain of its list")
extension ListScreen: Sendable {}
