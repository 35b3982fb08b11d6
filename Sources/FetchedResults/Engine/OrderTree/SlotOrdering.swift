/// An ordering of slots (small integers naming rows) that a ``SlotOrdering`` compares.
///
/// The tree never reads a key itself: every comparison goes through the ordering passed to
/// each operation, so the caller keeps the keys in compact columns and decides when they
/// change. A slot must be removed with the keys it was inserted with, then re-inserted with
/// its new keys.
protocol SlotOrdering {
    /// Whether slot `a` sorts before slot `b`. A strict total order over the live slots.
    func less(_ a: Int32, _ b: Int32) -> Bool

    /// Whether slots `a` and `b` share a leading key (a section) that the order groups by:
    /// the slots between two such slots share it too.
    func shareGroup(_ a: Int32, _ b: Int32) -> Bool

    /// ``less(_:_:)`` for two slots that share their group, which may skip comparing it.
    func lessInGroup(_ a: Int32, _ b: Int32) -> Bool

    /// Whether ``digest(of:)`` and ``order(_:_:)`` decide comparisons; when `false`, the tree
    /// keeps no digests.
    var hasDigests: Bool { get }

    /// A fixed-size digest of `slot`'s keys, which internal nodes keep for the first slot
    /// of each child. Valid while the slot's keys stay as they are (while it is in the tree).
    func digest(of slot: Int32) -> SlotDigest

    /// -1 when the slot with digest `a` sorts before the one with digest `b`, 1 when after,
    /// 0 when the digests do not decide (the slots' keys must be compared).
    func order(_ a: SlotDigest, _ b: SlotDigest) -> Int

    /// Asks the processor to fetch the keys that comparing each of `slots` reads (a hint:
    /// it changes nothing), so that their cache misses overlap.
    func prefetchKeys(of slots: some RandomAccessCollection<Int32>, grouped: Bool)
}

extension SlotOrdering {
    /// No grouping: no two slots are known to share a group.
    func shareGroup(_ a: Int32, _ b: Int32) -> Bool { false }

    /// ``less(_:_:)``.
    func lessInGroup(_ a: Int32, _ b: Int32) -> Bool { less(a, b) }

    /// No digests.
    var hasDigests: Bool { false }

    /// An empty digest.
    func digest(of slot: Int32) -> SlotDigest { .unknown }

    /// 0: no digest decides.
    func order(_ a: SlotDigest, _ b: SlotDigest) -> Int { 0 }

    /// No keys to fetch ahead.
    func prefetchKeys(of slots: some RandomAccessCollection<Int32>, grouped: Bool) {}
}
