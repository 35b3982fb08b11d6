import Foundation

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
