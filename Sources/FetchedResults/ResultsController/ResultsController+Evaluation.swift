extension ResultsController {
    /// Evaluates an object's predicate and keys while recording what they read, and updates
    /// the dependency index.
    ///
    /// - Parameters:
    ///   - object: The object.
    ///   - id: Its ID.
    ///   - first: Whether this is the object's first evaluation since the dependencies were
    ///     emptied (during a fetch).
    /// - Returns: The object's keys, or `nil` when the predicate excludes it.
    /// - Complexity: O(r log r) for r reads, plus the cost of the predicate and keys.
    func evaluate(_ object: Object, id: ObjectID, first: Bool = false) -> RowKeys? {
        var reads: [PropertyRead] = []
        return evaluate(object, id: id, reads: &reads, first: first)
    }

    /// Evaluates an object as ``evaluate(_:id:first:)`` does, recording its reads in a buffer
    /// the caller reuses across objects (emptied first), so evaluating many objects allocates
    /// nothing per object for the reads.
    ///
    /// - Parameters:
    ///   - object: The object.
    ///   - id: Its ID.
    ///   - reads: A scratch buffer for the reads.
    ///   - first: Whether this is the object's first evaluation since the dependencies were
    ///     emptied (during a fetch); a fetch names the sections itself once loaded.
    /// - Returns: The object's keys, or `nil` when the predicate excludes it.
    func evaluate(_ object: Object, id: ObjectID, reads: inout [PropertyRead], first: Bool = false) -> RowKeys? {
        let request = _request
        reads.removeAll(keepingCapacity: true)
        let keys = graph.trackReads(appendingTo: &reads) { () -> RowKeys? in
            if let predicate = request.predicate, !predicate.isIncluded(object) { return nil }
            return RowKeys(
                section: request.sectionKey?.extract(object) ?? .null,
                sort: request.sortKeys.map { $0.extract(object) }
            )
        }
        dependencies.record(id, reads: reads)
        if !first, let keys, let sectionKey = request.sectionKey, sectionNames[keys.section] == nil {
            sectionNames[keys.section] = graph.withoutObservation { sectionKey.sectionName(object) }
        }
        if displayedProperties == nil, let displayed = request.displayedKeys {
            displayedProperties = resolveDisplayedProperties(displayed, on: object, id: id)
        }
        return keys
    }

    /// The own properties each displayed key path reads, found by reading it once.
    func resolveDisplayedProperties(_ keyPaths: [PartialKeyPath<Object>], on object: Object, id: ObjectID) -> Set<PropertyIndex> {
        var properties: Set<PropertyIndex> = []
        for keyPath in keyPaths {
            let (_, reads) = graph.trackReads { object[keyPath: keyPath] }
            for read in reads where read.objectID == id { properties.insert(read.property) }
        }
        return properties
    }
}
