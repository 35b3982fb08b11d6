/// Finds a longest strictly increasing subsequence of a sequence of integers, with patience
/// sorting; the diff, the accumulator's flush and the results controller's commit keep those
/// elements still and move the rest. Equal values never both belong to the subsequence.
///
/// The buffers are reused from one call to the next, so marking many short sequences (one per
/// section) allocates only while they grow.
package struct LongestIncreasingSubsequence {
    /// After `mark(_:)`: for each element of the sequence, whether it belongs to the
    /// subsequence found.
    package private(set) var keep: [Bool] = []
    /// `tails[k]`: the index of the smallest last element of an increasing run of length k + 1
    /// (only the first `length` entries of a call are meaningful). Indexes are 32-bit, to halve
    /// the memory a long sequence needs.
    private var tails: [Int32] = []
    /// `tailValues[k] == values[tails[k]]`, kept apart so that the search reads one array.
    private var tailValues: [Int] = []
    /// For each element, the index of the element before it in the best run ending there, or
    /// -1.
    private var previous: [Int32] = []

    /// Creates an empty marker whose buffers grow with the sequences it marks.
    package init() {}

    /// Marks in `keep` the elements of one longest strictly increasing subsequence of `values`.
    ///
    /// - Parameter values: Integers, in sequence order.
    /// - Complexity: O(k) when `values` is already sorted, O(k log k) otherwise, for k values.
    package mutating func mark(_ values: [Int]) {
        keep.removeAll(keepingCapacity: true)
        if values.isEmpty { return }
        var sorted = true
        for index in values.indices.dropFirst() where values[index - 1] >= values[index] {
            sorted = false
            break
        }
        if sorted {
            keep.append(contentsOf: repeatElement(true, count: values.count))
            return
        }
        precondition(values.count <= Int(Int32.max), "LongestIncreasingSubsequence: \(values.count) values, at most \(Int32.max)")
        keep.append(contentsOf: repeatElement(false, count: values.count))
        if tails.count < values.count {
            tails = Array(repeating: 0, count: values.count)
            tailValues = Array(repeating: 0, count: values.count)
            previous = Array(repeating: 0, count: values.count)
        }
        // The hot loop of the diff for lists whose rows moved: unchecked buffers, all indexes
        // below `values.count`, which every buffer holds at least.
        var length = 0
        values.withUnsafeBufferPointer { values in
            tails.withUnsafeMutableBufferPointer { tails in
                tailValues.withUnsafeMutableBufferPointer { tailValues in
                    previous.withUnsafeMutableBufferPointer { previous in
                        for index in values.indices {
                            let value = values[index]
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
                            previous[index] = low > 0 ? tails[low - 1] : -1
                            tails[low] = Int32(truncatingIfNeeded: index)
                            tailValues[low] = value
                            if low == length { length += 1 }
                        }
                    }
                }
            }
        }
        keep.withUnsafeMutableBufferPointer { keep in
            var index = Int(tails[length - 1])
            while index >= 0 {
                keep[index] = true
                index = Int(previous[index])
            }
        }
    }
}
