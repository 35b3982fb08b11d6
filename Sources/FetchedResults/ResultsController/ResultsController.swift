import Foundation
import Observation

/// Keeps the results of a ``FetchRequest`` on an `ObjectGraph` up to date, sectioned and
/// sorted, and reports each commit's changes as a batch a list view accepts.
///
/// ```swift
/// let controller = ResultsController(graph: graph, request: FetchRequest(
///     Item.self, sortedBy: [SortKey(\.name, comparison: .localizedStandard)],
///     sectionKey: SectionKey(\.location?.name)))
/// controller.performFetch()
/// controller.delegate = listAdapter
/// ```
///
/// After ``performFetch()`` the controller never fetches again to update itself. It keeps
/// each fetched object's extracted keys in an order-statistic tree, records which properties
/// (across relationships too) each object's predicate and keys read, and on every commit
/// re-evaluates exactly the objects whose reads changed, in O(k log n) for k of them. The
/// changes are delivered three ways: a ``delegate``, an `AsyncSequence` from
/// ``changes(bufferingPolicy:)``, and Observation (``sections`` and ``fetchedObjects`` are
/// observable).
///
/// Its reads are those of ``SectionedResults``, which ``SearchController`` and
/// ``OrderedResultsController`` share; code that shows any controller's rows takes
/// `some SectionedResults<Item>`. The class is final: choose section index titles with
/// ``sectionIndexTitleProvider`` rather than a subclass.
///
/// A controller is confined to the isolation domain of its graph. It stops observing the
/// graph when it is deinitialized.
public final class ResultsController<Object: GraphObject>: SectionedResults {
    /// The engine that holds the results; this controller forwards every read to it.
    let engine: ResultsEngine<Object>

    /// Creates a controller. It holds no results until ``performFetch()``.
    ///
    /// - Parameters:
    ///   - graph: The graph to fetch from and observe.
    ///   - request: What to fetch.
    /// - Complexity: O(1); the controller starts observing the graph.
    public init(graph: ObjectGraph, request: FetchRequest<Object>) {
        engine = ResultsEngine(graph: graph, request: request)
        engine.controller = self
    }

    /// What the controller fetches. Setting it on a fetched controller re-evaluates every
    /// object and reports the difference between the old and new results as one change
    /// (an animated re-filter or re-sort), never a silent refetch. Each ``SearchController``
    /// over this controller then follows the new request, reporting its own change.
    ///
    /// - Complexity: Setting it costs O(n log n) for n objects of the entity, and as much
    ///   again for each search controller over it.
    public var request: FetchRequest<Object> {
        get { engine._request }
        set { engine.replaceRequest(with: newValue) }
    }

    /// Makes the index title of a section from its name; `nil` (the default) titles a
    /// section with the capitalized first letter of its name, and none for an empty name.
    ///
    /// ```swift
    /// controller.sectionIndexTitleProvider = { name in name.isEmpty ? "#" : String(name.prefix(2)) }
    /// ```
    ///
    /// Setting it changes the titles of ``sections`` read from then on, and Observation
    /// reports it as a change of ``sections``. A ``SearchController`` derived from this
    /// controller uses it too.
    public var sectionIndexTitleProvider: ((_ sectionName: String) -> String?)? {
        get { engine.sectionIndexTitleProvider }
        set { engine.withObservableMutation { engine.sectionIndexTitleProvider = newValue } }
    }

    /// Fetches every object of the entity that matches the request, sorts and sections them,
    /// and starts observing the graph. Calling it again re-fetches from scratch without
    /// reporting a change (set ``request`` to animate a change instead).
    ///
    /// Objects inserted but not yet committed are included, as the graph lists them.
    ///
    /// - Complexity: O(n log n) for n objects of the entity.
    public func performFetch() {
        engine.performFetch()
    }
}

@available(*, unavailable)
extension ResultsController: Sendable {}
