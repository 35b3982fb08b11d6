extension ResultsController {
    /// Evaluates an object's predicate and keys while recording what they read, and updates
    /// the dependency index.
    ///
    /// - Returns: The object's keys, or `nil` when the predicate excludes it.
    /// - Complexity: O(r log r) for r reads, plus the cost of the predicate and keys.
    func evaluate(_ object: Object, id: ObjectID) -> RowKeys? {
        let request = _request
        let (keys, reads) = graph.trackReads { () -> RowKeys? in
            if let predicate = request.predicate, !predicate.isIncluded(object) { return nil }
            return RowKeys(
                section: request.sectionKey?.extract(object) ?? .null,
                sort: request.sortKeys.map { $0.extract(object) }
            )
        }
        dependencies.record(id, reads: reads)
        if let keys, let sectionKey = request.sectionKey, sectionNames[keys.section] == nil {
            sectionNames[keys.section] = graph.withoutObservation { sectionKey.sectionName(object) }
        }
        if displayedProperties == nil, let displayed = request.displayedKeys {
            displayedProperties = resolveDisplayedProperties(displayed, on: object, id: id)
        }
        return keys
    }

    /// The own properties each displayed key path reads, found by reading it once.
    private func resolveDisplayedProperties(_ keyPaths: [PartialKeyPath<Object>], on object: Object, id: ObjectID) -> Set<PropertyIndex> {
        var properties: Set<PropertyIndex> = []
        for keyPath in keyPaths {
            let (_, reads) = graph.trackReads { object[keyPath: keyPath] }
            for read in reads where read.objectID == id { properties.insert(read.property) }
        }
        return properties
    }
}
