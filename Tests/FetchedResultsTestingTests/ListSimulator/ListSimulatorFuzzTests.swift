import FetchedResultsTesting
import Foundation
import Testing
import TestSupport

/// Random batches, most of them invalid: whatever the validator accepts, the simulator must be
/// able to apply, and the two ways of validating (with the counts after, or deriving them)
/// must agree.
@Suite("ListSimulator fuzz")
struct ListSimulatorFuzzTests {
    @Test(arguments: testSeeds(count: 100))
    func acceptedBatchesApplyAndCountModesAgree(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        var accepted = 0
        for _ in 0..<60 {
            let strict = Bool.random(using: &rng)
            let counts = (0..<Int.random(in: 0...3, using: &rng)).map { _ in Int.random(in: 0...4, using: &rng) }
            let changes = randomChanges(counts: counts, &rng)
            guard let derived = try? changes.rowCountsAfter(beforeRowCounts: counts, strict: strict) else {
                continue
            }
            // The data source's counts: derived for surviving sections; for new sections (whose
            // row inserts derivation cannot bound) large enough to hold those inserts.
            let after = derived.enumerated().map { section, count in
                count ?? changes.insertedRows.filter { $0[0] == section }.map { $0[1] + 1 }
                    .reduce(Int.random(in: 0...3, using: &rng), max)
            }
            #expect(throws: Never.self, "\(changes) on \(counts)") {
                try changes.validate(beforeRowCounts: counts, afterRowCounts: after, strict: strict)
            }
            // Any other count for a surviving section is rejected by rule 13.
            if let section = derived.indices.randomElement(using: &rng), derived[section] != nil {
                var wrong = after
                wrong[section] += 1
                let error = #expect(throws: BatchUpdateError.self) {
                    try changes.validate(beforeRowCounts: counts, afterRowCounts: wrong, strict: strict)
                }
                #expect(error?.rule == 13 || error?.rule == 5, "\(String(describing: error))")
            }
            // The simulator applies it; identities of new rows come from the data source.
            var nextID = 100
            let old = counts.enumerated().map { section, count in
                Table.Section(id: "S\(section)", rows: (0..<count).map { Table.Row(id: section * 10 + $0, content: "c") })
            }
            let new = after.enumerated().map { section, count in
                Table.Section(id: "N\(section)", rows: (0..<count).map { _ in
                    nextID += 1
                    return Table.Row(id: nextID, content: "c")
                })
            }
            let error = ListSimulator.check(applying: [changes], from: old, to: new, strict: strict)
            // Only the identity check can fail: every rule passed.
            #expect(error == nil || error?.difference != nil, "\(String(describing: error))")
            accepted += 1
        }
        // The generator must reach valid batches too, or the test says nothing.
        #expect(accepted > 0)
    }

    func randomChanges(counts: [Int], _ rng: inout SeededGenerator) -> ListChanges {
        let sections = counts.count
        func section(_ limit: Int) -> Int { Int.random(in: 0...max(0, limit), using: &rng) }
        func path(_ limit: Int) -> IndexPath {
            let s = section(limit)
            let rows = s < counts.count ? counts[s] : 2
            return IndexPath(row: Int.random(in: 0...rows, using: &rng), section: s)
        }
        func some<T>(_ maximum: Int, _ make: () -> T) -> [T] {
            (0..<Int.random(in: 0...maximum, using: &rng)).map { _ in make() }
        }
        var changes = ListChanges()
        if Int.random(in: 0..<4, using: &rng) == 0 {
            changes.deletedSections = some(1) { section(sections - 1) }
            changes.insertedSections = some(1) { section(sections) }
            changes.movedSections = some(1) { .init(from: section(sections - 1), to: section(sections - 1)) }
            changes.reloadedSections = some(1) { section(sections - 1) }
        }
        changes.deletedRows = some(2) { path(sections - 1) }
        changes.insertedRows = some(2) { path(sections - 1) }
        changes.movedRows = some(1) { .init(from: path(sections - 1), to: path(sections - 1)) }
        changes.reloadedRows = some(1) { path(sections - 1) }
        changes.reconfiguredRows = some(1) { path(sections - 1) }
        return changes
    }
}
