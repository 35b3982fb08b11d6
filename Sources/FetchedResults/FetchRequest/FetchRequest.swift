/// What a ``ResultsController`` fetches: an entity, a predicate, sort keys, an optional
/// section key, and a window (`fetchOffset`, `fetchLimit`) on the sorted results.
///
/// ```swift
/// var request = FetchRequest(Item.self, predicate: .equal(\.listed, true), sortedBy: [SortKey(\.name)])
/// request.sectionKey = SectionKey(\.location?.name)
/// request.fetchLimit = 50
/// ```
///
/// Rows sort by the section key first, then by the sort keys in order, then by object
/// identity, so the order is total and stable.
public struct FetchRequest<Object: GraphObject> {
    /// Which objects are included; `nil` includes every object of the entity.
    public var predicate: FetchPredicate<Object>?
    /// The keys rows sort by inside a section, most significant first.
    public var sortKeys: [SortKey<Object>]
    /// What rows are grouped by; `nil` puts every row in one section.
    public var sectionKey: SectionKey<Object>?
    /// The most rows the results hold, or `nil` for no limit. Rows enter and leave the window
    /// as later commits change the results.
    public var fetchLimit: Int? {
        didSet { require(fetchLimit.map { $0 >= 0 } ?? true, "fetchLimit must not be negative, got \(fetchLimit ?? 0)") }
    }
    /// How many leading rows of the sorted results are skipped.
    public var fetchOffset: Int {
        didSet { require(fetchOffset >= 0, "fetchOffset must not be negative, got \(fetchOffset)") }
    }
    /// The properties the cells display, when the request declares them: a write to a fetched
    /// object then reports an update of its row only when it changes one of these (moves are
    /// reported regardless). `nil` (the default) reports every write.
    public var displayedKeys: [PartialKeyPath<Object>]?
    /// The totals the controller keeps for each section and for all its rows (``Total``),
    /// read with `total(_:)` on the controller and on its sections. Empty by default.
    public var totals: [AnyTotal<Object>] = []

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - entity: The type of object fetched.
    ///   - predicate: Which objects are included; `nil` includes all.
    ///   - sortKeys: The keys rows sort by inside a section.
    ///   - sectionKey: What rows are grouped by, or `nil`.
    ///   - fetchLimit: The most rows, or `nil`.
    ///   - fetchOffset: Leading rows skipped.
    /// - Complexity: O(1).
    public init(
        _ entity: Object.Type = Object.self,
        predicate: FetchPredicate<Object>? = nil,
        sortedBy sortKeys: [SortKey<Object>] = [],
        sectionKey: SectionKey<Object>? = nil,
        fetchLimit: Int? = nil,
        fetchOffset: Int = 0
    ) {
        require(fetchLimit.map { $0 >= 0 } ?? true, "fetchLimit must not be negative, got \(fetchLimit ?? 0)")
        require(fetchOffset >= 0, "fetchOffset must not be negative, got \(fetchOffset)")
        self.predicate = predicate
        self.sortKeys = sortKeys
        self.sectionKey = sectionKey
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
    }
}

@available(*, unavailable)
extension FetchRequest: Sendable {}
