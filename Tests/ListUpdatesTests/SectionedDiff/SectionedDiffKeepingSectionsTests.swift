import FetchedResultsTesting
import Foundation
import ListUpdates
import Testing
import TestSupport

private func rows(_ ids: [Int], changed: Set<Int> = []) -> [TestRow] {
    ids.map { TestRow(id: $0, content: changed.contains($0) ? 1 : 0) }
}

/// What replaying stages with their data recreated: sections and rows that are in both states
/// (once on each side) but were deleted and inserted again.
private struct Recreated {
    var sections = 0
    var rows = 0
}

/// Applies each stage to a strict simulator whose data source shows that stage's data, as an
/// adapter does, checking every stage against the batch rules and the end state against
/// `new`; records an issue naming `context` (the seed) on any failure.
///
/// - Returns: The sections and rows the stages recreated.
@discardableResult
private func replay(
    _ stages: [ListStage<[TestSection]>], from old: [TestSection], to new: [TestSection], _ context: String,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Recreated {
    func once<ID: Hashable>(_ ids: [ID]) -> Set<ID> {
        Set(Dictionary(grouping: ids, by: { $0 }).filter { $0.value.count == 1 }.keys)
    }
    let keptSections = once(old.map(\.id)).intersection(once(new.map(\.id)))
    let keptRows = once(old.flatMap(\.rows).map(\.id)).intersection(once(new.flatMap(\.rows).map(\.id)))
    var current = old
    let simulator = TestSimulator(strict: true) { current.simulated }
    var recreated = Recreated()
    for (index, stage) in stages.enumerated() {
        let where_ = "\(context), stage \(index + 1) of \(stages.count): \(stages.map(\.changes))"
        #expect(!stage.changes.isEmpty, "\(where_)", sourceLocation: sourceLocation)
        do {
            try stage.changes.validate(
                beforeRowCounts: simulator.displayedRowCounts, afterRowCounts: stage.data.map(\.rows.count), strict: true)
        } catch {
            Issue.record("\(where_): \(error)", sourceLocation: sourceLocation)
            return recreated
        }
        for section in stage.changes.deletedSections where keptSections.contains(current[section].id) {
            recreated.sections += 1
            recreated.rows += current[section].rows.count { keptRows.contains($0.id) }
        }
        recreated.rows += Set(stage.changes.deletedRows.map { current[$0.section].rows[$0.row].id }).intersection(keptRows).count
        current = stage.data
        simulator.performBatch(stages: [stage.changes])
        if let failure = simulator.failures.first {
            Issue.record("\(where_): \(failure)", sourceLocation: sourceLocation)
            return recreated
        }
    }
    #expect(stages.last.map { $0.data == new } ?? (old == new), "\(context): the last stage's data is not the new state", sourceLocation: sourceLocation)
    let difference = TestSimulator.difference(between: simulator.sections, and: new.simulated)
    #expect(difference.isEmpty, "\(context): \(difference)", sourceLocation: sourceLocation)
    return recreated
}

/// The sections the final-state stages delete and insert again.
private func recreatedByFinalStateStages(_ stages: [ListChanges], from old: [TestSection], to new: [TestSection]) -> Set<Int> {
    guard let first = stages.first else { return [] }
    return Set(first.deletedSections.map { old[$0].id }).intersection(first.insertedSections.map { new[$0].id })
}

@Suite("Sectioned diff, stages with data")
struct SectionedDiffKeepingSectionsTests {
    /// Two sections swap places and both change their row counts: the final-state form must
    /// recreate one of them; with stage data it moves first and its rows change next.
    @Test func aMovedSectionWhoseCountChangesIsKept() throws {
        let old = [TestSection(id: 1, rows: rows([1, 2])), TestSection(id: 2, rows: rows([3]))]
        let new = [TestSection(id: 2, rows: rows([4, 3], changed: [3])), TestSection(id: 1, rows: rows([1]))]
        let finalState = try ListChanges.stagedDifference(from: old, to: new, rows: \.rows)
        #expect(recreatedByFinalStateStages(finalState, from: old, to: new).count == 1)

        let stages = try ListChanges.stagedDifferenceKeepingSections(from: old, to: new, rows: \.rows)
        let recreated = replay(stages, from: old, to: new, "hand case")
        #expect(recreated.sections == 0 && recreated.rows == 0)
        try #require(stages.count == 3)
        let first = stages[0].changes
        #expect(first.movedSections.count == 1 && first.deletedSections.isEmpty && first.insertedSections.isEmpty)
        #expect(first.deletedRows.isEmpty && first.insertedRows.isEmpty && first.movedRows.isEmpty)
        // After the move, each section still shows its old rows.
        #expect(stages[0].data == [old[1], old[0]])
        // Row 3 shifts in stage 2 and changed: its refresh follows, and stage 2's data still
        // shows its old content.
        #expect(stages[1].data == [TestSection(id: 2, rows: rows([4, 3])), TestSection(id: 1, rows: rows([1]))])
        #expect(stages[2].changes == ListChanges(reconfiguredRows: [IndexPath(row: 1, section: 0)]))
    }

    /// A row that moves into an inserted section keeps its identity: the section arrives with
    /// its new rows, and the row moves in once the sections are in place.
    @Test func aRowMovingIntoAnInsertedSectionIsMoved() throws {
        let old = [TestSection(id: 1, rows: rows([1, 2])), TestSection(id: 2, rows: rows([3]))]
        let new = [
            TestSection(id: 2, rows: rows([3, 5])), TestSection(id: 9, rows: rows([8, 2])), TestSection(id: 1, rows: rows([1])),
        ]
        let stages = try ListChanges.stagedDifferenceKeepingSections(from: old, to: new, rows: \.rows)
        let recreated = replay(stages, from: old, to: new, "hand case")
        #expect(recreated.sections == 0 && recreated.rows == 0)
        #expect(stages.first?.data.map(\.id) == [2, 9, 1])
        #expect(stages.first?.data[1].rows == rows([8]))
        #expect(stages.last?.changes.movedRows == [.init(from: IndexPath(row: 1, section: 2), to: IndexPath(row: 1, section: 1))])
    }

    /// When no moved section changes inside, the stages are the final-state ones, and a
    /// refresh stage's predecessor shows the refreshed rows' old content.
    @Test func withoutChangedMovedSectionsTheStagesAreTheFinalStateOnes() throws {
        let old = rows([1, 2, 3, 4])
        let new = rows([4, 1, 2, 3], changed: [4])
        let stages = try ListChanges.stagedDifferenceKeepingSections(from: old, to: new)
        #expect(stages.map(\.changes) == (try ListChanges.stagedDifference(from: old, to: new)))
        #expect(stages.count == 2)
        #expect(stages[0].data == rows([4, 1, 2, 3]))
        #expect(stages[1].data == new)
        #expect(try ListChanges.stagedDifferenceKeepingSections(from: old, to: old).isEmpty)
        let sections = [TestSection(id: 1, rows: old)]
        replay(
            try ListChanges.stagedDifferenceKeepingSections(from: sections, to: [TestSection(id: 1, rows: new)], rows: \.rows),
            from: sections, to: [TestSection(id: 1, rows: new)], "flat case")
    }

    /// Thousands of random sectioned cases of every kind of change: every stage passes the
    /// strict rules with its own data, the end state is the new one, and no section that is
    /// in both states is recreated. Prints the recreated rows, and the same counts for the
    /// final-state stages.
    @Test func randomCasesKeepEverySection() throws {
        var recreated = Recreated()
        var finalStateRecreated = Recreated()
        var stageCounts = [Int](repeating: 0, count: 5)
        for seed in testSeeds(count: 3_000) {
            var generator = SectionedDataGenerator(seed: seed)
            let old = generator.list()
            let new = generator.change(old)
            let stages = try ListChanges.stagedDifferenceKeepingSections(from: old, to: new, rows: \.rows)
            let result = replay(stages, from: old, to: new, "seed \(seed)")
            recreated.sections += result.sections
            recreated.rows += result.rows
            stageCounts[min(stages.count, 4)] += 1
            #expect(stages.count <= 3, "seed \(seed): \(stages.map(\.changes))")

            let finalState = try ListChanges.stagedDifference(from: old, to: new, rows: \.rows)
            finalStateRecreated.sections += recreatedByFinalStateStages(finalState, from: old, to: new).count
            let finalStateKeepsEverything =
                recreatedByFinalStateStages(finalState, from: old, to: new).isEmpty
                && finalState.dropFirst().allSatisfy { $0.deletedRows.isEmpty && $0.insertedRows.isEmpty && $0.movedRows.isEmpty }
            if finalStateKeepsEverything {
                // No moved section gains, loses or reorders rows: the same stages as the
                // final-state form, so never more of them.
                #expect(stages.map(\.changes) == finalState, "seed \(seed)")
            }
        }
        print("stages with data over 3,000 cases: recreated \(recreated.sections) sections, \(recreated.rows) rows; stage counts \(stageCounts); final-state stages recreated \(finalStateRecreated.sections) sections")
        #expect(recreated.sections == 0)
    }

    /// Sections shuffled with row changes inside that keep or alter their counts, at every
    /// size from 0 to 50 rows: no section is recreated, and no row either (rows only move
    /// between sections that are on both sides).
    @Test("Moved sections with inner changes keep their identity, with data", arguments: 0...50)
    func movedSectionsWithInnerChanges(rowCount: Int) throws {
        for seed in testSeeds(count: 20) {
            var rng = SeededGenerator(seed: seed &+ UInt64(rowCount))
            var nextID = 1_000
            let sectionCount = Int.random(in: 1...5, using: &rng)
            var old = (0..<sectionCount).map { TestSection(id: $0, rows: []) }
            for id in 0..<rowCount { old[Int.random(in: old.indices, using: &rng)].rows.append(TestRow(id: id, content: 0)) }
            var new = old.shuffled(using: &rng)
            for index in new.indices {
                if !new[index].rows.isEmpty, Bool.random(using: &rng) {
                    new[index].rows.remove(at: Int.random(in: new[index].rows.indices, using: &rng))
                }
                if Bool.random(using: &rng) {
                    new[index].rows.insert(TestRow(id: nextID, content: 0), at: Int.random(in: 0...new[index].rows.count, using: &rng))
                    nextID += 1
                }
                if !new[index].rows.isEmpty, Bool.random(using: &rng) {
                    new[index].rows[Int.random(in: new[index].rows.indices, using: &rng)].content += 1
                }
            }
            if new.count > 1, let row = new[0].rows.popLast() { new[new.count - 1].rows.insert(row, at: 0) }
            let stages = try ListChanges.stagedDifferenceKeepingSections(from: old, to: new, rows: \.rows)
            let recreated = replay(stages, from: old, to: new, "seed \(seed), \(rowCount) rows")
            #expect(recreated.sections == 0 && recreated.rows == 0, "seed \(seed), \(rowCount) rows: \(stages.map(\.changes))")
            #expect(stages.count <= 3)
        }
    }

    /// Random lists with repeated section and row identifiers: every stage is valid with its
    /// data, and a section whose identifier occurs once on each side is never recreated.
    @Test func randomDuplicatesKeepTheSectionsTheyCan() {
        var recreated = Recreated()
        for seed in testSeeds(count: 2_000) {
            var rng = SeededGenerator(seed: seed)
            let sectionIDs = Int.random(in: 2...6, using: &rng)
            func list() -> [TestSection] {
                (0..<Int.random(in: 0...5, using: &rng)).map { _ in
                    TestSection(
                        id: Int.random(in: 0..<sectionIDs, using: &rng),
                        rows: (0..<Int.random(in: 0...8, using: &rng)).map { _ in
                            TestRow(id: Int.random(in: 0..<10, using: &rng), content: Int.random(in: 0..<2, using: &rng))
                        })
                }
            }
            let old = list()
            let new = list()
            let stages = ListChanges.stagedDifferenceKeepingSections(
                from: old, to: new, rows: \.rows, duplicates: .firstOccurrenceIsIdentity)
            let result = replay(stages, from: old, to: new, "seed \(seed)")
            recreated.sections += result.sections
            recreated.rows += result.rows
            #expect(stages.count <= 3, "seed \(seed): \(stages.map(\.changes))")
        }
        print("stages with data over 2,000 cases with duplicates: recreated \(recreated.sections) sections, \(recreated.rows) rows")
        #expect(recreated.sections == 0)
    }

    /// Random cases where headers change too: every section whose header changed is reloaded
    /// in some stage, none is recreated, and the stages replay on the strict simulator.
    @Test func randomHeaderChangesAreReloadedAndSectionsKept() throws {
        for seed in testSeeds(count: 500) {
            var generator = SectionedDataGenerator(seed: seed)
            let plainOld = generator.list()
            let plainNew = generator.change(plainOld)
            let old = plainOld.map { HeadedSection(id: $0.id, title: 0, rows: $0.rows) }
            let new = plainNew.map { HeadedSection(id: $0.id, title: Int.random(in: 0..<3, using: &generator.rng) == 0 ? 1 : 0, rows: $0.rows) }
            let changedTitles = Set(new.filter { section in section.title == 1 && old.contains { $0.id == section.id } }.map(\.id))

            let stages = try ListChanges.stagedDifferenceKeepingSections(from: old, to: new, rows: \.rows, header: \.title)
            var before = old
            var reloaded = Set<Int>()
            for stage in stages {
                reloaded.formUnion(stage.changes.reloadedSections.map { before[$0].id })
                before = stage.data
            }
            #expect(changedTitles.isSubset(of: reloaded), "seed \(seed): \(stages.map(\.changes))")
            let plainStages = stages.map { stage in
                ListStage(changes: stage.changes, data: stage.data.map { TestSection(id: $0.id, rows: $0.rows) })
            }
            let recreated = replay(plainStages, from: plainOld, to: plainNew, "seed \(seed)")
            #expect(recreated.sections == 0, "seed \(seed)")
            #expect(stages.count <= 3, "seed \(seed)")
        }
    }
}

/// A section with a header title, for the stages that reload changed headers.
private struct HeadedSection: Identifiable, Equatable {
    var id: Int
    var title: Int
    var rows: [TestRow]
}
