import Foundation

extension SectionedDiff {
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
    @inlinable
    mutating func matchRows<Row, RowID: Hashable>(
        old oldRows: [[Row]], new newRows: [[Row]], rowID: (Row) -> RowID, rowContentEqual: (Row, Row) -> Bool
    ) throws(ListDiffError) {
        setRowCounts(old: oldRows.map(\.count), new: newRows.map(\.count))

        // Every old row goes into the table under its flat position. A new row that finds its
        // old row claims the entry (its value becomes `oldCount` plus the new row's flat
        // position), so a second new row with that identifier is caught.
        let oldCount = oldRowMatched.count
        precondition(
            oldCount + rowSource.count <= Self.IdentifierTable.maxValue,
            "a diff supports up to \(Self.IdentifierTable.maxValue) rows on both sides together")
        var table = Self.IdentifierTable(capacity: oldCount)
        let seed = UInt64.random(in: .min ... .max)
        var flat = 0
        for section in oldRows.indices {
            let sectionRows = oldRows[section]
            for row in sectionRows.indices {
                let id = rowID(sectionRows[row])
                let hash = Self.IdentifierTable.hash(id, seed: seed)
                let (slot, found) = table.probe(hash) { value in
                    let (section, row) = oldPosition(ofFlat: value)
                    return Self.IdentifierTable.equal(rowID(oldRows[section][row]), id)
                }
                if found {
                    let (firstSection, firstRow) = oldPosition(ofFlat: table.value(at: slot))
                    throw .duplicateRowIdentifier(
                        identifier: String(describing: id), side: .old,
                        first: IndexPath(listSection: firstSection, row: firstRow),
                        second: IndexPath(listSection: section, row: row))
                }
                table.store(flat, hash: hash, at: slot)
                flat += 1
            }
        }
        var unmatched: [Int] = []  // flat positions of new rows whose identifier is not in old
        var unmatchedHashes: [Int] = []
        flat = 0
        for section in newRows.indices {
            let sectionRows = newRows[section]
            for row in sectionRows.indices {
                let element = sectionRows[row]
                let id = rowID(element)
                let hash = Self.IdentifierTable.hash(id, seed: seed)
                let (slot, found) = table.probe(hash) { value in
                    if value < oldCount {
                        let (section, row) = oldPosition(ofFlat: value)
                        return Self.IdentifierTable.equal(rowID(oldRows[section][row]), id)
                    }
                    let (section, row) = newPosition(ofFlat: value - oldCount)
                    return Self.IdentifierTable.equal(rowID(newRows[section][row]), id)
                }
                if !found {
                    unmatched.append(flat)
                    unmatchedHashes.append(hash)
                } else {
                    let previous = table.value(at: slot)
                    guard previous < oldCount else {
                        let (firstSection, firstRow) = newPosition(ofFlat: previous - oldCount)
                        throw .duplicateRowIdentifier(
                            identifier: String(describing: id), side: .new,
                            first: IndexPath(listSection: firstSection, row: firstRow),
                            second: IndexPath(listSection: section, row: row))
                    }
                    let (oldSection, oldRow) = oldPosition(ofFlat: previous)
                    matchRow(
                        newFlat: flat, oldSection: oldSection, oldRow: oldRow,
                        changed: !rowContentEqual(oldRows[oldSection][oldRow], element))
                    table.store(oldCount + flat, hash: hash, at: slot)
                }
                flat += 1
            }
        }
        // New rows whose identifier is not in old can only repeat among themselves.
        if unmatched.count > 1 {
            var inserted = Self.IdentifierTable(capacity: unmatched.count)
            for (flat, hash) in zip(unmatched, unmatchedHashes) {
                let (section, row) = newPosition(ofFlat: flat)
                let id = rowID(newRows[section][row])
                let (slot, found) = inserted.probe(hash) { value in
                    let (section, row) = newPosition(ofFlat: value)
                    return Self.IdentifierTable.equal(rowID(newRows[section][row]), id)
                }
                if found {
                    let (firstSection, firstRow) = newPosition(ofFlat: inserted.value(at: slot))
                    throw .duplicateRowIdentifier(
                        identifier: String(describing: id), side: .new,
                        first: IndexPath(listSection: firstSection, row: firstRow),
                        second: IndexPath(listSection: section, row: row))
                }
                inserted.store(flat, hash: hash, at: slot)
            }
        }
        _checkInvariants()
    }
}
