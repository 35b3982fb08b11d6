/// The members a to-many relationship of one object inserted in the pending transaction
/// gained through bulk to-one writes and does not hold yet (see
/// ``ObjectGraph/_deferInverseAdd(_:_:owner:)``).
internal struct _DeferredInverse {
    /// The object whose relationship gains the members; its entity table holds it.
    unowned(unsafe) let target: GraphObject
    /// The to-many relationship; the entity descriptions keep their accessors.
    unowned(unsafe) let inverse: _PropertyAccessor
    /// The new members, in order; the entity tables hold them.
    var members: [Unmanaged<GraphObject>]
}

// A bulk insert relates each new object to a new target (`item.location = home`) and the
// inverse set gains the object. Inserting into one of many large sets, one member at a time,
// misses the cache on every insert and grows each set step by step; so the members are
// listed per target instead and added in one pass per set, with its capacity reserved, the
// first time anything may look at the set:
//
// - the target is flagged (`GraphObject._staleInverseFlag`); the relationship getter and
//   setter, `PropertyReader` and key-value access flush before they touch a flagged object;
// - every other graph entry that reads or writes relationships (general relationship
//   writes, inserts of pre-related objects, delete, commit, rollback, invariant checks)
//   flushes first.
//
// So the deferred state exists only between bulk to-one writes, and nothing observes it.

extension ObjectGraph {
    /// Lists `owner` as a new member of `target`'s to-many `inverse`, instead of adding it.
    ///
    /// `target` was inserted in the pending transaction, is not deleted and is not observed.
    ///
    /// - Returns: `false`, having changed nothing, when the target already defers members of
    ///   another relationship (the caller adds directly).
    @inline(__always)
    internal func _deferInverseAdd(_ target: GraphObject, _ inverse: _PropertyAccessor, owner: GraphObject) -> Bool {
        // An inserted object has no pending entry: its slot numbers its deferred list.
        let slot = Int(target._pendingSlot)
        if slot == 0 {
            _deferredInverses.append(_DeferredInverse(target: target, inverse: inverse, members: [Unmanaged.passUnretained(owner)]))
            precondition(_deferredInverses.count < Int(Int32.max), "too many objects related in one transaction")
            target._pendingSlot = Int32(_deferredInverses.count)
            target._flags |= GraphObject._staleInverseFlag
            return true
        }
        guard _deferredInverses[slot - 1].inverse === inverse else { return false }
        _deferredInverses[slot - 1].members.append(Unmanaged.passUnretained(owner))
        return true
    }

    /// Adds every deferred member to its relationship, one relationship at a time.
    ///
    /// - Complexity: O(*m*) for *m* deferred members; O(1) when there are none.
    @inline(__always)
    internal func _flushDeferredInverses() {
        if _slowPath(!_deferredInverses.isEmpty) { _flushDeferredInversesNow() }
    }

    @inline(never)
    private func _flushDeferredInversesNow() {
        let lists = _deferredInverses
        _deferredInverses = []
        for list in lists {
            let target = list.target
            target._flags &= ~GraphObject._staleInverseFlag
            target._pendingSlot = 0
            list.inverse.addAll(target, list.members)
        }
    }

    /// Forgets the deferred members without adding them (the graph is going away).
    internal func _dropDeferredInverses() {
        for list in _deferredInverses {
            list.target._flags &= ~GraphObject._staleInverseFlag
            list.target._pendingSlot = 0
        }
        _deferredInverses = []
    }

    /// Whether `member` is a deferred member of `target`'s `inverse` (for invariant checks).
    internal func _defers(_ member: GraphObject, in target: GraphObject, _ inverse: _PropertyAccessor) -> Bool {
        guard target._flags & GraphObject._staleInverseFlag != 0, target._pendingSlot > 0 else { return false }
        let list = _deferredInverses[Int(target._pendingSlot) - 1]
        return list.inverse === inverse && list.members.contains { $0.toOpaque() == Unmanaged.passUnretained(member).toOpaque() }
    }
}

extension GraphObject {
    /// Adds the members its graph deferred for this object's relationships, before they are
    /// read or written (the slow half of a relationship accessor).
    @usableFromInline
    @inline(never)
    internal final func _flushStaleInverses() {
        if let graph = _context.graph {
            graph._flushDeferredInverses()
        } else {
            _flags &= ~Self._staleInverseFlag
        }
    }
}
