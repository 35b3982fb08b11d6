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
    /// An object the base predicate includes but the search excludes also has its section
    /// and sort keys read, so the controller records their dependencies for it too: a later
    /// broadening can then include it with the keys the base controller holds, without
    /// evaluating it again, and its row still follows every change of what its keys read.
    func combinedPredicate(base request: FetchRequest<Object>) -> FetchPredicate<Object> {
        let basePredicate = request.predicate
        let sortKeys = request.sortKeys
        let sectionKey = request.sectionKey
        func readKeys(_ object: Object) {
            _ = sectionKey?.extract(object)
            for key in sortKeys { _ = key.extract(object) }
        }
        switch self {
        case .text(let read, let options, let store):
            return FetchPredicate { object in
                if let basePredicate, !basePredicate.isIncluded(object) { return false }
                let folded = FoldedText(read(object), options: options)
                store.folded[object.objectID] = folded
                if store.needle.isEmpty || folded.contains(store.needle) { return true }
                readKeys(object)
                return false
            }
        case .predicate(_, _, let store):
            return FetchPredicate { object in
                if let basePredicate, !basePredicate.isIncluded(object) { return false }
                if store.current.isIncluded(object) { return true }
                readKeys(object)
                return false
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
