// An array's elements borrowed for one call and read or written without bounds checks in
// release builds: the loops of a search's text change, which visit every row, and the byte
// scans over folded text.
//
// Invariant (upheld by the callers): a view is used only inside the call that made it (it
// is never stored, returned or captured by an escaping closure), while the array is not
// otherwise changed; every position read or written is inside the view (a debug build
// checks it, as an unsafe buffer's subscript does).

/// An array's elements borrowed for the length of one ``Swift/Array/withUncheckedElements(_:)``
/// call, indexed without bounds checks in release builds.
struct UncheckedElements<Element> {
    /// The borrowed elements.
    fileprivate let buffer: UnsafeBufferPointer<Element>

    /// The number of elements.
    @inline(__always)
    var count: Int { buffer.count }

    /// The valid positions, `0..<count`.
    @inline(__always)
    var indices: Range<Int> { 0..<buffer.count }

    /// The element at `position`, which must be below ``count``.
    @inline(__always)
    subscript(position: Int) -> Element { buffer[position] }

    /// The elements at `range`, which must lie inside the view, as a view of their own
    /// (positions from 0).
    @inline(__always)
    func elements(in range: Range<Int>) -> UncheckedElements {
        UncheckedElements(buffer: UnsafeBufferPointer(rebasing: buffer[range]))
    }
}

/// An array's elements borrowed for the length of one
/// ``Swift/Array/withUncheckedMutableElements(_:)`` call, read and written without bounds
/// checks in release builds.
struct UncheckedMutableElements<Element> {
    /// The borrowed elements.
    fileprivate let buffer: UnsafeMutableBufferPointer<Element>

    /// The number of elements.
    @inline(__always)
    var count: Int { buffer.count }

    /// The element at `position`, which must be below ``count``.
    @inline(__always)
    subscript(position: Int) -> Element {
        get { buffer[position] }
        nonmutating set { buffer[position] = newValue }
    }
}

extension Array {
    /// Calls `body` with the elements borrowed as an ``UncheckedElements`` view, valid only
    /// inside the call.
    ///
    /// - Parameter body: What to do with the view; it must not keep it.
    /// - Returns: What `body` returns.
    @inline(__always)
    func withUncheckedElements<Result>(_ body: (UncheckedElements<Element>) throws -> Result) rethrows -> Result {
        try withUnsafeBufferPointer { try body(UncheckedElements(buffer: $0)) }
    }

    /// Calls `body` with the elements borrowed as an ``UncheckedMutableElements`` view,
    /// valid only inside the call.
    ///
    /// - Parameter body: What to do with the view; it must not keep it.
    /// - Returns: What `body` returns.
    @inline(__always)
    mutating func withUncheckedMutableElements<Result>(_ body: (UncheckedMutableElements<Element>) throws -> Result) rethrows -> Result {
        try withUnsafeMutableBufferPointer { try body(UncheckedMutableElements(buffer: $0)) }
    }

    /// Appends the elements of a view.
    ///
    /// - Parameter elements: Borrowed elements, of another array.
    /// - Complexity: O(m) for m elements.
    @inline(__always)
    mutating func append(contentsOf elements: UncheckedElements<Element>) {
        append(contentsOf: elements.buffer)
    }
}

extension FoldedText {
    /// Whether the `count` bytes of `hay` from `start` (inside the view) contain `needle`,
    /// as ``regularBytes(_:count:contain:)`` answers: for a folding without match
    /// boundaries.
    ///
    /// - Parameters:
    ///   - hay: Folded bytes, borrowed.
    ///   - start: The position of the folding's first byte in `hay`.
    ///   - count: The folding's byte count.
    ///   - needle: The folded needle's bytes, borrowed; an empty one matches nothing.
    /// - Complexity: O(n + m) for a needle of m bytes (see ``bytes(_:count:contain:where:)``).
    @inline(__always)
    static func regularBytes(
        _ hay: UncheckedElements<UInt8>, start: Int, count: Int, contain needle: UncheckedElements<UInt8>
    ) -> Bool {
        assert(start >= 0 && start + count <= hay.count, "internal inconsistency: a folding outside its bytes")
        return regularBytes(hay.buffer.baseAddress.unsafelyUnwrapped + start, count: count, contain: needle.buffer)
    }
}
