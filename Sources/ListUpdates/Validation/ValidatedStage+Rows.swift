import Foundation

extension ValidatedStage {
    /// The row changes of a batch as keys, in bounds (rule 5), normalized (rules 12 and 9)
    /// and free of conflicts (rules 6 to 9 and 11): the second phase of validation.
    struct RowChanges {
        /// Every row delete as given, in bounds, sorted, duplicates kept (for rule 14).
        let allDeletes: [Int]
        /// Sorted, unique row deletes outside replaced sections, as before-keys.
        let deleted: [Int]
        /// Sorted, unique row reloads outside replaced sections, as before-keys.
        let reloaded: [Int]
        /// Sorted, unique row reconfigures outside replaced sections, as before-keys.
        let reconfigured: [Int]
        /// Sorted, unique row inserts outside new sections, as after-keys.
        let inserted: [Int]
        /// Unique row moves sorted by source, then destination.
        let moves: [(from: Int, to: Int)]
        /// The moves sorted by destination, then source.
        let movesByDestination: [(from: Int, to: Int)]
        /// The sources of ``moves``, in its order.
        let moveSources: [Int]

        /// Checks the positions of `changes` against the row counts (rule 5) and normalizes
        /// them: row changes inside replaced sections are dropped (rule 12), exact duplicates
        /// too (rule 9 for moves).
        ///
        /// - Parameters:
        ///   - changes: The batch.
        ///   - sections: Its section changes, checked.
        ///   - sectionSources: Where each section after the batch comes from.
        ///   - beforeRowCounts: The row count of each section before the batch.
        ///   - givenAfter: The row count of each section after it, when the caller knows them.
        /// - Throws: The first ``BatchUpdateError/rowOutOfBounds(_:indexPath:sectionCount:rowCount:)``.
        /// - Complexity: O(*r* log *r*) for *r* row changes.
        init(
            _ changes: ListChanges,
            _ sections: SectionChanges,
            sectionSources: [SectionSource],
            beforeRowCounts: [Int],
            givenAfter: [Int]?
        ) throws(BatchUpdateError) {
            func checkBefore(_ path: IndexPath, _ change: BatchUpdateError.RowChange) throws(BatchUpdateError) -> Int {
                let section = path[0]
                guard (0..<sections.countBefore).contains(section) else {
                    throw .rowOutOfBounds(change, indexPath: path, sectionCount: sections.countBefore, rowCount: nil)
                }
                guard (0..<beforeRowCounts[section]).contains(path[1]) else {
                    throw .rowOutOfBounds(
                        change, indexPath: path, sectionCount: sections.countBefore, rowCount: beforeRowCounts[section]
                    )
                }
                return ValidatedStage.key(section: section, row: path[1])
            }
            func checkAfterSection(_ path: IndexPath, _ change: BatchUpdateError.RowChange) throws(BatchUpdateError) -> Int {
                guard (0..<sections.countAfter).contains(path[0]) else {
                    throw .rowOutOfBounds(change, indexPath: path, sectionCount: sections.countAfter, rowCount: nil)
                }
                return ValidatedStage.key(section: path[0], row: path[1])
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
                for key in inserts.sorted() { try Self.checkAfterRow(key, .insert, counts, sectionCount: sections.countAfter) }
                for pair in moves.sorted(by: { $0 < $1 }) {
                    try Self.checkAfterRow(pair.to, .moveDestination, counts, sectionCount: sections.countAfter)
                }
            }

            // Rule 12: row changes inside replaced sections are folded into the section change.
            // Rule 9: exact duplicate moves are dropped.
            let replacedBefore = sections.replacedBefore
            allDeletes.sort()
            self.allDeletes = allDeletes
            deleted = sortedUnique(allDeletes.filter { !replacedBefore[ValidatedStage.section($0)] })
            reloaded = sortedUnique(reloads.filter { !replacedBefore[ValidatedStage.section($0)] })
            reconfigured = sortedUnique(reconfigures.filter { !replacedBefore[ValidatedStage.section($0)] })
            inserted = sortedUnique(inserts.filter { !sectionSources[ValidatedStage.section($0)].isNew })
            moves.sort { $0 < $1 }
            var uniqueMoves: [(from: Int, to: Int)] = []
            uniqueMoves.reserveCapacity(moves.count)
            for pair in moves where uniqueMoves.last.map({ $0 != pair }) ?? true { uniqueMoves.append(pair) }
            self.moves = uniqueMoves
            moveSources = uniqueMoves.map(\.from)
            movesByDestination = uniqueMoves.sorted { ($0.to, $0.from) < ($1.to, $1.from) }
        }

        /// Rules 6 to 9 and 11 for rows: a row changed twice, a move from a changed row or to
        /// an inserted one, two moves sharing one end, a move out of a replaced section or
        /// into one.
        ///
        /// - Parameters:
        ///   - sections: The batch's section changes.
        ///   - sectionSources: Where each section after the batch comes from.
        /// - Throws: The first ``BatchUpdateError`` of these rules.
        /// - Complexity: O(*r* log *r*) for *r* row changes.
        func checkConflicts(_ sections: SectionChanges, sectionSources: [SectionSource]) throws(BatchUpdateError) {
            // Rule 6.
            if let key = ValidatedStage.firstCommon(deleted, reloaded) {
                throw .rowChangedTwice(indexPath: ValidatedStage.indexPath(key), .delete, .reload)
            }
            if let key = ValidatedStage.firstCommon(deleted, reconfigured) {
                throw .rowChangedTwice(indexPath: ValidatedStage.indexPath(key), .delete, .reconfigure)
            }
            if let key = ValidatedStage.firstCommon(reloaded, reconfigured) {
                throw .rowChangedTwice(indexPath: ValidatedStage.indexPath(key), .reload, .reconfigure)
            }
            // Rules 7 and 8.
            let sourceChanges: [([Int], BatchUpdateError.RowChange)] = [
                (deleted, .delete), (reloaded, .reload), (reconfigured, .reconfigure),
            ]
            for (keys, change) in sourceChanges {
                if let key = ValidatedStage.firstCommon(moveSources, keys), let pair = moves.first(where: { $0.from == key }) {
                    throw .rowMoveFromChanged(Self.move(pair), change)
                }
            }
            if let key = ValidatedStage.firstCommon(movesByDestination.map(\.to), inserted),
                let pair = movesByDestination.first(where: { $0.to == key })
            {
                throw .rowMoveToInserted(Self.move(pair))
            }
            // Rule 9: sorted by source, then by destination, two different moves sharing one
            // end are neighbours.
            for (a, b) in zip(moves, moves.dropFirst()) where a.from == b.from {
                throw .conflictingRowMoves(Self.move(a), Self.move(b))
            }
            for (a, b) in zip(movesByDestination, movesByDestination.dropFirst()) where a.to == b.to {
                throw .conflictingRowMoves(Self.move(a), Self.move(b))
            }
            // Rule 11.
            for pair in moves {
                let from = ValidatedStage.section(pair.from)
                if sections.deletedSet.contains(from) { throw .rowMoveOutOfReplacedSection(Self.move(pair), section: from, .delete) }
                if sections.reloadedSet.contains(from) { throw .rowMoveOutOfReplacedSection(Self.move(pair), section: from, .reload) }
                let to = ValidatedStage.section(pair.to)
                switch sectionSources[to] {
                case .inserted: throw .rowMoveIntoReplacedSection(Self.move(pair), section: to, .insert)
                case .reloaded: throw .rowMoveIntoReplacedSection(Self.move(pair), section: to, .reload)
                case .moved, .kept: break
                }
            }
        }

        /// Rule 13 for rows: the row count of each section after the batch, derived from the
        /// count before and the changes, checked against the given counts; without given
        /// counts, rule 5 for after-positions against the derived ones.
        ///
        /// - Parameters:
        ///   - sections: The batch's section changes.
        ///   - mapping: Where each section after the batch comes from, and where each section
        ///     before it goes.
        ///   - beforeRowCounts: The row count of each section before the batch.
        ///   - givenAfter: The row count of each section after it, when the caller knows them.
        /// - Returns: The row count of each section after the batch (`nil` for a new section
        ///   when no counts were given).
        /// - Throws: ``BatchUpdateError/invalidRowCount(section:sectionBefore:after:before:inserted:deleted:movedIn:movedOut:)``
        ///   or ``BatchUpdateError/rowOutOfBounds(_:indexPath:sectionCount:rowCount:)``.
        /// - Complexity: O(*n* + *r*) for *n* sections and *r* row changes.
        func afterRowCounts(
            _ sections: SectionChanges,
            mapping: (sources: [SectionSource], targets: [Int?]),
            beforeRowCounts: [Int],
            givenAfter: [Int]?
        ) throws(BatchUpdateError) -> [Int?] {
            var deletedPerSection = [Int](repeating: 0, count: sections.countBefore)
            var movedOutPerSection = [Int](repeating: 0, count: sections.countBefore)
            var insertedPerSection = [Int](repeating: 0, count: sections.countAfter)
            var movedInPerSection = [Int](repeating: 0, count: sections.countAfter)
            for key in deleted { deletedPerSection[ValidatedStage.section(key)] += 1 }
            for key in inserted { insertedPerSection[ValidatedStage.section(key)] += 1 }
            for pair in moves where mapping.targets[ValidatedStage.section(pair.from)] != ValidatedStage.section(pair.to) {
                movedOutPerSection[ValidatedStage.section(pair.from)] += 1
                movedInPerSection[ValidatedStage.section(pair.to)] += 1
            }
            var afterCounts = [Int?](repeating: nil, count: sections.countAfter)
            for (section, source) in mapping.sources.enumerated() {
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
                for key in inserted { try Self.checkAfterRow(key, .insert, afterCounts, sectionCount: sections.countAfter) }
                for pair in moves { try Self.checkAfterRow(pair.to, .moveDestination, afterCounts, sectionCount: sections.countAfter) }
            }
            return afterCounts
        }

        /// The strict-mode rules (tier B): 14 (duplicate row deletes), 15 (row changes inside
        /// a moved section) and 16 (a reconfigured row that shifts).
        ///
        /// - Parameters:
        ///   - sections: The batch's section changes.
        ///   - targets: Where each section before the batch goes (`nil` when deleted).
        /// - Throws: The first ``BatchUpdateError`` of these rules.
        /// - Complexity: O(*r* log *r*) for *r* row changes.
        func checkStrictRules(_ sections: SectionChanges, targets: [Int?]) throws(BatchUpdateError) {
            // Rule 14: the sorted deletes hold duplicates next to each other.
            let replacedBefore = sections.replacedBefore
            var index = 0
            while index < allDeletes.count {
                var end = index + 1
                while end < allDeletes.count, allDeletes[end] == allDeletes[index] { end += 1 }
                if end - index > 1, !replacedBefore[ValidatedStage.section(allDeletes[index])] {
                    throw .duplicateRowDelete(indexPath: ValidatedStage.indexPath(allDeletes[index]), count: end - index)
                }
                index = end
            }
            // Rule 15.
            if !sections.moves.isEmpty {
                func checkBefore(_ key: Int, _ change: BatchUpdateError.RowChange) throws(BatchUpdateError) {
                    if let move = sections.moveBySource[ValidatedStage.section(key)] {
                        throw .rowChangeInMovedSection(move, change, indexPath: ValidatedStage.indexPath(key))
                    }
                }
                func checkAfter(_ key: Int, _ change: BatchUpdateError.RowChange) throws(BatchUpdateError) {
                    if let move = sections.moveByDestination[ValidatedStage.section(key)] {
                        throw .rowChangeInMovedSection(move, change, indexPath: ValidatedStage.indexPath(key))
                    }
                }
                for key in deleted { try checkBefore(key, .delete) }
                for key in reloaded { try checkBefore(key, .reload) }
                for key in inserted { try checkAfter(key, .insert) }
                for pair in moves {
                    try checkBefore(pair.from, .moveSource)
                    try checkAfter(pair.to, .moveDestination)
                }
            }
            // Rule 16: a reconfigured row keeps its position in its batch, so that the
            // reconfigure names the same row whichever index space a list view reads it in.
            if !reconfigured.isEmpty {
                let afters = keptRowPositionsAfter(
                    reconfigured,
                    removed: sortedUnique(deleted + moveSources),
                    placed: sortedUnique(inserted + moves.map(\.to))
                ) { section in
                    guard let target = targets[section] else {
                        requirementFailure("internal inconsistency: a reconfigured row's section \(section) is deleted")
                    }
                    return target
                }
                for (before, after) in zip(reconfigured, afters) where before != after {
                    throw .reconfiguredRowShifts(from: ValidatedStage.indexPath(before), to: ValidatedStage.indexPath(after))
                }
            }
        }

        /// Rule 5 for one after-position whose section is in bounds: its row against the
        /// section's count, when known.
        private static func checkAfterRow(
            _ key: Int, _ change: BatchUpdateError.RowChange, _ counts: [Int?], sectionCount: Int
        ) throws(BatchUpdateError) {
            let section = ValidatedStage.section(key)
            guard let count = counts[section] else { return }
            guard key & 0xFFFF_FFFF < count else {
                throw .rowOutOfBounds(change, indexPath: ValidatedStage.indexPath(key), sectionCount: sectionCount, rowCount: count)
            }
        }

        /// A move of keys as index paths.
        private static func move(_ pair: (from: Int, to: Int)) -> ListChanges.RowMove {
            ListChanges.RowMove(from: ValidatedStage.indexPath(pair.from), to: ValidatedStage.indexPath(pair.to))
        }
    }
}
