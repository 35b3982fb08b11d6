import FetchedResultsTesting
import Foundation
@testable import FetchedResults
import Testing
import TestSupport

/// The reference: every row's keys in a dictionary, sorted from scratch on demand.
private struct ReferenceRows {
    var rows: [Int: RowKeys] = [:]
    var ascending: [Bool]
    var offset: Int
    var limit: Int?

    func sorted() -> [Int] {
        rows.keys.sorted { a, b in
            let ka = rows[a]!, kb = rows[b]!
            if ka.section != kb.section { return ka.section < kb.section }
            for column in ascending.indices where ka.sort[column] != kb.sort[column] {
                return (ka.sort[column] < kb.sort[column]) == ascending[column]
            }
            return a < b
        }
    }

    func visible() -> [(section: SortValue, ids: [Int])] {
        let all = sorted()
        let window = ResultsIndex<Int>.window(count: all.count, offset: offset, limit: limit)
        var result: [(section: SortValue, ids: [Int])] = []
        for id in all[window] {
            let section = rows[id]!.section
            if result.last?.section == section {
                result[result.count - 1].ids.append(id)
            } else {
                result.append((section, [id]))
            }
        }
        return result
    }
}

private func randomKeys(_ rng: inout SeededGenerator) -> RowKeys {
    let letters = ["a", "B", "c", "d", "E"]
    return RowKeys(
        section: Bool.random(using: &rng) ? .int(Int64.random(in: 0..<5, using: &rng)) : .string(letters.randomElement(using: &rng)!),
        sort: [.string(letters.randomElement(using: &rng)!), .int(Int64.random(in: 0..<8, using: &rng))]
    )
}

@Suite("ResultsIndex")
struct ResultsIndexTests {
    @Test(arguments: testSeeds(count: 12))
    func commitsMatchAFreshSortAndReplay(seed: UInt64) throws {
        var version: [Int: Int] = [:]
        func rendered(_ rows: [(section: SortValue, ids: [Int])]) -> [ListSimulator<SortValue, Int, String>.Section] {
            rows.map { .init(id: $0.section, rows: $0.ids.map { .init(id: $0, content: "v\(version[$0, default: 0])") }) }
        }
        var rng = SeededGenerator(seed: seed)
        let ascending = [Bool.random(using: &rng), Bool.random(using: &rng)]
        let windows: [(Int, Int?)] = [(0, nil), (0, 25), (7, nil), (5, 30), (0, 0), (40, 10)]
        let (offset, limit) = windows[Int(seed % UInt64(windows.count))]
        var reference = ReferenceRows(ascending: ascending, offset: offset, limit: limit)
        var index = ResultsIndex<Int>(ascending: ascending, offset: offset, limit: limit)
        // Half the seeds sort every commit's rows first; the others correct the ranks after.
        if seed % 2 == 1 { index.rankCorrectionLimit = 0 }
        let idSpace = 160
        for id in 0..<80 { reference.rows[id] = randomKeys(&rng) }
        index.load(reference.rows.map { ($0.key, $0.value) })
        #expect(index.visibleRows.map(\.ids) == reference.visible().map(\.ids))

        for _ in 0..<250 {
            let before = reference.visible()
            let renderedBefore = rendered(before)
            var changes: [ResultsIndex<Int>.Change] = []
            var touched: Set<Int> = []
            for _ in 0..<Int.random(in: 1...6, using: &rng) {
                let id = Int.random(in: 0..<idSpace, using: &rng)
                guard touched.insert(id).inserted else { continue }
                switch (reference.rows[id], Int.random(in: 0..<6, using: &rng)) {
                case (nil, _):
                    let keys = randomKeys(&rng)
                    reference.rows[id] = keys
                    changes.append(.init(id: id, keys: keys, reportsUpdate: false))
                case (.some, 0):
                    reference.rows[id] = nil
                    changes.append(.init(id: id, keys: nil, reportsUpdate: false))
                case (var keys?, let kind):
                    switch kind {
                    case 1: keys.section = randomKeys(&rng).section
                    case 2: keys.sort[0] = randomKeys(&rng).sort[0]
                    case 3: keys.sort[1] = randomKeys(&rng).sort[1]
                    default: break  // a write to a displayed attribute only
                    }
                    reference.rows[id] = keys
                    changes.append(.init(id: id, keys: keys, reportsUpdate: kind != 3 || Bool.random(using: &rng)))
                }
            }
            for change in changes where change.reportsUpdate { version[change.id, default: 0] += 1 }
            let diff = index.apply(changes)
            let after = reference.visible()
            #expect(index.visibleRows.map(\.ids) == after.map(\.ids))
            #expect(index.visibleSections.map(\.value) == after.map(\.section))

            expectReproduces(diff.changes, from: renderedBefore, to: rendered(after), "\(diff.changes)")

            // Unchanged rows never move, and a changed row that stays reports its update.
            let reported = Set(changes.filter(\.reportsUpdate).map(\.id))
            for row in diff.rows {
                switch row {
                case .move(let id, _, _, let changed):
                    #expect(touched.contains(id), "unchanged row \(id) moved")
                    #expect(changed == reported.contains(id))
                case .update(let id, _, _):
                    #expect(reported.contains(id))
                default:
                    break
                }
            }
            let oldPositions = Dictionary(uniqueKeysWithValues: before.enumerated().flatMap { section, rows in
                rows.ids.enumerated().map { ($1, IndexPath(indexes: [section, $0])) }
            })
            let newIDs = Set(after.flatMap(\.ids))
            for id in reported where oldPositions[id] != nil && newIDs.contains(id) {
                let refreshed = diff.rows.contains { row in
                    switch row {
                    case .update(id, _, _): true
                    case .move(id, _, _, true): true
                    default: false
                    }
                }
                #expect(refreshed, "row \(id) changed but was not reported")
            }
        }
    }

    @Test func sortKeyWriteThatKeepsTheOrderIsAnUpdate() {
        var index = ResultsIndex<Int>(ascending: [true])
        index.load((0..<5).map { ($0, RowKeys(section: .null, sort: [.int(Int64($0) * 10)])) })
        let diff = index.apply([.init(id: 2, keys: RowKeys(section: .null, sort: [.int(25)]), reportsUpdate: true)])
        #expect(diff.changes == ListChanges(reloadedRows: [IndexPath(row: 2, section: 0)]))
    }

    @Test func movingIntoANewSectionDeletesAndInserts() {
        var index = ResultsIndex<Int>(ascending: [true])
        index.load((0..<4).map { ($0, RowKeys(section: .string("A"), sort: [.int(Int64($0))])) })
        let diff = index.apply([.init(id: 1, keys: RowKeys(section: .string("B"), sort: [.int(1)]), reportsUpdate: true)])
        #expect(diff.changes == ListChanges(insertedSections: [1], deletedRows: [IndexPath(row: 1, section: 0)]))
        #expect(index.visibleRows.map(\.ids) == [[0, 2, 3], [1]])
    }

    @Test func limitPullsTheNextRowIntoTheWindow() {
        var index = ResultsIndex<Int>(ascending: [true], limit: 3)
        index.load((0..<6).map { ($0, RowKeys(section: .null, sort: [.int(Int64($0))])) })
        let diff = index.apply([.init(id: 0, keys: nil, reportsUpdate: false)])
        #expect(diff.changes == ListChanges(deletedRows: [IndexPath(row: 0, section: 0)], insertedRows: [IndexPath(row: 2, section: 0)]))
        #expect(index.visibleIDs == [1, 2, 3])
    }

    @Test func longestIncreasingSubsequenceIsLongest() {
        let values = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9]
        var subsequence = LongestIncreasingSubsequence()
        subsequence.mark(values)
        let kept = values.indices.filter { subsequence.keep[$0] }.map { values[$0] }
        #expect(kept.count == 6)
        #expect(zip(kept, kept.dropFirst()).allSatisfy { $0 < $1 })
    }
}

@Suite("ResultsIndex.diff")
struct ResultsIndexDiffTests {
    @Test(arguments: testSeeds(count: 20))
    func diffBetweenTwoListsReproducesTheNewList(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        func randomList() -> [(section: SortValue, ids: [Int])] {
            let ids = (0..<40).filter { _ in Int.random(in: 0..<4, using: &rng) > 0 }.shuffled(using: &rng)
            var sections: [SortValue: [Int]] = [:]
            for id in ids { sections[.int(Int64.random(in: 0..<5, using: &rng)), default: []].append(id) }
            let order = sections.keys.sorted().shuffled(using: &rng)
            return order.map { ($0, sections[$0]!) }
        }
        let old = randomList()
        let new = randomList()
        func rendered(_ rows: [(section: SortValue, ids: [Int])]) -> [ListSimulator<SortValue, Int, String>.Section] {
            rows.map { .init(id: $0.section, rows: $0.ids.map { .init(id: $0, content: "") }) }
        }
        let diff = ResultsIndex<Int>.diff(from: old, to: new)
        expectReproduces(diff.changes, from: rendered(old), to: rendered(new), "\(diff.changes)")
        #expect(diff.changes.reloadedRows.isEmpty && diff.changes.reconfiguredRows.isEmpty)
    }
}

/// Ranks found one operation at a time, against the ranks of the whole run.
@Suite("ResultsIndex rank correction")
struct ResultsIndexRankCorrectionTests {
    /// Removals in any order: each finds its rank among the rows left; corrected, the ranks
    /// are those before the first removal.
    @Test(arguments: testSeeds(count: 8))
    func removalsGetTheirRanksBefore(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let rows = Array(0..<Int.random(in: 1...300, using: &rng))
        let removed = Array(rows.shuffled(using: &rng).prefix(Int.random(in: 1...rows.count, using: &rng)))
        var remaining = rows
        var ranks: [Int] = []
        for row in removed {
            let rank = remaining.firstIndex(of: row)!
            ranks.append(rank)
            remaining.remove(at: rank)
        }
        ResultsIndex<Int>.ranksAmongAll(&ranks, from: ranks.indices)
        #expect(ranks == removed, "seed \(seed)")
    }

    /// Insertions in any order: each finds its rank among the rows there so far; corrected
    /// (visited in reverse), the ranks are those after the last insertion.
    @Test(arguments: testSeeds(count: 8))
    func insertionsGetTheirRanksAfter(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let final = Array(0..<Int.random(in: 1...300, using: &rng))
        let inserted = Array(final.shuffled(using: &rng).prefix(Int.random(in: 1...final.count, using: &rng)))
        var present = final.filter { !inserted.contains($0) }
        var ranks: [Int] = []
        for row in inserted {
            let rank = present.firstIndex { $0 > row } ?? present.count
            ranks.append(rank)
            present.insert(row, at: rank)
        }
        ResultsIndex<Int>.ranksAmongAll(&ranks, from: ranks.indices.reversed())
        #expect(ranks == inserted, "seed \(seed)")
    }
}
