/// The keys of every row, in columns indexed by slot, and the order they define: section key
/// first, then the sort keys, then the row's identifier as the final tie-break.
///
/// Section keys are interned: a row keeps a handle to its section's value, so rows of one
/// section compare their sections with one integer comparison.
struct RowKeyColumns<ID: RowIdentifier>: SlotOrdering {
    /// The identifier of the row in each slot (stale in free slots).
    var ids: [ID] = []
    /// The section handle of the row in each slot.
    var sectionOf: [Int32] = []
    /// The value of each section handle.
    var sectionValues: [SortValue] = []
    /// The position of each live section handle in the sorted section directory, kept
    /// current during a commit too, so rows of different sections compare two integers.
    var sectionRank: [Int32] = []
    /// One column per sort key, indexed by slot.
    var columns: [[SortValue]]
    /// The direction of each sort key.
    let ascending: [Bool]
    /// The direction of the first sort key, or `nil` without sort keys: what digests
    /// compare, kept apart so a search step reads no array for it.
    let firstAscending: Bool?
    /// The direction of the section key.
    let sectionsAscending: Bool

    init(ascending: [Bool], sectionsAscending: Bool) {
        self.ascending = ascending
        firstAscending = ascending.first
        self.sectionsAscending = sectionsAscending
        columns = Array(repeating: [], count: ascending.count)
    }

    @inline(__always)
    func less(_ a: Int32, _ b: Int32) -> Bool {
        let sa = sectionOf[Int(a)]
        let sb = sectionOf[Int(b)]
        if sa != sb {
            return sectionRank[Int(sa)] < sectionRank[Int(sb)]
        }
        return lessInGroup(a, b)
    }

    /// Whether two rows are in the same section.
    @inline(__always)
    func shareGroup(_ a: Int32, _ b: Int32) -> Bool {
        sectionOf[Int(a)] == sectionOf[Int(b)]
    }

    /// The order of two rows of one section: sort keys, then identifier.
    @inline(__always)
    func lessInGroup(_ a: Int32, _ b: Int32) -> Bool {
        for column in columns.indices {
            // The values compared where they are, borrowed: a copy of each would be a
            // reference-count check and a release per comparison, and searches compare a lot.
            let order = columns[column].orderInPlace(Int(a), Int(b))
            if order != 0 { return (order < 0) == ascending[column] }
        }
        // A slot compared with itself (a search for a row in the tree) stops here, without
        // reading its identifier.
        return a != b && ids[Int(a)] < ids[Int(b)]
    }

    /// Digests: the section handle and the summary of the first sort key.
    var hasDigests: Bool { true }

    /// The section handle of `slot` and the summary of its first sort key.
    @inline(__always)
    func digest(of slot: Int32) -> SlotDigest {
        SlotDigest(
            group: sectionOf[Int(slot)],
            summary: columns.isEmpty ? SortValueSummary(.null) : SortValueSummary(columns[0][Int(slot)]))
    }

    /// The order of two digests: by section rank when their sections differ, else by the
    /// summaries of the first sort key in its direction, else undecided.
    @inline(__always)
    func order(_ a: SlotDigest, _ b: SlotDigest) -> Int {
        if a.group != b.group {
            return sectionRank[Int(a.group)] < sectionRank[Int(b.group)] ? -1 : 1
        }
        guard let firstAscending else { return 0 }
        let order = SortValueSummary.order(a.summary, b.summary)
        return firstAscending ? order : -order
    }

    /// Asks for the sort keys of each of `slots`, and their section handles unless they are
    /// known to share `grouped` rows' section: what comparing them reads.
    ///
    /// A run of slots whose first and last are close (a leaf's neighbours keep the numbers a
    /// fetch gave them in order) is asked for as the lines between them, each line once,
    /// instead of slot by slot. A hint only: a run that is not in fact between its ends
    /// leaves some lines to be read later.
    func prefetchKeys(of slots: some RandomAccessCollection<Int32>, grouped: Bool) {
        guard let first = slots.first, let last = slots.last else { return }
        let low = Int(min(first, last))
        let span = Int(max(first, last)) - low + 1
        if span <= 2 * slots.count {
            let range = low..<low + span
            if !grouped { sectionOf.prefetchElements(in: range) }
            for column in columns.indices { columns[column].prefetchElements(in: range) }
        } else {
            if !grouped { sectionOf.prefetchElements(at: slots) }
            for column in columns.indices { columns[column].prefetchElements(at: slots) }
        }
    }

    /// Whether the row in `slot` has exactly these keys; with `keepsSortKeys`, whether it
    /// has this section value (its sort keys stand).
    func keys(of slot: Int32, equal keys: RowKeys, keepsSortKeys: Bool = false) -> Bool {
        guard sectionValues[Int(sectionOf[Int(slot)])] == keys.section else { return false }
        if keepsSortKeys { return true }
        for column in columns.indices where columns[column][Int(slot)] != keys.sort[column] {
            return false
        }
        return true
    }

    /// The keys of the row in `slot`.
    func keys(of slot: Int32) -> RowKeys {
        RowKeys(
            section: sectionValues[Int(sectionOf[Int(slot)])],
            sort: SortValues(count: columns.count) { columns[$0][Int(slot)] }
        )
    }
}
