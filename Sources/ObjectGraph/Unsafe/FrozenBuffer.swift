/// A heap buffer of plain values, written once when it is made and only read afterwards:
/// a loop over it counts no reference, where a loop over an array stored in a class retains
/// the array's buffer for the loop.
///
/// **Invariant (upheld by the owner):** ``deallocate()`` is called exactly once, after the
/// last read. The elements are bitwise copyable, so freeing the memory is all there is to
/// do; any reference they hold is unretained, kept alive by an owner their own
/// documentation names.
internal struct _FrozenBuffer<Element: BitwiseCopyable>: Sequence {
    private let storage: UnsafeMutableBufferPointer<Element>

    /// A buffer holding `elements`, in order.
    ///
    /// - Parameter elements: The values.
    /// - Complexity: O(*n*) for *n* elements.
    init(_ elements: [Element]) {
        storage = .allocate(capacity: elements.count)
        _ = storage.initialize(from: elements)
    }

    /// Frees the buffer; no copy of it may be read afterwards.
    func deallocate() {
        storage.deallocate()
    }

    @inline(__always)
    func makeIterator() -> UnsafeMutableBufferPointer<Element>.Iterator {
        storage.makeIterator()
    }
}
