internal import MemoryHints

/// The elements of one order-tree node field, in memory that the node owns alone.
///
/// An `Array` stored in a class is read through its buffer's header (its count) and is
/// retained for most uses: an atomic write to that header, which in a large tree is a cache
/// miss, and which holds back every later read until it lands. A search would wait for one
/// such miss per buffer of every node it passes. Here the count and the address live in the
/// node itself, so once a node's first line has arrived, every buffer of it can be read (or
/// asked for) at once, and reading an element retains nothing.
///
/// Noncopyable: the buffer is freed when its value is destroyed, whether the node is
/// deinitialized or the field is assigned a new buffer.
struct NodeBuffer<Element>: ~Copyable {
    /// The elements, or `nil` while nothing was ever allocated.
    private var base: UnsafeMutablePointer<Element>?
    /// The number of elements, and the number `base` has room for: 32 bits each, so that a
    /// node's six buffers and its count fit in two cache lines.
    private var storedCount: Int32
    private var storedCapacity: Int32

    /// An empty buffer, with nothing allocated.
    init() {
        base = nil
        storedCount = 0
        storedCapacity = 0
    }

    /// The number of elements.
    var count: Int { Int(storedCount) }

    private var capacity: Int { Int(storedCapacity) }

    /// A buffer holding `elements`, with room for `spare` more.
    ///
    /// - Complexity: O(m) for m elements.
    init(_ elements: some Collection<Element>, spare: Int = 0) {
        let count = elements.count
        let capacity = count > 0 ? count + spare : 0
        storedCount = Int32(count)
        storedCapacity = Int32(capacity)
        guard capacity > 0 else {
            base = nil
            return
        }
        let memory = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
        _ = UnsafeMutableBufferPointer(start: memory, count: count).initialize(fromContentsOf: elements)
        base = memory
    }

    deinit {
        if let base {
            base.deinitialize(count: count)
            base.deallocate()
        }
    }

    /// Whether there are no elements.
    var isEmpty: Bool { count == 0 }

    /// The element at `index`, which must be in `0..<count`.
    subscript(index: Int) -> Element {
        get {
            require(index >= 0 && index < count, "internal inconsistency: node index \(index) outside 0..<\(count)")
            return base.unsafelyUnwrapped[index]
        }
        set {
            require(index >= 0 && index < count, "internal inconsistency: node index \(index) outside 0..<\(count)")
            base.unsafelyUnwrapped[index] = newValue
        }
    }

    /// Calls `body` with the object at `index`, which must be in `0..<count`, without
    /// retaining it: the buffer keeps it alive, and `body` must not remove it from the buffer.
    ///
    /// A retain is an atomic write to the object's header: in a large tree the child a
    /// descent is about to enter is a cache miss, and an atomic write holds back every later
    /// read until that miss is served (with its own buffers' hints already asked for, the
    /// descent has better things to wait for).
    @inline(__always)
    func withUnretained<Result>(_ index: Int, _ body: (Element) throws -> Result) rethrows -> Result where Element: AnyObject {
        require(index >= 0 && index < count, "internal inconsistency: node index \(index) outside 0..<\(count)")
        let address = UnsafeRawPointer(base.unsafelyUnwrapped + index).load(as: UnsafeRawPointer.self)
        return try Unmanaged<Element>.fromOpaque(address)._withUnsafeGuaranteedRef(body)
    }

    /// The address of the element at `index` (`index` may be `count`), for hints; `nil`
    /// while nothing is allocated.
    func address(of index: Int) -> UnsafeRawPointer? {
        base.map { UnsafeRawPointer($0 + index) }
    }

    /// The address of the elements and the number of cache lines they span (one more than
    /// their bytes need, for a start inside a line): what ``NodeLines`` keeps.
    var extent: (address: UnsafeRawPointer?, lines: UInt16) {
        extent(of: 0..<count)
    }

    /// The address of the elements at `range` (clamped to `0..<count`) and the number of
    /// lines they span, as ``extent`` counts them.
    func extent(of range: Range<Int>) -> (address: UnsafeRawPointer?, lines: UInt16) {
        let range = range.clamped(to: 0..<count)
        guard let base, !range.isEmpty else { return (nil, 0) }
        let bytes = range.count * MemoryLayout<Element>.stride
        return (UnsafeRawPointer(base + range.lowerBound), UInt16(clamping: (bytes + 63) / 64 + 1))
    }

    /// Asks the processor for every line of the elements (a hint that changes nothing).
    @inline(__always)
    func prefetch() {
        NodeLines.prefetch(extent)
    }

    /// Calls `body` with the elements.
    func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<Element>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// Calls `body` with the elements, which it may change in place.
    mutating func withUnsafeMutableBufferPointer<Result>(_ body: (UnsafeMutableBufferPointer<Element>) throws -> Result) rethrows -> Result {
        try body(UnsafeMutableBufferPointer(start: base, count: count))
    }

    /// A copy of the elements at `range`, which must be within `0..<count`.
    func array(_ range: Range<Int>) -> [Element] {
        withUnsafeBufferPointer { Array($0[range]) }
    }

    /// A copy of every element.
    var array: [Element] { withUnsafeBufferPointer { Array($0) } }

    /// Makes room for `extra` more elements, growing geometrically.
    private mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        let newCapacity = Swift.max(count + extra, capacity * 2, 4)
        let memory = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        if let base {
            memory.moveInitialize(from: base, count: count)
            base.deallocate()
        }
        base = memory
        storedCapacity = Int32(newCapacity)
    }

    /// Adds `element` at the end.
    ///
    /// - Complexity: O(1) amortized.
    mutating func append(_ element: Element) {
        insert(element, at: count)
    }

    /// Adds `elements` at the end.
    ///
    /// - Complexity: O(m) amortized for m elements.
    mutating func append(contentsOf elements: some Collection<Element>) {
        insert(contentsOf: elements, at: count)
    }

    /// Inserts `element` at `index`, which must be in `0...count`.
    ///
    /// - Complexity: O(count − index).
    mutating func insert(_ element: Element, at index: Int) {
        require(index >= 0 && index <= count, "internal inconsistency: node index \(index) outside 0...\(count)")
        reserve(1)
        let base = base.unsafelyUnwrapped
        (base + index + 1).moveInitialize(from: base + index, count: count - index)
        (base + index).initialize(to: element)
        storedCount += 1
    }

    /// Inserts `elements` at `index`, which must be in `0...count`.
    ///
    /// - Complexity: O(count − index + m) for m elements.
    mutating func insert(contentsOf elements: some Collection<Element>, at index: Int) {
        require(index >= 0 && index <= count, "internal inconsistency: node index \(index) outside 0...\(count)")
        let added = elements.count
        guard added > 0 else { return }
        reserve(added)
        let base = base.unsafelyUnwrapped
        (base + index + added).moveInitialize(from: base + index, count: count - index)
        _ = UnsafeMutableBufferPointer(start: base + index, count: added).initialize(fromContentsOf: elements)
        storedCount += Int32(added)
    }

    /// Removes and returns the element at `index`, which must be in `0..<count`.
    ///
    /// - Complexity: O(count − index).
    @discardableResult
    mutating func remove(at index: Int) -> Element {
        require(index >= 0 && index < count, "internal inconsistency: node index \(index) outside 0..<\(count)")
        let base = base.unsafelyUnwrapped
        let element = (base + index).move()
        (base + index).moveInitialize(from: base + index + 1, count: count - index - 1)
        storedCount -= 1
        return element
    }

    /// Removes the elements at `range`, which must be within `0..<count`.
    ///
    /// - Complexity: O(count − range.lowerBound).
    mutating func removeSubrange(_ range: Range<Int>) {
        require(range.lowerBound >= 0 && range.upperBound <= count, "internal inconsistency: node range \(range) outside 0..<\(count)")
        guard !range.isEmpty else { return }
        let base = base.unsafelyUnwrapped
        (base + range.lowerBound).deinitialize(count: range.count)
        (base + range.lowerBound).moveInitialize(from: base + range.upperBound, count: count - range.upperBound)
        storedCount -= Int32(range.count)
    }

    /// Removes the elements from `start` on.
    mutating func removeSubrange(_ range: PartialRangeFrom<Int>) {
        removeSubrange(range.lowerBound..<count)
    }
}


/// Where a node's first-read buffers were when its parent last changed it: up to two
/// addresses, each with the number of lines it spans. A parent keeps one per child, so that a
/// descent can ask for a child's buffers together with the child's first lines instead of
/// after them. A hint only: a stale one (a buffer moved since) asks for lines that go unused,
/// and asking never faults.
struct NodeLines {
    private var first: UnsafeRawPointer?
    private var second: UnsafeRawPointer?
    private var firstLines: UInt16
    private var secondLines: UInt16

    /// The lines of up to two buffers (``NodeBuffer/extent``).
    init(_ first: (address: UnsafeRawPointer?, lines: UInt16), _ second: (address: UnsafeRawPointer?, lines: UInt16) = (nil, 0)) {
        (self.first, firstLines) = first
        (self.second, secondLines) = second
    }

    /// Asks the processor for every line (a hint that changes nothing).
    @inline(__always)
    func prefetch() {
        Self.prefetch((first, firstLines))
        Self.prefetch((second, secondLines))
    }

    /// Asks the processor for `extent.lines` lines from `extent.address`.
    @inline(__always)
    static func prefetch(_ extent: (address: UnsafeRawPointer?, lines: UInt16)) {
        guard var line = extent.address else { return }
        // A pointer walk: no multiplication or overflow check per line.
        let end = line + Int(extent.lines) &* 64
        while line < end {
            frk_prefetch(line)
            line += 64
        }
    }
}
