@testable import FetchedResults
import Foundation
import Testing
import TestSupport

/// The kinds of first-key columns a load sorts: each stresses one path of its sort.
private enum ColumnShape: CaseIterable {
    /// ASCII strings sharing long prefixes: integer keys past the 15-byte summary tie often.
    case asciiWithLongPrefixes
    /// Strings with non-ASCII bytes early: summaries are not monotone, comparisons decide.
    /// Only precomposed characters: on this toolchain, `String.<` is not transitive over
    /// strings that mix decomposed and precomposed forms (`"e\u{301}é"` neither sorts before
    /// nor after `"éé1"`), so no sort has one right answer for them.
    case nonASCII
    /// Integers and doubles, including `-0.0`, `0.0` and integers beyond 2^53.
    case numbers
    /// Every kind in one column: null, Booleans, numbers, strings and opaque values.
    case mixedKinds
    /// Few distinct values: long runs of ties, decided by the second key and the identifier.
    case fewValues
}

/// Random first-key values of a shape.
private func randomValue(_ shape: ColumnShape, _ rng: inout SeededGenerator) -> SortValue {
    switch shape {
    case .asciiWithLongPrefixes:
        let prefixes = ["", "Item ", "a very long shared prefix ", "a very long shared prefix!"]
        let tail = String(UInt32.random(in: 0..<(Bool.random(using: &rng) ? 50 : UInt32.max), using: &rng))
        return .string(prefixes.randomElement(using: &rng)! + tail)
    case .nonASCII:
        let pieces = ["a", "é", "Z", "ß", "1", "\u{0}", "日本"]
        return .string((0..<Int.random(in: 0...6, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined())
    case .numbers:
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: return .double([-0.0, 0.0, 1.5, -1.5].randomElement(using: &rng)!)
        case 1: return .int(1 << 53 + Int64.random(in: -2...2, using: &rng))
        case 2: return .double(Double(1 << 53) + Double.random(in: -2...2, using: &rng).rounded())
        case 3: return .int(Int64.random(in: -3...3, using: &rng))
        default: return .double(Double.random(in: -1e6...1e6, using: &rng))
        }
    case .mixedKinds:
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .int(Int64.random(in: -5...5, using: &rng))
        case 3: return .double(Double.random(in: -5...5, using: &rng))
        case 4: return .opaque(OpaqueSortValue(Int.random(in: 0..<4, using: &rng)))
        default: return .string(["x", "y", "Item 7", "é"].randomElement(using: &rng)!)
        }
    case .fewValues:
        return .int(Int64.random(in: 0..<3, using: &rng))
    }
}

@Suite("ResultsIndex load order")
struct ResultsIndexLoadOrderTests {
    /// A load orders its rows as a full sort of their keys does, whatever the first key's
    /// values: section, sort keys in their directions, identifier.
    @Test(arguments: testSeeds(count: 40))
    func loadMatchesAFullSort(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let shape = ColumnShape.allCases[Int(seed % UInt64(ColumnShape.allCases.count))]
        let sortKeyCount = Int.random(in: 0...2, using: &rng)
        let ascending = (0..<sortKeyCount).map { _ in Bool.random(using: &rng) }
        let sectionsAscending = Bool.random(using: &rng)
        let sectionCount = [1, 3, 40].randomElement(using: &rng)!
        // Sections of a few hundred rows are radix-sorted, smaller ones by comparisons.
        let rowCount = Int.random(in: 0...1_500, using: &rng)
        // Identifiers in a shuffled order, so the identifier tie-break is exercised.
        let ids = (0..<rowCount).map { $0 * 3 }.shuffled(using: &rng)
        let rows = ids.map { id in
            (id: id, keys: RowKeys(
                section: .int(Int64.random(in: 0..<Int64(sectionCount), using: &rng)),
                sort: (0..<sortKeyCount).map { column in
                    column == 0 ? randomValue(shape, &rng) : .int(Int64.random(in: 0..<2, using: &rng))
                }))
        }
        var index = ResultsIndex<Int>(ascending: ascending, sectionsAscending: sectionsAscending)
        index.load(rows)
        let expected = rows.sorted { a, b in
            if a.keys.section != b.keys.section { return (a.keys.section < b.keys.section) == sectionsAscending }
            for column in ascending.indices {
                let va = a.keys.sort[column], vb = b.keys.sort[column]
                if va < vb { return ascending[column] }
                if vb < va { return !ascending[column] }
            }
            return a.id < b.id
        }
        let loaded = index.visibleIDs
        let keysByID = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0.keys) })
        let mismatch = loaded.indices.first { $0 >= expected.count || loaded[$0] != expected[$0].id }
        let difference = mismatch.map { "at \($0): \(keysByID[loaded[$0]]!) where \(expected[$0].keys) was expected" }
        #expect(mismatch == nil && loaded.count == rowCount, "shape \(shape), ascending \(ascending): \(difference ?? "rows missing")")
        #expect(index.visibleSections.map(\.count).reduce(0, +) == rowCount)
    }

    /// After a load, slot `i` holds the `i`-th row in order (a search's neighbouring rows
    /// have neighbouring keys), and every row is found by its identifier in its slot.
    @Test(arguments: testSeeds(count: 6))
    func loadNumbersSlotsInOrder(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let ids = (0..<Int.random(in: 1...2_000, using: &rng)).map { $0 * 7 }.shuffled(using: &rng)
        var index = ResultsIndex<Int>(ascending: [Bool.random(using: &rng)], sectionsAscending: true)
        index.load(ids.map { id in
            (id: id, keys: RowKeys(section: .int(Int64.random(in: 0..<4, using: &rng)),
                                   sort: [.string("Item \(UInt32.random(in: 0..<UInt32.max, using: &rng))")]))
        })
        var slots: [Int32] = []
        index.tree.forEach(in: 0..<index.totalCount) { slots.append($0) }
        #expect(slots == Array(0..<Int32(ids.count)), "seed \(seed)")
        let visible = index.visibleIDs
        #expect(visible.indices.allSatisfy { index.slots[visible[$0]] == Int32($0) }, "seed \(seed)")
    }

    /// Moving a column into a load's order moves each value exactly once: the result is the
    /// permuted column, and every object it held is released once, when it is gone.
    @Test(arguments: testSeeds(count: 4))
    func permutingMovesEachValueOnce(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let alive = LiveCount()
        do {
            let count = Int.random(in: 0...500, using: &rng)
            let order = (0..<Int32(count)).shuffled(using: &rng)
            var values: [Counted?] = (0..<count).map { Counted($0, alive) }
            let permuted = ResultsIndex<Int>.permuted(&values, by: order, leaving: nil)
            #expect(values.isEmpty)
            #expect(permuted.map { $0!.value } == order.map { Int($0) }, "seed \(seed)")
            #expect(alive.count == count, "seed \(seed)")
        }
        #expect(alive.count == 0, "seed \(seed): a value leaked or was released twice")
    }
}

/// The number of live ``Counted`` instances of one test.
private final class LiveCount {
    var count = 0
}

/// Counts its live instances, so a test sees each released exactly once.
private final class Counted {
    let value: Int
    let alive: LiveCount

    init(_ value: Int, _ alive: LiveCount) {
        self.value = value
        self.alive = alive
        alive.count += 1
    }

    deinit { alive.count -= 1 }
}
