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
    /// The observation that forgets the folded text of deleted objects and checks
    /// invariants after each commit.
    var commitObservation: GraphObservation?
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
        super.init(graph: base.graph, request: Self.request(over: base, matcher: matcher))
        base.derivedEngines.append(DerivedEngine<Object>(engine: self))
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
    override func sourceRequestDidChange() {
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

    /// A search reads the keys of the base rows its text excludes: it follows what they
    /// read, and a later text can show them with the base's keys.
    override var readsKeysOfExcluded: Bool { true }

    /// The base: it heard of each commit first, and its rows' keys are the search's.
    override var keysSource: ResultsEngine<Object>? { base }

    /// A folded-text search copies the base's dependency entries of the rows it does not
    /// show and a commit's writes to them cannot show (``ExcludedRowsShortcut``).
    override var excludedRowsShortcut: ExcludedRowsShortcut? {
        textStore.flatMap { ExcludedRowsShortcut(store: $0, source: base) }
    }

    /// A commit that writes only rows a folded-text search does not show and the commit
    /// cannot show changes nothing but their dependency entries, copied from the base.
    override func commitsWithoutEvaluations(_ changes: GraphChanges) -> Bool {
        guard let store = textStore, !store.searchReadsOthers, !store.needle.isEmpty else { return false }
        return commitLeavingExcludedRowsAlone(changes, store: store, source: base)
    }

    /// The base engine's index title for a section, so search sections carry the same
    /// titles as the main list's.
    ///
    /// - Parameter sectionName: The section's name.
    /// - Returns: The base engine's title for it.
    override func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        base.sectionIndexTitle(forSectionName: sectionName)
    }

    /// Forgets the folded text of deleted objects, the foldings by slot and the narrowing
    /// steps (the commit may have changed any row).
    func didProcessCommit(_ changes: GraphChanges) {
        if slotTexts != nil { slotTexts = nil }
        if baseRanks != nil { baseRanks = nil }
        if let store = textStore {
            for id in changes.deleted { store.folded[id] = nil }
            refinements.reset(to: store.needle)
        }
        _checkSearchInvariants()
    }
}
