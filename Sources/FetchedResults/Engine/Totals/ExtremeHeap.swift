/// The rows of one section ordered by a key, for a minimum or maximum total: a binary heap
/// with lazy deletion.
///
/// Each row enters as an ``Entry`` (its key and its object's ID bits, which break ties, so
/// the extreme is the same whatever order the rows came in). A removed entry stays in the
/// heap, marked, until it reaches the top, where it leaves at once; the heap is rebuilt when
/// marked entries outnumber live ones, so it holds O(n) entries for n rows.
struct ExtremeHeap {
    /// A row's place in the order: its key, then its object's ID bits.
    struct Entry: Hashable {
        var key: SortValue
        var id: UInt64
        /// For a string compared under folding, the string itself (the key is folded).
        var text: String?

        /// Whether `a` comes before `b` in a minimum's order (smaller key, then smaller ID
        /// bits), or in a maximum's (larger key, then smaller ID bits).
        @inline(__always)
        static func precedes(_ a: Entry, _ b: Entry, isMaximum: Bool) -> Bool {
            if a.key != b.key { return isMaximum ? b.key < a.key : a.key < b.key }
            return a.id < b.id
        }
    }

    /// Whether the top is the largest entry (a maximum) rather than the smallest.
    let isMaximum: Bool
    private var heap: [Entry] = []
    /// Entries removed but still in ``heap``.
    private var removed: Set<Entry> = []

    /// A heap of `entries`, in any order.
    ///
    /// - Complexity: O(n) for n entries.
    init(isMaximum: Bool, entries: [Entry]) {
        self.isMaximum = isMaximum
        heap = entries
        heapify()
    }

    /// Whether `a` belongs above `b`.
    @inline(__always)
    private func above(_ a: Entry, _ b: Entry) -> Bool {
        Entry.precedes(a, b, isMaximum: isMaximum)
    }

    /// Adds a row's entry.
    ///
    /// - Complexity: O(log n).
    mutating func insert(_ entry: Entry) {
        if !removed.isEmpty, removed.remove(entry) != nil { return }
        heap.append(entry)
        siftUp(heap.count - 1)
    }

    /// Removes a row's entry, which the heap holds. An entry that reaches the top marked
    /// removed leaves at once, so the top is always a live entry.
    ///
    /// - Complexity: O(log n) amortized.
    mutating func remove(_ entry: Entry) {
        removed.insert(entry)
        while let first = heap.first, removed.remove(first) != nil { popTop() }
        if removed.count > heap.count / 2 + 16 { rebuild() }
    }

    /// The extreme entry, or `nil` when the section has no row.
    ///
    /// - Complexity: O(1).
    var top: Entry? { heap.first }

    private mutating func rebuild() {
        heap.removeAll { removed.contains($0) }
        removed = []
        heapify()
    }

    private mutating func heapify() {
        guard heap.count > 1 else { return }
        for position in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(position) }
    }

    private mutating func popTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(0)
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        let entry = heap[child]
        while child > 0 {
            let parent = (child - 1) / 2
            guard above(entry, heap[parent]) else { break }
            heap[child] = heap[parent]
            child = parent
        }
        heap[child] = entry
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        let entry = heap[parent]
        let count = heap.count
        while true {
            var child = 2 * parent + 1
            guard child < count else { break }
            if child + 1 < count && above(heap[child + 1], heap[child]) { child += 1 }
            guard above(heap[child], entry) else { break }
            heap[parent] = heap[child]
            parent = child
        }
        heap[parent] = entry
    }
}

/// The extreme of one section's rows for a minimum or maximum total, with the heap of all its
/// rows built only when it is needed.
///
/// A fetch finds each section's extreme in one scan, with no heap. A commit compares each row
/// it adds with the extreme; a row it removes that is not the extreme changes nothing. Only
/// when the extreme itself leaves is the next one unknown: the tracker turns stale, and
/// after the commit the engine hands it the section's rows (``rebuild(_:)``), from which it
/// builds a heap that keeps every later change O(log n).
struct ExtremeTracker {
    /// Whether the extreme is the largest entry rather than the smallest.
    let isMaximum: Bool
    /// The extreme entry; `nil` when no row has a value, or when stale.
    private(set) var best: ExtremeHeap.Entry?
    /// Whether the extreme left and the next is not known yet.
    private(set) var isStale = false
    /// Every row's entry, once the extreme has left for the first time.
    private var heap: ExtremeHeap?

    init(isMaximum: Bool) {
        self.isMaximum = isMaximum
    }

    /// Adds a row's entry.
    ///
    /// - Complexity: O(1) before the first rebuild, O(log n) after.
    mutating func insert(_ entry: ExtremeHeap.Entry) {
        if heap != nil {
            heap!.insert(entry)
            best = heap!.top
        } else if !isStale {
            consider(entry)
        }
    }

    /// Removes a row's entry.
    ///
    /// - Complexity: O(1) before the first rebuild, O(log n) amortized after.
    mutating func remove(_ entry: ExtremeHeap.Entry) {
        if heap != nil {
            heap!.remove(entry)
            best = heap!.top
        } else if !isStale, entry == best {
            best = nil
            isStale = true
        }
    }

    /// Takes `entry` as the extreme when it comes before the current one (for a fetch's scan,
    /// and for the totals of every row, which follow the sections').
    ///
    /// - Complexity: O(1).
    @inline(__always)
    mutating func consider(_ entry: ExtremeHeap.Entry) {
        if let current = best, !ExtremeHeap.Entry.precedes(entry, current, isMaximum: isMaximum) { return }
        best = entry
    }

    /// Marks the extreme unknown (for the totals of every row, when it left).
    mutating func markStale() {
        best = nil
        isStale = true
    }

    /// Takes every row's entry after the extreme left, and keeps them in a heap.
    ///
    /// - Complexity: O(n) for n entries.
    mutating func rebuild(_ entries: [ExtremeHeap.Entry]) {
        let rebuilt = ExtremeHeap(isMaximum: isMaximum, entries: entries)
        best = rebuilt.top
        heap = rebuilt
        isStale = false
    }

    /// Sets the extreme after a scan (of the sections' extremes, for the totals of every row).
    mutating func settle(at entry: ExtremeHeap.Entry?) {
        best = entry
        isStale = false
    }
}
