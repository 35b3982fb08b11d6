/// The elements sorted ascending, without repeats: the normal form of every position list in
/// ``ListChanges``, its staging and its validation.
///
/// - Parameter elements: Positions (or moves) in any order, possibly repeated.
/// - Returns: The distinct elements in ascending order.
/// - Complexity: O(*n*) when `elements` is already sorted, as the diff and the accumulator
///   mostly produce them; O(*n* log *n*) otherwise.
func sortedUnique<Element: Comparable>(_ elements: [Element]) -> [Element] {
    if zip(elements, elements.dropFirst()).allSatisfy({ $0 < $1 }) { return elements }
    var result = elements
    if !zip(elements, elements.dropFirst()).allSatisfy({ $0 <= $1 }) { result.sort() }
    var write = 0
    for read in result.indices where read == 0 || result[read] != result[write - 1] {
        result[write] = result[read]
        write += 1
    }
    result.removeLast(result.count - write)
    return result
}
