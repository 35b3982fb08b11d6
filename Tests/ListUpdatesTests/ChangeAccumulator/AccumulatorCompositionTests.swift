import Foundation
import Testing
import TestSupport

@testable import ListUpdates

@Suite("ChangeAccumulator composition")
struct CompositionTests {
    /// The generator's batches are right by the reference model, so the composition tests
    /// below rest on solid input.
    @Test(arguments: testSeeds(count: 20))
    func generatedBatchesApply(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        var batches = RandomBatches()
        var state = batches.state(sections: 4, maxRows: 8, using: &rng)
        for _ in 0..<60 {
            let (next, changes) = batches.step(from: state, using: &rng)
            let applied = try referenceApply(changes, to: state, data: next)
            #expect(applied == next, "\(changes)")
            state = next
        }
    }

    /// Composing random batches between random flush points and applying the composed batch
    /// gives exactly what applying the batches one by one gives.
    @Test(arguments: testSeeds(count: 60))
    func composedBatchEqualsBatchesInTurn(seed: UInt64) throws {
        try checkComposition(seed: seed, maxRows: 12, rowChanges: 6)
    }

    /// The same with long sections and large batches, so that runs split deep in big trees.
    @Test(arguments: testSeeds(count: 10))
    func composedBatchEqualsBatchesInTurnOnLongSections(seed: UInt64) throws {
        try checkComposition(seed: seed, maxRows: 300, rowChanges: 40)
    }

    /// The same over few short sections that are often deleted or reloaded while their rows
    /// escape to other sections and come back, with many batches per flush: a changed row
    /// back at its place at the last flush must still be refreshed.
    @Test(arguments: testSeeds(count: 100))
    func composedBatchEqualsBatchesInTurnUnderSectionChurn(seed: UInt64) throws {
        var batches = RandomBatches()
        batches.rescuePercent = 70
        batches.sectionDeletePercent = 30
        batches.sectionReloadPercent = 30
        try checkComposition(seed: seed, maxRows: 4, rowChanges: 3, sections: 2...3, batches: batches)
    }

    private func checkComposition(
        seed: UInt64, maxRows: Int, rowChanges: Int, sections: ClosedRange<Int> = 0...5,
        batches: RandomBatches = RandomBatches(rescuePercent: 30)
    ) throws {
        var rng = SeededGenerator(seed: seed)
        var batches = batches
        var state = batches.state(sections: Int.random(in: sections, using: &rng), maxRows: maxRows, using: &rng)
        var baseline = state
        var composer = ChangeAccumulator.Composer()
        var steps: [ListChanges] = []
        for step in 0..<80 {
            let (next, changes) = batches.step(from: state, rowChanges: rowChanges, using: &rng)
            composer.compose(changes)
            composer._checkInvariants()
            steps.append(changes)
            state = next
            if step == 79 || Int.random(in: 0..<100, using: &rng) < 20 {
                let composed = composer.result()
                let applied = try referenceApply(composed, to: baseline, data: state)
                #expect(applied == state, "seed \(seed): composed \(composed) from \(steps)")
                try expectMinimal(composed, from: baseline, to: state)
                baseline = state
                composer = ChangeAccumulator.Composer()
                steps = []
            }
        }
    }

    /// The composed batch deletes only the original rows that are gone (plus reloaded rows
    /// that moved, each also an insert), and never deletes a row of a section it keeps.
    func expectMinimal(_ composed: ListChanges, from before: [ReferenceSection], to after: [ReferenceSection]) throws {
        let replaced = Set(composed.deletedSections + composed.reloadedSections)
        let newSections = Set(composed.insertedSections)
        let reloadedIDs = Set(composed.reloadedSections.map { before[$0].id })
        let keptRows = Set(
            after.enumerated().filter { !newSections.contains($0.offset) && !reloadedIDs.contains($0.element.id) }
                .flatMap { $0.element.rows.map(\.id) })
        var gone = 0
        for (index, section) in before.enumerated() where !replaced.contains(index) {
            gone += section.rows.filter { !keptRows.contains($0.id) }.count
        }
        let deletes = composed.deletedRows.filter { !replaced.contains($0.section) }.count
        #expect(deletes >= gone)
        #expect(deletes - gone <= composed.insertedRows.count, "\(composed)\n\(before)\n\(after)")
        #expect(composed.deletedRows.count == deletes, "no row delete inside a deleted or reloaded section")
    }

    @Test func insertThenDeleteIsNothing() {
        var composer = ChangeAccumulator.Composer()
        composer.compose(ListChanges(insertedRows: [IndexPath(row: 2, section: 0)]))
        composer.compose(ListChanges(deletedRows: [IndexPath(row: 2, section: 0)]))
        #expect(composer.result().isEmpty)
    }

    @Test func repeatedUpdatesAreOneReconfigure() {
        var composer = ChangeAccumulator.Composer()
        for _ in 0..<3 { composer.compose(ListChanges(reconfiguredRows: [IndexPath(row: 4, section: 1)])) }
        #expect(composer.result() == ListChanges(reconfiguredRows: [IndexPath(row: 4, section: 1)]))
    }

    @Test func movedThenUpdatedIsReconfiguredMoveSource() {
        var composer = ChangeAccumulator.Composer()
        composer.compose(ListChanges(movedRows: [.init(from: IndexPath(row: 0, section: 0), to: IndexPath(row: 5, section: 0))]))
        composer.compose(ListChanges(reconfiguredRows: [IndexPath(row: 5, section: 0)]))
        #expect(
            composer.result()
                == ListChanges(
                    movedRows: [.init(from: IndexPath(row: 0, section: 0), to: IndexPath(row: 5, section: 0))],
                    reconfiguredRows: [IndexPath(row: 0, section: 0)]))
    }

    @Test func moveAndMoveBackIsNothing() {
        var composer = ChangeAccumulator.Composer()
        composer.compose(ListChanges(movedRows: [.init(from: IndexPath(row: 1, section: 0), to: IndexPath(row: 3, section: 2))]))
        composer.compose(ListChanges(movedRows: [.init(from: IndexPath(row: 3, section: 2), to: IndexPath(row: 1, section: 0))]))
        #expect(composer.result().isEmpty)
    }

    @Test func rowsOfAnInsertedSectionFoldIntoIt() {
        var composer = ChangeAccumulator.Composer()
        composer.compose(ListChanges(insertedSections: [1]))
        composer.compose(ListChanges(insertedRows: [IndexPath(row: 0, section: 1)], movedRows: [
            .init(from: IndexPath(row: 2, section: 0), to: IndexPath(row: 1, section: 1))
        ]))
        #expect(composer.result() == ListChanges(insertedSections: [1], deletedRows: [IndexPath(row: 2, section: 0)]))
    }

    @Test func rowMovedOutOfADeletedSectionIsAnInsert() {
        var composer = ChangeAccumulator.Composer()
        composer.compose(ListChanges(movedRows: [.init(from: IndexPath(row: 2, section: 1), to: IndexPath(row: 0, section: 0))]))
        composer.compose(ListChanges(deletedSections: [1]))
        #expect(composer.result() == ListChanges(deletedSections: [1], insertedRows: [IndexPath(row: 0, section: 0)]))
    }

    @Test func inconsistentInputIsNoted() {
        var composer = ChangeAccumulator.Composer()
        composer.compose(ListChanges(deletedRows: [IndexPath(row: 2, section: 0), IndexPath(row: 2, section: 0)]))
        #expect(composer.inconsistency != nil)
    }

    @Test(arguments: testSeeds(count: 3))
    func treesStayBalanced(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        var composer = ChangeAccumulator.Composer()
        var count = 1_000
        for _ in 0..<4_000 {
            if Bool.random(using: &rng) {
                composer.compose(ListChanges(insertedRows: [IndexPath(row: Int.random(in: 0...count, using: &rng), section: 0)]))
                count += 1
            } else {
                composer.compose(ListChanges(deletedRows: [IndexPath(row: Int.random(in: 0..<count, using: &rng), section: 0)]))
                count -= 1
            }
        }
        var heights: [Int] = []
        composer.sections.forEachNode(in: composer.sectionTree) { node, _ in
            if node.kind == .live { heights.append(composer.rows.height(of: node.payload.rows)) }
        }
        #expect(heights.count == 1)
        // About 8,000 nodes: a balanced treap is a few times log2(8,000) ≈ 13 deep, a chain thousands.
        #expect(heights[0] < 80, "height \(heights[0]) for \(composer.rows.nodeCount) nodes")
    }

    @Test func costDoesNotDependOnRows() {
        // Positions near a million rows cost no more tokens than positions near zero.
        var composer = ChangeAccumulator.Composer()
        for step in 0..<100 {
            composer.compose(ListChanges(insertedRows: [IndexPath(row: 900_000 + step * 7, section: 0)]))
        }
        #expect(composer.rows.nodeCount < 400)
        #expect(composer.result().insertedRows.count == 100)
    }
}
