import Foundation

// The manually managed lists behind the deferred inverses of bulk to-one writes
// (`ObjectGraph+DeferredInverses.swift` says when members are deferred and flushed).
//
// Invariant (upheld by `_DeferredInverseLists` alone): `count` of `capacity` lists are
// initialized, and in each list `count` of `capacity` members; every member is retained
// exactly once by its list until `release(_:)` hands the list to a body that either gives
// the references to the relationship (`members`, adopted) or drops them (`releaseMembers()`).
// Targets and accessors are not counted: the entity tables keep targets inserted in the
// pending transaction (and committed ones while their lists live), the descriptions keep
// their accessors.

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
    let inverse: _Unretained<_PropertyAccessor>
    /// The new members, in order, each retained once by this list; `count` of `capacity`
    /// are initialized. Allocated with `malloc`, so growing can extend in place.
    fileprivate var storage: UnsafeMutablePointer<Unmanaged<GraphObject>>
    fileprivate(set) var count: Int
    fileprivate var capacity: Int

    /// The members, each with the one reference the list holds, for a relationship to
    /// take over (``_PropertyAccessor/adoptAll(_:_:)``).
    var members: _AdoptedMembers {
        _AdoptedMembers(UnsafeBufferPointer(start: storage, count: count))
    }

    /// Drops the reference the list holds to each member (the list is being discarded).
    func releaseMembers() {
        for member in UnsafeBufferPointer(start: storage, count: count) { member.release() }
    }

    /// Whether `member` is listed (compared by identity).
    ///
    /// - Complexity: O(*n*) for *n* members.
    func contains(_ member: GraphObject) -> Bool {
        let address = Unmanaged.passUnretained(member).toOpaque()
        return UnsafeBufferPointer(start: storage, count: count).contains { $0.toOpaque() == address }
    }
}

/// Members of a to-many relationship, each retained once by the caller: the relationship
/// adopting them takes those references over instead of counting new ones.
///
/// Valid only inside the `release(_:)` body that handed it out, and adopted at most once.
@usableFromInline
@frozen
internal struct _AdoptedMembers: Sequence {
    @usableFromInline
    internal let _members: UnsafeBufferPointer<Unmanaged<GraphObject>>

    @inlinable
    internal init(_ members: UnsafeBufferPointer<Unmanaged<GraphObject>>) {
        _members = members
    }

    /// The number of members.
    @inlinable
    internal var count: Int { _members.count }

    @inlinable
    internal func makeIterator() -> UnsafeBufferPointer<Unmanaged<GraphObject>>.Iterator {
        _members.makeIterator()
    }
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
    mutating func startList(target: GraphObject, inverse: _Unretained<_PropertyAccessor>, first member: GraphObject) -> Int {
        if count == capacity {
            capacity = Swift.max(16, capacity * 2)
            base = Self.reallocate(base, count: capacity)
        }
        let members = Self.reallocate(nil as UnsafeMutablePointer<Unmanaged<GraphObject>>?, count: 4)
        members.initialize(to: Unmanaged.passUnretained(member).retain())
        (base.unsafelyUnwrapped + count).initialize(
            to: _DeferredInverse(target: target, inverse: inverse, storage: members, count: 1, capacity: 4))
        count += 1
        return count - 1
    }

    /// Whether the list at `position` is for `inverse` (compared by address, counting no
    /// reference).
    @inline(__always)
    func holdsInverse(_ inverse: _Unretained<_PropertyAccessor>, atList position: Int) -> Bool {
        base.unsafelyUnwrapped[position].inverse.isSame(as: inverse)
    }

    /// Appends a member to the list at `position`, retaining it.
    @inline(__always)
    mutating func append(_ member: GraphObject, toListAt position: Int) {
        let list = base.unsafelyUnwrapped + position
        if _slowPath(list.pointee.count == list.pointee.capacity) { Self.grow(list) }
        (list.pointee.storage + list.pointee.count).initialize(to: Unmanaged.passUnretained(member).retain())
        list.pointee.count += 1
    }

    /// Doubles a list's room; `realloc` extends large blocks without copying where it can.
    @inline(never)
    private static func grow(_ list: UnsafeMutablePointer<_DeferredInverse>) {
        list.pointee.capacity *= 2
        list.pointee.storage = reallocate(list.pointee.storage, count: list.pointee.capacity)
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
            free(list.storage)
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
