import Foundation
import FetchedResultsKit

/// The list area of the screen for one ``GroceryList``: a `ListUpdateTarget` that shows what
/// its list held at the last update it was given, with a cursor, scrolling and marks on the
/// rows the last animated batch changed.
///
/// Like a table view, the screen keeps its own copy of the list's shape (section titles and
/// row counts) and reads its data source again only when told to, and like a table view it
/// reads rows only to show them: `reloadData()` re-reads the sections and marks nothing;
/// `performBatch(stages:)` checks the batch against the counts it displays, re-reads the
/// sections, and marks the rows at the after-positions of inserted, moved, reloaded and
/// reconfigured rows and the rows of inserted sections. Neither reads a row it does not mark,
/// so an update costs what it changes and a frame what it shows, not the number of items.
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
    /// How many items of each section are still to get, as displayed.
    public private(set) var toGetCounts: [Int] = []
    /// The flat position of each section's first row.
    private(set) var sectionStarts: [Int] = []

    /// The items the last animated batch changed; cleared by ``clearMarks()`` and by a reload.
    public private(set) var marked: Set<ObjectID> = []
    /// How many times the screen reloaded.
    public private(set) var reloadCount = 0
    /// How many animated updates the screen performed.
    public private(set) var batchCount = 0
    /// Why the last batch that did not fit the displayed counts was refused (the screen
    /// reloaded instead), or `nil` when every batch fitted.
    public private(set) var refusedBatch: String?

    /// The flat position of the cursor among all rows (0 when there are none).
    public private(set) var cursor = 0
    /// The item under the cursor, followed across updates.
    private var selectedID: ObjectID?
    /// The first list line shown.
    private var scrollLine = 0
    /// A section whose header the next layout scrolls to the top line.
    private var sectionToTop: Int?

    /// Makes a screen and reads its list.
    ///
    /// - Parameters:
    ///   - list: The data source.
    ///   - isVisible: Whether the screen is showing now; read at each flush.
    public init(list: GroceryList, isVisible: @escaping () -> Bool) {
        self.list = list
        self.visibility = isVisible
        readSections()
        selectedID = selectedItemID
        _checkInvariants()
    }

    /// The number of rows displayed over all sections.
    public var totalRows: Int { rowCounts.reduce(0, +) }

    // MARK: Reading the data source

    /// Reads every section's name, index title and row count (not the rows).
    ///
    /// - Complexity: O(s) for s sections.
    private func readSections(_ summaries: [GroceryList.SectionSummary]? = nil) {
        let summaries = summaries ?? list.sectionSummaries
        sectionNames = summaries.map(\.name)
        indexTitles = summaries.map(\.indexTitle)
        rowCounts = summaries.map(\.rowCount)
        toGetCounts = summaries.map(\.toGet)
        var start = 0
        sectionStarts = rowCounts.map { count in
            defer { start += count }
            return start
        }
    }

    /// Puts the cursor back on the selected item, or keeps its position when the item is gone.
    private func restoreSelection() {
        if let id = selectedID, let path = list.indexPath(of: id), path.section < rowCounts.count,
           path.row < rowCounts[path.section] {
            cursor = sectionStarts[path.section] + path.row
        }
        cursor = max(0, min(cursor, totalRows - 1))
        selectedID = selectedItemID
    }

    // MARK: Cursor

    /// The index path of the row under the cursor, or `nil` when the list is empty.
    public var selectedIndexPath: IndexPath? { indexPath(ofFlat: cursor) }

    /// The item under the cursor, or `nil`.
    ///
    /// - Complexity: O(s + log n) for s sections and n rows.
    public var selectedItemID: ObjectID? { selectedIndexPath.flatMap { list.item(at: $0)?.objectID } }

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
        sectionToTop = target
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
        guard let path = list.indexPath(of: id), path.section < rowCounts.count, path.row < rowCounts[path.section]
        else { return false }
        setCursor(sectionStarts[path.section] + path.row)
        return true
    }

    /// Before a refresh takes some rows away, puts the selection on the row a shopper expects
    /// to land on: the first row at or after the cursor that stays, or else the last one
    /// before it. The cursor moves to that item when the screen next reads its list.
    ///
    /// Without it, a refresh that removes the selected row and rows above it would keep the
    /// cursor's position and land past the next item that stays.
    ///
    /// - Parameter isLeaving: Whether an item's row is about to go.
    /// - Complexity: O(k (s + log n)) for the k rows read, s sections and n rows.
    public func selectNearestRemaining(leaving isLeaving: (ObjectID) -> Bool) {
        func staying(_ flat: Int) -> ObjectID? {
            guard let path = indexPath(ofFlat: flat), let id = list.item(at: path)?.objectID, !isLeaving(id)
            else { return nil }
            return id
        }
        for flat in cursor..<max(cursor, totalRows) {
            if let id = staying(flat) {
                selectedID = id
                return
            }
        }
        for flat in (0..<cursor).reversed() {
            if let id = staying(flat) {
                selectedID = id
                return
            }
        }
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
        if let section = sectionToTop, section < rowCounts.count {
            // Left/Right: the new section's header on the top line (the cursor is on its first row).
            scrollLine = sectionStarts[section] + section
        }
        sectionToTop = nil
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
                    // Prepare's locations say how many of their items are still to get.
                    let toGet = list.kind == .prepare && toGetCounts[section] > 0 ? "\(toGetCounts[section]) to get" : ""
                    result.append(.header(title: sectionNames[section], count: rowCounts[section], detail: toGet))
                } else {
                    let row = list.row(at: IndexPath(row: offset - 1, section: section))
                    result.append(
                        .row(
                            name: row.name, detail: row.detail, listed: row.listed,
                            struck: list.ticked != nil && !row.listed,
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

    /// Re-reads every section; clears the marks.
    ///
    /// - Complexity: O(s + log n) for s sections and n rows.
    public func reloadData() {
        readSections()
        marked = []
        reloadCount += 1
        restoreSelection()
        _checkInvariants()
    }

    /// Re-reads the sections and marks the rows each stage inserted, moved, reloaded or
    /// reconfigured, at their after-positions.
    ///
    /// The first stage names refreshed rows by their positions before the update; they are
    /// carried to their positions after it through the stage's own deletes, inserts and moves.
    /// Later stages only refresh rows, by their positions after the first. A batch that does
    /// not fit the counts the screen displays and the ones its list holds now is refused, as a
    /// table view would refuse it: the screen reloads instead and says why in
    /// ``refusedBatch``.
    ///
    /// - Parameter stages: The batches, in order.
    /// - Complexity: O(s + c log c + m log n) for s sections, c changes, and m marked rows of
    ///   n; it reads only the rows it marks.
    public func performBatch(stages: [ListChanges]) {
        let summaries = list.sectionSummaries
        let afterCounts = summaries.map(\.rowCount)
        do {
            try ListChanges.validate(stages: stages, beforeRowCounts: rowCounts, afterRowCounts: afterCounts)
        } catch {
            refusedBatch = "\(error)"
            reloadData()
            return
        }
        let beforeSectionCount = rowCounts.count
        readSections(summaries)
        var changed: Set<ObjectID> = []
        func mark(_ path: IndexPath?) {
            guard let path, path.section < afterCounts.count, path.row < afterCounts[path.section],
                  let item = list.item(at: path)
            else { return }
            changed.insert(item.objectID)
        }
        for (number, stage) in stages.enumerated() {
            if number == 0 {
                let positions = BatchPositions(stage, beforeSectionCount: beforeSectionCount)
                for path in stage.reconfiguredRows + stage.reloadedRows { mark(positions.afterPosition(of: path)) }
            } else {
                for path in stage.reconfiguredRows + stage.reloadedRows { mark(path) }
            }
            for path in stage.insertedRows { mark(path) }
            for move in stage.movedRows { mark(move.to) }
            for section in stage.insertedSections where section < afterCounts.count {
                for row in 0..<afterCounts[section] { mark(IndexPath(row: row, section: section)) }
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
