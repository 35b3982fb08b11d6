// A load's permutation of its key columns: elements moved out of one array's memory into
// another's, in an order given by positions.
//
// Invariant (upheld by the caller, `load`, whose order comes from `loadOrder()` over the same
// rows): every entry of `order` is a position of `values`, and there are as many entries as
// values (a `require` checks the count). Each target position is then initialized exactly
// once; a moved-out source position is refilled with `filler` at once, so the source stays
// fully initialized and is freed normally (a repeated entry would take that filler, never
// read freed memory).

extension ResultsIndex {
    /// The elements of `values` in `order` — element `i` of the result is the one at
    /// `order[i]` — moved out of `values`, which is emptied.
    ///
    /// The positions are independent of each other, so their cache misses overlap (a walk
    /// along the permutation's cycles would wait for each one).
    ///
    /// - Parameters:
    ///   - values: The elements; emptied.
    ///   - order: A permutation of `values.indices` (a repeated position would take the
    ///     filler the first move left).
    ///   - filler: A value that takes each moved element's place until `values` is freed;
    ///     one that holds no reference (`.null`, an integer), so filling costs no counting.
    ///     Elements of a trivial type are copied instead, and need no filler.
    /// - Complexity: O(n).
    static func permuted<Element>(_ values: inout [Element], by order: [Int32], leaving filler: Element) -> [Element] {
        let count = values.count
        require(order.count == count, "internal inconsistency: a load order of \(order.count) rows for \(count)")
        var source = values
        values = []
        let trivial = _isPOD(Element.self)
        return source.withUnsafeMutableBufferPointer { source in
            let base = source.baseAddress
            return [Element](unsafeUninitializedCapacity: count) { target, initialized in
                guard let base, let targetBase = target.baseAddress else { return }
                for position in 0..<count {
                    let element = base + Int(order[position])
                    if trivial {
                        (targetBase + position).initialize(to: element.pointee)
                    } else {
                        (targetBase + position).initialize(to: element.move())
                        element.initialize(to: filler)
                    }
                }
                initialized = count
            }
        }
    }
}
