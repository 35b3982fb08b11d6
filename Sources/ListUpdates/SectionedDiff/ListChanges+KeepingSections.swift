import Foundation

// The staged difference whose stages carry the data the data source shows during each batch:
// it keeps every section that is in both states. See the "Keeping sections" part of the
// DiffingArrays article for when to use it.

extension ListChanges {
    /// The batches that turn one sectioned list into another, each with the data the data
    /// source shows during it, keeping every section that is in both states.
    ///
    /// Unlike ``stagedDifference(from:to:sectionID:rows:rowID:rowContentEqual:)``, whose
    /// stages all expect the data source to show `new`, each stage here comes with its own
    /// data: the state the list displays once the batch is applied. That lets a section that
    /// moves and changes inside keep its identity (its cells, scroll position, selection and
    /// header) even when its row count changes, which the final-state form can only express as
    /// a delete plus an insert.
    ///
    /// - When no section that moves has a change inside it, the stages are those of the
    ///   final-state form (one, or two when a moved or shifted row is refreshed after the
    ///   structural stage), and only a refresh stage's predecessor shows rows with old values.
    /// - Otherwise the first stage deletes, inserts and moves sections only, as few moves as
    ///   can be, and its data shows every surviving section with its old rows; an inserted
    ///   section shows the rows that come from no surviving section. One stage then makes every
    ///   row change with the sections in place — rows that move into inserted sections keep
    ///   their identity too — and a refresh stage may follow. Three stages at most.
    ///
    /// A section is deleted and inserted again only when the duplicate policy makes its two
    /// occurrences distinct sections. Rows of deleted sections that land elsewhere are
    /// inserted anew, as in the final-state form. Every stage passes the strict batch rules
    /// when the list shows the previous stage's data (the old state, first) and the data
    /// source shows this stage's data.
    ///
    /// - Parameters:
    ///   - old: The sections before the change.
    ///   - new: The sections after the change.
    ///   - sectionID: A section's identifier, unique among the sections of each side.
    ///   - rows: A section's rows, in display order.
    ///   - rowID: A row's identifier, unique among all rows of each side.
    ///   - rowContentEqual: Whether two rows with the same identifier display the same content.
    ///   - sectionContentEqual: Whether two sections with the same identifier display the same
    ///     content apart from their rows (changed ones are reloaded); by default sections are
    ///     not compared.
    ///   - replacingRows: A copy of a section that holds the given rows instead of its own;
    ///     called for the sections of intermediate data only.
    /// - Returns: The stages to apply in order, each with its data; `[]` when nothing changed.
    ///   The last stage's data is `new`.
    /// - Throws: ``ListDiffError`` when an identifier occurs twice on one side.
    /// - Complexity: Expected O(n + m + c log c) for n old rows, m new rows and c changes,
    ///   like ``stagedDifference(from:to:sectionID:rows:rowID:rowContentEqual:)``, plus O(s)
    ///   per stage for s sections to build its data; `replacingRows` is called only for the
    ///   sections whose intermediate rows differ from both their old and their new rows.
    @inlinable @inline(__always)
    public static func stagedDifferenceKeepingSections<Section, SectionID: Hashable, Row, RowID: Hashable>(
        from old: [Section],
        to new: [Section],
        sectionID: (Section) -> SectionID,
        rows: (Section) -> [Row],
        rowID: (Row) -> RowID,
        rowContentEqual: (Row, Row) -> Bool,
        sectionContentEqual: (Section, Section) -> Bool = { _, _ in true },
        replacingRows: (Section, [Row]) -> Section
    ) throws(ListDiffError) -> [ListStage<[Section]>] {
        let diff = try SectionedDiff(
            matching: old, to: new, sectionID: sectionID, rows: rows, rowID: rowID, rowContentEqual: rowContentEqual,
            sectionContentEqual: sectionContentEqual, comparesSections: true)
        return stagesWithData(diff.stagesKeepingSections(), old: old, new: new, rows: rows, replacingRows: replacingRows)
    }

    /// The batches that turn one sectioned list into another, each with the data the data
    /// source shows during it, keeping every section that is in both states, for any input:
    /// identifiers that repeat on one side are treated by `duplicates`.
    ///
    /// See ``stagedDifferenceKeepingSections(from:to:sectionID:rows:rowID:rowContentEqual:sectionContentEqual:replacingRows:)``.
    /// A later occurrence of a section identifier is a distinct section, so it may be deleted
    /// while a section with the same identifier is inserted.
    ///
    /// - Parameters:
    ///   - old: The sections before the change.
    ///   - new: The sections after the change.
    ///   - sectionID: A section's identifier.
    ///   - rows: A section's rows, in display order.
    ///   - rowID: A row's identifier.
    ///   - rowContentEqual: Whether two rows with the same identifier display the same content.
    ///   - sectionContentEqual: Whether two sections with the same identifier display the same
    ///     content apart from their rows (changed ones are reloaded), or `nil` not to compare.
    ///   - duplicates: What a repeated identifier means (see ``ListDiffDuplicatePolicy``).
    ///   - replacingRows: A copy of a section that holds the given rows instead of its own.
    /// - Returns: The stages to apply in order, each with its data; `[]` when nothing changed.
    /// - Complexity: Expected O(n + m + c log c) for n old rows, m new rows and c changes, plus
    ///   O(s) per stage for s sections.
    @inlinable @inline(__always)
    public static func stagedDifferenceKeepingSections<Section, SectionID: Hashable, Row, RowID: Hashable>(
        from old: [Section],
        to new: [Section],
        sectionID: (Section) -> SectionID,
        rows: (Section) -> [Row],
        rowID: (Row) -> RowID,
        rowContentEqual: (Row, Row) -> Bool,
        sectionContentEqual: ((Section, Section) -> Bool)? = nil,
        duplicates: ListDiffDuplicatePolicy,
        replacingRows: (Section, [Row]) -> Section
    ) -> [ListStage<[Section]>] {
        let diff = tolerantDiff(old, new, sectionID, rows, rowID, rowContentEqual, sectionContentEqual)
        return stagesWithData(diff.stagesKeepingSections(), old: old, new: new, rows: rows, replacingRows: replacingRows)
    }

    /// The batches that turn one sectioned list of `Identifiable` sections and rows into
    /// another, each with the data the data source shows during it, keeping every section
    /// that is in both states.
    ///
    /// `try ListChanges.stagedDifferenceKeepingSections(from: old, to: new, rows: \.items)`;
    /// see ``stagedDifferenceKeepingSections(from:to:sectionID:rows:rowID:rowContentEqual:sectionContentEqual:replacingRows:)``.
    ///
    /// - Parameters:
    ///   - old: The sections before the change.
    ///   - new: The sections after the change.
    ///   - rows: A section's rows, in display order; intermediate data is built by writing
    ///     through it.
    /// - Returns: The stages to apply in order, each with its data; `[]` when nothing changed.
    /// - Throws: ``ListDiffError`` when a section or row identifier occurs twice on one side.
    /// - Complexity: Expected O(n + m + c log c) for n old rows, m new rows and c changes, plus
    ///   O(s) per stage for s sections.
    @inlinable
    public static func stagedDifferenceKeepingSections<Section: Identifiable, Row: Identifiable & Equatable>(
        from old: [Section],
        to new: [Section],
        rows: WritableKeyPath<Section, [Row]>
    ) throws(ListDiffError) -> [ListStage<[Section]>] {
        try stagedDifferenceKeepingSections(
            from: old, to: new, sectionID: { $0.id }, rows: { $0[keyPath: rows] }, rowID: { $0.id },
            rowContentEqual: { $0 == $1 }, replacingRows: { section, newRows in replacing(section, rows, with: newRows) })
    }

    /// The batches that turn one sectioned list of `Identifiable` sections and rows into
    /// another, each with the data the data source shows during it, keeping every section that
    /// is in both states and reloading the sections whose header changed.
    ///
    /// - Parameters:
    ///   - old: The sections before the change.
    ///   - new: The sections after the change.
    ///   - rows: A section's rows, in display order; intermediate data is built by writing
    ///     through it.
    ///   - header: What a section displays apart from its rows.
    /// - Returns: The stages to apply in order, each with its data; `[]` when nothing changed.
    /// - Throws: ``ListDiffError`` when a section or row identifier occurs twice on one side.
    /// - Complexity: Expected O(n + m + c log c) for n old rows, m new rows and c changes, plus
    ///   O(s) per stage for s sections.
    @inlinable
    public static func stagedDifferenceKeepingSections<
        Section: Identifiable, Row: Identifiable & Equatable, Header: Equatable
    >(
        from old: [Section],
        to new: [Section],
        rows: WritableKeyPath<Section, [Row]>,
        header: (Section) -> Header
    ) throws(ListDiffError) -> [ListStage<[Section]>] {
        try stagedDifferenceKeepingSections(
            from: old, to: new, sectionID: { $0.id }, rows: { $0[keyPath: rows] }, rowID: { $0.id },
            rowContentEqual: { $0 == $1 }, sectionContentEqual: { header($0) == header($1) },
            replacingRows: { section, newRows in replacing(section, rows, with: newRows) })
    }

    /// The batches that turn one sectioned list of `Identifiable` sections and rows into
    /// another, each with the data the data source shows during it, keeping every section that
    /// is in both states, for any input: repeated identifiers are treated by `duplicates`.
    ///
    /// - Parameters:
    ///   - old: The sections before the change.
    ///   - new: The sections after the change.
    ///   - rows: A section's rows, in display order; intermediate data is built by writing
    ///     through it.
    ///   - duplicates: What a repeated identifier means (see ``ListDiffDuplicatePolicy``).
    /// - Returns: The stages to apply in order, each with its data; `[]` when nothing changed.
    /// - Complexity: Expected O(n + m + c log c) for n old rows, m new rows and c changes, plus
    ///   O(s) per stage for s sections.
    @inlinable
    public static func stagedDifferenceKeepingSections<Section: Identifiable, Row: Identifiable & Equatable>(
        from old: [Section],
        to new: [Section],
        rows: WritableKeyPath<Section, [Row]>,
        duplicates: ListDiffDuplicatePolicy
    ) -> [ListStage<[Section]>] {
        stagedDifferenceKeepingSections(
            from: old, to: new, sectionID: { $0.id }, rows: { $0[keyPath: rows] }, rowID: { $0.id },
            rowContentEqual: { $0 == $1 }, duplicates: duplicates,
            replacingRows: { section, newRows in replacing(section, rows, with: newRows) })
    }

    /// The batches that turn one flat list (section 0) into another, each with the rows the
    /// data source shows during it.
    ///
    /// The stages are those of ``stagedDifference(from:to:)``; when a refresh stage follows the
    /// structural one, the structural stage's data still has the old values of the rows the
    /// refresh stage reconfigures, so an adapter can set each stage's rows as it applies it.
    ///
    /// - Parameters:
    ///   - old: The rows before the change.
    ///   - new: The rows after the change.
    /// - Returns: The stages to apply in order, each with its rows; `[]` when nothing changed.
    ///   The last stage's rows are `new`.
    /// - Throws: ``ListDiffError/duplicateRowIdentifier(identifier:side:first:second:)`` when
    ///   an identifier occurs twice on one side.
    /// - Complexity: Expected O(n + m + c log c) for n old rows, m new rows and c changes, plus
    ///   O(m) per stage before the last to build its rows.
    @inlinable
    public static func stagedDifferenceKeepingSections<Row: Identifiable & Equatable>(
        from old: [Row],
        to new: [Row]
    ) throws(ListDiffError) -> [ListStage<[Row]>] {
        try stagedDifferenceKeepingSections(
            from: [old], to: [new], sectionID: { _ in 0 }, rows: { $0 }, rowID: { $0.id }, rowContentEqual: { $0 == $1 },
            replacingRows: { _, rows in rows }
        ).map { ListStage(changes: $0.changes, data: $0.data.first ?? []) }
    }

    /// The batches that turn one flat list (section 0) into another, each with the rows the
    /// data source shows during it, for any input: repeated identifiers are treated by
    /// `duplicates`.
    ///
    /// - Parameters:
    ///   - old: The rows before the change.
    ///   - new: The rows after the change.
    ///   - duplicates: What a repeated identifier means (see ``ListDiffDuplicatePolicy``).
    /// - Returns: The stages to apply in order, each with its rows; `[]` when nothing changed.
    /// - Complexity: Expected O(n + m + c log c) for n old rows, m new rows and c changes, plus
    ///   O(m) per stage before the last.
    @inlinable
    public static func stagedDifferenceKeepingSections<Row: Identifiable & Equatable>(
        from old: [Row],
        to new: [Row],
        duplicates: ListDiffDuplicatePolicy
    ) -> [ListStage<[Row]>] {
        stagedDifferenceKeepingSections(
            from: [old], to: [new], sectionID: { _ in 0 }, rows: { $0 }, rowID: { $0.id }, rowContentEqual: { $0 == $1 },
            duplicates: duplicates, replacingRows: { _, rows in rows }
        ).map { ListStage(changes: $0.changes, data: $0.data.first ?? []) }
    }

    /// A copy of `section` whose rows, read and written through `rows`, are `newRows`.
    @inlinable
    static func replacing<Section, Row>(_ section: Section, _ rows: WritableKeyPath<Section, [Row]>, with newRows: [Row]) -> Section {
        var copy = section
        copy[keyPath: rows] = newRows
        return copy
    }

    /// The stages of a plan with their data built from the two states.
    ///
    /// - Complexity: O(s) per stage for s sections, plus the rows of the sections rebuilt.
    @inlinable @inline(__always)
    static func stagesWithData<Section, Row>(
        _ plan: [(changes: ListChanges, layout: StageLayout)],
        old: [Section],
        new: [Section],
        rows: (Section) -> [Row],
        replacingRows: (Section, [Row]) -> Section
    ) -> [ListStage<[Section]>] {
        plan.map { step in
            switch step.layout {
            case .new:
                return ListStage(changes: step.changes, data: new)
            case let .newWithOldRows(refreshed):
                // Sorted by new position: rebuild each section that holds such rows once.
                var data = new
                var index = refreshed.startIndex
                while index < refreshed.endIndex {
                    let section = refreshed[index].new[0]
                    var sectionRows = rows(new[section])
                    while index < refreshed.endIndex && refreshed[index].new[0] == section {
                        let (newPath, oldPath) = refreshed[index]
                        sectionRows[newPath[1]] = rows(old[oldPath[0]])[oldPath[1]]
                        index += 1
                    }
                    data[section] = replacingRows(new[section], sectionRows)
                }
                return ListStage(changes: step.changes, data: data)
            case let .sectionsFirst(oldSection, partialRows):
                var data: [Section] = []
                data.reserveCapacity(oldSection.count)
                var partial = partialRows.makeIterator()
                var nextPartial = partial.next()
                for (position, source) in oldSection.enumerated() {
                    if source >= 0 {
                        data.append(old[source])
                    } else if let held = nextPartial, held.section == position {
                        let all = rows(new[position])
                        data.append(replacingRows(new[position], held.rows.map { all[$0] }))
                        nextPartial = partial.next()
                    } else {
                        data.append(new[position])
                    }
                }
                return ListStage(changes: step.changes, data: data)
            }
        }
    }
}
