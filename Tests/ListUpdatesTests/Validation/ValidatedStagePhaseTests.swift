import Foundation
@testable import ListUpdates
import Testing
import TestSupport

/// The phases of `ValidatedStage.init`, each checked on its own against the whole validation.
@Suite("ValidatedStage phases")
struct ValidatedStagePhaseTests {
    func ip(_ section: Int, _ row: Int) -> IndexPath { IndexPath(row: row, section: section) }

    /// Random section changes over a few sections, valid or not.
    func randomSectionChanges(_ generator: inout SeededGenerator) -> (ListChanges, before: [Int], after: [Int]?) {
        let sectionsBefore = Int.random(in: 0...5, using: &generator)
        let before = (0..<sectionsBefore).map { _ in Int.random(in: 0...3, using: &generator) }
        func sections(_ count: Int) -> [Int] {
            (0..<Int.random(in: 0...2, using: &generator)).map { _ in Int.random(in: 0..<max(1, count + 1), using: &generator) }
        }
        let changes = ListChanges(
            deletedSections: sections(sectionsBefore),
            insertedSections: sections(sectionsBefore),
            movedSections: (0..<Int.random(in: 0...2, using: &generator)).map { _ in
                ListChanges.SectionMove(
                    from: Int.random(in: 0...sectionsBefore, using: &generator),
                    to: Int.random(in: 0...sectionsBefore, using: &generator))
            },
            reloadedSections: Bool.random(using: &generator) ? sections(sectionsBefore) : []
        )
        let after: [Int]? = Bool.random(using: &generator)
            ? (0..<Int.random(in: 0...5, using: &generator)).map { _ in Int.random(in: 0...3, using: &generator) } : nil
        return (changes, before, after)
    }

    /// With no row changes, the section phase alone decides: it throws what the whole
    /// validation throws, and its mapping is the validated stage's.
    @Test(arguments: testSeeds(count: 20))
    func sectionPhaseDecidesABatchOfSectionChanges(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<200 {
            let (changes, before, after) = randomSectionChanges(&generator)
            let whole: Result<ValidatedStage, BatchUpdateError> = Result { () throws(BatchUpdateError) in
                try ValidatedStage(changes, beforeRowCounts: before, afterRowCounts: after, strict: true)
            }
            let phase: Result<ValidatedStage.SectionChanges, BatchUpdateError> = Result { () throws(BatchUpdateError) in
                try ValidatedStage.SectionChanges(changes, countBefore: before.count, givenCountAfter: after?.count)
            }
            switch (whole, phase) {
            case let (.failure(wholeError), .failure(phaseError)):
                #expect(wholeError == phaseError, "seed \(seed): \(changes)")
            case let (.success(stage), .success(sections)):
                let mapping = sections.mapping()
                #expect(mapping.sources == stage.sectionSources, "seed \(seed): \(changes)")
                #expect(mapping.targets == stage.sectionTargets, "seed \(seed): \(changes)")
                #expect(sections.moves == stage.movedSections, "seed \(seed): \(changes)")
            case let (.success(stage), .failure(error)):
                // Row counts given for a batch of section changes only: the section phase
                // passed nothing that the row-count phase then rejected.
                Issue.record("seed \(seed): the section phase threw \(error), the whole validation passed: \(stage.sectionSources)")
            case let (.failure(error), .success):
                // Only the row-count phase may reject what the section phase passed: given
                // counts that disagree with the kept sections.
                guard case .invalidRowCount = error else {
                    Issue.record("seed \(seed): the whole validation threw \(error) after the section phase passed: \(changes)")
                    continue
                }
            }
        }
    }

    /// The row phase drops the row changes of replaced sections (rule 12) and duplicates
    /// (rule 9), keeping the sorted deletes with their duplicates for rule 14.
    @Test func rowPhaseNormalizesTheRowChanges() throws {
        let changes = ListChanges(
            deletedSections: [0],
            reloadedSections: [1],
            deletedRows: [ip(2, 1), ip(0, 0), ip(2, 1), ip(1, 0)],
            insertedRows: [ip(1, 0), ip(0, 0)],
            movedRows: [.init(from: ip(2, 0), to: ip(1, 1)), .init(from: ip(2, 0), to: ip(1, 1))]
        )
        let before = [1, 1, 3]
        let sections = try ValidatedStage.SectionChanges(changes, countBefore: 3, givenCountAfter: nil)
        let mapping = sections.mapping()
        #expect(mapping.sources == [.reloaded(before: 1), .kept(before: 2)])
        let rows = try ValidatedStage.RowChanges(
            changes, sections, sectionSources: mapping.sources, beforeRowCounts: before, givenAfter: nil)
        #expect(rows.deleted == [ValidatedStage.key(section: 2, row: 1)])
        #expect(rows.allDeletes == [ValidatedStage.key(section: 0, row: 0), ValidatedStage.key(section: 1, row: 0),
                                    ValidatedStage.key(section: 2, row: 1), ValidatedStage.key(section: 2, row: 1)])
        #expect(rows.inserted == [ValidatedStage.key(section: 1, row: 0)])
        #expect(rows.moves.count == 1)
        let counts = try rows.afterRowCounts(sections, mapping: mapping, beforeRowCounts: before, givenAfter: nil)
        #expect(counts == [nil, 3])
        #expect(throws: BatchUpdateError.duplicateRowDelete(indexPath: ip(2, 1), count: 2)) {
            try rows.checkStrictRules(sections, targets: mapping.targets)
        }
    }
}
