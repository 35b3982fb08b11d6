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
    }

    /// Whether the top is the largest entry (a maximum) rather than the smallest.
    let isMaximum: Bool
    private var heap: [Entry] = []
    /// Entries removed but still in ``heap``.
    private var removed: Set<Entry> = []

    init(isMaximum: Bool) {
        self.isMaximum = isMaximum
    }

    /// Whether `a` belongs above `b`.
    @inline(__always)
    private func above(_ a: Entry, _ b: Entry) -> Bool {
        if a.key != b.key { return isMaximum ? b.key < a.key : a.key < b.key }
        return a.id < b.id
    }

    /// The number of live entries.
    var count: Int { heap.count - removed.count }

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
