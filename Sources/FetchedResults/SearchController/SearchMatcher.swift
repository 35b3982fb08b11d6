import ObjectGraph

/// How a search controller's text selects objects.
enum SearchMatcher<Object: GraphObject> {
    /// The text is searched in a string of each object, over folded text kept in `store`.
    case text(read: (Object) -> String, options: TextComparisonOptions, store: FoldedTextStore)
    /// The text builds a predicate; `narrowing` says which text changes narrow its matches,
    /// and `store` holds the predicate for the current text.
    case predicate(make: (String) -> FetchPredicate<Object>, narrowing: SearchNarrowing, store: PredicateStore<Object>)

    /// The predicate a search controller's request holds: the base predicate, then the
    /// search. It reads the current text from the store, so a text change needs no new
    /// predicate.
    ///
    /// A search controller evaluates the section and sort keys of every object, the ones
    /// this predicate excludes too (``RequestExtractors/readsKeysOfExcluded``), so it records
    /// their dependencies for them as well: a later broadening can then include an object
    /// with the keys the base controller holds, without evaluating it again, and its row
    /// still follows every change of what its keys read.
    ///
    /// A folded-text search keeps the folding of exactly the objects the base predicate
    /// included when last evaluated (it forgets the others'), and notes in its store what
    /// reading the searched string read (``FoldedTextStore/searchedProperties``).
    ///
    /// - Parameters:
    ///   - request: The base controller's request.
    ///   - graph: The graph of the objects.
    func combinedPredicate(base request: FetchRequest<Object>, graph: ObjectGraph) -> FetchPredicate<Object> {
        let basePredicate = request.predicate
        switch self {
        case .text(let read, let options, let store):
            return FetchPredicate { object in
                if let basePredicate, !basePredicate.isIncluded(object) {
                    // A folding kept only while the base includes the object is current:
                    // every write to what it read re-evaluates the object.
                    store.folded[object.objectID] = nil
                    return false
                }
                let string = graph.trackReadsOfPart(of: object, ownProperties: &store.searchedProperties, readsOthers: &store.searchReadsOthers) {
                    read(object)
                }
                let folded = FoldedText(string, options: options)
                store.folded[object.objectID] = folded
                return store.needle.isEmpty || folded.contains(store.needle)
            }
        case .predicate(_, _, let store):
            return FetchPredicate { object in
                if let basePredicate, !basePredicate.isIncluded(object) { return false }
                return store.current.isIncluded(object)
            }
        }
    }
}

@available(*, unavailable)
extension SearchMatcher: Sendable {}

/// The folded search string of every object the base predicate includes, refolded whenever
/// the controller evaluates the object (at fetch, and at each commit that changes what the
/// object's evaluation read), and the folded search text.
final class FoldedTextStore {
    /// The folded string of each object the base predicate included when last evaluated.
    var folded: FoldedTextColumn
    /// The search text, folded with the search's options.
    var needle: FoldedText
    /// The own properties that reading an object's searched string has read, over every
    /// folding made: bit `min(i, 63)` for property `i`. A write to none of them leaves an
    /// object's folding as it is, unless the string read other objects too
    /// (``searchReadsOthers``).
    var searchedProperties: UInt64 = 0
    /// Whether reading an object's searched string has ever read another object.
    var searchReadsOthers = false

    init(needle: FoldedText) {
        self.needle = needle
        folded = FoldedTextColumn(options: needle.options)
    }
}

@available(*, unavailable)
extension FoldedTextStore: Sendable {}

/// The search predicate built for the current text.
final class PredicateStore<Object: GraphObject> {
    /// The predicate for the current text.
    var current: FetchPredicate<Object>

    init(current: FetchPredicate<Object>) {
        self.current = current
    }
}

@available(*, unavailable)
extension PredicateStore: Sendable {}
