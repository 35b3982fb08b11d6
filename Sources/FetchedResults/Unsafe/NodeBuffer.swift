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
///
/// **Invariant (upheld by this type alone):** `base` points to `storedCapacity` elements
/// allocated here, of which the first `storedCount` are initialized; nothing else frees or
/// writes that memory. Noncopyable, so one value owns the memory; a borrowed view
/// (``Elements``, from ``withElements(_:)``) is valid only inside the call that hands it out.
/// ``withUnretained(_:_:)`` relies on the caller not removing the element from the buffer
/// while its body runs.
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
        return (UnsafeRawPointer(base + range.lowerBound), UInt16(clamping: NodeLines.lines(spanning: bytes)))
    }

    /// Asks the processor for every line of the elements (a hint that changes nothing).
    @inline(__always)
    func prefetch() {
        NodeLines.prefetch(extent)
    }

    /// Asks the processor for the first `lines` cache lines' worth of the object at `index`,
    /// which must be in `0..<count`: one hint every `FRK_CACHE_LINE_SIZE` bytes from its
    /// start (a hint that changes nothing). Nothing is retained: the reference is read as a
    /// plain word, and its address only handed to a prefetch.
    ///
    /// - Parameters:
    ///   - index: The object's position.
    ///   - lines: How many lines' worth to ask for.
    /// - Complexity: O(lines).
    @inline(__always)
    func prefetchObject(at index: Int, lines: Int) where Element: AnyObject {
        assert(index >= 0 && index < count, "internal inconsistency: node index \(index) outside 0..<\(count)")
        let object = UnsafeRawPointer(base.unsafelyUnwrapped + index).load(as: UnsafeRawPointer.self)
        for line in 0..<lines { frk_prefetch(object + line &* Int(FRK_CACHE_LINE_SIZE)) }
    }

    /// Calls `body` with the elements, borrowed: a view valid only during the call.
    ///
    /// - Complexity: O(1), plus `body`.
    @inline(__always)
    func withElements<Result>(_ body: (Elements) throws -> Result) rethrows -> Result {
        try body(Elements(UnsafeBufferPointer(start: base, count: count)))
    }

    /// Calls `update` with each element at `range`, which must be within `0..<count`
    /// (checked in debug builds only, as a buffer pointer checks it), to change in place.
    ///
    /// - Complexity: O(m) for m elements.
    @inline(__always)
    mutating func updateEach(in range: Range<Int>, _ update: (inout Element) throws -> Void) rethrows {
        assert(range.lowerBound >= 0 && range.upperBound <= count, "internal inconsistency: node range \(range) outside 0..<\(count)")
        guard let base else { return }
        for index in range { try update(&base[index]) }
    }

    /// The wrapping sum of the first `prefix` elements, which must be at most ``count``.
    ///
    /// A plain loop over the memory, which the compiler turns into vector additions of
    /// eight elements at a time.
    ///
    /// - Complexity: O(prefix).
    @inline(__always)
    func wrappingSum(ofFirst prefix: Int) -> UInt32 where Element == UInt32 {
        assert(prefix >= 0 && prefix <= count, "internal inconsistency: node prefix \(prefix) outside 0...\(count)")
        var sum: UInt32 = 0
        for element in UnsafeBufferPointer(start: base, count: prefix) { sum &+= element }
        return sum
    }

    /// Appends the elements to `array`, in order.
    ///
    /// - Complexity: O(count).
    func append(to array: inout [Element]) {
        array.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
    }

    /// Adds the elements of `other` at the end.
    ///
    /// - Complexity: O(m) amortized for m elements of `other`.
    mutating func append(contentsOf other: borrowing NodeBuffer<Element>) {
        insert(contentsOf: UnsafeBufferPointer(start: other.base, count: other.count), at: count)
    }

    /// A copy of the elements at `range`, which must be within `0..<count`.
    func array(_ range: Range<Int>) -> [Element] {
        require(range.lowerBound >= 0 && range.upperBound <= count, "internal inconsistency: node range \(range) outside 0..<\(count)")
        return Array(UnsafeBufferPointer(start: base, count: count)[range])
    }

    /// A copy of every element.
    var array: [Element] { Array(UnsafeBufferPointer(start: base, count: count)) }

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

extension NodeBuffer {
    /// The elements of a ``NodeBuffer``, borrowed for the length of a
    /// ``NodeBuffer/withElements(_:)`` call: reading one is a load from the buffer's memory,
    /// checked against the bounds in debug builds only, as an `UnsafeBufferPointer` is.
    ///
    /// **Invariant (upheld by the caller):** the view is used only inside the body it is
    /// handed to, and the buffer is not changed meanwhile (the body borrows it).
    struct Elements: RandomAccessCollection {
        private let elements: UnsafeBufferPointer<Element>

        @inline(__always)
        fileprivate init(_ elements: UnsafeBufferPointer<Element>) {
            self.elements = elements
        }

        var startIndex: Int { 0 }
        var endIndex: Int { elements.count }

        @inline(__always)
        subscript(position: Int) -> Element {
            elements[position]
        }

        /// The elements at `range`, which must be within the view, as a view of their own
        /// whose positions start at 0 (as `UnsafeBufferPointer(rebasing:)` makes one).
        @inline(__always)
        func rebased(_ range: Range<Int>) -> Elements {
            Elements(UnsafeBufferPointer(rebasing: elements[range]))
        }

        @inline(__always)
        func withContiguousStorageIfAvailable<Result>(_ body: (UnsafeBufferPointer<Element>) throws -> Result) rethrows -> Result? {
            try body(elements)
        }
    }
}
