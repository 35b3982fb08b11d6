internal import MemoryHints

// The module's cache hints: addresses handed to MemoryHints' prefetches, never
// dereferenced. A hint changes no program state and never faults, whatever the address, so
// a stale or wrong hint costs time, not correctness; what each caller upholds is only that
// an address computed here is not read on the strength of the hint. Steps are the named
// line size (`FRK_CACHE_LINE_SIZE`, through `frk_prefetch_lines`), never a literal.

/// Where a node's first-read buffers were when its parent last changed it: up to two
/// addresses, each with the number of bytes from it to ask for. A parent keeps one per
/// child, so that a descent can ask for a child's buffers together with the child's first
/// lines instead of after them. A hint only: a stale one (a buffer moved or freed since)
/// asks for lines that go unused, and asking never faults.
struct NodeLines {
    private var first: UnsafeRawPointer?
    private var second: UnsafeRawPointer?
    private var firstBytes: UInt16
    private var secondBytes: UInt16

    /// The lines of up to two buffers (``NodeBuffer/extent``).
    init(_ first: (address: UnsafeRawPointer?, bytes: UInt16), _ second: (address: UnsafeRawPointer?, bytes: UInt16) = (nil, 0)) {
        (self.first, firstBytes) = first
        (self.second, secondBytes) = second
    }

    /// Asks the processor for every line (a hint that changes nothing).
    @inline(__always)
    func prefetch() {
        Self.prefetch((first, firstBytes))
        Self.prefetch((second, secondBytes))
    }

    /// Asks the processor for every line of `extent.bytes` bytes from `extent.address`.
    @inline(__always)
    static func prefetch(_ extent: (address: UnsafeRawPointer?, bytes: UInt16)) {
        guard let address = extent.address else { return }
        frk_prefetch_lines(address, Int(extent.bytes))
    }
}

extension Array {
    /// Asks the processor for the lines that hold the elements at `positions` (a hint that
    /// changes nothing), so that their cache misses overlap before a loop reads them one by
    /// one. Positions outside the array are skipped.
    ///
    /// - Parameter positions: Element positions.
    /// - Complexity: O(k) for k positions.
    @inline(__always)
    func prefetchElements<Positions: Sequence>(at positions: Positions) where Positions.Element: BinaryInteger {
        withUnsafeBufferPointer { elements in
            guard let base = elements.baseAddress else { return }
            for position in positions {
                let position = Int(truncatingIfNeeded: position)
                guard position >= 0 && position < elements.count else { continue }
                frk_prefetch(base + position)
            }
        }
    }

    /// Asks the processor for every line of the elements at `range`, clamped to the array's
    /// indices (a hint that changes nothing): one request per line, each line once.
    ///
    /// - Parameter range: Element positions.
    /// - Complexity: O(m) for m elements.
    @inline(__always)
    func prefetchElements(in range: Range<Int>) {
        let range = range.clamped(to: 0..<count)
        guard !range.isEmpty else { return }
        withUnsafeBufferPointer { elements in
            frk_prefetch_lines(elements.baseAddress.unsafelyUnwrapped + range.lowerBound, range.count * MemoryLayout<Element>.stride)
        }
    }
}
