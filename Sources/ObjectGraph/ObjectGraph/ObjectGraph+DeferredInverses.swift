import Foundation

/// The members a to-many relationship of one object inserted in the pending transaction
/// gained through bulk to-one writes and does not hold yet (see
/// ``ObjectGraph/_deferInverseAdd(_:_:owner:)``).
///
/// A plain value (no reference counting): the target and the accessor are kept alive by the
/// entity tables and descriptions, and each member is retained once by the list, a reference
/// the relationship takes over when the list is flushed.
internal struct _DeferredInverse {
    /// The object whose relationship gains the members; its entity table holds it.
    unowned(unsafe) let target: GraphObject
    /// The to-many relationship; the entity descriptions keep their accessors.
    let inverse: Unmanaged<_PropertyAccessor>
    /// The new members, in order, each retained once by this list; `count` of `capacity`
    /// are initialized. Allocated with `malloc`, so growing can extend in place.
    var members: UnsafeMutablePointer<Unmanaged<GraphObject>>
    var count: Int
    var capacity: Int
}

/// The deferred lists of a graph, by position (an inserted target's `_pendingSlot` is one
/// plus its list's position). Manually managed: appending to a list touches no reference
/// count and checks no uniqueness, which an array of arrays would do on every bulk write.
internal struct _DeferredInverseLists {
    /// The lists; `count` of `capacity` are initialized. `nil` until the first list.
    private(set) var base: UnsafeMutablePointer<_DeferredInverse>?
    private(set) var count = 0
    private var capacity = 0
    /// The position of the first list whose target was inserted in the pending transaction;
    /// the lists before it belong to targets committed since (see ``ObjectGraph/_noteCommittedDeferredLists()``).
    var firstPendingList = 0

    var isEmpty: Bool { count == 0 }

    /// The list at a position (`precondition`-free: positions come from `_pendingSlot`).
    @inline(__always)
    subscript(position: Int) -> _DeferredInverse {
        base.unsafelyUnwrapped[position]
    }

    /// Starts a list for `target` with one member, retaining it; returns the list's position.
    mutating func startList(target: GraphObject, inverse: Unmanaged<_PropertyAccessor>, first member: GraphObject) -> Int {
        if count == capacity {
            capacity = Swift.max(16, capacity * 2)
            base = Self.reallocate(base, count: capacity)
        }
        let members = Self.reallocate(nil as UnsafeMutablePointer<Unmanaged<GraphObject>>?, count: 4)
        members.initialize(to: Unmanaged.passUnretained(member).retain())
        (base.unsafelyUnwrapped + count).initialize(
            to: _DeferredInverse(target: target, inverse: inverse, members: members, count: 1, capacity: 4))
        count += 1
        return count - 1
    }

    /// Whether the list at `position` is for `inverse` (compared by address, counting no
    /// reference).
    @inline(__always)
    func holdsInverse(_ inverse: Unmanaged<_PropertyAccessor>, atList position: Int) -> Bool {
        base.unsafelyUnwrapped[position].inverse.toOpaque() == inverse.toOpaque()
    }

    /// Appends a member to the list at `position`, retaining it.
    @inline(__always)
    mutating func append(_ member: GraphObject, toListAt position: Int) {
        let list = base.unsafelyUnwrapped + position
        if _slowPath(list.pointee.count == list.pointee.capacity) { Self.grow(list) }
        (list.pointee.members + list.pointee.count).initialize(to: Unmanaged.passUnretained(member).retain())
        list.pointee.count += 1
    }

    /// Doubles a list's room; `realloc` extends large blocks without copying where it can.
    @inline(never)
    private static func grow(_ list: UnsafeMutablePointer<_DeferredInverse>) {
        list.pointee.capacity *= 2
        list.pointee.members = reallocate(list.pointee.members, count: list.pointee.capacity)
    }

    /// Takes every list out, leaving none; hand the result to ``release(_:)``.
    mutating func takeAll() -> _DeferredInverseLists {
        defer { self = _DeferredInverseLists() }
        return self
    }

    /// Hands every list to `body`, in order, with whether its target is still inserted
    /// (the list was made in the pending transaction), then frees the storage. The
    /// references in each list are `body`'s to keep or release. Call it once, on lists taken
    /// out with ``takeAll()``.
    func release(_ body: (_DeferredInverse, _ targetIsInserted: Bool) -> Void) {
        guard let base else { return }
        for (position, list) in UnsafeMutableBufferPointer(start: base, count: count).enumerated() {
            body(list, position >= firstPendingList)
            free(list.members)
        }
        free(base)
    }

    private static func reallocate<Element>(_ pointer: UnsafeMutablePointer<Element>?, count: Int) -> UnsafeMutablePointer<Element> {
        let bytes = count * MemoryLayout<Element>.stride
        guard let raw = realloc(pointer.map(UnsafeMutableRawPointer.init), bytes) else {
            fatalError("out of memory: \(bytes) bytes for deferred relationship members")
        }
        return raw.bindMemory(to: Element.self, capacity: count)
    }
}

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
    internal func _deferInverseAdd(_ target: GraphObject, _ inverse: Unmanaged<_PropertyAccessor>, owner: GraphObject) -> Bool {
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
            list.inverse._withUnsafeGuaranteedRef { $0.adoptAll(target, UnsafeBufferPointer(start: list.members, count: list.count)) }
        }
    }

    /// Forgets the deferred members without adding them (the graph is going away).
    internal func _dropDeferredInverses() {
        _deferredInverses.takeAll().release { list, targetIsInserted in
            list.target._flags &= ~GraphObject._staleInverseFlag
            if targetIsInserted { list.target._pendingSlot = 0 }
            for member in UnsafeBufferPointer(start: list.members, count: list.count) { member.release() }
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
        let address = Unmanaged.passUnretained(member).toOpaque()
        // An inserted target's slot numbers its list (checked by identity: a committed
        // target's slot numbers a pending entry); a committed target's list is among the
        // lists of earlier transactions.
        var candidates = Array(0..<_deferredInverses.firstPendingList)
        let slot = Int(target._pendingSlot) - 1
        if slot >= _deferredInverses.firstPendingList && slot < _deferredInverses.count { candidates.append(slot) }
        for position in candidates {
            let list = _deferredInverses[position]
            guard list.target === target, list.inverse.toOpaque() == Unmanaged.passUnretained(inverse).toOpaque() else { continue }
            if UnsafeBufferPointer(start: list.members, count: list.count).contains(where: { $0.toOpaque() == address }) { return true }
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
