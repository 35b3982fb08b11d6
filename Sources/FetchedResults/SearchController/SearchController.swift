import Foundation
import ObjectGraph

/// A results controller that shows a base controller's rows filtered by a search text: the
/// same entity, sort keys and section key, the same sections and order, with a text
/// predicate added to the base predicate.
///
/// ```swift
/// let items = ResultsController(graph: graph, request: FetchRequest(
///     Item.self, sortedBy: [SortKey(\.name, comparison: .localizedStandard)], sectionKey: SectionKey(\.location?.name)))
/// items.performFetch()
/// let search = SearchController(base: items, searching: \.name)   // name CONTAINS[cd] text
/// search.delegate = searchResultsAdapter
/// search.searchText = "ba"    // an animated filter of the list in place
/// search.searchText = "bab"   // filters only the current matches
/// search.searchText = ""      // the whole list again, as a diff
/// ```
///
/// A search controller is a ``ResultsController`` whose request is the base request with
/// the search predicate added, so everything the main controller offers works on the
/// search results exactly as on the main list: index paths, ``ResultsController/sections``,
/// section index titles, restoration identifiers, snapshots, and the three deliveries
/// (``ResultsController/delegate``, ``ResultsController/changes(bufferingPolicy:)`` and
/// Observation). It stays live under graph changes with the same exact dependencies.
///
/// Setting ``searchText`` never fetches again: it computes which rows enter or leave and
/// reports the difference from the previous results as one change set (sections that
/// become empty disappear, and reappear when the text broadens). A text that narrows the
/// previous one (`"ba"` → `"bab"`) tests only the current matches; a text that broadens it
/// tests only the base rows that are not matches yet, taking their keys from the base
/// controller instead of evaluating them. A folded-text search also remembers the rows
/// each narrowing removed until the next commit, so going back (`"bab"` → `"ba"`) inserts
/// those rows without testing any other.
///
/// The search covers all of the base controller's matches; the base request's
/// `fetchOffset` and `fetchLimit` cut their window out of the filtered results, as a fetch
/// of the combined request would.
///
/// The base request is copied when the search controller is created; a later change of the
/// base controller's ``ResultsController/request`` is not followed (create a new search
/// controller). Setting ``ResultsController/request`` on a search controller is a
/// programming error: change ``searchText`` instead.
public final class SearchController<Object: GraphObject>: ResultsController<Object> {
    /// The controller whose rows the search filters.
    public let base: ResultsController<Object>

    /// The text searched for. Setting it reports the difference from the previous results
    /// as one change (never a reload); an empty text shows every base row.
    ///
    /// - Complexity: For a folded-text search without a window, with m current rows and n
    ///   base rows: narrowing the text costs O(m) byte tests over foldings packed in row
    ///   order, and changes the rows in place (a kept row is not copied); going back to a
    ///   shorter text, or editing the last characters, tests only the rows the longer
    ///   texts removed since the last commit (none when it returns to a text it passed
    ///   through) and merges them by base rank, O(m + k) for k such rows; clearing shares
    ///   the base controller's columns, O(n) to list the rows that enter; a text no earlier
    ///   step covers (the first keystroke, or a broadening after a commit) tests every
    ///   folding in one ordered pass, O(n). A text test over folded text is a byte search,
    ///   without reading the object. Searches with a window or a predicate test the
    ///   current matches when narrowing, the other base rows when broadening, both
    ///   otherwise.
    public var searchText: String {
        get { currentText }
        set { applySearchText(newValue) }
    }

    var currentText: String
    let matcher: SearchMatcher<Object>
    /// The observation that forgets the folded text of deleted objects and checks
    /// invariants after each commit.
    var commitObservation: GraphObservation?
    /// The folded search strings of the rows by slot, while the index is the one the last
    /// text change built (a commit retires them).
    var slotTexts: SlotTexts?
    /// The narrowing steps of a folded-text search since it last showed every base row
    /// (empty for a predicate search).
    var refinements = RefinementStack(needle: FoldedText("", options: []))
    /// The rank of each base slot, for the base controller's ``ResultsController/generation``
    /// it was computed at (a commit retires it).
    var baseRanks: (generation: Int, ranks: [Int32])?

    /// Creates a search controller that searches a string of each object, `CONTAINS[cd]`
    /// by default, over folded text cached per object and refolded when the string changes.
    ///
    /// - Parameters:
    ///   - base: A fetched controller (`precondition`); the search shows its rows.
    ///   - text: The string searched, read from an object; it may reach related objects
    ///     (its reads are tracked like a predicate's).
    ///   - options: How characters compare; by default case- and diacritic-insensitively.
    ///   - searchText: The initial text; empty shows every base row.
    /// - Complexity: O(n log n) for n objects of the entity, as ``ResultsController/performFetch()``.
    public convenience init(
        base: ResultsController<Object>,
        searching text: @escaping (Object) -> String,
        options: TextComparisonOptions = [.caseInsensitive, .diacriticInsensitive],
        searchText: String = ""
    ) {
        let store = FoldedTextStore(needle: FoldedText(searchText, options: options))
        self.init(base: base, matcher: .text(read: text, options: options, store: store), searchText: searchText)
    }

    /// Creates a search controller that searches the string at a key path of each object
    /// (`CONTAINS[cd]` by default).
    ///
    /// - Parameters:
    ///   - base: A fetched controller (`precondition`).
    ///   - keyPath: The string searched.
    ///   - options: How characters compare; by default case- and diacritic-insensitively.
    ///   - searchText: The initial text.
    /// - Complexity: O(n log n) for n objects of the entity.
    public convenience init(
        base: ResultsController<Object>,
        searching keyPath: KeyPath<Object, String>,
        options: TextComparisonOptions = [.caseInsensitive, .diacriticInsensitive],
        searchText: String = ""
    ) {
        self.init(base: base, searching: { $0[keyPath: keyPath] }, options: options, searchText: searchText)
    }

    /// Creates a search controller whose predicate is built from the text by a closure
    /// (typed builders, a Foundation `Predicate`, anything that makes a ``FetchPredicate``).
    ///
    /// ```swift
    /// let search = SearchController(base: items, narrowing: .beginsWith()) { text in .beginsWith(\.name, text) }
    /// ```
    ///
    /// - Parameters:
    ///   - base: A fetched controller (`precondition`).
    ///   - searchText: The initial text.
    ///   - narrowing: Which text changes narrow the predicate's matches, so that the search
    ///     tests only the current matches (or, going back, only the other base rows). The
    ///     rule must be true of the predicate: ``SearchNarrowing/contains(_:)`` for
    ///     ``FetchPredicate/contains(_:_:_:)``, ``SearchNarrowing/beginsWith(_:)`` for
    ///     ``FetchPredicate/beginsWith(_:_:_:)`` with the same comparison. By default
    ///     (``SearchNarrowing/never``) every change tests every base row.
    ///   - makePredicate: Builds the search predicate for a text; called once per text.
    /// - Complexity: O(n log n) for n objects of the entity.
    public convenience init(
        base: ResultsController<Object>,
        searchText: String = "",
        narrowing: SearchNarrowing = .never,
        predicate makePredicate: @escaping (String) -> FetchPredicate<Object>
    ) {
        let store = PredicateStore(current: makePredicate(searchText))
        self.init(
            base: base,
            matcher: .predicate(make: makePredicate, narrowing: narrowing, store: store),
            searchText: searchText)
    }

    /// Creates a search controller whose predicate is built from the text by a closure,
    /// narrowing when the text is extended at its end.
    ///
    /// - Parameters:
    ///   - base: A fetched controller (`precondition`).
    ///   - searchText: The initial text.
    ///   - narrowsWhenTextExtends: `true` for ``SearchNarrowing/whenTextExtends``, `false`
    ///     for ``SearchNarrowing/never``.
    ///   - makePredicate: Builds the search predicate for a text; called once per text.
    /// - Complexity: O(n log n) for n objects of the entity.
    @available(*, deprecated,
               message: "declare the predicate's rule: narrowing: .contains(), .beginsWith(), .whenTextExtends or your own")
    public convenience init(
        base: ResultsController<Object>,
        searchText: String = "",
        narrowsWhenTextExtends: Bool,
        predicate makePredicate: @escaping (String) -> FetchPredicate<Object>
    ) {
        self.init(
            base: base, searchText: searchText, narrowing: narrowsWhenTextExtends ? .whenTextExtends : .never,
            predicate: makePredicate)
    }

    /// Creates a search controller whose predicate is a format string in which the variable
    /// `$text` (or the one `variable` names) stands for the search text.
    ///
    /// ```swift
    /// let search = try SearchController(base: items, format: "name CONTAINS[cd] $text OR note CONTAINS[cd] $text",
    ///                                   schema: GraphPredicateSchema(Item.self, Location.self),
    ///                                   narrowing: .contains(options: [.caseInsensitive, .diacriticInsensitive]))
    /// ```
    ///
    /// - Parameters:
    ///   - base: A fetched controller (`precondition`).
    ///   - format: The predicate in NSPredicate syntax.
    ///   - variable: The name of the variable that holds the text, without the `$`.
    ///   - schema: The schema that knows `Object` and every class the predicate reaches.
    ///   - searchText: The initial text.
    ///   - narrowing: Which text changes narrow the predicate's matches; it must be true of
    ///     the format (``SearchNarrowing/contains(options:)`` for `CONTAINS` with those
    ///     options, ``SearchNarrowing/beginsWith(options:)`` for `BEGINSWITH`). By default
    ///     (``SearchNarrowing/never``) every change tests every base row.
    /// - Throws: ``PredicateSyntaxError`` when the format does not parse or bind.
    /// - Complexity: O(n log n) for n objects of the entity.
    public convenience init(
        base: ResultsController<Object>,
        format: String,
        variable: String = "text",
        schema: GraphPredicateSchema,
        searchText: String = "",
        narrowing: SearchNarrowing = .never
    ) throws(PredicateSyntaxError) {
        let parsed = try FormatPredicate(format: format, arguments: [])
        let entity = schema.entity(for: Object.self)
        let first = try parsed.bind(to: entity, variables: [variable: .string(searchText)])
        // Binding depends on the format and the variable's type only, so once it succeeded
        // it succeeds for every text.
        let make: (String) -> FetchPredicate<Object> = { text in
            guard let bound = try? parsed.bind(to: entity, variables: [variable: .string(text)]) else {
                requirementFailure("internal inconsistency: \(format) bound once but not for the text \(text)")
            }
            return FetchPredicate<Object>(bound)
        }
        let store = PredicateStore<Object>(current: FetchPredicate<Object>(first))
        self.init(
            base: base,
            matcher: .predicate(make: make, narrowing: narrowing, store: store),
            searchText: searchText)
    }

    /// Creates a search controller whose predicate is a format string, narrowing when the
    /// text is extended at its end.
    ///
    /// - Parameters:
    ///   - base: A fetched controller (`precondition`).
    ///   - format: The predicate in NSPredicate syntax.
    ///   - variable: The name of the variable that holds the text, without the `$`.
    ///   - schema: The schema that knows `Object` and every class the predicate reaches.
    ///   - searchText: The initial text.
    ///   - narrowsWhenTextExtends: `true` for ``SearchNarrowing/whenTextExtends``, `false`
    ///     for ``SearchNarrowing/never``.
    /// - Throws: ``PredicateSyntaxError`` when the format does not parse or bind.
    /// - Complexity: O(n log n) for n objects of the entity.
    @available(*, deprecated,
               message: "declare the format's rule: narrowing: .contains(options:), .beginsWith(options:), .whenTextExtends or your own")
    public convenience init(
        base: ResultsController<Object>,
        format: String,
        variable: String = "text",
        schema: GraphPredicateSchema,
        searchText: String = "",
        narrowsWhenTextExtends: Bool
    ) throws(PredicateSyntaxError) {
        try self.init(
            base: base, format: format, variable: variable, schema: schema, searchText: searchText,
            narrowing: narrowsWhenTextExtends ? .whenTextExtends : .never)
    }

    init(base: ResultsController<Object>, matcher: SearchMatcher<Object>, searchText: String) {
        require(base.hasFetched, "SearchController: call performFetch() on the base controller before deriving a search from it")
        require(base.derivesSearches,
                     "SearchController: \(type(of: base)) does not fetch by its request alone; filter it with its request's predicate instead")
        self.base = base
        self.matcher = matcher
        currentText = searchText
        if case .text(_, _, let store) = matcher { refinements.reset(to: store.needle) }
        var request = base.request
        request.predicate = matcher.combinedPredicate(base: base.request)
        super.init(graph: base.graph, request: request)
        performFetch()
        // Registered after both controllers' observers, so it runs once both are current.
        commitObservation = graph.addObserver { [weak self] changes in
            self?.didProcessCommit(changes)
        }
        _checkSearchInvariants()
    }

    deinit {
        commitObservation?.cancel()
    }

    /// The request: the base request with the search predicate added. Read-only in effect:
    /// setting it is a programming error (set ``searchText``).
    public override var request: FetchRequest<Object> {
        get { super.request }
        set { requirementFailure("SearchController.request cannot be set; set searchText, or create a new search controller") }
    }

    /// The base controller's index title for a section, so search sections carry the same
    /// titles as the main list's.
    ///
    /// - Parameter sectionName: The section's name.
    /// - Returns: The base controller's title for it.
    public override func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        base.sectionIndexTitle(forSectionName: sectionName)
    }

    /// Forgets the folded text of deleted objects, the foldings by slot and the narrowing
    /// steps (the commit may have changed any row).
    func didProcessCommit(_ changes: GraphChanges) {
        slotTexts = nil
        baseRanks = nil
        if case .text(_, _, let store) = matcher {
            for id in changes.deleted { store.folded[id] = nil }
            refinements.reset(to: store.needle)
        }
        _checkSearchInvariants()
    }
}
