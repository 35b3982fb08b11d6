import Foundation

// One-shot fetches: a request's objects or their count, read now, without a controller,
// as Core Data's `context.fetch(_:)` and `count(for:)`.

extension ObjectGraph {
    /// The objects a request selects, in the request's order, read now, without a controller
    /// and without observing later commits (Core Data's `context.fetch(_:)`).
    ///
    /// The objects are those a ``ResultsController`` with this request would list after
    /// ``ResultsController/performFetch()``, in the same order: filtered by the predicate,
    /// ordered by the section key (when there is one), then the sort keys, then object
    /// identity, and cut to the window of `fetchOffset` and `fetchLimit`. Pending inserts are
    /// included and pending deletions are not, as `objects(of:)` lists them.
    /// The keys are extracted once per object and sorted as a controller's fetch sorts them.
    ///
    /// ```swift
    /// let cheapest = graph.fetch(FetchRequest(Item.self, sortedBy: [SortKey(\.price)], fetchLimit: 3))
    /// ```
    ///
    /// Reads inside it are not tracked by Observation.
    ///
    /// - Parameter request: What to fetch.
    /// - Returns: The selected objects, in order.
    /// - Complexity: O(n log n) for n objects of the entity, plus the cost of the predicate
    ///   and keys on each.
    public func fetch<Object: GraphObject>(_ request: FetchRequest<Object>) -> [Object] {
        let candidates = objects(of: Object.self)
        let extractors = RequestExtractors(request)
        var rows = ResultsIndex<ObjectID>.LoadColumns(sortKeyCount: extractors.sort.count, capacity: candidates.count)
        withoutObservation {
            for object in candidates {
                let erased: GraphObject = object
                guard extractors.predicate?(erased) ?? true else { continue }
                rows.ids.append(object.objectID)
                for column in extractors.sort.indices { rows.columns[column].append(extractors.sort[column](erased)) }
                rows.sections.append(extractors.section?(erased) ?? .null)
            }
        }
        var index = ResultsEngine<Object>.makeIndex(for: request)
        index.load(rows)
        return index.ids(inRanks: index.window).map { id in
            guard let object = registeredObject(with: id) as? Object else {
                requirementFailure("internal inconsistency: fetched object \(id) is not in the graph")
            }
            return object
        }
    }

    /// The number of objects a request selects, counted now, without a controller (Core
    /// Data's `count(for:)`): how many ``fetch(_:)`` would return, with `fetchOffset` and
    /// `fetchLimit` applied, but without reading sort or section keys or sorting.
    ///
    /// ```swift
    /// let toBuy = graph.count(for: FetchRequest(Item.self, predicate: .equal(\.listed, true)))
    /// ```
    ///
    /// - Parameter request: What to count.
    /// - Returns: The number of objects ``fetch(_:)`` would return.
    /// - Complexity: O(n) for n objects of the entity, plus the cost of the predicate on each.
    public func count<Object: GraphObject>(for request: FetchRequest<Object>) -> Int {
        let candidates = objects(of: Object.self)
        var matching = candidates.count
        if let predicate = request.predicate {
            matching = withoutObservation { candidates.reduce(0) { $0 + (predicate.evaluate($1) ? 1 : 0) } }
        }
        return ResultsIndex<ObjectID>.window(count: matching, offset: request.fetchOffset, limit: request.fetchLimit).count
    }
}
