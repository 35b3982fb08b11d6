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
    /// Section content other than rows (a header title, say) is not compared here; pass
    /// `sectionContentEqual` to
    /// ``difference(from:to:sectionID:rows:rowID:rowContentEqual:sectionContentEqual:)`` to have
    /// changed sections reported as reloaded.
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
    @inlinable @inline(__always)
    public static func difference<Section, SectionID: Hashable, Row, RowID: Hashable>(
        from old: [Section],
        to new: [Section],
        sectionID: (Section) -> SectionID,
        rows: (Section) -> [Row],
        rowID: (Row) -> RowID,
        rowContentEqual: (Row, Row) -> Bool
    ) throws(ListDiffError) -> ListChanges {
        try SectionedDiff(
            matching: old, to: new, sectionID: sectionID, rows: rows, rowID: rowID, rowContentEqual: rowContentEqual
        ).changes().unpacked
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
    /// most three stages (see ``ListChanges/staged()``), usually one, for a data source that
    /// shows `new` during all of them. A moved section whose row count changes is deleted and
    /// inserted again; to keep it, use
    /// ``stagedDifferenceKeepingSections(from:to:sectionID:rows:rowID:rowContentEqual:sectionContentEqual:replacingRows:)``,
    /// whose stages carry the data to show during each.
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
    @inlinable @inline(__always)
    public static func stagedDifference<Section, SectionID: Hashable, Row, RowID: Hashable>(
        from old: [Section],
        to new: [Section],
        sectionID: (Section) -> SectionID,
        rows: (Section) -> [Row],
        rowID: (Row) -> RowID,
        rowContentEqual: (Row, Row) -> Bool
    ) throws(ListDiffError) -> [ListChanges] {
        // The same as `difference(…).staged()`, without turning rows into index paths and back.
        try SectionedDiff(
            matching: old, to: new, sectionID: sectionID, rows: rows, rowID: rowID, rowContentEqual: rowContentEqual
        ).changes().staged()
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
        try stagedDifference(
            from: old, to: new, sectionID: { $0.id }, rows: rows, rowID: { $0.id }, rowContentEqual: { $0 == $1 })
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
        try stagedDifference(
            from: [old], to: [new], sectionID: { _ in 0 }, rows: { $0 }, rowID: { $0.id }, rowContentEqual: { $0 == $1 })
    }

    // MARK: - Sections whose own content changed

    /// The changes that turn one sectioned list into another, also reporting the sections whose
    /// own content (a header or footer) changed.
    ///
    /// The same as ``difference(from:to:sectionID:rows:rowID:rowContentEqual:)``, and a section
    /// that is on both sides and for which `sectionContentEqual` returns `false` is listed in
    /// ``reloadedSections`` at its position before the change. A list view has no batch
    /// operation that refreshes only a header, so the adapter calls
    /// `reloadSections(_:with:)` for them, as for any section reload. Rows inside a reloaded
    /// section are redrawn by the reload and are not listed.
    ///
    /// - Parameters:
    ///   - old: The sections before the change.
    ///   - new: The sections after the change.
    ///   - sectionID: A section's identifier, unique among the sections of each side.
    ///   - rows: A section's rows, in display order.
    ///   - rowID: A row's identifier, unique among all rows of each side.
    ///   - rowContentEqual: Whether two rows with the same identifier display the same content.
    ///   - sectionContentEqual: Whether two sections with the same identifier display the same
    ///     content apart from their rows; compare the header's fields, not the rows.
    /// - Returns: The general changes; use ``staged()`` for batches a list view accepts.
    /// - Throws: ``ListDiffError`` when an identifier occurs twice on one side.
    /// - Complexity: Expected O(n + m + k log k), as the form without `sectionContentEqual`,
    ///   plus one call of `sectionContentEqual` per section on both sides.
    @inlinable @inline(__always)
    public static func difference<Section, SectionID: Hashable, Row, RowID: Hashable>(
        from old: [Section],
        to new: [Section],
        sectionID: (Section) -> SectionID,
        rows: (Section) -> [Row],
        rowID: (Row) -> RowID,
        rowContentEqual: (Row, Row) -> Bool,
        sectionContentEqual: (Section, Section) -> Bool
    ) throws(ListDiffError) -> ListChanges {
        try SectionedDiff(
            matching: old, to: new, sectionID: sectionID, rows: rows, rowID: rowID, rowContentEqual: rowContentEqual,
            sectionContentEqual: sectionContentEqual, comparesSections: true
        ).changes().unpacked
    }

    /// The batches that turn one sectioned list into another, also reloading the sections whose
    /// own content (a header or footer) changed: the difference, staged.
    ///
    /// See ``difference(from:to:sectionID:rows:rowID:rowContentEqual:sectionContentEqual:)`` for
    /// what is compared and ``staged()`` for the stages.
    ///
    /// - Parameters:
    ///   - old: The sections before the change.
    ///   - new: The sections after the change.
    ///   - sectionID: A section's identifier, unique among the sections of each side.
    ///   - rows: A section's rows, in display order.
    ///   - rowID: A row's identifier, unique among all rows of each side.
    ///   - rowContentEqual: Whether two rows with the same identifier display the same content.
    ///   - sectionContentEqual: Whether two sections with the same identifier display the same
    ///     content apart from their rows.
    /// - Returns: The stages to apply in order; `[]` when nothing changed.
    /// - Throws: ``ListDiffError`` when an identifier occurs twice on one side.
    /// - Complexity: Expected O(n + m + c log c) for n old rows, m new rows and c changes.
    @inlinable @inline(__always)
    public static func stagedDifference<Section, SectionID: Hashable, Row, RowID: Hashable>(
        from old: [Section],
        to new: [Section],
        sectionID: (Section) -> SectionID,
        rows: (Section) -> [Row],
        rowID: (Row) -> RowID,
        rowContentEqual: (Row, Row) -> Bool,
        sectionContentEqual: (Section, Section) -> Bool
    ) throws(ListDiffError) -> [ListChanges] {
        try SectionedDiff(
            matching: old, to: new, sectionID: sectionID, rows: rows, rowID: rowID, rowContentEqual: rowContentEqual,
            sectionContentEqual: sectionContentEqual, comparesSections: true
        ).changes().staged()
    }

    /// The changes that turn one sectioned list of `Identifiable` sections and rows into
    /// another, also reporting the sections whose header changed.
    ///
    /// `try ListChanges.difference(from: old, to: new, rows: \.items, header: \.title)` lists a
    /// section whose title changed in ``reloadedSections``. Pass the parts of a section that
    /// its header and footer show, not the section itself: a section's `==` usually compares
    /// its rows too, and would reload every section in which a row changed.
    ///
    /// - Parameters:
    ///   - old: The sections before the change.
    ///   - new: The sections after the change.
    ///   - rows: A section's rows, in display order.
    ///   - header: What a section displays apart from its rows.
    /// - Returns: The general changes; use ``staged()`` for batches a list view accepts.
    /// - Throws: ``ListDiffError`` when a section or row identifier occurs twice on one side.
    /// - Complexity: Expected O(n + m + k log k), as the general form.
    @inlinable
    public static func difference<Section: Identifiable, Row: Identifiable & Equatable, Header: Equatable>(
        from old: [Section],
        to new: [Section],
        rows: (Section) -> [Row],
        header: (Section) -> Header
    ) throws(ListDiffError) -> ListChanges {
        try difference(
            from: old, to: new, sectionID: { $0.id }, rows: rows, rowID: { $0.id }, rowContentEqual: { $0 == $1 },
            sectionContentEqual: { header($0) == header($1) })
    }

    /// The batches that turn one sectioned list of `Identifiable` sections and rows into
    /// another, reloading the sections whose header changed: the difference, staged.
    ///
    /// - Parameters:
    ///   - old: The sections before the change.
    ///   - new: The sections after the change.
    ///   - rows: A section's rows, in display order.
    ///   - header: What a section displays apart from its rows.
    /// - Returns: The stages to apply in order; `[]` when nothing changed.
    /// - Throws: ``ListDiffError`` when a section or row identifier occurs twice on one side.
    /// - Complexity: Expected O(n + m + c log c) for n old rows, m new rows and c changes.
    @inlinable
    public static func stagedDifference<Section: Identifiable, Row: Identifiable & Equatable, Header: Equatable>(
        from old: [Section],
        to new: [Section],
        rows: (Section) -> [Row],
        header: (Section) -> Header
    ) throws(ListDiffError) -> [ListChanges] {
        try stagedDifference(
            from: old, to: new, sectionID: { $0.id }, rows: rows, rowID: { $0.id }, rowContentEqual: { $0 == $1 },
            sectionContentEqual: { header($0) == header($1) })
    }

    // MARK: - Repeated identifiers

    /// The changes that turn one sectioned list into another, for any input: identifiers that
    /// repeat on one side are treated by `duplicates` instead of being an error.
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
    /// - Returns: The general changes; use ``staged()`` for batches a list view accepts.
    /// - Complexity: Expected O(n + m + k log k), as the throwing form.
    @inlinable @inline(__always)
    public static func difference<Section, SectionID: Hashable, Row, RowID: Hashable>(
        from old: [Section],
        to new: [Section],
        sectionID: (Section) -> SectionID,
        rows: (Section) -> [Row],
        rowID: (Row) -> RowID,
        rowContentEqual: (Row, Row) -> Bool,
        sectionContentEqual: ((Section, Section) -> Bool)? = nil,
        duplicates: ListDiffDuplicatePolicy
    ) -> ListChanges {
        tolerantDiff(old, new, sectionID, rows, rowID, rowContentEqual, sectionContentEqual).changes().unpacked
    }

    /// The batches that turn one sectioned list into another, for any input: identifiers that
    /// repeat on one side are treated by `duplicates` instead of being an error.
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
    /// - Returns: The stages to apply in order; `[]` when nothing changed.
    /// - Complexity: Expected O(n + m + c log c) for n old rows, m new rows and c changes.
    @inlinable @inline(__always)
    public static func stagedDifference<Section, SectionID: Hashable, Row, RowID: Hashable>(
        from old: [Section],
        to new: [Section],
        sectionID: (Section) -> SectionID,
        rows: (Section) -> [Row],
        rowID: (Row) -> RowID,
        rowContentEqual: (Row, Row) -> Bool,
        sectionContentEqual: ((Section, Section) -> Bool)? = nil,
        duplicates: ListDiffDuplicatePolicy
    ) -> [ListChanges] {
        tolerantDiff(old, new, sectionID, rows, rowID, rowContentEqual, sectionContentEqual).changes().staged()
    }

    /// The batches that turn one sectioned list of `Identifiable` sections and rows into
    /// another, for any input: repeated identifiers are treated by `duplicates`.
    ///
    /// - Parameters:
    ///   - old: The sections before the change.
    ///   - new: The sections after the change.
    ///   - rows: A section's rows, in display order.
    ///   - duplicates: What a repeated identifier means (see ``ListDiffDuplicatePolicy``).
    /// - Returns: The stages to apply in order; `[]` when nothing changed.
    /// - Complexity: Expected O(n + m + c log c) for n old rows, m new rows and c changes.
    @inlinable
    public static func stagedDifference<Section: Identifiable, Row: Identifiable & Equatable>(
        from old: [Section],
        to new: [Section],
        rows: (Section) -> [Row],
        duplicates: ListDiffDuplicatePolicy
    ) -> [ListChanges] {
        stagedDifference(
            from: old, to: new, sectionID: { $0.id }, rows: rows, rowID: { $0.id }, rowContentEqual: { $0 == $1 },
            duplicates: duplicates)
    }

    /// The changes that turn one flat list (section 0) into another, for any input: repeated
    /// identifiers are treated by `duplicates`.
    ///
    /// - Parameters:
    ///   - old: The rows before the change.
    ///   - new: The rows after the change.
    ///   - duplicates: What a repeated identifier means (see ``ListDiffDuplicatePolicy``).
    /// - Returns: The general changes, every index path in section 0.
    /// - Complexity: Expected O(n + m + k log k), as the throwing form.
    @inlinable
    public static func difference<Row: Identifiable & Equatable>(
        from old: [Row],
        to new: [Row],
        duplicates: ListDiffDuplicatePolicy
    ) -> ListChanges {
        difference(
            from: [old], to: [new], sectionID: { _ in 0 }, rows: { $0 }, rowID: { $0.id }, rowContentEqual: { $0 == $1 },
            duplicates: duplicates)
    }

    /// The batches that turn one flat list (section 0) into another, for any input: repeated
    /// identifiers are treated by `duplicates`.
    ///
    /// - Parameters:
    ///   - old: The rows before the change.
    ///   - new: The rows after the change.
    ///   - duplicates: What a repeated identifier means (see ``ListDiffDuplicatePolicy``).
    /// - Returns: The stages to apply in order; `[]` when nothing changed.
    /// - Complexity: Expected O(n + m + c log c) for n old rows, m new rows and c changes.
    @inlinable
    public static func stagedDifference<Row: Identifiable & Equatable>(
        from old: [Row],
        to new: [Row],
        duplicates: ListDiffDuplicatePolicy
    ) -> [ListChanges] {
        stagedDifference(
            from: [old], to: [new], sectionID: { _ in 0 }, rows: { $0 }, rowID: { $0.id }, rowContentEqual: { $0 == $1 },
            duplicates: duplicates)
    }

    /// The matching of a diff that tolerates repeated identifiers.
    @inlinable @inline(__always)
    static func tolerantDiff<Section, SectionID: Hashable, Row, RowID: Hashable>(
        _ old: [Section], _ new: [Section], _ sectionID: (Section) -> SectionID, _ rows: (Section) -> [Row],
        _ rowID: (Row) -> RowID, _ rowContentEqual: (Row, Row) -> Bool,
        _ sectionContentEqual: ((Section, Section) -> Bool)?
    ) -> SectionedDiff {
        do {
            return try SectionedDiff(
                matching: old, to: new, sectionID: sectionID, rows: rows, rowID: rowID, rowContentEqual: rowContentEqual,
                sectionContentEqual: sectionContentEqual ?? { _, _ in true }, comparesSections: sectionContentEqual != nil,
                tolerant: true)
        } catch {
            requirementFailure("internal inconsistency: a tolerant diff threw \(error)")
        }
    }
}
