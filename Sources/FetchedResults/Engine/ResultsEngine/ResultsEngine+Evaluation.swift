extension ResultsEngine {
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
        let extractors = extractors
        let keys = evaluateKeys(object, id: id, reads: &reads, extractors: extractors)
        if !first, let keys { nameSectionIfNew(keys.section, of: object, extractors: extractors) }
        return keys
    }

    /// Evaluates an object as ``evaluate(_:id:reads:first:)`` does, but leaves naming a new
    /// section to the caller (``nameSectionIfNew(_:of:extractors:)``), which may know the
    /// section is not new without looking its name up.
    ///
    /// - Parameters:
    ///   - object: The object.
    ///   - id: Its ID.
    ///   - reads: A scratch buffer for the reads.
    ///   - extractors: The request's closures (``extractors``), read once by the caller.
    ///   - dependencyEntry: The object's ``DependencyIndex/entry(of:)``, when the caller read
    ///     it since the object was last recorded or removed there.
    /// - Returns: The object's keys, or `nil` when the predicate excludes it.
    func evaluateKeys(
        _ object: Object, id: ObjectID, reads: inout [PropertyRead], extractors: RequestExtractors, dependencyEntry: DependencyIndex.Entry? = nil
    ) -> RowKeys? {
        let erased: GraphObject = object
        // One by one: an evaluation reads another object or two, and `removeAll(keepingCapacity:)`
        // costs a general range replacement.
        while !reads.isEmpty { reads.removeLast() }
        var ownProperties: UInt64 = 0
        var included = true
        var section = SortValue.null
        // The predicate and the sort keys, then the section key, whose reads come last, so
        // that the dependencies know the keys that only section keys read.
        var sectionStart = Int.max
        var totalInputs: [TotalInput]?
        // Read out once: binding the optional totals inside the closure would copy them.
        let totalReaders = totals?.readers
        let keepsTotalInputs = totals?.ownsInputs == true
        let graph = graph
        let sort = graph.trackReads(of: erased, ownProperties: &ownProperties, appendingTo: &reads) { () -> SortValues? in
            let start = graph.trackedReadCount
            if let predicate = extractors.predicate, !predicate(erased) {
                included = false
                guard extractors.readsKeysOfExcluded else { return nil }
            }
            let sort = extractors.sort
            let values = SortValues(count: sort.count) { sort[$0](erased) }
            // What the totals read, where the sort keys are read (a search reads them for
            // the rows its text excludes too, as its base does), before the section key.
            if let totalReaders {
                let inputs = totalReaders.inputs(of: erased)
                if included && keepsTotalInputs { totalInputs = inputs }
            }
            if let extract = extractors.section {
                sectionStart = graph.trackedReadCount - start
                section = extract(erased)
            }
            return values
        }
        if let totalInputs { totals?.evaluated[id] = totalInputs }
        dependencies.recordOwnReads(ownProperties)
        dependencies.record(id, reads: reads, sectionStart: sectionStart, entry: dependencyEntry ?? dependencies.entry(of: id))
        if displayedProperties == nil, extractors.hasDisplayedKeys, let displayed = _request.displayedKeys {
            displayedProperties = resolveDisplayedProperties(displayed, on: object, id: id)
        }
        guard included, let sort else { return nil }
        return RowKeys(section: section, sort: sort)
    }

    /// Reads an object's section key again, when a commit changed only what section keys
    /// read: its predicate's result and sort keys stand. `nil` when the request has no
    /// section key, or the section key now reads other keys than the one the object's
    /// entry names (the caller evaluates it in full instead: the dependencies change).
    ///
    /// - Parameters:
    ///   - object: The object.
    ///   - id: Its ID.
    ///   - key: The one key of other objects its entry names (``DependencyIndex/key(ofEntry:)``),
    ///     or `nil`.
    ///   - reads: A scratch buffer for the reads.
    ///   - extractors: The request's closures (``extractors``).
    /// - Returns: The section key's value, or `nil`.
    /// - Complexity: The cost of the section key, and O(r) for its r reads.
    func sectionKeyAgain(
        _ object: Object, id: ObjectID, key: DependencyKey?, reads: inout [PropertyRead], extractors: RequestExtractors
    ) -> SortValue? {
        guard let extract = extractors.section else { return nil }
        let erased: GraphObject = object
        while !reads.isEmpty { reads.removeLast() }
        var ownProperties: UInt64 = 0
        let section = graph.trackReads(of: erased, ownProperties: &ownProperties, appendingTo: &reads) { extract(erased) }
        // An own property past the bits would need recording as a read.
        guard !reads.contains(where: { $0.objectID == id }), DependencyIndex.reads(reads, of: id, areAllOf: key) else {
            return nil
        }
        dependencies.recordOwnReads(ownProperties)
        return section
    }

    /// Names the section with this key value from `object` (one of its rows) unless it is
    /// named already.
    ///
    /// - Parameters:
    ///   - section: The section key's value, as `object` was evaluated.
    ///   - object: An object whose keys have that section value.
    ///   - extractors: The request's closures (``extractors``).
    /// - Complexity: One hash of the value, and the section key's name transform when new.
    func nameSectionIfNew(_ section: SortValue, of object: Object, extractors: RequestExtractors) {
        guard extractors.section != nil, sectionNames[section] == nil, let sectionKey = _request.sectionKey else { return }
        sectionNames[section] = graph.withoutObservation { sectionKey.sectionName(object) }
    }

    /// The request's closures with the object type erased, made once per request.
    var extractors: RequestExtractors {
        if let extractorCache { return extractorCache }
        let made = RequestExtractors(_request, readsKeysOfExcluded: readsKeysOfExcluded)
        extractorCache = made
        return made
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

/// A request's predicate and key closures with the object type erased.
///
/// A controller's code is generic over its object type and, in another module, runs
/// unspecialized: every touch of a `FetchRequest<Object>`, `SortKey<Object>` or
/// `SectionKey<Object>` looks up type metadata. Evaluating an object through these
/// closures touches none.
struct RequestExtractors {
    /// The predicate, or `nil` when every object is included.
    let predicate: ((GraphObject) -> Bool)?
    /// The section key, or `nil` for an unsectioned request.
    let section: ((GraphObject) -> SortValue)?
    /// The sort keys, in the request's order.
    let sort: [(GraphObject) -> SortValue]
    /// Whether the request declares the keys its cells display.
    let hasDisplayedKeys: Bool
    /// Whether an evaluation reads the section and sort keys of an object the predicate
    /// excludes too (and records their reads), though it returns no keys for it.
    let readsKeysOfExcluded: Bool

    /// Erases the closures of `request`; each is called only with objects of its entity.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - readsKeysOfExcluded: Whether evaluations read the keys of excluded objects too.
    init<Object: GraphObject>(_ request: FetchRequest<Object>, readsKeysOfExcluded: Bool = false) {
        self.readsKeysOfExcluded = readsKeysOfExcluded
        predicate = request.predicate.map { predicate in
            let isIncluded = predicate.isIncluded
            return { isIncluded(unsafeDowncast($0, to: Object.self)) }
        }
        section = request.sectionKey.map { key in
            let extract = key.extract
            return { extract(unsafeDowncast($0, to: Object.self)) }
        }
        sort = request.sortKeys.map { key in
            let extract = key.extract
            return { extract(unsafeDowncast($0, to: Object.self)) }
        }
        hasDisplayedKeys = request.displayedKeys != nil
    }
}
