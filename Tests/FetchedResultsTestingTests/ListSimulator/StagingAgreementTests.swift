import FetchedResultsTesting
import Foundation
import Testing
import TestSupport

/// `ListChanges.staged()` promises stages that pass every strict rule; the simulator is the
/// judge. The general sets come from the by-construction generator, lenient flavour (row
/// changes inside moved sections, duplicate deletes, rule 9 and 12 noise).
@Suite("Staging agrees with ListSimulator")
struct StagingAgreementTests {
    @Test(arguments: testSeeds(count: 200))
    func stagedGeneralChangesPassStrictMode(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        for strict in [false, true] {
            let update = RandomUpdate(&rng, strict: strict)
            let stages = update.general.staged()
            #expect(stages.count <= 3)  // a row stage after moved sections that keep their row counts
            if let error = Table.check(applying: stages, from: update.old, to: update.new, strict: true) {
                Issue.record("""
                    staged() output rejected: \(error)
                    general: \(update.general)
                    stages: \(stages)
                    old: \(update.old)
                    new: \(update.new)
                    """)
            }
        }
    }
}

/// The sectioned diff, staged, must turn any state into any other under strict mode.
@Suite("Sectioned diff agrees with ListSimulator")
struct DiffAgreementTests {
    func stagedDiff(_ old: [Table.Section], _ new: [Table.Section]) throws -> [ListChanges] {
        try ListChanges.stagedDifference(
            from: old, to: new, sectionID: \.id, rows: \.rows, rowID: \.id, rowContentEqual: { $0.content == $1.content }
        )
    }

    @Test(arguments: testSeeds(count: 200))
    func diffOfGeneratedUpdatesReproducesTheNewState(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let update = RandomUpdate(&rng, strict: false)
        let stages = try stagedDiff(update.old, update.new)
        expectApplying(stages: stages, from: update.old, yields: update.new, "seed \(seed)")
    }

    @Test(arguments: testSeeds(count: 200))
    func diffOfUnrelatedStatesReproducesTheNewState(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        // Two states drawn from one pool of section and row identifiers: rows cross between
        // surviving, deleted and inserted sections, and some change content.
        func randomState() -> [Table.Section] {
            let sectionIDs = ["A", "B", "C", "D", "E"].filter { _ in Bool.random(using: &rng) }.shuffled(using: &rng)
            var rows = Array(1...12).filter { _ in Int.random(in: 0..<3, using: &rng) > 0 }.shuffled(using: &rng)
            return sectionIDs.enumerated().map { index, id in
                let take = index == sectionIDs.count - 1 ? rows.count : Int.random(in: 0...min(4, rows.count), using: &rng)
                let mine = rows.prefix(take)
                rows.removeFirst(take)
                return Table.Section(id: id, rows: mine.map {
                    Table.Row(id: $0, content: Int.random(in: 0..<4, using: &rng) == 0 ? "r\($0)*" : "r\($0)")
                })
            }
        }
        let old = randomState()
        let new = randomState()
        let stages = try stagedDiff(old, new)
        expectApplying(stages: stages, from: old, yields: new, "seed \(seed)")
    }
}
