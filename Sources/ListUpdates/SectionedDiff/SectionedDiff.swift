import Foundation

/// The identifier-free core of the sectioned diff.
///
/// The generic front end (`ListChanges.difference(from:to:sectionID:rows:rowID:rowContentEqual:)`
/// and `SectionedDiff+Matching.swift`) hashes each identifier at most once, matches old and
/// new sections and rows through one hash table per kind, and records the matches here as
/// flat integer arrays. From them, `changes()` derives the list changes without looking at an
/// identifier again, in code that is compiled once, not per element type.
///
/// Row positions are kept two ways: *flat* (the row's rank over all sections, used to index
/// the arrays below) and *packed* (`section << 32 | row`, used to name a position).
@usableFromInline
struct SectionedDiff {
    /// The value of a section table entry that no side has claimed yet.
    @usableFromInline static let absent = -1

    /// For each old section, the flat position of its first row; one more element than there
    /// are old sections, the last being the number of old rows.
    @usableFromInline var oldStarts: [Int]
    /// For each new section, the flat position of its first row; one more element than there
    /// are new sections, the last being the number of new rows.
    @usableFromInline var newStarts: [Int]
    /// For each old section, its position among the new sections, or -1 when it is deleted.
    @usableFromInline var sectionOldToNew: [Int]
    /// For each new section, its position among the old sections, or -1 when it is inserted.
    @usableFromInline var sectionNewToOld: [Int]
    /// For each new row (flat), the packed old position of the row with its identifier, or -1
    /// when the row is inserted.
    @usableFromInline var rowSource: [Int]
    /// For each new row (flat), whether its content differs from its old row's.
    @usableFromInline var rowChanged: [Bool]
    /// For each old row (flat), whether a new row has its identifier.
    @usableFromInline var oldRowMatched: [Bool]
    /// Old sections, ascending, that have a new section with their identifier whose content
    /// besides its rows differs: reported as reloaded.
    @usableFromInline var changedSections: [Int] = []
    /// The number of rows matched so far.
    @usableFromInline var matchedRowCount = 0
    /// How position *codes* name old rows in the identifier table:
    /// `section << codeRowBits | row` when every position fits in 29 bits that way (decoding is
    /// a shift), or -1 for flat positions (decoding is a binary search over the section
    /// starts). Either way, the codes of one section's rows are consecutive.
    @usableFromInline var codeRowBits = -1

    /// Creates a diff with every section unmatched and no rows.
    ///
    /// - Parameters:
    ///   - oldSectionCount: The number of sections before the change.
    ///   - newSectionCount: The number of sections after the change.
    @usableFromInline
    init(oldSectionCount: Int, newSectionCount: Int) {
        oldStarts = [0]
        newStarts = [0]
        sectionOldToNew = Array(repeating: -1, count: oldSectionCount)
        sectionNewToOld = Array(repeating: -1, count: newSectionCount)
        rowSource = []
        rowChanged = []
        oldRowMatched = []
    }

    /// Records the row counts of every section; the caller then fills the row arrays.
    ///
    /// - Parameters:
    ///   - old: The number of rows in each old section.
    ///   - new: The number of rows in each new section.
    @usableFromInline
    mutating func setRowCounts(old: [Int], new: [Int]) {
        require(
            old.count == sectionOldToNew.count && new.count == sectionNewToOld.count,
            "internal inconsistency: row counts for \(old.count)/\(new.count) sections, expected \(sectionOldToNew.count)/\(sectionNewToOld.count)"
        )
        oldStarts = Self.starts(of: old)
        newStarts = Self.starts(of: new)
        func bits(_ value: Int) -> Int { Int.bitWidth - value.leadingZeroBitCount }
        let sectionBits = bits(max(old.count, new.count, 1) - 1)
        let rowBits = bits(max(old.max() ?? 0, new.max() ?? 0, 1) - 1)
        codeRowBits = sectionBits + rowBits <= 29 ? rowBits : -1
    }

    private static func starts(of counts: [Int]) -> [Int] {
        var starts = [Int]()
        starts.reserveCapacity(counts.count + 1)
        var total = 0
        starts.append(0)
        for count in counts {
            require(count <= Int(Int32.max), "a section holds \(count) rows; the diff supports up to \(Int32.max)")
            total += count
            starts.append(total)
        }
        return starts
    }

    /// Records that old section `old` and new section `new` share an identifier.
    @inlinable
    mutating func matchSection(old: Int, new: Int) {
        sectionOldToNew[old] = new
        sectionNewToOld[new] = old
    }

    /// The code of an old row's position.
    @inlinable
    func oldCode(section: Int, row: Int) -> Int {
        codeRowBits >= 0 ? section << codeRowBits | row : oldStarts[section] + row
    }

    /// The section and row of an old row from its code.
    ///
    /// - Complexity: O(1) for packed codes, O(log s) for s old sections otherwise.
    @inlinable
    func oldPosition(ofCode code: Int) -> (section: Int, row: Int) {
        if codeRowBits >= 0 { return (code >> codeRowBits, code & ((1 << codeRowBits) - 1)) }
        let section = Self.section(ofFlat: code, starts: oldStarts)
        return (section, code - oldStarts[section])
    }

    /// The section and row of a new row from its flat position.
    ///
    /// - Complexity: O(log s) for s new sections.
    @inlinable
    func newPosition(ofFlat flat: Int) -> (section: Int, row: Int) {
        let section = Self.section(ofFlat: flat, starts: newStarts)
        return (section, flat - newStarts[section])
    }

    /// The last section whose first row is at or before `flat`: the section that holds it.
    @inlinable
    static func section(ofFlat flat: Int, starts: [Int]) -> Int {
        var low = 0
        var high = starts.count - 2  // the last section
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= flat { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Claims a hash table slot for a new element at `position`, returning what it held:
    /// `absent`, an old position (non-negative), or an earlier claim (see `claimant(of:)`).
    @inlinable
    static func claim(_ slot: inout Int, for position: Int) -> Int {
        let previous = slot
        slot = -2 - position
        return previous
    }

    /// The position of the new element that claimed a slot, from the slot's value.
    @inlinable
    static func claimant(of value: Int) -> Int {
        -2 - value
    }

}

/// The seed of the identifier hashes of every diff in this process: chosen at random once, so
/// that no input collides by design, and not per call, which would cost a system call on
/// every diff of a short list.
@usableFromInline let diffHashSeed = UInt64.random(in: .min ... .max)

extension SectionedDiff {
    /// The changes from the old to the new state, in their general form: a row that moves and
    /// changed is both a move source and reconfigured, and moved sections may have row
    /// changes inside. Only rows (and sections) whose relative order changed are moves.
    ///
    /// - Complexity: O(n + m + k log k) for n old rows, m new rows and k rows that stay in their
    ///   section, expected O(n + m) when few rows move.
    @usableFromInline
    func changes() -> PackedListChanges {
        var result = PackedListChanges()
        result.reloadedSections = changedSections
        result.deletedRows.reserveCapacity(oldRowMatched.count - matchedRowCount)
        result.insertedRows.reserveCapacity(rowSource.count - matchedRowCount)
        var subsequence = LongestIncreasingSubsequence()

        // Sections: deleted, inserted, and moved when out of the longest run kept in order.
        var survivors: [Int] = []
        var survivorPositions: [Int] = []
        for (old, new) in sectionOldToNew.enumerated() where new < 0 {
            result.deletedSections.append(old)
        }
        for (new, old) in sectionNewToOld.enumerated() {
            if old < 0 {
                result.insertedSections.append(new)
            } else {
                survivors.append(old)
                survivorPositions.append(new)
            }
        }
        if zip(survivors, survivors.dropFirst()).contains(where: { $0 >= $1 }) {
            // Some sections move. Keep still, first, the sections whose row count or header
            // changes (a moved one is recreated), then those with other row changes (a moved
            // one needs a stage of its own), then as many others as can be.
            var headerChanged = [Bool](repeating: false, count: sectionOldToNew.count)
            for section in changedSections { headerChanged[section] = true }
            let weights = survivors.indices.map { index in
                sectionWeight(old: survivors[index], new: survivorPositions[index], headerChanged: headerChanged[survivors[index]])
            }
            let keep = Self.heaviestIncreasingSubsequence(survivors, weights: weights, bound: sectionOldToNew.count)
            for index in survivors.indices where !keep[index] {
                result.movedSections.append(.init(from: survivors[index], to: survivorPositions[index]))
            }
        }

        // Rows of surviving old sections that no new row has: deleted.
        for (old, new) in sectionOldToNew.enumerated() where new >= 0 {
            let start = oldStarts[old]
            for flat in start..<oldStarts[old + 1] where !oldRowMatched[flat] {
                result.deletedRows.append(PackedListChanges.pack(section: old, row: flat - start))
            }
        }

        // Rows of surviving new sections: inserted, moved in from another section, or staying
        // in their section, where those out of the longest run kept in order move.
        for (new, old) in sectionNewToOld.enumerated() {
            let start = newStarts[new]
            let end = newStarts[new + 1]
            guard old >= 0 else {
                // An inserted section shows its rows anew; rows that come from a surviving
                // section leave a delete there.
                for flat in start..<end {
                    let source = rowSource[flat]
                    if source >= 0 && sectionOldToNew[source >> 32] >= 0 {
                        result.deletedRows.append(source)
                    }
                }
                continue
            }
            var stayingCount = 0
            for flat in start..<end {
                let source = rowSource[flat]
                if source < 0 || sectionOldToNew[source >> 32] < 0 {
                    result.insertedRows.append(PackedListChanges.pack(section: new, row: flat - start))
                } else if source >> 32 == old {
                    stayingCount += 1
                } else {
                    result.movedRows.append((from: source, to: PackedListChanges.pack(section: new, row: flat - start)))
                    if rowChanged[flat] { result.reconfiguredRows.append(source) }
                }
            }
            subsequence.mark(StayingRows(sources: rowSource[start..<end], oldSection: old), count: stayingCount)
            var index = 0
            for flat in start..<end {
                let source = rowSource[flat]
                guard source >= 0 && source >> 32 == old else { continue }
                if !subsequence.keep[index] {
                    result.movedRows.append((from: source, to: PackedListChanges.pack(section: new, row: flat - start)))
                }
                if rowChanged[flat] { result.reconfiguredRows.append(source) }
                index += 1
            }
        }
        return result
    }
}

extension SectionedDiff {
    /// How strongly a surviving section should keep still when sections move: `s²` (for s
    /// sections) when its row count or its header changes, `s` when other rows change inside
    /// it, 1 otherwise; so that no number of lighter sections outweighs a heavier one.
    ///
    /// - Parameters:
    ///   - old: The section's position before the change.
    ///   - new: Its position after the change.
    ///   - headerChanged: Whether its own content changed.
    /// - Complexity: O(r) for r rows in the section.
    func sectionWeight(old: Int, new: Int, headerChanged: Bool) -> Int {
        let scale = sectionOldToNew.count + 1
        let oldCount = oldStarts[old + 1] - oldStarts[old]
        let newCount = newStarts[new + 1] - newStarts[new]
        if oldCount != newCount || headerChanged { return scale * scale }
        var next = PackedListChanges.pack(section: old, row: 0)
        for flat in newStarts[new]..<newStarts[new + 1] {
            // Equal counts: every row comes from the same row of the old section, or one changed.
            if rowSource[flat] != next || rowChanged[flat] { return scale }
            next += 1
        }
        return 1
    }

    /// Marks a strictly increasing subsequence of `values` of the largest total weight.
    ///
    /// - Parameters:
    ///   - values: Distinct integers in `0..<bound`, in sequence order.
    ///   - weights: The positive weight of each element.
    ///   - bound: One more than the largest value.
    /// - Returns: For each element, whether it belongs to the subsequence.
    /// - Complexity: O(k log b) for k values below b.
    static func heaviestIncreasingSubsequence(_ values: [Int], weights: [Int], bound: Int) -> [Bool] {
        // A Fenwick tree of prefix maxima over values: the heaviest run ending below a value.
        var tree = [(weight: Int, index: Int)](repeating: (0, -1), count: bound + 1)
        var previous = [Int](repeating: -1, count: values.count)
        var total = [Int](repeating: 0, count: values.count)
        var best = (weight: 0, index: -1)
        for (index, value) in values.enumerated() {
            var prefix = (weight: 0, index: -1)
            var node = value  // values below `value`: tree nodes 1...value
            while node > 0 {
                if tree[node].weight > prefix.weight { prefix = tree[node] }
                node -= node & -node
            }
            previous[index] = prefix.index
            total[index] = prefix.weight + weights[index]
            if total[index] > best.weight { best = (total[index], index) }
            node = value + 1
            while node <= bound {
                if total[index] > tree[node].weight { tree[node] = (total[index], index) }
                node += node & -node
            }
        }
        var keep = [Bool](repeating: false, count: values.count)
        var index = best.index
        while index >= 0 {
            keep[index] = true
            index = previous[index]
        }
        return keep
    }
}

/// The old row positions of the rows of one new section that come from its own old section, in
/// new order: the sequence whose longest increasing run stays still. Read twice by
/// `LongestIncreasingSubsequence`, never stored.
struct StayingRows: Sequence {
    /// The packed old positions of the section's new rows (`rowSource` of `SectionedDiff`).
    var sources: ArraySlice<Int>
    /// The section's position before the change.
    var oldSection: Int

    struct Iterator: IteratorProtocol {
        var sources: ArraySlice<Int>
        var oldSection: Int
        var index: Int

        mutating func next() -> Int32? {
            while index < sources.endIndex {
                let source = sources[index]
                index += 1
                if source >= 0 && source >> 32 == oldSection { return Int32(truncatingIfNeeded: source) }
            }
            return nil
        }
    }

    func makeIterator() -> Iterator {
        Iterator(sources: sources, oldSection: oldSection, index: sources.startIndex)
    }
}
