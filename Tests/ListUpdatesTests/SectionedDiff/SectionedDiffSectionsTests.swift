import FetchedResultsTesting
import Foundation
import ListUpdates
import Testing
import TestSupport

private func rows(_ ids: [Int], changed: Set<Int> = []) -> [TestRow] {
    ids.map { TestRow(id: $0, content: changed.contains($0) ? 1 : 0) }
}

/// The identifiers of the sections that stages delete and insert again: sections that exist
/// in both states but are recreated.
private func recreatedSections(_ stages: [ListChanges], from old: [TestSection], to new: [TestSection]) -> Set<Int> {
    guard let first = stages.first else { return [] }
    return Set(first.deletedSections.map { old[$0].id }).intersection(first.insertedSections.map { new[$0].id })
}

@Suite("Sectioned diff, sections kept")
struct SectionedDiffSectionsTests {
    /// A section with row changes inside stays where it is, and the unchanged sections move
    /// around it, rather than the changed one being deleted and inserted.
    @Test func changedSectionsStayAndOthersMove() throws {
        let old = [TestSection(id: 1, rows: rows([1, 2, 3])), TestSection(id: 2, rows: rows([4])), TestSection(id: 3, rows: rows([5]))]
        let new = [TestSection(id: 2, rows: rows([4])), TestSection(id: 3, rows: rows([5])), TestSection(id: 1, rows: rows([3, 1, 6]))]
        let stages = try ListChanges.stagedDifference(from: old, to: new, rows: \.rows)
        expectApplying(stages: stages, from: old.simulated, yields: new.simulated)
        #expect(recreatedSections(stages, from: old, to: new).isEmpty)
        #expect(stages.first?.movedSections.count == 2)
    }

    /// Two sections that both change swap places: one of them must move, and it keeps its
    /// identity, its rows changing in a stage after the move.
    @Test func aMovedSectionWithRowChangesIsKept() throws {
        let old = [TestSection(id: 1, rows: rows([1, 2])), TestSection(id: 2, rows: rows([3, 4]))]
        let new = [TestSection(id: 2, rows: rows([4, 3], changed: [3])), TestSection(id: 1, rows: rows([2, 7]))]
        let stages = try ListChanges.stagedDifference(from: old, to: new, rows: \.rows)
        expectApplying(stages: stages, from: old.simulated, yields: new.simulated, "stages: \(stages)")
        expectStageShape(stages)
        #expect(recreatedSections(stages, from: old, to: new).isEmpty)
        #expect(stages.first?.movedSections.count == 1)
    }

    /// Sections shuffled, with row changes inside that keep or alter their row counts, at
    /// every size from 0 to 50 rows: every batch is valid on the strict simulator, and a
    /// section is recreated only when it both moves relative to other changed-count sections
    /// and its row count changes.
    @Test("Moved sections with inner changes keep their identity", arguments: 0...50)
    func movedSectionsWithInnerChanges(rowCount: Int) throws {
        for seed in testSeeds(count: 8) {
            var rng = SeededGenerator(seed: seed &+ UInt64(rowCount))
            var nextID = 1_000
            let sectionCount = Int.random(in: 1...5, using: &rng)
            var old = (0..<sectionCount).map { TestSection(id: $0, rows: []) }
            for id in 0..<rowCount { old[Int.random(in: old.indices, using: &rng)].rows.append(TestRow(id: id, content: 0)) }
            var new = old.shuffled(using: &rng)
            for index in new.indices {
                var section = new[index].rows
                let roll = Int.random(in: 0..<4, using: &rng)
                if roll >= 1, !section.isEmpty {
                    // Replace a row: the count stays.
                    section[Int.random(in: section.indices, using: &rng)] = TestRow(id: nextID, content: 0)
                    nextID += 1
                }
                if roll >= 2, !section.isEmpty { section[Int.random(in: section.indices, using: &rng)].content += 1 }
                if roll == 3 { section.shuffle(using: &rng) }
                if Int.random(in: 0..<4, using: &rng) == 0 {
                    // Change the count.
                    section.insert(TestRow(id: nextID, content: 0), at: Int.random(in: 0...section.count, using: &rng))
                    nextID += 1
                }
                new[index].rows = section
            }
            let stages = try ListChanges.stagedDifference(from: old, to: new, rows: \.rows)
            expectApplying(stages: stages, from: old.simulated, yields: new.simulated, "seed \(seed), stages: \(stages)")
            expectStageShape(stages)
            let oldCounts = Dictionary(uniqueKeysWithValues: old.map { ($0.id, $0.rows.count) })
            for id in recreatedSections(stages, from: old, to: new) {
                #expect(
                    oldCounts[id] != new.first { $0.id == id }?.rows.count,
                    "seed \(seed): section \(id) is recreated though its row count is unchanged; stages: \(stages)")
            }
        }
    }
}

/// A section with a title shown in its header.
private struct TitledSection: Identifiable, Equatable {
    var id: Int
    var title: String
    var rows: [TestRow]
}

@Suite("Sectioned diff, section content")
struct SectionedDiffSectionContentTests {
    @Test func aChangedHeaderReloadsItsSection() throws {
        let old = [TitledSection(id: 1, title: "Fruit", rows: rows([1, 2])), TitledSection(id: 2, title: "Veg", rows: rows([3]))]
        var new = old
        new[1].title = "Vegetables"
        new[0].rows.append(TestRow(id: 4, content: 0))
        let changes = try ListChanges.difference(from: old, to: new, rows: \.rows, header: \.title)
        #expect(changes == ListChanges(reloadedSections: [1], insertedRows: [IndexPath(row: 2, section: 0)]))
        let stages = try ListChanges.stagedDifference(from: old, to: new, rows: \.rows, header: \.title)
        #expect(stages == [changes])
        // Without a header, sections are not compared.
        #expect(try ListChanges.difference(from: old, to: new, rows: \.rows) == ListChanges(insertedRows: [IndexPath(row: 2, section: 0)]))
    }

    @Test("Random header changes are reloaded, and the stages reproduce the rows", arguments: testSeeds(count: 100))
    func randomHeaderChanges(seed: UInt64) throws {
        var generator = SectionedDataGenerator(seed: seed)
        let plainOld = generator.list()
        let plainNew = generator.change(plainOld)
        var titles: [Int: Int] = [:]
        let old = plainOld.map { section in
            TitledSection(id: section.id, title: "\(Int.random(in: 0..<3, using: &generator.rng))", rows: section.rows)
        }
        for section in old { titles[section.id] = Int(section.title) }
        let new = plainNew.map { section in
            var title = titles[section.id] ?? 0
            if Int.random(in: 0..<3, using: &generator.rng) == 0 { title += 1 }
            return TitledSection(id: section.id, title: "\(title)", rows: section.rows)
        }
        let changes = try ListChanges.difference(from: old, to: new, rows: \.rows, header: \.title)
        let changedTitles = Set(new.filter { section in old.contains { $0.id == section.id && $0.title != section.title } }.map(\.id))
        #expect(Set(changes.reloadedSections.map { old[$0].id }) == changedTitles)
        let stages = try ListChanges.stagedDifference(from: old, to: new, rows: \.rows, header: \.title)
        expectApplying(stages: stages, from: plainOld.simulated, yields: plainNew.simulated, "stages: \(stages)")
        expectStageShape(stages)
        // Every section whose header changed is redrawn: reloaded, or deleted and inserted.
        let redrawn = Set(stages.flatMap { $0.reloadedSections + $0.deletedSections }.map { old[$0].id })
        #expect(changedTitles.isSubset(of: redrawn))
    }
}

@Suite("Sectioned diff, repeated identifiers")
struct SectionedDiffDuplicateTests {
    @Test func theFirstOccurrenceIsTheIdentity() throws {
        let old = rows([1, 2, 2, 3])
        let new = rows([2, 1, 2, 3, 3])
        #expect(throws: ListDiffError.self) { try ListChanges.stagedDifference(from: old, to: new) }
        let stages = ListChanges.stagedDifference(from: old, to: new, duplicates: .firstOccurrenceIsIdentity)
        expectApplying(stages: stages, from: [TestSection(id: 0, rows: old)].simulated, yields: [TestSection(id: 0, rows: new)].simulated)
        // A list of repeats that keeps its order has no changes.
        #expect(ListChanges.stagedDifference(from: rows([5, 5, 5]), to: rows([5, 5, 5]), duplicates: .firstOccurrenceIsIdentity) == [])
    }

    @Test("Random lists with repeated identifiers diff validly", arguments: testSeeds(count: 200))
    func randomDuplicates(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        func list() -> [TestSection] {
            (0..<Int.random(in: 0...4, using: &rng)).map { _ in
                TestSection(
                    id: Int.random(in: 0..<4, using: &rng),
                    rows: (0..<Int.random(in: 0...8, using: &rng)).map { _ in
                        TestRow(id: Int.random(in: 0..<6, using: &rng), content: Int.random(in: 0..<2, using: &rng))
                    })
            }
        }
        let old = list()
        let new = list()
        let stages = ListChanges.stagedDifference(from: old, to: new, rows: \.rows, duplicates: .firstOccurrenceIsIdentity)
        expectApplying(stages: stages, from: old.simulated, yields: new.simulated, "seed \(seed), stages: \(stages)")
        expectStageShape(stages)
        let general = ListChanges.difference(
            from: old, to: new, sectionID: \.id, rows: \.rows, rowID: \.id, rowContentEqual: ==, duplicates: .firstOccurrenceIsIdentity)
        #expect(general.staged() == stages)
    }
}
