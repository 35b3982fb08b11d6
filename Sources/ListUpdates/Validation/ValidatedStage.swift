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

    /// Validates `changes` as one batch and normalizes it.
    ///
    /// - Throws: The first ``BatchUpdateError`` found.
    package init(
        _ changes: ListChanges,
        beforeRowCounts: [Int],
        afterRowCounts givenAfter: [Int]?,
        strict: Bool
    ) throws(BatchUpdateError) {
        require(beforeRowCounts.allSatisfy { $0 >= 0 }, "row counts before the batch must not be negative")
        require(givenAfter?.allSatisfy { $0 >= 0 } ?? true, "row counts after the batch must not be negative")
        for paths in [changes.deletedRows, changes.insertedRows, changes.reloadedRows, changes.reconfiguredRows] {
            for path in paths { Self.checkShape(path) }
        }
        for move in changes.movedRows {
            Self.checkShape(move.from)
            Self.checkShape(move.to)
        }
        require(
            beforeRowCounts.count < 1 << 31 && beforeRowCounts.allSatisfy { $0 < 1 << 31 },
            "a list may have at most 2^31 sections and 2^31 rows per section"
        )

        // MARK: Sections
        let sectionsBefore = beforeRowCounts.count
        let deletedSections = sortedUnique(changes.deletedSections)
        let insertedSections = sortedUnique(changes.insertedSections)
        let reloadedSections = sortedUnique(changes.reloadedSections)
        let sectionMoves = sortedUnique(changes.movedSections)
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
            guard let source else { requirementFailure("internal inconsistency: an after-section has no source") }
            return source
        }

        // MARK: Rows
        let replacedBefore = (0..<sectionsBefore).map { deletedSet.contains($0) || reloadedSet.contains($0) }
        func checkBefore(_ path: IndexPath, _ change: BatchUpdateError.RowChange) throws(BatchUpdateError) -> Int {
            let section = path[0]
            guard (0..<sectionsBefore).contains(section) else {
                throw .rowOutOfBounds(change, indexPath: path, sectionCount: sectionsBefore, rowCount: nil)
            }
            guard (0..<beforeRowCounts[section]).contains(path[1]) else {
                throw .rowOutOfBounds(
                    change, indexPath: path, sectionCount: sectionsBefore, rowCount: beforeRowCounts[section]
                )
            }
            return Self.key(section: section, row: path[1])
        }
        func checkAfterSection(_ path: IndexPath, _ change: BatchUpdateError.RowChange) throws(BatchUpdateError) -> Int {
            guard (0..<sectionsAfter).contains(path[0]) else {
                throw .rowOutOfBounds(change, indexPath: path, sectionCount: sectionsAfter, rowCount: nil)
            }
            return Self.key(section: path[0], row: path[1])
        }
        func checkAfterRow(_ key: Int, _ change: BatchUpdateError.RowChange, _ counts: [Int?]) throws(BatchUpdateError) {
            let section = Self.section(key)
            guard let count = counts[section] else { return }
            guard key & 0xFFFF_FFFF < count else {
                throw .rowOutOfBounds(change, indexPath: Self.indexPath(key), sectionCount: sectionsAfter, rowCount: count)
            }
        }
        func move(_ pair: (from: Int, to: Int)) -> ListChanges.RowMove {
            ListChanges.RowMove(from: Self.indexPath(pair.from), to: Self.indexPath(pair.to))
        }

        // Rule 5, before-positions, and the sections of after-positions.
        var allDeletes: [Int] = []
        allDeletes.reserveCapacity(changes.deletedRows.count)
        for path in changes.deletedRows { allDeletes.append(try checkBefore(path, .delete)) }
        var reloads: [Int] = []
        reloads.reserveCapacity(changes.reloadedRows.count)
        for path in changes.reloadedRows { reloads.append(try checkBefore(path, .reload)) }
        var reconfigures: [Int] = []
        reconfigures.reserveCapacity(changes.reconfiguredRows.count)
        for path in changes.reconfiguredRows { reconfigures.append(try checkBefore(path, .reconfigure)) }
        var moves: [(from: Int, to: Int)] = []
        moves.reserveCapacity(changes.movedRows.count)
        for rowMove in changes.movedRows {
            moves.append((try checkBefore(rowMove.from, .moveSource), try checkAfterSection(rowMove.to, .moveDestination)))
        }
        var inserts: [Int] = []
        inserts.reserveCapacity(changes.insertedRows.count)
        for path in changes.insertedRows { inserts.append(try checkAfterSection(path, .insert)) }
        if let givenAfter {
            let counts = givenAfter.map(Optional.some)
            for key in inserts.sorted() { try checkAfterRow(key, .insert, counts) }
            for pair in moves.sorted(by: { $0 < $1 }) { try checkAfterRow(pair.to, .moveDestination, counts) }
        }

        // Rule 12: row changes inside replaced sections are folded into the section change.
        // Rule 9: exact duplicate moves are dropped.
        allDeletes.sort()
        let deletedRows = sortedUnique(allDeletes.filter { !replacedBefore[Self.section($0)] })
        let reloadedRows = sortedUnique(reloads.filter { !replacedBefore[Self.section($0)] })
        let reconfiguredRows = sortedUnique(reconfigures.filter { !replacedBefore[Self.section($0)] })
        let insertedRows = sortedUnique(inserts.filter { !sectionSources[Self.section($0)].isNew })
        moves.sort { $0 < $1 }
        var rowMoves: [(from: Int, to: Int)] = []
        rowMoves.reserveCapacity(moves.count)
        for pair in moves where rowMoves.last.map({ $0 != pair }) ?? true { rowMoves.append(pair) }
        let moveSources = rowMoves.map(\.from)
        let byDestination = rowMoves.sorted { ($0.to, $0.from) < ($1.to, $1.from) }

        // Rule 6.
        if let key = Self.firstCommon(deletedRows, reloadedRows) {
            throw .rowChangedTwice(indexPath: Self.indexPath(key), .delete, .reload)
        }
        if let key = Self.firstCommon(deletedRows, reconfiguredRows) {
            throw .rowChangedTwice(indexPath: Self.indexPath(key), .delete, .reconfigure)
        }
        if let key = Self.firstCommon(reloadedRows, reconfiguredRows) {
            throw .rowChangedTwice(indexPath: Self.indexPath(key), .reload, .reconfigure)
        }
        // Rules 7 and 8.
        let sourceChanges: [([Int], BatchUpdateError.RowChange)] = [
            (deletedRows, .delete), (reloadedRows, .reload), (reconfiguredRows, .reconfigure),
        ]
        for (keys, change) in sourceChanges {
            if let key = Self.firstCommon(moveSources, keys), let pair = rowMoves.first(where: { $0.from == key }) {
                throw .rowMoveFromChanged(move(pair), change)
            }
        }
        if let key = Self.firstCommon(byDestination.map(\.to), insertedRows),
            let pair = byDestination.first(where: { $0.to == key })
        {
            throw .rowMoveToInserted(move(pair))
        }
        // Rule 9: sorted by source, then by destination, two different moves sharing one
        // end are neighbours.
        for (a, b) in zip(rowMoves, rowMoves.dropFirst()) where a.from == b.from {
            throw .conflictingRowMoves(move(a), move(b))
        }
        for (a, b) in zip(byDestination, byDestination.dropFirst()) where a.to == b.to {
            throw .conflictingRowMoves(move(a), move(b))
        }
        // Rule 11.
        for pair in rowMoves {
            let from = Self.section(pair.from)
            if deletedSet.contains(from) { throw .rowMoveOutOfReplacedSection(move(pair), section: from, .delete) }
            if reloadedSet.contains(from) { throw .rowMoveOutOfReplacedSection(move(pair), section: from, .reload) }
            let to = Self.section(pair.to)
            switch sectionSources[to] {
            case .inserted: throw .rowMoveIntoReplacedSection(move(pair), section: to, .insert)
            case .reloaded: throw .rowMoveIntoReplacedSection(move(pair), section: to, .reload)
            case .moved, .kept: break
            }
        }

        // Rule 13, rows: tally per surviving section.
        var deletedPerSection = [Int](repeating: 0, count: sectionsBefore)
        var movedOutPerSection = [Int](repeating: 0, count: sectionsBefore)
        var insertedPerSection = [Int](repeating: 0, count: sectionsAfter)
        var movedInPerSection = [Int](repeating: 0, count: sectionsAfter)
        for key in deletedRows { deletedPerSection[Self.section(key)] += 1 }
        for key in insertedRows { insertedPerSection[Self.section(key)] += 1 }
        for pair in rowMoves where targets[Self.section(pair.from)] != Self.section(pair.to) {
            movedOutPerSection[Self.section(pair.from)] += 1
            movedInPerSection[Self.section(pair.to)] += 1
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
            for key in insertedRows { try checkAfterRow(key, .insert, afterCounts) }
            for pair in rowMoves { try checkAfterRow(pair.to, .moveDestination, afterCounts) }
        }

        if strict {
            // Rule 14: the sorted deletes hold duplicates next to each other.
            var index = 0
            while index < allDeletes.count {
                var end = index + 1
                while end < allDeletes.count, allDeletes[end] == allDeletes[index] { end += 1 }
                if end - index > 1, !replacedBefore[Self.section(allDeletes[index])] {
                    throw .duplicateRowDelete(indexPath: Self.indexPath(allDeletes[index]), count: end - index)
                }
                index = end
            }
            // Rule 15.
            if !sectionMoves.isEmpty {
                func checkBefore(_ key: Int, _ change: BatchUpdateError.RowChange) throws(BatchUpdateError) {
                    if let move = sectionMoveBySource[Self.section(key)] {
                        throw .rowChangeInMovedSection(move, change, indexPath: Self.indexPath(key))
                    }
                }
                func checkAfter(_ key: Int, _ change: BatchUpdateError.RowChange) throws(BatchUpdateError) {
                    if let move = sectionMoveByDestination[Self.section(key)] {
                        throw .rowChangeInMovedSection(move, change, indexPath: Self.indexPath(key))
                    }
                }
                for key in deletedRows { try checkBefore(key, .delete) }
                for key in reloadedRows { try checkBefore(key, .reload) }
                for key in insertedRows { try checkAfter(key, .insert) }
                for pair in rowMoves {
                    try checkBefore(pair.from, .moveSource)
                    try checkAfter(pair.to, .moveDestination)
                }
            }
            // Rule 16: a reconfigured row keeps its position in its batch, so that the
            // reconfigure names the same row whichever index space a list view reads it in.
            if !reconfiguredRows.isEmpty {
                let afters = keptRowPositionsAfter(
                    reconfiguredRows,
                    removed: sortedUnique(deletedRows + moveSources),
                    placed: sortedUnique(insertedRows + rowMoves.map(\.to))
                ) { section in
                    guard let target = targets[section] else {
                        requirementFailure("internal inconsistency: a reconfigured row's section \(section) is deleted")
                    }
                    return target
                }
                for (before, after) in zip(reconfiguredRows, afters) where before != after {
                    throw .reconfiguredRowShifts(from: Self.indexPath(before), to: Self.indexPath(after))
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

    private static func checkShape(_ path: IndexPath) {
        require(path.count == 2, "a row index path must have exactly two indexes (section, row), got \(path)")
        require(
            (0..<1 << 31).contains(path[0]) && (0..<1 << 31).contains(path[1]),
            "a row index path's indexes must lie in 0..<2^31, got \(path)"
        )
    }

    /// The smallest element two sorted arrays share, found by merging them.
    private static func firstCommon(_ a: [Int], _ b: [Int]) -> Int? {
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            if a[i] == b[j] { return a[i] }
            if a[i] < b[j] { i += 1 } else { j += 1 }
        }
        return nil
    }
}
