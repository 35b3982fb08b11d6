extension Array where Element == SortValue {
    /// The order of the elements at positions `a` and `b`: -1 when the first sorts before
    /// the second, 1 when after, 0 when neither does.
    ///
    /// The elements are compared where they are, borrowed from the array's memory: copying
    /// each out (a subscript read) would count a reference and release it again per
    /// comparison, and the searches of a large index compare a lot. Written for `SortValue`
    /// alone: over a generic `Comparable` element the optimizer copies both values out and
    /// calls the comparison instead of inlining it (about 8% more instructions per commit).
    ///
    /// **Invariant (upheld by the caller):** `a` and `b` are valid positions; they are
    /// checked in debug builds only, as an `UnsafeBufferPointer` checks them. The key columns
    /// of ``RowKeyColumns`` uphold it: every column holds a value for every slot, and only
    /// slots are compared.
    ///
    /// - Parameters:
    ///   - a: A position in the array.
    ///   - b: A position in the array.
    /// - Returns: -1, 0 or 1.
    @inline(__always)
    func orderInPlace(_ a: Int, _ b: Int) -> Int {
        withUnsafeBufferPointer { values in
            values[a] < values[b] ? -1 : values[b] < values[a] ? 1 : 0
        }
    }
}
