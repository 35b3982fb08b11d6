import Foundation

extension SectionedDiff {
    /// Matches old and new sections and rows by identifier.
    ///
    /// - Parameters:
    ///   - old: The sections before the change.
    ///   - new: The sections after the change.
    ///   - sectionID: A section's identifier.
    ///   - rows: A section's rows, in display order.
    ///   - rowID: A row's identifier.
    ///   - rowContentEqual: Whether two rows with the same identifier show the same content.
    /// - Throws: ``ListDiffError`` when an identifier occurs twice on one side.
    /// - Complexity: Expected O(n + m) for n old and m new rows.
    @inlinable @inline(__always)
    init<Section, SectionID: Hashable, Row, RowID: Hashable>(
        matching old: [Section],
        to new: [Section],
        sectionID: (Section) -> SectionID,
        rows: (Section) -> [Row],
        rowID: (Row) -> RowID,
        rowContentEqual: (Row, Row) -> Bool
    ) throws(ListDiffError) {
        self.init(oldSectionCount: old.count, newSectionCount: new.count)
        try matchSections(old: old, new: new, sectionID: sectionID)
        try matchRows(old: old.map(rows), new: new.map(rows), rowID: rowID, rowContentEqual: rowContentEqual)
    }

    /// Matches old and new sections by identifier, recording the matches.
    ///
    /// - Parameters:
    ///   - old: The sections before the change.
    ///   - new: The sections after the change.
    ///   - sectionID: A section's identifier.
    /// - Throws: ``ListDiffError/duplicateSectionIdentifier(identifier:side:first:second:)``.
    /// - Complexity: Expected O(s) for s sections; sections are few, so a `Dictionary` serves.
    @inlinable
    mutating func matchSections<Section, SectionID: Hashable>(
        old: [Section], new: [Section], sectionID: (Section) -> SectionID
    ) throws(ListDiffError) {
        var sectionTable = [SectionID: Int](minimumCapacity: old.count + new.count)
        for position in old.indices {
            let id = sectionID(old[position])
            if let first = sectionTable.updateValue(position, forKey: id) {
                throw .duplicateSectionIdentifier(
                    identifier: String(describing: id), side: .old, first: first, second: position)
            }
        }
        for position in new.indices {
            let id = sectionID(new[position])
            let previous = Self.claim(&sectionTable[id, default: Self.absent], for: position)
            if previous >= 0 {
                matchSection(old: previous, new: position)
            } else if previous != Self.absent {
                throw .duplicateSectionIdentifier(
                    identifier: String(describing: id), side: .new,
                    first: Self.claimant(of: previous), second: position)
            }
        }
    }

    /// Matches old and new rows by identifier across all sections, recording the matches and
    /// which matched rows changed content.
    ///
    /// - Parameters:
    ///   - oldRows: The rows of each old section.
    ///   - newRows: The rows of each new section.
    ///   - rowID: A row's identifier.
    ///   - rowContentEqual: Whether two rows with the same identifier show the same content.
    /// - Throws: ``ListDiffError/duplicateRowIdentifier(identifier:side:first:second:)``.
    /// - Complexity: Expected O(n + m) for n old and m new rows: each identifier is hashed
    ///   once, and the work allocates no memory per row.
    @inlinable @inline(__always)
    mutating func matchRows<Row, RowID: Hashable>(
        old oldRows: [[Row]], new newRows: [[Row]], rowID: (Row) -> RowID, rowContentEqual: (Row, Row) -> Bool
    ) throws(ListDiffError) {
        setRowCounts(old: oldRows.map(\.count), new: newRows.map(\.count))

        // Every old row goes into the table under its position code. A new row that finds its
        // old row claims the entry (its value becomes `claimed` plus the new row's code), so a
        // second new row with that identifier is caught.
        let claimed = 1 << 30
        precondition(
            oldRowMatched.count < claimed - 1 && rowSource.count < claimed - 1,
            "a diff supports up to \(claimed - 2) rows on each side")
        var table = Self.IdentifierTable(capacity: oldRowMatched.count)
        let seed = UInt64.random(in: .min ... .max)
        for section in oldRows.indices {
            let sectionRows = oldRows[section]
            for row in sectionRows.indices {
                let id = rowID(sectionRows[row])
                let hash = Self.IdentifierTable.hash(id, seed: seed)
                let (slot, found) = table.probe(hash) { value in
                    let (section, row) = oldPosition(ofCode: value)
                    return Self.IdentifierTable.equal(rowID(oldRows[section][row]), id)
                }
                if found {
                    throw Self.duplicateRow(id, .old, first: oldPosition(ofCode: table.value(at: slot)), second: (section, row))
                }
                table.store(oldCode(section: section, row: row), hash: hash, at: slot)
            }
        }
        var unmatched: [Int] = []  // codes of new rows whose identifier is not in old
        var unmatchedHashes: [Int] = []
        var flat = 0
        for section in newRows.indices {
            let sectionRows = newRows[section]
            for row in sectionRows.indices {
                let element = sectionRows[row]
                let id = rowID(element)
                let hash = Self.IdentifierTable.hash(id, seed: seed)
                let (slot, found) = table.probe(hash) { value in
                    if value < claimed {
                        let (section, row) = oldPosition(ofCode: value)
                        return Self.IdentifierTable.equal(rowID(oldRows[section][row]), id)
                    }
                    let (section, row) = newPosition(ofCode: value - claimed)
                    return Self.IdentifierTable.equal(rowID(newRows[section][row]), id)
                }
                let code = newCode(section: section, row: row)
                if !found {
                    unmatched.append(code)
                    unmatchedHashes.append(hash)
                } else {
                    let previous = table.value(at: slot)
                    guard previous < claimed else {
                        throw Self.duplicateRow(id, .new, first: newPosition(ofCode: previous - claimed), second: (section, row))
                    }
                    let (oldSection, oldRow) = oldPosition(ofCode: previous)
                    matchRow(
                        newFlat: flat, oldSection: oldSection, oldRow: oldRow,
                        changed: !rowContentEqual(oldRows[oldSection][oldRow], element))
                    table.store(claimed + code, hash: hash, at: slot)
                }
                flat += 1
            }
        }
        // New rows whose identifier is not in old can only repeat among themselves.
        if unmatched.count > 1 {
            var inserted = Self.IdentifierTable(capacity: unmatched.count)
            for (code, hash) in zip(unmatched, unmatchedHashes) {
                let (section, row) = newPosition(ofCode: code)
                let id = rowID(newRows[section][row])
                let (slot, found) = inserted.probe(hash) { value in
                    let (section, row) = newPosition(ofCode: value)
                    return Self.IdentifierTable.equal(rowID(newRows[section][row]), id)
                }
                if found {
                    throw Self.duplicateRow(id, .new, first: newPosition(ofCode: inserted.value(at: slot)), second: (section, row))
                }
                inserted.store(code, hash: hash, at: slot)
            }
        }
        _checkInvariants()
    }

    /// The error for a row identifier that occurs twice on one side.
    ///
    /// - Parameters:
    ///   - id: The repeated identifier.
    ///   - side: The side it repeats on.
    ///   - first: The (section, row) of its first occurrence.
    ///   - second: The (section, row) of the second.
    /// - Returns: ``ListDiffError/duplicateRowIdentifier(identifier:side:first:second:)``.
    @usableFromInline
    static func duplicateRow(
        _ id: some Hashable, _ side: ListDiffError.Side, first: (Int, Int), second: (Int, Int)
    ) -> ListDiffError {
        .duplicateRowIdentifier(
            identifier: String(describing: id), side: side,
            first: IndexPath(listSection: first.0, row: first.1),
            second: IndexPath(listSection: second.0, row: second.1))
    }
}
