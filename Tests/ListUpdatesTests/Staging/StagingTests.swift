import FetchedResultsTesting
import Foundation
import ListUpdates
import Testing
import TestSupport

private func path(_ section: Int, _ row: Int) -> IndexPath { IndexPath(row: row, section: section) }
private func move(_ from: IndexPath, _ to: IndexPath) -> ListChanges.RowMove { .init(from: from, to: to) }

@Suite("Staging")
struct StagingTests {
    @Test func emptyChangesHaveNoStages() {
        #expect(ListChanges().staged().isEmpty)
    }

    @Test func aStageStaysOneStage() {
        // Section 0 stays section 0 and its row 0 stays row 0, so its reconfigure is unambiguous.
        let stage = ListChanges(
            deletedSections: [3],
            insertedSections: [3],
            movedSections: [.init(from: 1, to: 2)],
            deletedRows: [path(0, 2)],
            insertedRows: [path(1, 0)],
            movedRows: [move(path(0, 1), path(1, 2))],
            reloadedRows: [path(0, 3)],
            reconfiguredRows: [path(0, 0)]
        )
        #expect(stage.staged() == [stage])
    }

    /// A reconfigure names a row by its position before the batch, but Apple does not say
    /// which index space `reconfigureRows(at:)` reads inside a batch. A row whose position
    /// changes in the structural stage is therefore reconfigured in the refresh stage, where
    /// both readings name the same row.
    @Test func aReconfiguredRowThatShiftsIsRefreshedInALaterStage() {
        // Pushed down by an insert above it.
        #expect(
            ListChanges(insertedRows: [path(0, 0)], reconfiguredRows: [path(0, 1)]).staged() == [
                ListChanges(insertedRows: [path(0, 0)]), ListChanges(reconfiguredRows: [path(0, 2)]),
            ])
        // Pulled up by a delete and a move out above it; the row above them stays.
        #expect(
            ListChanges(
                deletedRows: [path(0, 1)], movedRows: [move(path(0, 2), path(1, 0))],
                reconfiguredRows: [path(0, 0), path(0, 4)]
            ).staged() == [
                ListChanges(deletedRows: [path(0, 1)], movedRows: [move(path(0, 2), path(1, 0))], reconfiguredRows: [path(0, 0)]),
                ListChanges(reconfiguredRows: [path(0, 2)]),
            ])
        // Its section shifts: a section deleted or inserted before it.
        #expect(
            ListChanges(deletedSections: [0], reconfiguredRows: [path(1, 3)]).staged() == [
                ListChanges(deletedSections: [0]), ListChanges(reconfiguredRows: [path(0, 3)]),
            ])
        #expect(
            ListChanges(insertedSections: [0], reconfiguredRows: [path(0, 3)]).staged() == [
                ListChanges(insertedSections: [0]), ListChanges(reconfiguredRows: [path(1, 3)]),
            ])
        // A delete and an insert above it cancel out: it stays put and stays in stage 1.
        let balanced = ListChanges(deletedRows: [path(0, 0)], insertedRows: [path(0, 1)], reconfiguredRows: [path(0, 2)])
        #expect(balanced.staged() == [balanced])
        // A reload is a delete plus an insert, well defined in any index space: it stays.
        let reload = ListChanges(insertedRows: [path(0, 0)], reloadedRows: [path(0, 1)])
        #expect(reload.staged() == [reload])
        // A shifting reconfigure and a moved changed row share the refresh stage.
        #expect(
            ListChanges(
                insertedRows: [path(0, 0)], movedRows: [move(path(0, 3), path(0, 1))], reconfiguredRows: [path(0, 3), path(0, 0)]
            ).staged() == [
                ListChanges(insertedRows: [path(0, 0)], movedRows: [move(path(0, 3), path(0, 1))]),
                ListChanges(reconfiguredRows: [path(0, 1), path(0, 2)]),
            ])
    }

    @Test func reconfiguredMoveSourceIsRefreshedAtItsDestinationLater() {
        let changes = ListChanges(
            movedRows: [move(path(0, 4), path(0, 0)), move(path(0, 1), path(1, 0))],
            reloadedRows: [path(0, 1)],
            reconfiguredRows: [path(0, 4), path(0, 2)]
        )
        #expect(
            changes.staged() == [
                ListChanges(movedRows: [move(path(0, 4), path(0, 0)), move(path(0, 1), path(1, 0))], reconfiguredRows: [path(0, 2)]),
                ListChanges(reloadedRows: [path(1, 0)], reconfiguredRows: [path(0, 0)]),
            ]
        )
    }

    @Test func rowChangesInsideAMovedSectionRebuildIt() {
        // Section 0 moves to 2 and a row moves out of it to section 1; section 1 gets a row
        // from section 2, which moves to 0 with no row change inside and so stays a move.
        let changes = ListChanges(
            movedSections: [.init(from: 0, to: 2), .init(from: 2, to: 0)],
            insertedRows: [path(2, 0)],
            movedRows: [move(path(0, 1), path(1, 0)), move(path(3, 0), path(2, 3))],
            reconfiguredRows: [path(0, 0)]
        )
        #expect(
            changes.staged() == [
                ListChanges(
                    deletedSections: [0],
                    insertedSections: [2],
                    movedSections: [.init(from: 2, to: 0)],
                    deletedRows: [path(3, 0)],
                    insertedRows: [path(1, 0)]
                )
            ]
        )
    }

    /// A moved section whose row count its row changes leave as it is keeps its move: the
    /// section moves first with its rows untouched, and its rows change in the next stage.
    @Test func movedSectionWithBalancedRowChangesKeepsItsMove() {
        let changes = ListChanges(
            movedSections: [.init(from: 0, to: 1)],
            deletedRows: [path(0, 0)],
            insertedRows: [path(1, 2)],
            movedRows: [move(path(0, 2), path(1, 0))],
            reconfiguredRows: [path(0, 2), path(1, 0)]
        )
        #expect(
            changes.staged() == [
                ListChanges(movedSections: [.init(from: 0, to: 1)]),
                // Row 1.0 before is not in the moved section, but its section shifts to 0: it is
                // refreshed after the first stage, with the row stage.
                ListChanges(
                    deletedRows: [path(1, 0)], insertedRows: [path(1, 2)], movedRows: [move(path(1, 2), path(1, 0))],
                    reconfiguredRows: [path(0, 0)]),
                ListChanges(reconfiguredRows: [path(1, 0)]),
            ])
        // Rows that move between a kept moved section and another: a row leaving the moved
        // section is shown at its destination in the first stage and removed in the second; a
        // row entering it is removed from its source first and shown in the second. (Sections
        // [a] [b] become [a] [b] with the sections swapped: the count of each is unchanged.)
        let across = ListChanges(
            movedSections: [.init(from: 1, to: 0)],
            movedRows: [move(path(1, 0), path(1, 0)), move(path(0, 0), path(0, 0))]
        )
        #expect(
            across.staged() == [
                ListChanges(movedSections: [.init(from: 1, to: 0)], deletedRows: [path(0, 0)], insertedRows: [path(1, 0)]),
                ListChanges(deletedRows: [path(0, 0)], insertedRows: [path(0, 0)]),
            ])
        let old = [TestSection(id: 1, rows: [TestRow(id: 1, content: 0)]), TestSection(id: 2, rows: [TestRow(id: 2, content: 0)])]
        let new = [TestSection(id: 2, rows: [TestRow(id: 1, content: 0)]), TestSection(id: 1, rows: [TestRow(id: 2, content: 0)])]
        expectApplying(stages: across.staged(), from: old.simulated, yields: new.simulated)
    }

    @Test func reloadedSectionThatMovesIsDeletedAndInserted() {
        let changes = ListChanges(movedSections: [.init(from: 1, to: 0)], reloadedSections: [1])
        #expect(changes.staged() == [ListChanges(deletedSections: [1], insertedSections: [0])])
    }

    @Test func rowChangesInsideRebuiltSectionsFoldAway() {
        // Section 1 is deleted, 0 reloaded (it lands at 1 after the insert of section 0).
        let changes = ListChanges(
            deletedSections: [1],
            insertedSections: [0],
            reloadedSections: [0],
            deletedRows: [path(1, 0), path(2, 0)],
            insertedRows: [path(0, 0), path(1, 1), path(2, 1)],
            movedRows: [move(path(1, 2), path(2, 0)), move(path(2, 1), path(0, 1)), move(path(0, 0), path(1, 0))],
            reloadedRows: [path(0, 3)],
            reconfiguredRows: [path(1, 1), path(2, 2)]
        )
        #expect(
            changes.staged() == [
                ListChanges(
                    deletedSections: [1],
                    insertedSections: [0],
                    reloadedSections: [0],
                    deletedRows: [path(2, 0), path(2, 1)],
                    insertedRows: [path(2, 0), path(2, 1)],
                    reconfiguredRows: [path(2, 2)]
                )
            ]
        )
    }

    @Test func duplicatesAndOverlapsAreRemoved() {
        let changes = ListChanges(
            deletedSections: [2, 2],
            reloadedSections: [2, 0, 0],
            deletedRows: [path(1, 0), path(1, 0)],
            insertedRows: [path(1, 1), path(1, 1)],
            movedRows: [move(path(1, 1), path(1, 2)), move(path(1, 1), path(1, 2))],
            reloadedRows: [path(1, 0), path(1, 3), path(1, 3)],
            reconfiguredRows: [path(1, 3), path(1, 0), path(1, 4), path(1, 4)]
        )
        #expect(
            changes.staged() == [
                ListChanges(
                    deletedSections: [2],
                    reloadedSections: [0],
                    deletedRows: [path(1, 0)],
                    insertedRows: [path(1, 1)],
                    movedRows: [move(path(1, 1), path(1, 2))],
                    reloadedRows: [path(1, 3)],
                    reconfiguredRows: [path(1, 4)]
                )
            ]
        )
        let stage = changes.staged()[0]
        #expect(stage.deletedRows.count == 1 && stage.reloadedRows.count == 1 && stage.reconfiguredRows.count == 1)
    }

    @Test func inconsistentChangesTrap() async {
        await #expect(processExitsWith: .failure) {
            // A row both deleted and moved.
            _ = ListChanges(deletedRows: [path(0, 0)], movedRows: [move(path(0, 0), path(0, 1))]).staged()
        }
        await #expect(processExitsWith: .failure) {
            // One section moved to two places.
            _ = ListChanges(movedSections: [.init(from: 0, to: 1), .init(from: 0, to: 2)]).staged()
        }
    }

    /// Adds to the general diff of `old` → `new` every redundant or unstaged form a general set
    /// may take: extra moves of rows that keep their order, moves out of deleted and into
    /// inserted sections, row changes inside rebuilt sections, reloads instead of
    /// reconfigures, section reloads and exact duplicates.
    private func noisy(
        _ changes: ListChanges, from old: [TestSection], to new: [TestSection], using rng: inout SeededGenerator
    ) -> ListChanges {
        func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
        var oldPaths: [Int: IndexPath] = [:]
        var newPaths: [Int: IndexPath] = [:]
        var oldRows: [Int: TestRow] = [:]
        for (s, section) in old.enumerated() {
            for (r, row) in section.rows.enumerated() {
                oldPaths[row.id] = path(s, r)
                oldRows[row.id] = row
            }
        }
        for (s, section) in new.enumerated() { for (r, row) in section.rows.enumerated() { newPaths[row.id] = path(s, r) } }
        let newSectionIDs = Set(new.map(\.id))
        let oldSectionIDs = Set(old.map(\.id))
        let deletedSections = Set(old.indices.filter { !newSectionIDs.contains(old[$0].id) })
        let insertedSections = Set(new.indices.filter { !oldSectionIDs.contains(new[$0].id) })

        var result = changes
        var deletes = Set(result.deletedRows)
        var inserts = Set(result.insertedRows)
        let sources = Set(result.movedRows.map(\.from))
        for (s, section) in new.enumerated() {
            for (r, row) in section.rows.enumerated() {
                let to = path(s, r)
                guard let from = oldPaths[row.id] else {
                    if insertedSections.contains(s) && chance(0.5) { inserts.insert(to) }
                    continue
                }
                let changed = oldRows[row.id] != row
                let fromDeleted = deletedSections.contains(from.section)
                let toInserted = insertedSections.contains(s)
                var addMove = false
                switch (fromDeleted, toInserted) {
                case (true, false):
                    if chance(0.5) {
                        inserts.remove(to)
                        addMove = true
                    }
                case (false, true):
                    if chance(0.5) {
                        deletes.remove(from)
                        addMove = true
                    }
                case (true, true): addMove = chance(0.3)
                case (false, false): addMove = !sources.contains(from) && chance(0.1)
                }
                if addMove {
                    result.movedRows.append(move(from, to))
                    if changed && !result.reconfiguredRows.contains(from) { result.reconfiguredRows.append(from) }
                }
            }
        }
        for (s, section) in old.enumerated() where deletedSections.contains(s) {
            for (r, row) in section.rows.enumerated() where newPaths[row.id] == nil && chance(0.5) {
                deletes.insert(path(s, r))
            }
        }
        result.deletedRows = Array(deletes)
        result.insertedRows = Array(inserts)
        // Reload some reconfigured rows instead, and some surviving sections.
        for (index, row) in result.reconfiguredRows.enumerated().reversed() where chance(0.3) {
            result.reconfiguredRows.remove(at: index)
            result.reloadedRows.append(row)
        }
        for (s, section) in old.enumerated() where newSectionIDs.contains(section.id) && chance(0.15) {
            result.reloadedSections.append(s)
        }
        // Exact duplicates.
        if chance(0.3), let row = result.deletedRows.first { result.deletedRows.append(row) }
        if chance(0.3), let row = result.movedRows.first { result.movedRows.append(row) }
        if chance(0.3), let row = result.reconfiguredRows.first { result.reconfiguredRows.append(row) }
        if chance(0.3), let section = result.movedSections.first { result.movedSections.append(section) }
        return result
    }

    @Test("Staging random general changes reproduces the target", arguments: testSeeds(count: 300))
    func randomGeneralChanges(seed: UInt64) throws {
        var generator = SectionedDataGenerator(seed: seed)
        let old = generator.list()
        let new = generator.change(old)
        let general = noisy(
            try ListChanges.difference(from: old, to: new, rows: \.rows), from: old, to: new, using: &generator.rng)
        let stages = general.staged()
        expectApplying(stages: stages, from: old.simulated, yields: new.simulated, "general: \(general)\nstages: \(stages)")
        expectStageShape(stages)
    }
}
