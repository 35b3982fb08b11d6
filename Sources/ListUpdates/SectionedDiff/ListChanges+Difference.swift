import Foundation

extension ListChanges {
    /// The changes that turn one sectioned list into another, matching sections and rows by
    /// identifier.
    ///
    /// Sections are matched by `sectionID`, rows by `rowID` across all sections, so a row that
    /// changes section is a move. A matched row whose content differs (`rowContentEqual`
    /// returns `false`) is reconfigured. Only rows and sections whose relative order changed are
    /// reported as moves: the diff keeps a longest increasing subsequence of the survivors still.
    ///
    /// The result is a *general* set of changes (see ``ListChanges``): a row that moves and
    /// changed is a move source that is also reconfigured, and a moved section may have row
    /// changes inside it. Rows of deleted and inserted sections are not listed; a row that moves
    /// out of a deleted section is an insert, one that moves into an inserted section is a
    /// delete. Call ``staged()`` on the result, or use
    /// ``stagedDifference(from:to:sectionID:rows:rowID:rowContentEqual:)``, to get batches a list
    /// view accepts.
    ///
    /// Section content other than rows (a header title, say) is not compared; reload such a
    /// section yourself if you need to.
    ///
    /// - Parameters:
    ///   - old: The sections before the change.
    ///   - new: The sections after the change.
    ///   - sectionID: A section's identifier, unique among the sections of each side.
    ///   - rows: A section's rows, in display order.
    ///   - rowID: A row's identifier, unique among all rows of each side.
    ///   - rowContentEqual: Whether two rows with the same identifier display the same content.
    /// - Returns: The changes; deletes and reconfigures name positions in `old`, inserts
    ///   positions in `new`, moves go from `old` to `new`.
    /// - Throws: ``ListDiffError`` naming the identifier and both positions when an identifier
    ///   occurs twice on one side.
    /// - Complexity: Expected O(n + m + k log k) for n old rows, m new rows and k rows that stay
    ///   in their section but leave their relative order; each identifier is hashed once and
    ///   the work allocates no memory per row.
    @inlinable
    public static func difference<Section, SectionID: Hashable, Row, RowID: Hashable>(
        from old: [Section],
        to new: [Section],
        sectionID: (Section) -> SectionID,
        rows: (Section) -> [Row],
        rowID: (Row) -> RowID,
        rowContentEqual: (Row, Row) -> Bool
    ) throws(ListDiffError) -> ListChanges {
        var diff = SectionedDiff(oldSectionCount: old.count, newSectionCount: new.count)

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
            let previous = SectionedDiff.claim(&sectionTable[id, default: SectionedDiff.absent], for: position)
            if previous >= 0 {
                diff.matchSection(old: previous, new: position)
            } else if previous != SectionedDiff.absent {
                throw .duplicateSectionIdentifier(
                    identifier: String(describing: id), side: .new,
                    first: SectionedDiff.claimant(of: previous), second: position)
            }
        }

        let oldRows = old.map(rows)
        let newRows = new.map(rows)
        diff.setRowCounts(old: oldRows.map(\.count), new: newRows.map(\.count))

        // Every old row goes into the table under its flat position. A new row that finds its
        // old row claims the entry (its value becomes `oldCount` plus the new row's flat
        // position), so a second new row with that identifier is caught.
        let oldCount = diff.oldRowMatched.count
        precondition(
            oldCount + diff.rowSource.count <= SectionedDiff.IdentifierTable.maxValue,
            "a diff supports up to \(SectionedDiff.IdentifierTable.maxValue) rows on both sides together")
        var table = SectionedDiff.IdentifierTable(capacity: oldCount)
        var flat = 0
        for section in oldRows.indices {
            let sectionRows = oldRows[section]
            for row in sectionRows.indices {
                let id = rowID(sectionRows[row])
                let hash = id.hashValue
                let (slot, found) = table.probe(hash) { value in
                    let (section, row) = diff.oldPosition(ofFlat: value)
                    return rowID(oldRows[section][row]) == id
                }
                if found {
                    let (firstSection, firstRow) = diff.oldPosition(ofFlat: table.value(at: slot))
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
                let hash = id.hashValue
                let (slot, found) = table.probe(hash) { value in
                    if value < oldCount {
                        let (section, row) = diff.oldPosition(ofFlat: value)
                        return rowID(oldRows[section][row]) == id
                    }
                    let (section, row) = diff.newPosition(ofFlat: value - oldCount)
                    return rowID(newRows[section][row]) == id
                }
                if !found {
                    unmatched.append(flat)
                    unmatchedHashes.append(hash)
                } else {
                    let previous = table.value(at: slot)
                    guard previous < oldCount else {
                        let (firstSection, firstRow) = diff.newPosition(ofFlat: previous - oldCount)
                        throw .duplicateRowIdentifier(
                            identifier: String(describing: id), side: .new,
                            first: IndexPath(listSection: firstSection, row: firstRow),
                            second: IndexPath(listSection: section, row: row))
                    }
                    let (oldSection, oldRow) = diff.oldPosition(ofFlat: previous)
                    diff.matchRow(
                        newFlat: flat, oldSection: oldSection, oldRow: oldRow,
                        changed: !rowContentEqual(oldRows[oldSection][oldRow], element))
                    table.store(oldCount + flat, hash: hash, at: slot)
                }
                flat += 1
            }
        }
        // New rows whose identifier is not in old can only repeat among themselves.
        if unmatched.count > 1 {
            var inserted = SectionedDiff.IdentifierTable(capacity: unmatched.count)
            for (flat, hash) in zip(unmatched, unmatchedHashes) {
                let (section, row) = diff.newPosition(ofFlat: flat)
                let id = rowID(newRows[section][row])
                let (slot, found) = inserted.probe(hash) { value in
                    let (section, row) = diff.newPosition(ofFlat: value)
                    return rowID(newRows[section][row]) == id
                }
                if found {
                    let (firstSection, firstRow) = diff.newPosition(ofFlat: inserted.value(at: slot))
                    throw .duplicateRowIdentifier(
                        identifier: String(describing: id), side: .new,
                        first: IndexPath(listSection: firstSection, row: firstRow),
                        second: IndexPath(listSection: section, row: row))
                }
                inserted.store(flat, hash: hash, at: slot)
            }
        }
        return diff.changes()
    }

    /// The changes that turn one sectioned list into another, for sections and rows that are
    /// `Identifiable`, with rows compared by `==`.
    ///
    /// An app that holds `[Section]` where each section has an `items` array writes
    /// `try ListChanges.difference(from: oldSections, to: newSections, rows: \.items)`.
    /// See ``difference(from:to:sectionID:rows:rowID:rowContentEqual:)`` for the form of the
    /// result.
    ///
    /// - Parameters:
    ///   - old: The sections before the change.
    ///   - new: The sections after the change.
    ///   - rows: A section's rows, in display order.
    /// - Returns: The general changes; use ``staged()`` for batches a list view accepts.
    /// - Throws: ``ListDiffError`` when a section or row identifier occurs twice on one side.
    /// - Complexity: Expected O(n + m + k log k), as the general form.
    @inlinable
    public static func difference<Section: Identifiable, Row: Identifiable & Equatable>(
        from old: [Section],
        to new: [Section],
        rows: (Section) -> [Row]
    ) throws(ListDiffError) -> ListChanges {
        try difference(
            from: old, to: new, sectionID: { $0.id }, rows: rows, rowID: { $0.id }, rowContentEqual: { $0 == $1 })
    }

    /// The changes that turn one flat list into another: a list of one section, section 0,
    /// which exists before and after the change.
    ///
    /// - Parameters:
    ///   - old: The rows before the change.
    ///   - new: The rows after the change.
    /// - Returns: The general changes, every index path in section 0; use ``staged()`` for
    ///   batches a list view accepts.
    /// - Throws: ``ListDiffError/duplicateRowIdentifier(identifier:side:first:second:)`` when
    ///   an identifier occurs twice on one side.
    /// - Complexity: Expected O(n + m + k log k), as the general form.
    @inlinable
    public static func difference<Row: Identifiable & Equatable>(
        from old: [Row],
        to new: [Row]
    ) throws(ListDiffError) -> ListChanges {
        try difference(
            from: [old], to: [new], sectionID: { _ in 0 }, rows: { $0 }, rowID: { $0.id },
            rowContentEqual: { $0 == $1 })
    }

    /// The batches that turn one sectioned list into another: the difference, staged.
    ///
    /// The same as `difference(from:to:sectionID:rows:rowID:rowContentEqual:).staged()`: at
    /// most two stages, the second only when a row moves and changed.
    ///
    /// - Parameters:
    ///   - old: The sections before the change.
    ///   - new: The sections after the change.
    ///   - sectionID: A section's identifier, unique among the sections of each side.
    ///   - rows: A section's rows, in display order.
    ///   - rowID: A row's identifier, unique among all rows of each side.
    ///   - rowContentEqual: Whether two rows with the same identifier display the same content.
    /// - Returns: The stages to apply in order; `[]` when nothing changed.
    /// - Throws: ``ListDiffError`` when an identifier occurs twice on one side.
    /// - Complexity: Expected O(n + m + c log c) for n old rows, m new rows and c changes.
    @inlinable
    public static func stagedDifference<Section, SectionID: Hashable, Row, RowID: Hashable>(
        from old: [Section],
        to new: [Section],
        sectionID: (Section) -> SectionID,
        rows: (Section) -> [Row],
        rowID: (Row) -> RowID,
        rowContentEqual: (Row, Row) -> Bool
    ) throws(ListDiffError) -> [ListChanges] {
        try difference(
            from: old, to: new, sectionID: sectionID, rows: rows, rowID: rowID, rowContentEqual: rowContentEqual
        ).staged()
    }

    /// The batches that turn one sectioned list of `Identifiable` sections and rows into
    /// another: the difference, staged.
    ///
    /// - Parameters:
    ///   - old: The sections before the change.
    ///   - new: The sections after the change.
    ///   - rows: A section's rows, in display order.
    /// - Returns: The stages to apply in order; `[]` when nothing changed.
    /// - Throws: ``ListDiffError`` when a section or row identifier occurs twice on one side.
    /// - Complexity: Expected O(n + m + c log c) for n old rows, m new rows and c changes.
    @inlinable
    public static func stagedDifference<Section: Identifiable, Row: Identifiable & Equatable>(
        from old: [Section],
        to new: [Section],
        rows: (Section) -> [Row]
    ) throws(ListDiffError) -> [ListChanges] {
        try difference(from: old, to: new, rows: rows).staged()
    }

    /// The batches that turn one flat list (section 0) into another: the difference, staged.
    ///
    /// - Parameters:
    ///   - old: The rows before the change.
    ///   - new: The rows after the change.
    /// - Returns: The stages to apply in order; `[]` when nothing changed.
    /// - Throws: ``ListDiffError/duplicateRowIdentifier(identifier:side:first:second:)`` when
    ///   an identifier occurs twice on one side.
    /// - Complexity: Expected O(n + m + c log c) for n old rows, m new rows and c changes.
    @inlinable
    public static func stagedDifference<Row: Identifiable & Equatable>(
        from old: [Row],
        to new: [Row]
    ) throws(ListDiffError) -> [ListChanges] {
        try difference(from: old, to: new).staged()
    }
}
