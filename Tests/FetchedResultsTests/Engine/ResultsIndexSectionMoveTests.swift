import FetchedResultsTesting
import Foundation
@testable import FetchedResults
import Testing
import TestSupport

@Suite("ResultsIndex section moves")
struct ResultsIndexSectionMoveTests {
    /// Rows sorted from scratch: section, then the one sort key, then identifier.
    private func sortedRows(_ rows: [Int: RowKeys], sectionsAscending: Bool) -> [(section: SortValue, ids: [Int])] {
        let ids = rows.keys.sorted { a, b in
            let ka = rows[a]!, kb = rows[b]!
            if ka.section != kb.section { return (ka.section < kb.section) == sectionsAscending }
            if ka.sort[0] != kb.sort[0] { return ka.sort[0] < kb.sort[0] }
            return a < b
        }
        var result: [(section: SortValue, ids: [Int])] = []
        for id in ids {
            if result.last?.section == rows[id]!.section {
                result[result.count - 1].ids.append(id)
            } else {
                result.append((rows[id]!.section, [id]))
            }
        }
        return result
    }

    private func rendered(_ rows: [(section: SortValue, ids: [Int])]) -> [ListSimulator<SortValue, Int, String>.Section] {
        rows.map { .init(id: $0.section, rows: $0.ids.map { .init(id: $0, content: "") }) }
    }

    /// Renaming whole sections (sometimes with another change, which takes the row-by-row
    /// path) gives the rows of a fresh sort, the same changes as the row-by-row path, and a
    /// batch that reproduces the new list.
    @Test(arguments: testSeeds(count: 8))
    func renamedSectionsMoveAsBlocks(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let sectionsAscending = Bool.random(using: &rng)
        var rows: [Int: RowKeys] = [:]
        var nextName = 0
        for id in 0..<Int.random(in: 1...900, using: &rng) {
            rows[id] = RowKeys(section: .int(Int64.random(in: 0..<12, using: &rng)), sort: [.int(Int64.random(in: 0..<50, using: &rng))])
        }
        var blocks = ResultsIndex<Int>(ascending: [true], sectionsAscending: sectionsAscending)
        var rowByRow = ResultsIndex<Int>(ascending: [true], sectionsAscending: sectionsAscending)
        blocks.load(rows.map { ($0.key, $0.value) })
        rowByRow.load(rows.map { ($0.key, $0.value) })

        for _ in 0..<30 {
            let before = sortedRows(rows, sectionsAscending: sectionsAscending)
            var changes: [ResultsIndex<Int>.Change] = []
            let renamed = before.shuffled(using: &rng).prefix(Int.random(in: 1...3, using: &rng))
            for section in renamed {
                // Fresh values land anywhere among the old ones: before, between or after.
                nextName += 1
                let value: SortValue = Bool.random(using: &rng) ? .string("s\(nextName)") : .double(Double.random(in: -1...13, using: &rng))
                for id in section.ids {
                    rows[id]!.section = value
                    changes.append(.init(id: id, keys: rows[id]!, reportsUpdate: Bool.random(using: &rng)))
                }
            }
            changes.shuffle(using: &rng)
            let mixed = Int.random(in: 0..<4, using: &rng) == 0
            if mixed, let id = rows.keys.filter({ id in !changes.contains { $0.id == id } }).randomElement(using: &rng) {
                rows[id]!.sort[0] = .int(Int64.random(in: 0..<50, using: &rng))
                changes.append(.init(id: id, keys: rows[id]!, reportsUpdate: true))
            }
            let after = sortedRows(rows, sectionsAscending: sectionsAscending)
            let expected = rowByRow.apply(changes, movingWholeSections: false)
            if mixed {
                let diff = blocks.apply(changes)
                #expect(diff.changes == expected.changes)
            } else {
                let moves = blocks.applySectionMoves(changes)
                let diff = try #require(moves, "a pure rename did not move blocks")
                #expect(diff.changes == expected.changes)
                #expect(diff.deletedSections.map(\.index) == expected.deletedSections.map(\.index))
                #expect(diff.insertedSections.map(\.index) == expected.insertedSections.map(\.index))
                expectReproduces(diff.changes, from: rendered(before), to: rendered(after), "\(diff.changes)")
                let moved = diff.allRows.compactMap { row -> Int? in
                    if case .move(let id, _, _, let changed) = row {
                        #expect(changed == changes.first { $0.id == id }!.reportsUpdate)
                        return id
                    }
                    return nil
                }
                #expect(moved.sorted() == changes.map(\.id).sorted())
            }
            #expect(blocks.visibleRows.map(\.ids) == after.map(\.ids))
            #expect(blocks.visibleSections.map(\.value) == after.map(\.section))
            #expect(rowByRow.visibleRows.map(\.ids) == after.map(\.ids))
            for id in rows.keys.shuffled(using: &rng).prefix(5) {
                #expect(blocks.indexPath(of: id) == rowByRow.indexPath(of: id))
            }
        }
    }

    /// Commits of other shapes are left to the row-by-row path, untouched.
    @Test func otherShapesAreDeclined() {
        var index = ResultsIndex<Int>(ascending: [true])
        index.load((0..<6).map { ($0, RowKeys(section: .string($0 < 3 ? "A" : "B"), sort: [.int(Int64($0))])) })
        // Only part of a section.
        #expect(index.applySectionMoves([.init(id: 0, keys: RowKeys(section: .string("C"), sort: [.int(0)]), reportsUpdate: true)]) == nil)
        // Into a section that exists.
        let intoB = (0..<3).map { ResultsIndex<Int>.Change(id: $0, keys: RowKeys(section: .string("B"), sort: [.int(Int64($0))]), reportsUpdate: true) }
        #expect(index.applySectionMoves(intoB) == nil)
        // A sort key changes too.
        let resorted = (0..<3).map { ResultsIndex<Int>.Change(id: $0, keys: RowKeys(section: .string("C"), sort: [.int(Int64(10 - $0))]), reportsUpdate: true) }
        #expect(index.applySectionMoves(resorted) == nil)
        // Within a window.
        var windowed = ResultsIndex<Int>(ascending: [true], limit: 4)
        windowed.load((0..<6).map { ($0, RowKeys(section: .string($0 < 3 ? "A" : "B"), sort: [.int(Int64($0))])) })
        let renamed = (0..<3).map { ResultsIndex<Int>.Change(id: $0, keys: RowKeys(section: .string("C"), sort: [.int(Int64($0))]), reportsUpdate: true) }
        #expect(windowed.applySectionMoves(renamed) == nil)
        #expect(index.visibleRows.map(\.ids) == [[0, 1, 2], [3, 4, 5]])
        // The whole section renamed past the other one.
        let diff = index.apply(renamed)
        #expect(diff.changes == ListChanges(deletedSections: [0], insertedSections: [1]))
        #expect(index.visibleRows.map(\.ids) == [[3, 4, 5], [0, 1, 2]])
    }
}
