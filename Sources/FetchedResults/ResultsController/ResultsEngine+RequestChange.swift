extension ResultsEngine {
    /// Replaces the request; on a fetched controller, re-evaluates every object and delivers
    /// the difference between the old results and the new ones as one change.
    func replaceRequest(with newRequest: FetchRequest<Object>) {
        guard hasFetched else {
            _request = newRequest
            index = emptyIndex(for: newRequest)
            return
        }
        let oldRows = index.visibleRows
        let oldNames = Dictionary(oldRows.map { ($0.section, sectionName(for: $0.section)) }, uniquingKeysWith: { a, _ in a })
        _request = newRequest
        reloadResults()
        let diff = ResultsIndex<ObjectID>.diff(from: oldRows, to: index.visibleRows)
        if !diff.isEmpty {
            for (value, name) in oldNames where sectionNames[value] == nil { sectionNames[value] = name }
            deliver(diff)
        }
        // Then the searches over this engine, whose rows and keys were this engine's.
        derivedEngines.removeAll { $0.engine == nil }
        for derived in derivedEngines { derived.engine?.sourceRequestDidChange() }
    }
}
