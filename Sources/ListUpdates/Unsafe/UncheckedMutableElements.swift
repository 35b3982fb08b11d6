/// An array's elements seen through its buffer, for a loop that reads and writes them by
/// position without a bounds check (in optimized builds) or a uniqueness check per store.
///
/// **Invariant:** a view lives only inside the ``Swift/Array/withUncheckedMutableElements(_:)``
/// call that made it, which keeps the array's storage unique and alive; its callers pass only
/// positions below the array's count (checked in debug builds, as the standard library's
/// buffers check them).
@usableFromInline
struct UncheckedMutableElements<Element>: RandomAccessCollection, MutableCollection {
    @usableFromInline let base: UnsafeMutableBufferPointer<Element>

    @inlinable
    init(_ base: UnsafeMutableBufferPointer<Element>) {
        self.base = base
    }

    @inlinable var startIndex: Int { 0 }
    @inlinable var endIndex: Int { base.count }

    @inlinable
    subscript(position: Int) -> Element {
        @inline(__always) get { base[position] }
        @inline(__always) nonmutating set { base[position] = newValue }
    }
}

extension Array {
    /// Calls `body` with a view of the array's elements that reads and writes them without
    /// bounds checks in optimized builds; the view is valid only inside the call.
    ///
    /// - Complexity: O(1) beyond `body` (O(*n*) when the array's storage is shared and is
    ///   copied first).
    @inlinable
    mutating func withUncheckedMutableElements<Result>(_ body: (UncheckedMutableElements<Element>) throws -> Result) rethrows -> Result {
        try withUnsafeMutableBufferPointer { try body(UncheckedMutableElements($0)) }
    }
}
