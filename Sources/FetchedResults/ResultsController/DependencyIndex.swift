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
    /// For each object whose evaluation read exactly one property of another object, that
    /// property (the common case, kept without an array per object).
    private var singleCrossRead: [ObjectID: DependencyKey] = [:]
    /// For each object whose evaluation read several properties of other objects, those.
    private var multipleCrossReads: [ObjectID: [DependencyKey]] = [:]
    /// For each (object, property) read by other objects' evaluations, those objects.
    private var dependents: [DependencyKey: Set<ObjectID>] = [:]

    /// How many objects to make room for once the first one reads another object.
    private var capacityHint = 0

    /// Makes room for the reads of `count` objects, when evaluations turn out to read other
    /// objects (a request that reads none allocates nothing).
    mutating func reserveCapacity(_ count: Int) {
        capacityHint = count
    }

    /// Records the reads of one evaluation of `id`, replacing those of its last evaluation.
    ///
    /// - Complexity: O(r) for r reads.
    mutating func record(_ id: ObjectID, reads: ReadSet) {
        var single: DependencyKey?
        var cross: [DependencyKey] = []
        for read in reads {
            if read.objectID == id {
                if !ownReads.contains(read.property) { ownReads.insert(read.property) }
            } else {
                let key = DependencyKey(object: read.objectID, property: read.property)
                if single == nil && cross.isEmpty {
                    single = key
                } else {
                    if let first = single {
                        cross.append(first)
                        single = nil
                    }
                    cross.append(key)
                }
            }
        }
        let previous = crossReads(of: id)
        if let single {
            if previous.count == 1 && previous[0] == single { return }
            cross = [single]
        } else if previous == cross {
            return
        }
        for key in previous where !cross.contains(key) {
            removeDependent(id, of: key)
        }
        for key in cross where !previous.contains(key) {
            dependents[key, default: []].insert(id)
        }
        store(cross, for: id)
    }

    /// Forgets the reads of an object that no longer exists.
    mutating func remove(_ id: ObjectID) {
        let previous = crossReads(of: id)
        guard !previous.isEmpty else { return }
        for key in previous { removeDependent(id, of: key) }
        store([], for: id)
    }

    private mutating func removeDependent(_ id: ObjectID, of key: DependencyKey) {
        dependents[key]?.remove(id)
        if dependents[key]?.isEmpty == true { dependents[key] = nil }
    }

    private mutating func store(_ cross: [DependencyKey], for id: ObjectID) {
        switch cross.count {
        case 0:
            singleCrossRead[id] = nil
            multipleCrossReads[id] = nil
        case 1:
            if capacityHint > 0 {
                singleCrossRead.reserveCapacity(capacityHint)
                capacityHint = 0
            }
            singleCrossRead[id] = cross[0]
            multipleCrossReads[id] = nil
        default:
            singleCrossRead[id] = nil
            multipleCrossReads[id] = cross
        }
    }

    /// The objects whose evaluation read `property` of `object`.
    func dependents(of object: ObjectID, _ property: PropertyIndex) -> Set<ObjectID>? {
        dependents[DependencyKey(object: object, property: property)]
    }

    /// Whether any evaluation read a property of another object.
    var hasCrossReads: Bool { !dependents.isEmpty }

    /// What `id`'s last evaluation read of other objects.
    func crossReads(of id: ObjectID) -> [DependencyKey] {
        if let single = singleCrossRead[id] { return [single] }
        return multipleCrossReads[id] ?? []
    }

    #if FRK_INVARIANT_CHECKS
        /// Checks that the forward and reverse indexes agree.
        func _checkInvariants() {
            var count = 0
            for (key, ids) in dependents {
                precondition(!ids.isEmpty, "internal inconsistency: empty dependent set")
                for id in ids {
                    precondition(crossReads(of: id).contains(key), "internal inconsistency: \(id) listed under \(key) it did not read")
                }
                count += ids.count
            }
            let forward = singleCrossRead.count + multipleCrossReads.values.reduce(0) { $0 + $1.count }
            precondition(count == forward, "internal inconsistency: \(forward) reads, \(count) reverse entries")
            precondition(Set(singleCrossRead.keys).isDisjoint(with: multipleCrossReads.keys), "internal inconsistency: reads stored twice")
        }
    #else
        @inline(__always)
        func _checkInvariants() {}
    #endif
}
