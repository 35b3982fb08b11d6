import FetchedResultsTesting
import Foundation
@testable import ListUpdates
import Testing
import TestSupport

@Suite("Sectioned diff, large shapes")
struct SectionedDiffLargeTests {
    /// Positions of 16,385 sections and a section of 32,769 rows do not fit the identifier
    /// table's packed codes, so the diff names rows by flat positions: check that path too.
    @Test func manySectionsAndALongSectionUseFlatCodes() throws {
        var shape = SectionedDiff(oldSectionCount: 16_385, newSectionCount: 16_385)
        shape.setRowCounts(old: [32_769] + Array(repeating: 0, count: 16_384), new: Array(repeating: 1, count: 16_385))
        #expect(shape.codeRowBits == -1)
        var packed = SectionedDiff(oldSectionCount: 100, newSectionCount: 100)
        packed.setRowCounts(old: Array(repeating: 1_000, count: 100), new: Array(repeating: 1_000, count: 100))
        #expect(packed.codeRowBits == 10)

        var rng = SeededGenerator(seed: 7)
        var nextID = 0
        func rows(_ count: Int) -> [TestRow] {
            (0..<count).map { _ in
                nextID += 1
                return TestRow(id: nextID, content: 0)
            }
        }
        var old = [TestSection(id: 0, rows: rows(32_769))]
        for id in 1...16_384 { old.append(TestSection(id: id, rows: id % 1_000 == 0 ? rows(3) : [])) }
        var new = old
        // Move rows out of the long section into far sections, update some, delete and insert.
        for _ in 0..<50 {
            var row = new[0].rows.remove(at: Int.random(in: new[0].rows.indices, using: &rng))
            if Bool.random(using: &rng) { row.content += 1 }
            let section = Int.random(in: 1..<new.count, using: &rng)
            new[section].rows.insert(row, at: Int.random(in: 0...new[section].rows.count, using: &rng))
        }
        for _ in 0..<50 { new[0].rows.remove(at: Int.random(in: new[0].rows.indices, using: &rng)) }
        new[0].rows.insert(contentsOf: rows(20), at: 1_000)
        for index in stride(from: 0, to: new[0].rows.count, by: 997) { new[0].rows[index].content += 1 }
        new.swapAt(3_000, 12_000)

        let stages = try ListChanges.stagedDifference(from: old, to: new, rows: \.rows)
        expectApplying(stages: stages, from: old.simulated, yields: new.simulated)
        #expect(stages.count == 2)

        let duplicated = new[0].rows[5]
        new[16_000].rows.append(duplicated)
        #expect(
            throws: ListDiffError.duplicateRowIdentifier(
                identifier: "\(duplicated.id)", side: .new, first: IndexPath(row: 5, section: 0),
                second: IndexPath(row: new[16_000].rows.count - 1, section: 16_000))
        ) {
            try ListChanges.difference(from: old, to: new, rows: \.rows)
        }
    }
}
