import Foundation
import ObjectGraph

/// The engine of a ``SearchController``: a results engine whose rows are a base engine's
/// rows filtered by the search text, with the same keys, sections and order. It is updated
/// by commits as any engine is, and by text changes without fetching (see
/// ``SearchController/searchText``).
final class SearchEngine<Object: GraphObject>: ResultsEngine<Object> {
    /// The engine whose rows the search filters.
    let base: ResultsEngine<Object>
    /// The text searched for (``SearchController/searchText``).
    var currentText: String
    /// How a row matches the text: folded text, or a predicate made from the text.
    let matcher: SearchMatcher<Object>
    /// The matcher's folded text, for a folded-text search.
    let textStore: FoldedTextStore?
    /// The folded search strings of the rows by slot, while the index is the one the last
    /// text change built (a commit retires them).
    var slotTexts: SlotTexts?
    /// The narrowing steps of a folded-text search since it last showed every base row
    /// (empty for a predicate search).
    var refinements = RefinementStack(needle: FoldedText("", options: []))
    /// The rank of each base slot, for the base engine's ``ResultsEngine/generation``
    /// it was computed at (a commit retires it).
    var baseRanks: (generation: Int, ranks: [Int32])?

    /// Creates a search engine over a base engine, and fetches (the base first, when it has
    /// not fetched yet).
    ///
    /// - Parameters:
    ///   - base: The engine whose rows are searched.
    ///   - matcher: How a row matches the text.
    ///   - searchText: The initial text.
    /// - Complexity: O(n log n) for n objects of the entity.
    init(base: ResultsEngine<Object>, matcher: SearchMatcher<Object>, searchText: String) {
        if !base.hasFetched { base.performFetch() }
        self.base = base
        self.matcher = matcher
        if case .text(_, _, let store) = matcher { textStore = store } else { textStore = nil }
        currentText = searchText
        if case .text(_, _, let store) = matcher { refinements.reset(to: store.needle) }
        super.init(graph: base.graph, request: Self.request(over: base, matcher: matcher), readsKeysOfExcluded: true)
        // The search hears of commits from its base, right after it (``sourceDidCommit(_:)``).
        base.derivedEngines.append(DerivedEngine(engine: self))
        fetchWithoutObserving()
        _checkSearchInvariants()
    }

    /// The request of a search over `base`: the base's, with the search predicate added.
    private static func request(over base: ResultsEngine<Object>, matcher: SearchMatcher<Object>) -> FetchRequest<Object> {
        var request = base._request
        request.predicate = matcher.combinedPredicate(base: base._request, graph: base.graph)
        return request
    }

    /// Follows the base's new request, once the base has reloaded for it: the search's
    /// becomes the new base request with the search predicate added and every object is
    /// evaluated again; the difference waits in ``undeliveredDiff`` until the base has
    /// delivered its own change. What the search kept of the old base rows (foldings, ranks,
    /// narrowing steps) is forgotten first: the base rows are not the same.
    ///
    /// - Complexity: O(n log n) for n objects of the entity.
    func sourceRequestDidChange() {
        deliverUndeliveredChange()
        slotTexts = nil
        baseRanks = nil
        if let store = textStore {
            store.folded = FoldedTextColumn(options: store.folded.options)
            refinements.reset(to: store.needle)
        }
        let diff = reload(for: Self.request(over: base, matcher: matcher))
        if !diff.isEmpty { undeliveredDiff = diff }
        _checkSearchInvariants()
    }

    /// The search's totals are its base's request's, over the search's rows, read from the
    /// base's table of inputs (current with each commit before the search hears of it).
    override func makeTotals() -> ResultsTotals? {
        guard let table = base.totals?.table else { return nil }
        table.isShared = true
        return ResultsTotals(_request, table: table, ownsInputs: false)
    }

    /// The base engine's index title for a section, so search sections carry the same
    /// titles as the main list's.
    ///
    /// - Parameter sectionName: The section's name.
    /// - Returns: The base engine's title for it.
    override func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        base.sectionIndexTitle(forSectionName: sectionName)
    }
}
