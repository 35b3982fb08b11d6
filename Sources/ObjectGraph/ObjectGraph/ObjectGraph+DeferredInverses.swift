// A bulk insert relates each new object to a new target (`item.location = home`) and the
// inverse set gains the object. Inserting into one of many large sets, one member at a time,
// misses the cache on every insert and grows each set step by step; so the members are
// listed per target instead and added in one pass per set, with its capacity reserved, the
// first time anything may look at the set. Each member is retained when it is listed, while
// it is in the cache, and the set takes that reference over: the pass that fills the sets
// touches no member's memory.
//
// - the target is flagged (`GraphObject._staleInverseFlag`); the relationship getter and
//   setter, `PropertyReader` and key-value access flush before they touch a flagged object;
// - every other graph entry that reads or writes relationships (general relationship
//   writes, inserts of pre-related objects, delete, rollback, a commit's target checks,
//   invariant checks) flushes first.
//
// So nothing observes the deferred state. A commit does not flush: the lists outlive it,
// like Core Data's relationship faults, and a million inserted items do not build their
// locations' sets until something reads one.
// Their targets are committed objects then, whose `_pendingSlot` numbers a pending entry,
// not a list; a flush leaves it alone, and `firstPendingList` says which lists belong to
// targets still inserted.

extension ObjectGraph {
    /// Lists `owner` as a new member of `target`'s to-many `inverse`, instead of adding it.
    ///
    /// `target` was inserted in the pending transaction, is not deleted and is not observed.
    ///
    /// - Returns: `false`, having changed nothing, when the target already defers members of
    ///   another relationship (the caller adds directly).
    @inline(__always)
    internal func _deferInverseAdd(_ target: GraphObject, _ inverse: _Unretained<_PropertyAccessor>, owner: GraphObject) -> Bool {
        // An inserted object has no pending entry: its slot numbers its deferred list.
        let slot = Int(target._pendingSlot)
        if slot == 0 {
            require(_deferredInverses.count < Int(Int32.max) - 1, "too many objects related in one transaction")
            let position = _deferredInverses.startList(target: target, inverse: inverse, first: owner)
            target._pendingSlot = Int32(position + 1)
            target._flags |= GraphObject._staleInverseFlag
            return true
        }
        guard _deferredInverses.holdsInverse(inverse, atList: slot - 1) else { return false }
        _deferredInverses.append(owner, toListAt: slot - 1)
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
        _deferredInverses.takeAll().release { list, targetIsInserted in
            let target = list.target
            target._flags &= ~GraphObject._staleInverseFlag
            // A committed target's slot numbers its pending entry, if any.
            if targetIsInserted { target._pendingSlot = 0 }
            list.inverse.borrow { $0.adoptAll(target, list.members) }
        }
    }

    /// Forgets the deferred members without adding them (the graph is going away).
    internal func _dropDeferredInverses() {
        _deferredInverses.takeAll().release { list, targetIsInserted in
            list.target._flags &= ~GraphObject._staleInverseFlag
            if targetIsInserted { list.target._pendingSlot = 0 }
            list.releaseMembers()
        }
    }

    /// The targets of the lists made in the pending transaction are committed now: their
    /// slots stop numbering lists (the commit's last step for the deferred lists).
    ///
    /// - Complexity: O(*l*) for *l* lists made in the transaction.
    internal func _noteCommittedDeferredLists() {
        for position in _deferredInverses.firstPendingList..<_deferredInverses.count {
            _deferredInverses[position].target._pendingSlot = 0
        }
        _deferredInverses.firstPendingList = _deferredInverses.count
    }

    /// Whether `member` is a deferred member of `target`'s `inverse` (for invariant checks).
    internal func _defers(_ member: GraphObject, in target: GraphObject, _ inverse: _PropertyAccessor) -> Bool {
        guard target._flags & GraphObject._staleInverseFlag != 0 else { return false }
        // An inserted target's slot numbers its list (checked by identity: a committed
        // target's slot numbers a pending entry); a committed target's list is among the
        // lists of earlier transactions.
        var candidates = Array(0..<_deferredInverses.firstPendingList)
        let slot = Int(target._pendingSlot) - 1
        if slot >= _deferredInverses.firstPendingList && slot < _deferredInverses.count { candidates.append(slot) }
        for position in candidates {
            let list = _deferredInverses[position]
            guard list.target === target, list.inverse.object === inverse else { continue }
            if list.contains(member) { return true }
        }
        return false
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
