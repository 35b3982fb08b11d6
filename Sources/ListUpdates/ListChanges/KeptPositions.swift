/// The positions after a change of elements that stay in their sequence: neither removed nor
/// placed by the change, so they keep their relative order among the elements that stay.
///
/// This is rule 3 of the batch rules (deletes, then moves, then inserts) seen from a kept
/// element: it loses one position for each removed element before it, then takes the free
/// slot of its rank among the positions no placed element fills.
///
/// - Parameters:
///   - kept: Before-positions of kept elements, sorted ascending, none of them removed.
///   - removed: Before-positions of the elements that leave (deletes and move sources),
///     sorted ascending and unique.
///   - placed: After-positions of the elements that arrive (inserts and move destinations),
///     sorted ascending and unique.
/// - Returns: The after-position of each kept element, in the order of `kept`.
/// - Complexity: O(k + r + p) for k kept, r removed and p placed elements.
func keptPositionsAfter<Removed: Collection<Int>, Placed: Collection<Int>>(
    _ kept: [Int], removed: Removed, placed: Placed
) -> [Int] {
    var result: [Int] = []
    result.reserveCapacity(kept.count)
    var removedIndex = removed.startIndex
    var removedBefore = 0
    var placedIndex = placed.startIndex
    var placedBefore = 0
    for before in kept {
        while removedIndex != removed.endIndex, removed[removedIndex] < before {
            removed.formIndex(after: &removedIndex)
            removedBefore += 1
        }
        let rank = before - removedBefore
        // The free slot of rank `rank`: every placed position at or below it pushes it up one.
        while placedIndex != placed.endIndex, placed[placedIndex] <= rank + placedBefore {
            placed.formIndex(after: &placedIndex)
            placedBefore += 1
        }
        result.append(rank + placedBefore)
    }
    return result
}

/// The positions after a change of rows that stay where they are in their section (neither
/// removed nor placed), given as packed positions, `section << 32 | row`.
///
/// - Parameters:
///   - kept: Packed before-positions of kept rows, sorted ascending.
///   - removed: Packed before-positions of the rows that leave, sorted ascending and unique.
///   - placed: Packed after-positions of the rows that arrive, sorted ascending and unique.
///   - sectionAfter: The after-position of a section, given its before-position; called for
///     the sections of kept rows only.
/// - Returns: The packed after-position of each kept row, in the order of `kept`.
/// - Complexity: O((k + r + p) + g log(r + p)) for k kept, r removed and p placed rows in g
///   sections.
func keptRowPositionsAfter(
    _ kept: [Int], removed: [Int], placed: [Int], sectionAfter: (Int) -> Int
) -> [Int] {
    let rowMask = 0xFFFF_FFFF
    var result: [Int] = []
    result.reserveCapacity(kept.count)
    var start = 0
    while start < kept.count {
        let section = kept[start] >> 32
        var end = start + 1
        while end < kept.count, kept[end] >> 32 == section { end += 1 }
        let target = sectionAfter(section)
        let removedHere = removed[lowerBound(removed, section << 32)..<lowerBound(removed, (section + 1) << 32)]
        let placedHere = placed[lowerBound(placed, target << 32)..<lowerBound(placed, (target + 1) << 32)]
        let rows = keptPositionsAfter(
            kept[start..<end].map { $0 & rowMask },
            removed: removedHere.lazy.map { $0 & rowMask },
            placed: placedHere.lazy.map { $0 & rowMask })
        for row in rows { result.append(target << 32 | row) }
        start = end
    }
    return result
}

/// The first index of sorted `values` whose element is not below `value`.
private func lowerBound(_ values: [Int], _ value: Int) -> Int {
    var low = 0
    var high = values.count
    while low < high {
        let mid = (low + high) / 2
        if values[mid] < value { low = mid + 1 } else { high = mid }
    }
    return low
}
