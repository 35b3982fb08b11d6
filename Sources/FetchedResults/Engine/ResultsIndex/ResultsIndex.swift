import Foundation
internal import MemoryHints

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
            let order = columns[column].withUnsafeBufferPointer { values in
                values[Int(a)] < values[Int(b)] ? -1 : values[Int(b)] < values[Int(a)] ? 1 : 0
            }
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
    func prefetchKeys(of slots: UnsafeBufferPointer<Int32>, grouped: Bool) {
        guard let first = slots.first, let last = slots.last else { return }
        let low = Int(min(first, last))
        let span = Int(max(first, last)) - low + 1
        let range = span <= 2 * slots.count ? low..<low + span : nil
        if !grouped { sectionOf.withUnsafeBufferPointer { Self.prefetch(slots, of: $0, asRange: range) } }
        for column in columns.indices {
            columns[column].withUnsafeBufferPointer { Self.prefetch(slots, of: $0, asRange: range) }
        }
    }

    /// Asks for the elements of `column` at `slots`: the lines of `range` when given, else
    /// slot by slot.
    @inline(__always)
    private static func prefetch<Value>(_ slots: UnsafeBufferPointer<Int32>, of column: UnsafeBufferPointer<Value>, asRange range: Range<Int>?) {
        let base = column.baseAddress.unsafelyUnwrapped
        if let range {
            let lines = range.count * MemoryLayout<Value>.stride / 64 + 2
            NodeLines.prefetch((UnsafeRawPointer(base + range.lowerBound), UInt16(clamping: lines)))
        } else {
            for slot in slots { frk_prefetch(base + Int(slot)) }
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

/// The ordering engine of a results controller: the fetched rows in order, their sections
/// and the window that `fetchOffset` and `fetchLimit` cut out of them.
///
/// The index never reads an object. Its owner extracts the keys, tells it which rows
/// changed, and receives the `ListChanges` of the visible window in return:
///
/// - a counted B-tree of slots answers rank and select in O(log n);
/// - a sorted directory of the sections (with cumulative row counts) maps a rank to an
///   index path in O(log s) for s sections;
/// - ``apply(_:)`` turns k changed rows into the changes of one commit in
///   O(k log n + s), without visiting the unchanged rows.
///
/// Rows order by section key, then by the sort keys, then by identifier, so sections are
/// contiguous runs of the order and never need a matching first sort key.
struct ResultsIndex<ID: RowIdentifier> {
    /// One changed row, as the owner reports it.
    struct Change {
        /// The row's identifier.
        var id: ID
        /// The row's new keys, or `nil` when it is no longer fetched (deleted or filtered out).
        var keys: RowKeys?
        /// Whether the row's content changed, so its cell must refresh wherever it ends up.
        var reportsUpdate: Bool
        /// Whether the row is fetched and keeps the sort keys it has: `keys` then holds its
        /// new section value and no sort keys (the index reads them where they are).
        var keepsSortKeys = false

        /// Whether the row has keys (is fetched after the change), told without copying them.
        @inline(__always)
        var hasKeys: Bool {
            switch keys {
            case .some: true
            case .none: false
            }
        }
    }

    /// A section of the visible window.
    struct Section: Equatable {
        /// The section key's value.
        var value: SortValue
        /// The number of visible rows in the section.
        var count: Int
    }

    var keys: RowKeyColumns<ID>
    var tree = OrderTree()
    /// The most rows a commit removes (or inserts) in their input order, correcting their
    /// ranks afterwards (``ranksAmongAll(_:from:)``, which moves O(k²) integers); a commit with
    /// more sorts them first (``sort(_:by:descending:)``, which reads their keys). Tests set
    /// it to take either path.
    var rankCorrectionLimit = 256
    var slots = SlotMap<ID>()
    /// The slot of each row by identifier, as a dictionary-like view (`keys`, iteration,
    /// subscript) over ``slots`` and the identifier column.
    var slotByID: SlotMapView<ID> {
        get { SlotMapView(map: slots, ids: keys.ids) }
        _modify {
            // Move the map out so the view holds the only reference and writes in place.
            var view = SlotMapView(map: slots, ids: keys.ids)
            slots = SlotMap()
            defer { slots = view.map }
            yield &view
        }
    }
    var freeSlots: [Int32] = []

    /// The number of rows in each section handle.
    var sectionCounts: [Int] = []
    /// Scratch for a commit (``apply(_:movingWholeSections:)``): the position of each
    /// section handle among the sections it touches, or -1 (always -1 between commits).
    var sectionPlace: [Int32] = []
    var sectionHandleByValue: [SortValue: Int32] = [:]
    var freeHandles: [Int32] = []
    /// Live section handles, sorted by value in the order rows sort.
    var directory: [Int32] = []
    /// The rank of each directory entry's first row.
    var directoryStarts: [Int] = []
    /// The directory position of each handle (or a mark for free handles): the section's
    /// rank in the order, which row comparisons use instead of comparing section values.
    var directoryPosition: [Int32] {
        get { keys.sectionRank }
        set { keys.sectionRank = newValue }
    }

    /// The number of leading rows the window skips.
    var offset: Int
    /// The most rows the window shows, or `nil` for no limit.
    var limit: Int?

    /// Creates an empty index.
    ///
    /// - Parameters:
    ///   - ascending: The direction of each sort key.
    ///   - sectionsAscending: The direction of the section key.
    ///   - offset: Rows skipped at the start of the order (`fetchOffset`).
    ///   - limit: The most rows shown (`fetchLimit`), or `nil`.
    init(ascending: [Bool], sectionsAscending: Bool = true, offset: Int = 0, limit: Int? = nil) {
        require(offset >= 0, "fetchOffset must not be negative, got \(offset)")
        require(limit.map { $0 >= 0 } ?? true, "fetchLimit must not be negative, got \(limit ?? 0)")
        keys = RowKeyColumns(ascending: ascending, sectionsAscending: sectionsAscending)
        self.offset = offset
        self.limit = limit
    }

    /// The number of fetched rows, inside and outside the window.
    var totalCount: Int { tree.count }

    /// The ranks the window shows.
    var window: Range<Int> { Self.window(count: tree.count, offset: offset, limit: limit) }

    static func window(count: Int, offset: Int, limit: Int?) -> Range<Int> {
        let low = min(offset, count)
        // `offset + limit` may not fit in an `Int` (a limit of `.max`): compare with what is left.
        let high = limit.map { low + min(count - low, $0) } ?? count
        return low..<max(low, high)
    }

    /// The number of rows in the window.
    var visibleCount: Int { window.count }

    /// Whether the row is fetched (inside or outside the window).
    func contains(_ id: ID) -> Bool { slots[id] != nil }
}
