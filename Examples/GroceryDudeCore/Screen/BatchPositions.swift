import Foundation
import FetchedResultsKit

/// Where the rows that one batch keeps end up: a before-position of the batch carried to its
/// after-position, by the rules a list view applies (BATCH-RULES.md, rules 1–3).
///
/// Sections and rows that are neither deleted, moved nor inserted keep their order: the
/// r-th kept section (or row) before the batch is the r-th one after it, counting only the
/// positions no insert or move takes. A reloaded row or section stays where it is. A row in a
/// moved section keeps its row.
struct BatchPositions {
    private let sectionsGone: [Int]
    private let sectionsTaken: [Int]
    private let sectionMoves: [Int: Int]
    private let reloadedSections: Set<Int>
    private let rowsGone: [Int: [Int]]
    private let rowsTaken: [Int: [Int]]

    /// Reads a batch.
    ///
    /// - Parameters:
    ///   - stage: The batch.
    ///   - beforeSectionCount: The number of sections before it.
    /// - Complexity: O(c log c) for c changes.
    init(_ stage: ListChanges, beforeSectionCount: Int) {
        sectionsGone = (stage.deletedSections + stage.movedSections.map(\.from)).sorted()
        sectionsTaken = (stage.insertedSections + stage.movedSections.map(\.to)).sorted()
        sectionMoves = Dictionary(stage.movedSections.map { ($0.from, $0.to) }, uniquingKeysWith: { first, _ in first })
        reloadedSections = Set(stage.reloadedSections)
        var gone: [Int: [Int]] = [:]
        for path in stage.deletedRows + stage.movedRows.map(\.from) { gone[path.section, default: []].append(path.row) }
        var taken: [Int: [Int]] = [:]
        for path in stage.insertedRows + stage.movedRows.map(\.to) { taken[path.section, default: []].append(path.row) }
        rowsGone = gone.mapValues { $0.sorted() }
        rowsTaken = taken.mapValues { $0.sorted() }
    }

    /// The after-position of a row the batch keeps.
    ///
    /// - Parameter before: A row's position before the batch.
    /// - Returns: Its position after it, or `nil` when the batch deletes or moves the row, or
    ///   deletes or reloads its section (a moved row is found at its destination).
    /// - Complexity: O(c) for c changes.
    func afterPosition(of before: IndexPath) -> IndexPath? {
        let section = before.section
        if reloadedSections.contains(section) { return nil }
        if let moved = sectionMoves[section] { return IndexPath(row: before.row, section: moved) }
        guard let afterSection = Self.carry(section, gone: sectionsGone, taken: sectionsTaken) else { return nil }
        guard let afterRow = Self.carry(before.row, gone: rowsGone[section] ?? [], taken: rowsTaken[afterSection] ?? [])
        else { return nil }
        return IndexPath(row: afterRow, section: afterSection)
    }

    /// Carries a position past the positions removed before and taken after.
    ///
    /// - Parameters:
    ///   - position: A before-position.
    ///   - gone: Sorted before-positions that leave (deleted or moved away).
    ///   - taken: Sorted after-positions that arrive (inserted or moved in).
    /// - Returns: The after-position, or `nil` when `position` is one of `gone`.
    private static func carry(_ position: Int, gone: [Int], taken: [Int]) -> Int? {
        var rank = position
        for removed in gone {
            if removed == position { return nil }
            if removed > position { break }
            rank -= 1
        }
        var slot = rank
        for arrived in taken {
            if arrived > slot { break }
            slot += 1
        }
        return slot
    }
}
