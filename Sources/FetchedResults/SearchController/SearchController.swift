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
/// A search controller's ``request`` is the base request with the search predicate added,
/// and it offers every read of ``SectionedResults`` exactly as the main controller does:
/// index paths, ``sections``, section index titles, restoration identifiers, snapshots, and
/// the three deliveries (``delegate``, ``changes(bufferingPolicy:)`` and Observation). It
/// stays live under graph changes with the same exact dependencies.
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
/// The search follows the base request: when the base controller's
/// ``ResultsController/request`` changes, the search's becomes the new one with the search
/// predicate added, and the search reports the difference as one change, right after the
/// base reports its own. The search's own ``request`` is read-only: change ``searchText``
/// instead.
///
/// The base is a ``ResultsController``: an ``OrderedResultsController`` shows members in
/// their relationship's order, not what a request fetches, so it is filtered with its own
/// ``OrderedResultsController/predicate`` instead.
public final class SearchController<Object: GraphObject>: SectionedResults {
    /// The controller whose rows the search filters.
    public let base: ResultsController<Object>
    /// The engine that holds the search results; this controller forwards every read to it.
    let engine: SearchEngine<Object>

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
        get { engine.currentText }
        set { engine.applySearchText(newValue) }
    }

    /// The request the search results follow: the base controller's current request with the
    /// search predicate added. Read-only: set ``searchText`` to change the search, or the
    /// base controller's ``ResultsController/request``, which the search follows.
    public var request: FetchRequest<Object> { engine._request }

    /// Creates a search controller that searches a string of each object, `CONTAINS[cd]`
    /// by default, over folded text cached per object and refolded when the string changes.
    ///
    /// - Parameters:
    ///   - base: The controller whose rows the search shows; fetched first if it has not fetched yet.
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
    ///   - base: The controller whose rows the search shows (fetched first if it has not fetched yet).
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
    ///   - base: The controller whose rows the search shows (fetched first if it has not fetched yet).
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
    ///   - base: The controller whose rows the search shows (fetched first if it has not fetched yet).
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
    ///   - base: The controller whose rows the search shows (fetched first if it has not fetched yet).
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
    ///   - base: The controller whose rows the search shows (fetched first if it has not fetched yet).
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

    /// Creates a search controller over `base` with a matcher, and fetches.
    init(base: ResultsController<Object>, matcher: SearchMatcher<Object>, searchText: String) {
        self.base = base
        engine = SearchEngine(base: base.engine, matcher: matcher, searchText: searchText)
        engine.controller = self
    }
}

@available(*, unavailable)
extension SearchController: Sendable {}
