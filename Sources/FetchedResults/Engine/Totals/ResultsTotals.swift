import ObjectGraph

/// What each total read of every row an engine evaluated, by the row object's entity serial.
/// A class: a search reads its base's, which is current with each commit before the search
/// hears of it.
final class TotalInputTable {
    /// Inputs per row: one per total.
    let stride: Int
    private var inputs: [TotalInput] = []
    /// The inputs the last commit replaced, by object: what a search over the owning engine
    /// takes out of its totals for those rows (the table holds the new ones already).
    var replaced: [ObjectID: [TotalInput]] = [:]

    init(stride: Int) {
        self.stride = stride
    }

    /// The inputs last stored for the object numbered `serial` (``TotalInput/none`` for each
    /// total when none were). The slice shares the table's storage: it must not outlive the
    /// next change of the table (which would copy all of it).
    ///
    /// - Complexity: O(1).
    func inputs(ofSerial serial: Int) -> ArraySlice<TotalInput> {
        let start = serial * stride
        guard start + stride <= inputs.count else { return ArraySlice(repeating: .none, count: stride) }
        return inputs[start..<start + stride]
    }

    /// Stores an object's inputs.
    ///
    /// - Complexity: O(t) for t totals, amortized.
    func store(_ values: [TotalInput], serial: Int) {
        let start = serial * stride
        if inputs.count < start + stride {
            inputs.append(contentsOf: repeatElement(.none, count: start + stride - inputs.count))
        }
        for (offset, value) in values.enumerated() { inputs[start + offset] = value }
    }

    /// Forgets every row, keeping room for `serials` of them.
    func removeAll(reservingSerials serials: Int) {
        inputs = []
        inputs.reserveCapacity(serials * stride)
    }
}

/// An engine's totals (``FetchRequest/totals``): per section and for all its rows, with the
/// rows' inputs they were made from, and what changed since the last delivery.
///
/// A base engine without a window keeps them current commit by commit from the rows the
/// commit re-evaluated (``applyCommitToTotals(_:)``): O(t) per changed row for t totals, and
/// O(log n) more per minimum or maximum. Every other change (a window, a search's rows, a
/// hand-ordered list, a whole section renamed) recomputes them from the rows shown, in O(m t)
/// for m rows.
struct ResultsTotals {
    /// The layout of every total's accumulator.
    let layout: TotalsLayout
    /// How each total reads a row, with the object type erased; `nil` for plain counts.
    let extractors: [((GraphObject) -> TotalInput)?]
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
    /// Since the last delivery: the sections whose totals changed, by key value.
    var changedSections: Set<SortValue> = []
    /// Since the last delivery: whether the totals of every row changed.
    var wholeChanged = false
    /// Whether the change being delivered was applied to the totals already (row by row, or
    /// by a recomputation); when not, its delivery recomputes them from the rows shown.
    var isSettled = false

    /// Whether the next delivery reports every section (the totals were rebuilt).
    var reportsEverySection = false

    /// Totals for `request`, reading rows into a table of their own, or into `table`.
    init<Object: GraphObject>(_ request: FetchRequest<Object>, sharing table: TotalInputTable? = nil) {
        layout = TotalsLayout(request.totals.map(\.kind))
        ids = request.totals.map(\.id)
        extractors = request.totals.map { total in
            total.extract.map { extract in { extract(unsafeDowncast($0, to: Object.self)) } }
        }
        self.table = table ?? TotalInputTable(stride: request.totals.count)
        ownsInputs = table == nil
        whole = SectionTotals(layout)
    }

    /// The inputs of `object` for every total. Called inside the engine's read tracking, so
    /// that a later write of anything they read re-evaluates the row.
    ///
    /// - Complexity: O(t) for t totals, plus their reads.
    func readInputs(of object: GraphObject) -> [TotalInput] {
        var inputs: [TotalInput] = []
        readInputs(of: object, into: &inputs)
        return inputs
    }

    /// Reads the inputs of `object` into a buffer the caller reuses (emptied first).
    ///
    /// - Complexity: O(t) for t totals, plus their reads.
    func readInputs(of object: GraphObject, into inputs: inout [TotalInput]) {
        inputs.removeAll(keepingCapacity: true)
        for extract in extractors { inputs.append(extract?(object) ?? .none) }
    }

    /// Empties every total (before a recomputation).
    mutating func removeAllRows() {
        sections = [:]
        whole = SectionTotals(layout)
    }

    /// Adds (`sign` 1) or removes (`sign` -1) the row of the object with `id` in `section`,
    /// with its stored inputs.
    ///
    /// - Complexity: O(t) for t totals, and O(log n) per minimum or maximum.
    mutating func add(_ id: ObjectID, section: SortValue, sign: Int, toWhole: Bool = true) {
        add(table.inputs(ofSerial: id.entitySerial), of: id, section: section, sign: sign, toWhole: toWhole)
    }

    /// Adds (`sign` 1) or removes (`sign` -1) the row of the object with `id` in `section`,
    /// with the inputs given.
    ///
    /// - Complexity: O(t) for t totals, and O(log n) per minimum or maximum.
    mutating func add(_ inputs: some Collection<TotalInput>, of id: ObjectID, section: SortValue, sign: Int, toWhole: Bool = true) {
        let bits = UInt64(id.entitySerial)
        sections[section, default: SectionTotals(layout)].add(inputs, id: bits, sign: sign, layout: layout)
        if sign < 0, sections[section]?.rows == 0 { sections[section] = nil }
        if toWhole { whole.add(inputs, id: bits, sign: sign, layout: layout) }
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
    /// - Returns: Whether they differ from the stored ones.
    @discardableResult
    func store(_ inputs: [TotalInput], of id: ObjectID) -> Bool {
        // The old inputs are copied out before the table changes: a slice of it alive then
        // would copy the whole table.
        let old = Array(table.inputs(ofSerial: id.entitySerial))
        guard old != inputs else { return false }
        if table.replaced[id] == nil { table.replaced[id] = old }
        table.store(inputs, serial: id.entitySerial)
        return true
    }

    /// A row's inputs before the commit being applied, and whether the commit changed them
    /// (for an engine that reads another's table: whether that one's commit did).
    ///
    /// - Complexity: O(t) for t totals.
    func inputsBeforeCommit(of id: ObjectID) -> (inputs: [TotalInput], changed: Bool) {
        if let replaced = table.replaced[id] { return (replaced, true) }
        return (Array(table.inputs(ofSerial: id.entitySerial)), false)
    }
}
