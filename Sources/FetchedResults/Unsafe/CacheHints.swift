internal import MemoryHints
import ObjectGraph

// The module's cache hints: addresses handed to MemoryHints' prefetches, never
// dereferenced. A hint changes no program state and never faults, whatever the address, so
// a stale or wrong hint costs time, not correctness; what each caller upholds is only that
// an address computed here is not read on the strength of the hint. Steps are MemoryHints'
// named line size, `FRK_CACHE_LINE_SIZE`, never a literal.

/// Where a node's first-read buffers were when its parent last changed it: up to two
/// addresses, each with the number of lines it spans. A parent keeps one per
/// child, so that a descent can ask for a child's buffers together with the child's first
/// lines instead of after them. A hint only: a stale one (a buffer moved or freed since)
/// asks for lines that go unused, and asking never faults.
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

    /// The number of lines that `bytes` bytes from any address may span: one more than they
    /// fill, for a start inside a line.
    @inline(__always)
    static func lines(spanning bytes: Int) -> Int {
        (bytes + Int(FRK_CACHE_LINE_SIZE) - 1) / Int(FRK_CACHE_LINE_SIZE) + 1
    }

    /// Asks the processor for every line (a hint that changes nothing).
    @inline(__always)
    func prefetch() {
        Self.prefetch((first, firstLines))
        Self.prefetch((second, secondLines))
    }

    /// Asks the processor for `extent.lines` lines from `extent.address`, one hint every
    /// `FRK_CACHE_LINE_SIZE` bytes.
    ///
    /// The lines are counted when the extent is taken (``lines(spanning:)``), so asking,
    /// which every search step does, is a pointer walk with nothing to compute per line.
    @inline(__always)
    static func prefetch(_ extent: (address: UnsafeRawPointer?, lines: UInt16)) {
        guard var line = extent.address else { return }
        let step = Int(FRK_CACHE_LINE_SIZE)
        let end = line + Int(extent.lines) &* step
        while line < end {
            frk_prefetch(line)
            line += step
        }
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
    /// indices (a hint that changes nothing): one request per line, each line once (up to
    /// `UInt16.max` lines).
    ///
    /// - Parameter range: Element positions.
    /// - Complexity: O(m) for m elements.
    @inline(__always)
    func prefetchElements(in range: Range<Int>) {
        let range = range.clamped(to: 0..<count)
        guard !range.isEmpty else { return }
        withUnsafeBufferPointer { elements in
            let start = UnsafeRawPointer(elements.baseAddress.unsafelyUnwrapped + range.lowerBound)
            NodeLines.prefetch((start, UInt16(clamping: NodeLines.lines(spanning: range.count * MemoryLayout<Element>.stride))))
        }
    }
}

extension ObjectGraph {
    /// Asks the processor for the first `lines` cache lines of the object with `id`, when it
    /// is registered (a hint that changes nothing), so that reading several objects' fields
    /// lets their cache misses overlap. The object is not retained: its address
    /// (`objectAddress(with:)`) is only handed to the prefetch, never read.
    ///
    /// - Parameters:
    ///   - id: The object's ID.
    ///   - lines: How many lines from the object's start, `FRK_CACHE_LINE_SIZE` bytes apart.
    /// - Complexity: O(1) for a fixed number of lines.
    @inline(__always)
    func prefetchObject(with id: ObjectID, lines: UInt16) {
        NodeLines.prefetch((objectAddress(with: id), lines))
    }
}
