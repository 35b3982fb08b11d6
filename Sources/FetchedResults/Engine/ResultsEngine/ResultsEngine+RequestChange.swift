extension ResultsEngine {
    /// Replaces the request; on a fetched controller, re-evaluates every object and delivers
    /// the difference between the old results and the new ones as one change.
    ///
    /// The searches over this engine follow (``sourceRequestDidChange()``) before anyone
    /// hears of the change, so a delegate that reads or commits while it is delivered finds
    /// every engine on its new request; each search delivers its own change after this
    /// engine's, or before any later change of its own.
    func replaceRequest(with newRequest: FetchRequest<Object>) {
        guard hasFetched else {
            _request = newRequest
            index = emptyIndex(for: newRequest)
            return
        }
        derivedEngines.removeAll { $0.engine == nil }
        let derived = derivedEngines.compactMap(\.engine)
        let diff = reload(for: newRequest)
        for engine in derived { engine.sourceRequestDidChange() }
        if !diff.isEmpty { deliver(diff) }
        for engine in derived { engine.deliverUndeliveredChange() }
    }

    /// Re-reads every result for `newRequest`, without delivering anything.
    ///
    /// - Returns: The difference from the results before; the sections that left keep
    ///   their names for its delivery.
    /// - Complexity: O(n log n) for n objects of the entity.
    func reload(for newRequest: FetchRequest<Object>) -> IndexDiff<ObjectID> {
        let oldRows = index.visibleRows
        let oldNames = Dictionary(oldRows.map { ($0.section, sectionName(for: $0.section)) }, uniquingKeysWith: { a, _ in a })
        _request = newRequest
        reloadResults()
        // The totals may be others: every section's header refreshes.
        totals?.reportsEverySection = true
        let diff = ResultsIndex<ObjectID>.diff(from: oldRows, to: index.visibleRows)
        if !diff.isEmpty {
            for (value, name) in oldNames where sectionNames[value] == nil { sectionNames[value] = name }
        }
        return diff
    }

    /// Delivers the change this engine computed but has not delivered yet (a search's
    /// reload for its base's new request), if any.
    func deliverUndeliveredChange() {
        guard let diff = undeliveredDiff else { return }
        undeliveredDiff = nil
        deliver(diff)
    }
}
