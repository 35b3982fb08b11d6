import FetchedResultsTesting
import Foundation
import Testing
import TestSupport

@Suite("ListSimulator randomized")
struct ListSimulatorRandomTests {
    @Test(arguments: testSeeds(count: 300))
    func validUpdatesReproduceTheNewState(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        for strict in [true, false] {
            let update = RandomUpdate(&rng, strict: strict)
            let table = Table(update.old, strict: strict)
            do {
                try table.apply(stages: update.stages, newState: update.new)
            } catch {
                Issue.record("valid update rejected (strict: \(strict)): \(error)\nold: \(update.old)\nnew: \(update.new)")
                continue
            }
            #expect(table.sections == update.new)
            #expect(table.batchCount == update.stages.count)
            #expect(table.animatedUpdateCount == 1)
            // The validator alone accepts the structural stage, with and without the counts.
            let before = update.old.map(\.rows.count)
            #expect(throws: Never.self) {
                try update.changes.validate(beforeRowCounts: before, afterRowCounts: update.new.map(\.rows.count), strict: strict)
            }
            let derived = try update.changes.rowCountsAfter(beforeRowCounts: before, strict: strict)
            #expect(derived.count == update.new.count)
            for (count, section) in zip(derived, update.new) where count != nil {
                #expect(count == section.rows.count)
            }
        }
    }

    @Test(arguments: testSeeds(count: 300))
    func corruptedUpdatesAreRejected(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let strict = Bool.random(using: &rng)
        let update = RandomUpdate(&rng, strict: strict)
        var corruptions: [(String, [ListChanges], Int?)] = []
        func with(_ edit: (inout ListChanges) -> Void) -> [ListChanges] {
            var changes = update.changes
            edit(&changes)
            return [changes] + update.stages.dropFirst()
        }
        if let insert = update.realInserts.randomElement(using: &rng) {
            corruptions.append(("dropped insert \(insert)", with { $0.insertedRows.removeAll { $0 == insert } }, 13))
            let shift = Bool.random(using: &rng) ? 1 : -1
            if insert[1] + shift >= 0 {
                let shifted = IndexPath(row: insert[1] + shift, section: insert[0])
                corruptions.append(("insert \(insert) off by \(shift)", with {
                    $0.insertedRows = $0.insertedRows.map { $0 == insert ? shifted : $0 }
                }, nil))
            }
        }
        if let delete = update.realDeletes.randomElement(using: &rng) {
            corruptions.append(("dropped delete \(delete)", with { $0.deletedRows.removeAll { $0 == delete } }, 13))
            let shift = Bool.random(using: &rng) ? 1 : -1
            if delete[1] + shift >= 0 {
                let shifted = IndexPath(row: delete[1] + shift, section: delete[0])
                corruptions.append(("delete \(delete) off by \(shift)", with {
                    $0.deletedRows = $0.deletedRows.map { $0 == delete ? shifted : $0 }
                }, nil))
            }
        }
        if let move = update.realMoves.randomElement(using: &rng), move.to[1] > 0 {
            let shifted = ListChanges.RowMove(from: move.from, to: IndexPath(row: move.to[1] - 1, section: move.to[0]))
            corruptions.append(("move \(move) destination off by one", with {
                $0.movedRows = $0.movedRows.map { $0 == move ? shifted : $0 }
            }, nil))
        }
        if let section = update.changes.insertedSections.first {
            corruptions.append(("dropped section insert \(section)", with { $0.insertedSections.removeAll { $0 == section } }, nil))
        }
        if update.refreshes.count > 0 {
            corruptions.append(("dropped refresh stage", [update.changes], strict && update.refreshesMovedRows ? 16 : nil))
        }
        for (name, stages, rule) in corruptions {
            let table = Table(update.old, strict: strict)
            do {
                try table.apply(stages: stages, newState: update.new)
                Issue.record("corruption accepted: \(name)\nold: \(update.old)\nnew: \(update.new)\nstages: \(stages)")
            } catch {
                #expect(table.sections == update.old, "state changed after rejecting \(name)")
                if let rule {
                    #expect(error.rule == rule, "\(name): \(error)")
                }
            }
        }
    }
}
