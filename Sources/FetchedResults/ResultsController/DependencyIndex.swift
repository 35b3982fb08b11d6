/// One property of one object that an evaluation read.
struct DependencyKey: Hashable {
    var object: ObjectID
    var property: PropertyIndex
}

/// Which evaluations depend on what: the controller's exact dependency tracking.
///
/// - Reads of an object's own properties are kept per request, as one set of property
///   indexes (every object runs the same predicate and keys, so they read the same own
///   properties): a write to one of them re-evaluates the written object.
/// - Reads of other objects (across relationships) are kept per object, with a reverse index
///   from (object, property) to the objects whose evaluation read it: a write there
///   re-evaluates exactly those objects.
struct DependencyIndex {
    /// The own properties some evaluation read.
    private(set) var ownReads: Set<PropertyIndex> = []
    /// For each object with reads of other objects, what it read.
    private var crossReads: [ObjectID: [DependencyKey]] = [:]
    /// For each (object, property) read by other objects' evaluations, those objects.
    private var dependents: [DependencyKey: Set<ObjectID>] = [:]

    /// Records the reads of one evaluation of `id`, replacing those of its last evaluation.
    ///
    /// - Complexity: O(r) for r reads.
    mutating func record(_ id: ObjectID, reads: ReadSet) {
        var cross: [DependencyKey] = []
        for read in reads {
            if read.objectID == id {
                ownReads.insert(read.property)
            } else {
                cross.append(DependencyKey(object: read.objectID, property: read.property))
            }
        }
        let previous = crossReads[id] ?? []
        guard previous != cross else { return }
        for key in previous where !cross.contains(key) {
            dependents[key]?.remove(id)
            if dependents[key]?.isEmpty == true { dependents[key] = nil }
        }
        for key in cross where !previous.contains(key) {
            dependents[key, default: []].insert(id)
        }
        crossReads[id] = cross.isEmpty ? nil : cross
    }

    /// Forgets the reads of an object that no longer exists.
    mutating func remove(_ id: ObjectID) {
        guard let previous = crossReads.removeValue(forKey: id) else { return }
        for key in previous {
            dependents[key]?.remove(id)
            if dependents[key]?.isEmpty == true { dependents[key] = nil }
        }
    }

    /// The objects whose evaluation read `property` of `object`.
    func dependents(of object: ObjectID, _ property: PropertyIndex) -> Set<ObjectID>? {
        dependents[DependencyKey(object: object, property: property)]
    }

    /// Whether any evaluation read a property of another object.
    var hasCrossReads: Bool { !dependents.isEmpty }

    /// The number of (object, property) pairs that other objects' evaluations read.
    var dependencyCount: Int { dependents.count }

    /// What `id`'s last evaluation read of other objects.
    func crossReads(of id: ObjectID) -> [DependencyKey] { crossReads[id] ?? [] }
}
