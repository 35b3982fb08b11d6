/// Finds a longest strictly increasing subsequence of a sequence of integers, with patience
/// sorting; the diff, the accumulator's flush and the results controller's commit keep those
/// elements still and move the rest. Equal values never both belong to the subsequence.
///
/// The `keep` array is reused from one call to the next, and the search's scratch buffers are
/// temporary allocations that are never initialized (on the stack when they are small), so
/// marking many short sequences (one per section) costs no heap allocation once `keep` has
/// grown.
package struct LongestIncreasingSubsequence {
    /// After `mark(_:)`: for each element of the sequence, whether it belongs to the
    /// subsequence found.
    package private(set) var keep: [Bool] = []

    /// Creates an empty marker.
    package init() {}

    /// Marks in `keep` the elements of one longest strictly increasing subsequence of `values`.
    ///
    /// - Parameter values: Integers, in sequence order.
    /// - Complexity: O(k) when `values` is already sorted, O(k log k) otherwise, for k values.
    package mutating func mark(_ values: [Int]) {
        mark(values, count: values.count)
    }

    /// Marks in `keep` the elements of one longest strictly increasing subsequence of `values`,
    /// a sequence that is read twice and never stored: the diff passes a lazy view of the rows
    /// that stay in a section, as 32-bit positions.
    ///
    /// - Parameters:
    ///   - values: Integers, in sequence order; iterating twice yields the same elements.
    ///   - count: The number of elements of `values`.
    /// - Complexity: O(k) when `values` is already sorted, O(k log k) otherwise, for k values.
    mutating func mark<Values: Sequence>(_ values: Values, count: Int) where Values.Element: BinaryInteger {
        keep.removeAll(keepingCapacity: true)
        if count == 0 { return }
        var sorted = true
        var last: Values.Element?
        var seen = 0
        for value in values {
            if let last, last >= value { sorted = false }
            last = value
            seen += 1
        }
        require(seen == count, "LongestIncreasingSubsequence: \(seen) values, \(count) announced")
        if sorted {
            keep.append(contentsOf: repeatElement(true, count: count))
            return
        }
        require(count <= Int(Int32.max), "LongestIncreasingSubsequence: \(count) values, at most \(Int32.max)")
        keep.append(contentsOf: repeatElement(false, count: count))
        // The hot loop of the diff for lists whose rows moved: unchecked buffers, every index
        // below `count`, which every buffer holds. Entries are written before they are read:
        // `tails` and `tailValues` up to `length`, `previous` up to `index`.
        //
        // - `tails[k]`: the index of the smallest last element of an increasing run of length
        //   k + 1; 32-bit, to halve the memory a long sequence needs.
        // - `tailValues[k]`: the value of element `tails[k]`, kept apart so that the search
        //   reads one buffer.
        // - `previous[i]`: the index of the element before element i in the best run ending
        //   there, or -1.
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: count) { tails in
            withUnsafeTemporaryAllocation(of: Values.Element.self, capacity: count) { tailValues in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: count) { previous in
                    var length = 0
                    var index = 0
                    for value in values.prefix(count) {
                        // Most elements of a list that barely changed extend the longest run.
                        var low = length
                        if low > 0 && tailValues[low - 1] >= value {
                            var high = low - 1
                            low = 0
                            while low < high {
                                let middle = (low + high) / 2
                                if tailValues[middle] < value { low = middle + 1 } else { high = middle }
                            }
                        }
                        previous.initializeElement(at: index, to: low > 0 ? tails[low - 1] : -1)
                        if low == length {
                            tails.initializeElement(at: low, to: Int32(truncatingIfNeeded: index))
                            tailValues.initializeElement(at: low, to: value)
                            length += 1
                        } else {
                            tails[low] = Int32(truncatingIfNeeded: index)
                            tailValues[low] = value
                        }
                        index += 1
                    }
                    keep.withUnsafeMutableBufferPointer { keep in
                        var index = Int(tails[length - 1])
                        while index >= 0 {
                            keep[index] = true
                            index = Int(previous[index])
                        }
                    }
                    UnsafeMutableBufferPointer(rebasing: tailValues[..<length]).deinitialize()
                }
            }
        }
    }
}
