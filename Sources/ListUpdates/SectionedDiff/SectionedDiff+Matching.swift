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
    ///   - sectionContentEqual: Whether two sections with the same identifier show the same
    ///     content besides their rows (header, footer).
    ///   - comparesSections: Whether to call `sectionContentEqual` at all.
    ///   - tolerant: `false` to throw on a repeated identifier; `true` to treat every
    ///     occurrence after the first as a distinct row or section (see `matchRows`).
    /// - Throws: ``ListDiffError`` when an identifier occurs twice on one side and `tolerant`
    ///   is `false`.
    /// - Complexity: Expected O(n + m) for n old and m new rows.
    @inlinable @inline(__always)
    init<Section, SectionID: Hashable, Row, RowID: Hashable>(
        matching old: [Section],
        to new: [Section],
        sectionID: (Section) -> SectionID,
        rows: (Section) -> [Row],
        rowID: (Row) -> RowID,
        rowContentEqual: (Row, Row) -> Bool,
        sectionContentEqual: (Section, Section) -> Bool = { _, _ in true },
        comparesSections: Bool = false,
        tolerant: Bool = false
    ) throws(ListDiffError) {
        self.init(oldSectionCount: old.count, newSectionCount: new.count)
        try matchSections(old: old, new: new, sectionID: sectionID, tolerant: tolerant)
        if comparesSections {
            for (oldSection, newSection) in sectionOldToNew.enumerated()
            where newSection >= 0 && !sectionContentEqual(old[oldSection], new[newSection]) {
                changedSections.append(oldSection)
            }
        }
        try matchRows(old: old.map(rows), new: new.map(rows), rowID: rowID, rowContentEqual: rowContentEqual, tolerant: tolerant)
    }

    /// Matches old and new sections by identifier, recording the matches.
    ///
    /// - Parameters:
    ///   - old: The sections before the change.
    ///   - new: The sections after the change.
    ///   - sectionID: A section's identifier.
    ///   - tolerant: Whether a repeated identifier is a distinct section (deleted on the old
    ///     side, inserted on the new side) instead of an error.
    /// - Throws: ``ListDiffError/duplicateSectionIdentifier(identifier:side:first:second:)``.
    /// - Complexity: Expected O(s) for s sections; sections are few, so a `Dictionary` serves,
    ///   and up to `smallSectionCount` sections on both sides are compared pairwise instead.
    @inlinable
    mutating func matchSections<Section, SectionID: Hashable>(
        old: [Section], new: [Section], sectionID: (Section) -> SectionID, tolerant: Bool
    ) throws(ListDiffError) {
        if old.count + new.count <= Self.smallSectionCount {
            // A flat list, or a few sections: no table to allocate and hash into.
            let oldIDs = old.map { sectionID($0) }
            for position in oldIDs.indices {
                guard let first = oldIDs[..<position].firstIndex(of: oldIDs[position]) else { continue }
                if tolerant { continue }
                throw .duplicateSectionIdentifier(
                    identifier: String(describing: oldIDs[position]), side: .old, first: first, second: position)
            }
            let newIDs = new.map { sectionID($0) }
            for position in newIDs.indices {
                let id = newIDs[position]
                if let first = newIDs[..<position].firstIndex(of: id) {
                    if tolerant { continue }
                    throw .duplicateSectionIdentifier(
                        identifier: String(describing: id), side: .new, first: first, second: position)
                }
                if let match = oldIDs.firstIndex(of: id) { matchSection(old: match, new: position) }
            }
            return
        }
        var sectionTable = [SectionID: Int](minimumCapacity: old.count + new.count)
        for position in old.indices {
            let id = sectionID(old[position])
            if let first = sectionTable.updateValue(position, forKey: id) {
                if tolerant {
                    sectionTable[id] = first
                    continue
                }
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
                if tolerant {
                    sectionTable[id] = previous  // the first claim stands; this one is inserted
                    continue
                }
                throw .duplicateSectionIdentifier(
                    identifier: String(describing: id), side: .new,
                    first: Self.claimant(of: previous), second: position)
            }
        }
    }

    /// The most sections, old and new together, that `matchSections` compares pairwise.
    @inlinable
    static var smallSectionCount: Int { 8 }

    /// Matches old and new rows by identifier across all sections, recording the matches and
    /// which matched rows changed content.
    ///
    /// 1. Every old row goes into a hash table under its position code. The fast insert
    ///    compares no identifiers, so its loop is short and the processor overlaps its table
    ///    accesses, which mostly miss the cache for long lists; it stops at the first entry
    ///    with the same stored hash bits (a repeated identifier, or rarely a partial-hash
    ///    collision), and the table is then rebuilt comparing identifiers.
    /// 2. In new order, each new row is first compared with the old row after the last one
    ///    matched: new rows mostly keep the order of their old rows, so that one comparison,
    ///    reading the old rows nearly in order, usually finds the match. Only the other rows
    ///    are hashed and looked up in the table.
    /// 3. New rows without an old row can only repeat among themselves: they go into a second
    ///    table, to catch such repeats.
    ///
    /// When `tolerant` is `true`, nothing throws: an old row whose identifier an earlier old
    /// row has stays out of the table (so it is only matched by the comparison of step 2, or
    /// deleted), a new row whose old row is already matched is inserted, and step 3 is
    /// skipped. Every old row is still matched at most once, so the result is a valid diff.
    ///
    /// - Parameters:
    ///   - oldRows: The rows of each old section.
    ///   - newRows: The rows of each new section.
    ///   - rowID: A row's identifier.
    ///   - rowContentEqual: Whether two rows with the same identifier show the same content.
    ///   - tolerant: Whether repeated identifiers are distinct rows instead of an error.
    /// - Throws: ``ListDiffError/duplicateRowIdentifier(identifier:side:first:second:)``: for
    ///   the first old row (in old order) that repeats an earlier one, else for the first new
    ///   row that repeats an earlier new row with an old counterpart, else for the first new
    ///   row that repeats an earlier new row without one.
    /// - Complexity: Expected O(n + m) for n old and m new rows: each identifier is hashed
    ///   at most once (twice on a repeated identifier or a partial-hash collision), and the
    ///   work allocates no memory per row.
    @inlinable @inline(__always)
    mutating func matchRows<Row, RowID: Hashable>(
        old oldRows: [[Row]], new newRows: [[Row]], rowID: (Row) -> RowID, rowContentEqual: (Row, Row) -> Bool,
        tolerant: Bool = false
    ) throws(ListDiffError) {
        // A closure, not `\.count`: a key path literal here is instantiated on every call.
        setRowCounts(old: oldRows.map { $0.count }, new: newRows.map { $0.count })
        let oldCount = oldStarts[oldStarts.count - 1]
        let newCount = newStarts[newStarts.count - 1]
        require(
            oldCount <= IdentifierTable.maxValue && newCount <= IdentifierTable.maxValue,
            "a diff supports up to \(IdentifierTable.maxValue) rows on each side")
        let seed = diffHashSeed

        // 1. Old rows into the table, under their position codes (consecutive in a section).
        var table = IdentifierTable(capacity: oldCount)
        var distinct = true
        for section in oldRows.indices where distinct {
            distinct = table.insertDistinct(oldRows[section], firstValue: oldCode(section: section, row: 0)) { row in
                IdentifierTable.hash(rowID(row), seed: seed)
            }
        }
        if !distinct {
            table = IdentifierTable(capacity: oldCount)
            try insertComparingIdentifiers(oldRows, into: &table, rowID: rowID, seed: seed, tolerant: tolerant)
        }

        // 2. Each new row's old row, in new order.
        var rowSource = [Int](repeating: -1, count: newCount)
        var rowChanged = [Bool](repeating: false, count: newCount)
        var oldRowMatched = [Bool](repeating: false, count: oldCount)
        var matchedRowCount = 0
        var unmatched: [(flat: Int, hash: Int)] = []  // new rows whose identifier is not in old
        var repeated: (first: (Int, Int), second: (Int, Int))?  // two new rows, one old row
        // Unchecked buffers: every flat position is below `newCount`, every old one below
        // `oldCount`; and a store through them costs no uniqueness check.
        rowSource.withUncheckedMutableElements { rowSource in
            rowChanged.withUncheckedMutableElements { rowChanged in
                oldRowMatched.withUncheckedMutableElements { oldRowMatched in
                    // The old row after the last one matched (at most one section further on).
                    var next = (section: 0, row: 0)
                    var flat = 0
                    search: for section in newRows.indices {
                        let sectionRows = newRows[section]
                        for row in sectionRows.indices {
                            defer { flat += 1 }
                            let element = sectionRows[row]
                            let id = rowID(element)
                            if next.section < oldRows.count && next.row == oldRows[next.section].count {
                                next = (next.section + 1, 0)
                            }
                            let old: (section: Int, row: Int)
                            if next.section < oldRows.count && next.row < oldRows[next.section].count
                                && IdentifierTable.equal(rowID(oldRows[next.section][next.row]), id)
                            {
                                old = next
                            } else {
                                let hash = IdentifierTable.hash(id, seed: seed)
                                let code = table.lookUp(hash) { value in
                                    let (section, row) = oldPosition(ofCode: value)
                                    return IdentifierTable.equal(rowID(oldRows[section][row]), id)
                                }
                                guard code >= 0 else {
                                    if !tolerant { unmatched.append((flat, hash)) }
                                    continue
                                }
                                old = oldPosition(ofCode: code)
                            }
                            let oldFlat = oldStarts[old.section] + old.row
                            let packed = PackedListChanges.pack(section: old.section, row: old.row)
                            if oldRowMatched[oldFlat] {
                                if tolerant { continue }  // a later occurrence: inserted
                                let first = rowSource[..<flat].firstIndex(of: packed) ?? flat
                                repeated = (newPosition(ofFlat: first), (section, row))
                                break search
                            }
                            oldRowMatched[oldFlat] = true
                            rowSource[flat] = packed
                            rowChanged[flat] = !rowContentEqual(oldRows[old.section][old.row], element)
                            matchedRowCount += 1
                            next = (old.section, old.row + 1)
                        }
                    }
                }
            }
        }
        if let repeated {
            let (section, row) = repeated.second
            throw Self.duplicateRow(rowID(newRows[section][row]), .new, first: repeated.first, second: repeated.second)
        }
        self.rowSource = rowSource
        self.rowChanged = rowChanged
        self.oldRowMatched = oldRowMatched
        self.matchedRowCount = matchedRowCount

        // 3. New rows whose identifier is not in old can only repeat among themselves.
        if unmatched.count > 1 {
            var inserted = IdentifierTable(capacity: unmatched.count)
            for (flat, hash) in unmatched {
                let (section, row) = newPosition(ofFlat: flat)
                let id = rowID(newRows[section][row])
                let (slot, found) = inserted.probe(hash) { value in
                    let (section, row) = newPosition(ofFlat: value)
                    return IdentifierTable.equal(rowID(newRows[section][row]), id)
                }
                if found {
                    throw Self.duplicateRow(id, .new, first: newPosition(ofFlat: inserted.value(at: slot)), second: (section, row))
                }
                inserted.store(flat, hash: hash, at: slot)
            }
        }
        _checkInvariants()
    }

    /// Adds every old row to `table` under its position code, comparing identifiers wherever
    /// stored hash bits are the same: the careful form of step 1 of `matchRows`.
    ///
    /// - Parameters:
    ///   - oldRows: The rows of each old section.
    ///   - table: An empty table with room for every old row.
    ///   - rowID: A row's identifier.
    ///   - seed: The diff's hash seed.
    ///   - tolerant: Whether to leave a repeat out of the table instead of throwing.
    /// - Throws: ``ListDiffError/duplicateRowIdentifier(identifier:side:first:second:)`` for the
    ///   first old row that repeats an earlier one.
    /// - Complexity: Expected O(n) for n old rows.
    @inlinable
    func insertComparingIdentifiers<Row, RowID: Hashable>(
        _ oldRows: [[Row]], into table: inout IdentifierTable, rowID: (Row) -> RowID, seed: UInt64, tolerant: Bool
    ) throws(ListDiffError) {
        for section in oldRows.indices {
            let sectionRows = oldRows[section]
            for row in sectionRows.indices {
                let id = rowID(sectionRows[row])
                let hash = IdentifierTable.hash(id, seed: seed)
                let (slot, found) = table.probe(hash) { value in
                    let (section, row) = oldPosition(ofCode: value)
                    return IdentifierTable.equal(rowID(oldRows[section][row]), id)
                }
                if found {
                    if tolerant { continue }
                    throw Self.duplicateRow(id, .old, first: oldPosition(ofCode: table.value(at: slot)), second: (section, row))
                }
                table.store(oldCode(section: section, row: row), hash: hash, at: slot)
            }
        }
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
