import ObjectGraph

/// An engine's totals (``FetchRequest/totals``): per section and for all its rows, with the
/// rows' inputs they were made from, and what changed since the last delivery.
///
/// A fetch reads each row's inputs into the table's columns, then adds up every section's
/// rows column by column (``recompute(serials:sectionOf:sectionValues:)``). An engine
/// without a window keeps them current commit by commit from the rows the commit re-evaluated
/// (``ResultsEngine/applyCommitToTotals(_:)``): O(t) per changed row for t totals, and
/// O(log n) more per minimum or maximum once its section's heap is built. Every other
/// change (a window, a search's rows, a hand-ordered list) recomputes them from the rows
/// shown, in O(m t) for m rows.
struct ResultsTotals {
    /// The layout of every total's accumulator.
    let layout: TotalsLayout
    /// How each total reads a row, for any object of the entity.
    let readers: [TotalReader]
    /// The same readers grouped by kind, for a fetch.
    let columnReaders: TotalColumnReaders
    /// The identities of the request's totals, in order.
    let ids: [Int]
    /// The rows' inputs: this engine's own, or its base's (``ownsInputs`` is `false`).
    let table: TotalInputTable
    /// Whether this engine's evaluations read the inputs (a search reads its base's table).
    let ownsInputs: Bool
    /// The totals of each section shown, by the section key's value.
    var sections: [SortValue: SectionTotals] = [:]
    /// The totals of every row shown.
    var whole: SectionTotals
    /// Inputs read by evaluations of the commit being applied, not stored yet.
    var evaluated: [ObjectID: [TotalInput]] = [:]
    /// Sections whose minimum or maximum lost its extreme in the commit being applied: they
    /// are rebuilt from their rows once the index has the commit (``resolveStaleExtremes(rows:)``).
    var staleSections: Set<SortValue> = []
    /// Since the last delivery: the sections whose totals changed, by key value, besides
    /// those marked ``SectionTotals/isChanged``.
    var changedSections: Set<SortValue> = []
    /// Whether a section is marked ``SectionTotals/isChanged``.
    private(set) var hasMarkedSections = false
    /// Since the last delivery: whether the totals of every row changed.
    var wholeChanged = false
    /// Whether the change being delivered was applied to the totals already (row by row, or
    /// by a recomputation); when not, its delivery recomputes them from the rows shown.
    var isSettled = false

    /// Whether the next delivery reports every section (the totals were rebuilt).
    var reportsEverySection = false

    /// Totals for `request`, reading rows into a table of their own (a new one, or `table`
    /// kept from an earlier fetch of the same totals), or reading another engine's `table`.
    init<Object: GraphObject>(_ request: FetchRequest<Object>, table: TotalInputTable? = nil, ownsInputs: Bool = true) {
        layout = TotalsLayout(request.totals.map(\.kind))
        ids = request.totals.map(\.id)
        readers = request.totals.map(\.reader)
        columnReaders = TotalColumnReaders(readers, layout: layout)
        self.table = table ?? TotalInputTable(layout: layout, readers: readers)
        self.ownsInputs = ownsInputs
        whole = SectionTotals(layout)
    }

    /// Recomputes every total from the rows shown, given as each row's serial and its
    /// section's position in `sectionValues`.
    ///
    /// - Complexity: O(m t) for m rows and t totals, plus O(s t) for s sections.
    mutating func recompute(serials: [Int], sectionOf: [Int32], sectionValues: [SortValue]) {
        let grouped = serials.withUncheckedElements { serials in
            sectionOf.withUncheckedElements { sectionOf in
                GroupedTotals(serials: serials, groupOf: sectionOf, groups: sectionValues.count, table: table)
            }
        }
        // Sections a commit marked stay changed, as named values.
        if hasMarkedSections {
            for (value, totals) in sections where totals.isChanged { changedSections.insert(value) }
            hasMarkedSections = false
        }
        sections = [:]
        sections.reserveCapacity(sectionValues.count)
        whole = SectionTotals(layout)
        staleSections = []
        for (group, section) in sectionValues.enumerated() where grouped.rowCount(ofGroup: group) > 0 {
            let totals = grouped.totals(ofGroup: group, table: table)
            whole.addSums(of: totals)
            whole.considerExtremes(of: totals)
            sections[section] = totals
        }
    }

    /// Adds (`sign` 1) or removes (`sign` -1) the row of the object with `id` in `section`,
    /// with the inputs given.
    ///
    /// - Complexity: O(t) for t totals, and O(log n) per minimum or maximum.
    mutating func add(_ inputs: [TotalInput], of id: ObjectID, section: SortValue, sign: Int, toWhole: Bool = true) {
        let bits = UInt64(id.entitySerial)
        // One look-up of the section's value (hashing a string is most of the cost).
        var position = sections.index(forKey: section)
        if position == nil {
            sections[section] = SectionTotals(layout)
            position = sections.index(forKey: section)
        }
        guard let position else { return }
        let (rows, isStale) = sections.values[position].add(inputs, id: bits, sign: sign, layout: layout)
        sections.values[position].isChanged = true
        hasMarkedSections = true
        if rows == 0 {
            sections.remove(at: position)
            if !staleSections.isEmpty { staleSections.remove(section) }
        } else if isStale {
            staleSections.insert(section)
        }
        if toWhole { whole.add(inputs, id: bits, sign: sign, layout: layout, isWhole: true) }
    }

    /// Replaces a row's inputs in its section, which it stays in: one look-up of the section
    /// for both changes.
    ///
    /// - Complexity: O(t) for t totals, and O(log n) per minimum or maximum.
    mutating func replace(_ old: [TotalInput], with new: [TotalInput], of id: ObjectID, section: SortValue) {
        let bits = UInt64(id.entitySerial)
        guard let position = sections.index(forKey: section) else {
            // Not kept yet (it cannot be, as the row was in it): add the row afresh.
            return add(new, of: id, section: section, sign: 1)
        }
        sections.values[position].add(old, id: bits, sign: -1, layout: layout)
        let (_, isStale) = sections.values[position].add(new, id: bits, sign: 1, layout: layout)
        sections.values[position].isChanged = true
        hasMarkedSections = true
        if isStale { staleSections.insert(section) }
        whole.add(old, id: bits, sign: -1, layout: layout, isWhole: true)
        whole.add(new, id: bits, sign: 1, layout: layout, isWhole: true)
    }

    /// Whether the totals of the section with key `value` changed since the last delivery.
    ///
    /// - Complexity: O(1).
    func sectionChanged(_ value: SortValue) -> Bool {
        if changedSections.contains(value) { return true }
        // Through the position: reading the value out of the dictionary would copy it.
        guard hasMarkedSections, let position = sections.index(forKey: value) else { return false }
        return sections.values[position].isChanged
    }

    /// Forgets which sections changed.
    ///
    /// - Complexity: O(s) for s sections, when any is marked.
    mutating func forgetChangedSections() {
        changedSections = []
        clearMarks()
    }

    /// Clears every section's ``SectionTotals/isChanged`` mark.
    ///
    /// - Parameter everySection: Whether to clear them even when none is known to be set
    ///   (sections copied from another engine's totals).
    /// - Complexity: O(s) for s sections, when any is marked.
    mutating func clearMarks(everySection: Bool = false) {
        guard hasMarkedSections || everySection else { return }
        for position in sections.indices { sections.values[position].isChanged = false }
        hasMarkedSections = false
    }

    /// After a commit applied row by row, once the index has it: rebuilds the minimums and
    /// maximums whose extreme left, from their sections' rows, then those of every row.
    ///
    /// - Parameter rows: The rows of a section, by its value.
    /// - Complexity: O(m) for the m rows of each section whose extreme left; O(s) for s
    ///   sections when the extreme of every row left.
    mutating func resolveStaleExtremes(rows: (SortValue) -> [ObjectID]) {
        for section in staleSections {
            sections[section]?.rebuildExtremes(rows(section), table: table)
        }
        staleSections = []
        if whole.hasStaleExtreme { whole.settleExtremes(from: sections.values) }
    }

    /// Stores the inputs evaluations read since the last change was applied, noting those
    /// it replaces (``TotalInputTable/replaced``).
    mutating func storeEvaluatedInputs() {
        guard !evaluated.isEmpty else { return }
        for (id, inputs) in evaluated { store(inputs, of: id) }
        evaluated = [:]
    }

    /// Stores a row's new inputs, noting the ones they replace when they differ.
    ///
    /// - Parameters:
    ///   - inputs: The row's new inputs.
    ///   - id: The row's object.
    ///   - old: The inputs the table holds for it, when the caller read them already.
    /// - Returns: Whether they differ from the stored ones.
    @discardableResult
    func store(_ inputs: [TotalInput], of id: ObjectID, old: [TotalInput]? = nil) -> Bool {
        let old = old ?? table.row(id.entitySerial)
        guard old != inputs else { return false }
        if table.isShared && table.replaced[id] == nil { table.replaced[id] = old }
        table.store(inputs, serial: id.entitySerial)
        return true
    }

    /// A row's inputs before the commit being applied, and whether the commit changed them
    /// (for an engine that reads another's table: whether that one's commit did).
    ///
    /// - Complexity: O(t) for t totals.
    func inputsBeforeCommit(of id: ObjectID) -> (inputs: [TotalInput], changed: Bool) {
        if let replaced = table.replaced[id] { return (replaced, true) }
        return (table.row(id.entitySerial), false)
    }
}
