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
    /// Sorted, unique row deletes outside deleted and reloaded sections (before-positions).
    package private(set) var deletedRows: [IndexPath]
    /// Sorted, unique row inserts outside inserted and reloaded sections (after-positions).
    package private(set) var insertedRows: [IndexPath]
    /// Sorted, unique row moves (before → after).
    package private(set) var movedRows: [ListChanges.RowMove]
    /// Sorted, unique row reloads outside deleted and reloaded sections (before-positions).
    package private(set) var reloadedRows: [IndexPath]
    /// Sorted, unique row reconfigures outside deleted and reloaded sections (before-positions).
    package private(set) var reconfiguredRows: [IndexPath]
    /// The row count of each section after the batch: as given, or derived (`nil` for an
    /// inserted or reloaded section when no counts were given).
    package private(set) var afterRowCounts: [Int?]

    /// Validates `changes` as one batch and normalizes it.
    ///
    /// - Throws: The first ``BatchUpdateError`` found.
    package init(
        _ changes: ListChanges,
        beforeRowCounts: [Int],
        afterRowCounts givenAfter: [Int]?,
        strict: Bool
    ) throws(BatchUpdateError) {
        precondition(beforeRowCounts.allSatisfy { $0 >= 0 }, "row counts before the batch must not be negative")
        precondition(givenAfter?.allSatisfy { $0 >= 0 } ?? true, "row counts after the batch must not be negative")
        for path in changes.deletedRows + changes.insertedRows + changes.reloadedRows + changes.reconfiguredRows
            + changes.movedRows.flatMap({ [$0.from, $0.to] })
        {
            precondition(path.count == 2, "a row index path must have exactly two indexes (section, row), got \(path)")
        }

        // MARK: Sections
        let sectionsBefore = beforeRowCounts.count
        let deletedSections = Self.sortedUnique(changes.deletedSections)
        let insertedSections = Self.sortedUnique(changes.insertedSections)
        let reloadedSections = Self.sortedUnique(changes.reloadedSections)
        let sectionMoves = Self.sortedUnique(changes.movedSections)
        let deletedSet = Set(deletedSections)
        let insertedSet = Set(insertedSections)
        let reloadedSet = Set(reloadedSections)

        // Rule 4, before-positions.
        for section in deletedSections where !(0..<sectionsBefore).contains(section) {
            throw .sectionOutOfBounds(.delete, section: section, sectionCount: sectionsBefore)
        }
        for section in reloadedSections where !(0..<sectionsBefore).contains(section) {
            throw .sectionOutOfBounds(.reload, section: section, sectionCount: sectionsBefore)
        }
        for move in sectionMoves where !(0..<sectionsBefore).contains(move.from) {
            throw .sectionOutOfBounds(.moveSource, section: move.from, sectionCount: sectionsBefore)
        }
        let sectionsAfter = givenAfter?.count ?? max(0, sectionsBefore + insertedSections.count - deletedSections.count)
        // Rule 4, after-positions.
        for section in insertedSections where !(0..<sectionsAfter).contains(section) {
            throw .sectionOutOfBounds(.insert, section: section, sectionCount: sectionsAfter)
        }
        for move in sectionMoves where !(0..<sectionsAfter).contains(move.to) {
            throw .sectionOutOfBounds(.moveDestination, section: move.to, sectionCount: sectionsAfter)
        }
        // Rule 6.
        if let section = deletedSections.first(where: reloadedSet.contains) {
            throw .sectionDeletedAndReloaded(section: section)
        }
        // Rule 7.
        if let move = sectionMoves.first(where: { deletedSet.contains($0.from) }) {
            throw .sectionMoveFromDeleted(move)
        }
        // Rule 8.
        if let move = sectionMoves.first(where: { insertedSet.contains($0.to) }) {
            throw .sectionMoveToInserted(move)
        }
        // Rule 9.
        var sectionMoveBySource: [Int: ListChanges.SectionMove] = [:]
        var sectionMoveByDestination: [Int: ListChanges.SectionMove] = [:]
        for move in sectionMoves {
            if let other = sectionMoveBySource.updateValue(move, forKey: move.from) {
                throw .conflictingSectionMoves(other, move)
            }
            if let other = sectionMoveByDestination.updateValue(move, forKey: move.to) {
                throw .conflictingSectionMoves(other, move)
            }
        }
        // Rule 10.
        if let move = sectionMoves.first(where: { reloadedSet.contains($0.from) }) {
            throw .reloadedSectionMoved(move)
        }
        // Rule 13, sections.
        if sectionsAfter != sectionsBefore + insertedSections.count - deletedSections.count {
            throw .invalidSectionCount(
                after: sectionsAfter,
                before: sectionsBefore,
                inserted: insertedSections.count,
                deleted: deletedSections.count
            )
        }

        // Section mapping: inserted sections and move destinations claim their slots; the
        // other surviving sections fill the remaining slots in their old order.
        var sources = [SectionSource?](repeating: nil, count: sectionsAfter)
        var targets = [Int?](repeating: nil, count: sectionsBefore)
        for section in insertedSections { sources[section] = .inserted }
        for move in sectionMoves {
            sources[move.to] = .moved(before: move.from)
            targets[move.from] = move.to
        }
        var slot = 0
        for section in 0..<sectionsBefore where !deletedSet.contains(section) && sectionMoveBySource[section] == nil {
            while sources[slot] != nil { slot += 1 }
            sources[slot] = reloadedSet.contains(section) ? .reloaded(before: section) : .kept(before: section)
            targets[section] = slot
            slot += 1
        }
        let sectionSources = sources.map { source in
            guard let source else { preconditionFailure("internal inconsistency: an after-section has no source") }
            return source
        }

        // MARK: Rows
        func isReplacedBefore(_ section: Int) -> Bool { deletedSet.contains(section) || reloadedSet.contains(section) }
        func checkBefore(_ path: IndexPath, _ change: BatchUpdateError.RowChange) throws(BatchUpdateError) {
            let section = path[0]
            guard (0..<sectionsBefore).contains(section) else {
                throw .rowOutOfBounds(change, indexPath: path, sectionCount: sectionsBefore, rowCount: nil)
            }
            guard (0..<beforeRowCounts[section]).contains(path[1]) else {
                throw .rowOutOfBounds(
                    change, indexPath: path, sectionCount: sectionsBefore, rowCount: beforeRowCounts[section]
                )
            }
        }
        func checkAfterSection(_ path: IndexPath, _ change: BatchUpdateError.RowChange) throws(BatchUpdateError) {
            guard (0..<sectionsAfter).contains(path[0]) else {
                throw .rowOutOfBounds(change, indexPath: path, sectionCount: sectionsAfter, rowCount: nil)
            }
        }
        func checkAfterRow(_ path: IndexPath, _ change: BatchUpdateError.RowChange, _ counts: [Int?]) throws(BatchUpdateError) {
            guard let count = counts[path[0]] else { return }
            guard (0..<count).contains(path[1]) else {
                throw .rowOutOfBounds(change, indexPath: path, sectionCount: sectionsAfter, rowCount: count)
            }
        }

        // Rule 5, before-positions, and the after-sections of after-positions.
        let allDeletes = changes.deletedRows.sorted()
        for path in allDeletes { try checkBefore(path, .delete) }
        for path in changes.reloadedRows { try checkBefore(path, .reload) }
        for path in changes.reconfiguredRows { try checkBefore(path, .reconfigure) }
        let rowMoves = Self.sortedUnique(changes.movedRows)
        for move in rowMoves { try checkBefore(move.from, .moveSource) }
        for path in changes.insertedRows { try checkAfterSection(path, .insert) }
        for move in rowMoves { try checkAfterSection(move.to, .moveDestination) }
        if let givenAfter {
            let counts = givenAfter.map(Optional.some)
            for path in changes.insertedRows { try checkAfterRow(path, .insert, counts) }
            for move in rowMoves { try checkAfterRow(move.to, .moveDestination, counts) }
        }

        // Rule 12: row changes inside replaced sections are folded into the section change.
        let deletedRows = Self.sortedUnique(allDeletes.filter { !isReplacedBefore($0[0]) })
        let reloadedRows = Self.sortedUnique(changes.reloadedRows.filter { !isReplacedBefore($0[0]) })
        let reconfiguredRows = Self.sortedUnique(changes.reconfiguredRows.filter { !isReplacedBefore($0[0]) })
        let insertedRows = Self.sortedUnique(changes.insertedRows.filter { !sectionSources[$0[0]].isNew })
        let deletedRowSet = Set(deletedRows)
        let reloadedRowSet = Set(reloadedRows)
        let reconfiguredRowSet = Set(reconfiguredRows)
        let insertedRowSet = Set(insertedRows)

        // Rule 6.
        if let path = deletedRows.first(where: reloadedRowSet.contains) {
            throw .rowChangedTwice(indexPath: path, .delete, .reload)
        }
        if let path = deletedRows.first(where: reconfiguredRowSet.contains) {
            throw .rowChangedTwice(indexPath: path, .delete, .reconfigure)
        }
        if let path = reloadedRows.first(where: reconfiguredRowSet.contains) {
            throw .rowChangedTwice(indexPath: path, .reload, .reconfigure)
        }
        // Rules 7 and 8.
        for move in rowMoves {
            if deletedRowSet.contains(move.from) { throw .rowMoveFromChanged(move, .delete) }
            if reloadedRowSet.contains(move.from) { throw .rowMoveFromChanged(move, .reload) }
            if reconfiguredRowSet.contains(move.from) { throw .rowMoveFromChanged(move, .reconfigure) }
        }
        if let move = rowMoves.first(where: { insertedRowSet.contains($0.to) }) {
            throw .rowMoveToInserted(move)
        }
        // Rule 9.
        var rowMoveBySource: [IndexPath: ListChanges.RowMove] = [:]
        var rowMoveByDestination: [IndexPath: ListChanges.RowMove] = [:]
        for move in rowMoves {
            if let other = rowMoveBySource.updateValue(move, forKey: move.from) {
                throw .conflictingRowMoves(other, move)
            }
            if let other = rowMoveByDestination.updateValue(move, forKey: move.to) {
                throw .conflictingRowMoves(other, move)
            }
        }
        // Rule 11.
        for move in rowMoves {
            let from = move.from[0]
            if deletedSet.contains(from) { throw .rowMoveOutOfReplacedSection(move, section: from, .delete) }
            if reloadedSet.contains(from) { throw .rowMoveOutOfReplacedSection(move, section: from, .reload) }
            let to = move.to[0]
            switch sectionSources[to] {
            case .inserted: throw .rowMoveIntoReplacedSection(move, section: to, .insert)
            case .reloaded: throw .rowMoveIntoReplacedSection(move, section: to, .reload)
            case .moved, .kept: break
            }
        }

        // Rule 13, rows: tally per surviving section.
        var deletedPerSection = [Int](repeating: 0, count: sectionsBefore)
        var movedOutPerSection = [Int](repeating: 0, count: sectionsBefore)
        var insertedPerSection = [Int](repeating: 0, count: sectionsAfter)
        var movedInPerSection = [Int](repeating: 0, count: sectionsAfter)
        for path in deletedRows { deletedPerSection[path[0]] += 1 }
        for path in insertedRows { insertedPerSection[path[0]] += 1 }
        for move in rowMoves where targets[move.from[0]] != move.to[0] {
            movedOutPerSection[move.from[0]] += 1
            movedInPerSection[move.to[0]] += 1
        }
        var afterCounts = [Int?](repeating: nil, count: sectionsAfter)
        for (section, source) in sectionSources.enumerated() {
            guard !source.isNew, let before = source.before else {
                afterCounts[section] = givenAfter?[section]
                continue
            }
            let expected = beforeRowCounts[before] + insertedPerSection[section] - deletedPerSection[before]
                + movedInPerSection[section] - movedOutPerSection[before]
            if let given = givenAfter?[section], given != expected {
                throw .invalidRowCount(
                    section: section,
                    sectionBefore: before,
                    after: given,
                    before: beforeRowCounts[before],
                    inserted: insertedPerSection[section],
                    deleted: deletedPerSection[before],
                    movedIn: movedInPerSection[section],
                    movedOut: movedOutPerSection[before]
                )
            }
            afterCounts[section] = expected
        }
        if givenAfter == nil {
            // Rule 5 for after-positions, against the derived counts.
            for path in insertedRows { try checkAfterRow(path, .insert, afterCounts) }
            for move in rowMoves { try checkAfterRow(move.to, .moveDestination, afterCounts) }
        }

        if strict {
            // Rule 14.
            var previous: IndexPath?
            var run = 0
            for path in allDeletes where !isReplacedBefore(path[0]) {
                run = path == previous ? run + 1 : 1
                previous = path
                if run == 2 {
                    let count = allDeletes.count { $0 == path }
                    throw .duplicateRowDelete(indexPath: path, count: count)
                }
            }
            // Rule 15.
            if !sectionMoves.isEmpty {
                func checkBefore(_ path: IndexPath, _ change: BatchUpdateError.RowChange) throws(BatchUpdateError) {
                    if let move = sectionMoveBySource[path[0]] {
                        throw .rowChangeInMovedSection(move, change, indexPath: path)
                    }
                }
                func checkAfter(_ path: IndexPath, _ change: BatchUpdateError.RowChange) throws(BatchUpdateError) {
                    if let move = sectionMoveByDestination[path[0]] {
                        throw .rowChangeInMovedSection(move, change, indexPath: path)
                    }
                }
                for path in deletedRows { try checkBefore(path, .delete) }
                for path in reloadedRows { try checkBefore(path, .reload) }
                for path in insertedRows { try checkAfter(path, .insert) }
                for move in rowMoves {
                    try checkBefore(move.from, .moveSource)
                    try checkAfter(move.to, .moveDestination)
                }
            }
        }

        self.sectionSources = sectionSources
        self.sectionTargets = targets
        self.movedSections = sectionMoves
        self.deletedRows = deletedRows
        self.insertedRows = insertedRows
        self.movedRows = rowMoves
        self.reloadedRows = reloadedRows
        self.reconfiguredRows = reconfiguredRows
        self.afterRowCounts = afterCounts
        _checkInvariants()
    }

    private static func sortedUnique<Element: Comparable>(_ elements: [Element]) -> [Element] {
        var result = elements.sorted()
        var write = 0
        for read in result.indices where read == 0 || result[read] != result[write - 1] {
            result[write] = result[read]
            write += 1
        }
        result.removeLast(result.count - write)
        return result
    }
}
