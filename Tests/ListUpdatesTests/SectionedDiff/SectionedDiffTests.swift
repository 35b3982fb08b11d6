import FetchedResultsTesting
import Foundation
import ListUpdates
import Testing
import TestSupport

private func path(_ section: Int, _ row: Int) -> IndexPath { IndexPath(row: row, section: section) }

private func rows(_ ids: [Int], changed: Set<Int> = []) -> [TestRow] {
    ids.map { TestRow(id: $0, content: changed.contains($0) ? 1 : 0) }
}

/// Applies `stages` to a strict `ListSimulator` showing `old` and checks that it then shows
/// `new`, identifiers and contents, and that the stages have the promised shape.
private func expectReproduces(
    _ stages: [ListChanges], from old: [TestSection], to new: [TestSection],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    expectApplying(
        stages: stages, from: old.simulated, yields: new.simulated, "stages: \(stages)", sourceLocation: sourceLocation)
    expectStageShape(stages, sourceLocation: sourceLocation)
}

/// Checks the shape `staged()` promises: at most three non-empty stages; only the first
/// changes sections; a stage after the first that changes rows follows a first stage that
/// moves sections; and a third stage only refreshes.
func expectStageShape(_ stages: [ListChanges], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(stages.count <= 3, "stages: \(stages)", sourceLocation: sourceLocation)
    #expect(stages.allSatisfy { !$0.isEmpty }, sourceLocation: sourceLocation)
    func refreshesOnly(_ stage: ListChanges) -> Bool {
        var rest = stage
        rest.reconfiguredRows = []
        rest.reloadedRows = []
        return rest.isEmpty
    }
    for stage in stages.dropFirst() {
        #expect(
            stage.deletedSections.isEmpty && stage.insertedSections.isEmpty && stage.movedSections.isEmpty
                && stage.reloadedSections.isEmpty,
            "only the first stage changes sections: \(stages)", sourceLocation: sourceLocation)
    }
    if stages.count == 3 {
        #expect(refreshesOnly(stages[2]), "the third stage only refreshes: \(stages)", sourceLocation: sourceLocation)
    }
    if stages.count >= 2 && !refreshesOnly(stages[1]) {
        #expect(!stages[0].movedSections.isEmpty, "a row stage follows moved sections: \(stages)", sourceLocation: sourceLocation)
    }
}

@Suite("Sectioned diff")
struct SectionedDiffTests {
    @Test func identicalListsHaveNoChanges() throws {
        let sections = [TestSection(id: 1, rows: rows([1, 2])), TestSection(id: 2, rows: [])]
        #expect(try ListChanges.difference(from: sections, to: sections, rows: \.rows).isEmpty)
        #expect(try ListChanges.stagedDifference(from: sections, to: sections, rows: \.rows) == [])
        #expect(try ListChanges.stagedDifference(from: [TestRow](), to: []) == [])
    }

    @Test func emptyListsGainAndLoseSections() throws {
        let sections = [TestSection(id: 1, rows: rows([1, 2])), TestSection(id: 2, rows: [])]
        #expect(try ListChanges.difference(from: [], to: sections, rows: \.rows) == ListChanges(insertedSections: [0, 1]))
        #expect(try ListChanges.difference(from: sections, to: [], rows: \.rows) == ListChanges(deletedSections: [0, 1]))
        #expect(try ListChanges.difference(from: [], to: rows([7, 8])) == ListChanges(insertedRows: [path(0, 0), path(0, 1)]))
    }

    @Test func onlyRowsOutOfOrderMove() throws {
        let changes = try ListChanges.difference(from: rows([1, 2, 3, 4, 5]), to: rows([2, 3, 4, 5, 1]))
        #expect(changes == ListChanges(movedRows: [.init(from: path(0, 0), to: path(0, 4))]))

        let swapped = try ListChanges.difference(from: rows([1, 2, 3, 4]), to: rows([1, 3, 2, 4]))
        #expect(swapped.movedRows.count == 1)
        #expect(swapped.count == 1)
    }

    @Test func insertsDeletesAndUpdatesUseTheirIndexSpaces() throws {
        let changes = try ListChanges.difference(from: rows([1, 2, 3]), to: rows([0, 1, 3, 4], changed: [3]))
        #expect(
            changes
                == ListChanges(
                    deletedRows: [path(0, 1)],
                    insertedRows: [path(0, 0), path(0, 3)],
                    reconfiguredRows: [path(0, 2)]
                )
        )
    }

    @Test func movedRowThatChangedIsRefreshedInASecondStage() throws {
        let old = rows([1, 2, 3])
        let new = [TestRow(id: 3, content: 1)] + rows([1, 2])
        let general = try ListChanges.difference(from: old, to: new)
        #expect(general == ListChanges(movedRows: [.init(from: path(0, 2), to: path(0, 0))], reconfiguredRows: [path(0, 2)]))
        let stages = try ListChanges.stagedDifference(from: old, to: new)
        #expect(
            stages == [
                ListChanges(movedRows: [.init(from: path(0, 2), to: path(0, 0))]),
                ListChanges(reconfiguredRows: [path(0, 0)]),
            ]
        )
        expectReproduces(stages, from: [TestSection(id: 0, rows: old)], to: [TestSection(id: 0, rows: new)])
        // The general form, applied as one batch, is what staging exists for: rejected.
        let rejected = TestSimulator.check(
            applying: [general], from: [TestSection(id: 0, rows: old)].simulated, to: [TestSection(id: 0, rows: new)].simulated)
        #expect(rejected != nil)
    }

    @Test func rowsMoveAcrossSectionsAndSectionsMove() throws {
        let old = [
            TestSection(id: 10, rows: rows([1, 2, 3])),
            TestSection(id: 20, rows: rows([4, 5])),
            TestSection(id: 30, rows: rows([6])),
        ]
        let new = [
            TestSection(id: 30, rows: rows([6])),
            TestSection(id: 10, rows: rows([1, 3])),
            TestSection(id: 20, rows: rows([4, 2, 5])),
        ]
        let changes = try ListChanges.difference(from: old, to: new, rows: \.rows)
        #expect(
            changes
                == ListChanges(
                    movedSections: [.init(from: 2, to: 0)],
                    movedRows: [.init(from: path(0, 1), to: path(2, 1))]
                )
        )
        expectReproduces(try ListChanges.stagedDifference(from: old, to: new, rows: \.rows), from: old, to: new)
    }

    @Test func rowsLeavingDeletedSectionsAreInserted() throws {
        let old = [TestSection(id: 1, rows: rows([1, 2])), TestSection(id: 2, rows: rows([3]))]
        let new = [TestSection(id: 2, rows: rows([3, 2])), TestSection(id: 4, rows: rows([1]))]
        let changes = try ListChanges.difference(from: old, to: new, rows: \.rows)
        #expect(
            changes == ListChanges(deletedSections: [0], insertedSections: [1], insertedRows: [path(0, 1)])
        )
        expectReproduces(changes.staged(), from: old, to: new)
    }

    @Test func duplicateRowIdentifiersThrow() {
        #expect(throws: ListDiffError.duplicateRowIdentifier(identifier: "2", side: .old, first: path(0, 1), second: path(0, 3))) {
            try ListChanges.difference(from: rows([1, 2, 3, 2]), to: rows([1]))
        }
        let new = [TestSection(id: 1, rows: rows([5])), TestSection(id: 2, rows: rows([6, 5]))]
        #expect(throws: ListDiffError.duplicateRowIdentifier(identifier: "5", side: .new, first: path(0, 0), second: path(1, 1))) {
            try ListChanges.difference(from: [], to: new, rows: \.rows)
        }
        let error = ListDiffError.duplicateRowIdentifier(identifier: "5", side: .new, first: path(0, 0), second: path(1, 1))
        #expect(error.description == "duplicate row identifier 5 in the new rows, at 0.0 and 1.1")
    }

    @Test func duplicateSectionIdentifiersThrow() {
        let twice = [TestSection(id: 1, rows: []), TestSection(id: 1, rows: [])]
        #expect(throws: ListDiffError.duplicateSectionIdentifier(identifier: "1", side: .old, first: 0, second: 1)) {
            try ListChanges.difference(from: twice, to: [], rows: \.rows)
        }
        #expect(throws: ListDiffError.duplicateSectionIdentifier(identifier: "1", side: .new, first: 0, second: 1)) {
            try ListChanges.difference(from: [TestSection(id: 1, rows: [])], to: twice, rows: \.rows)
        }
    }

    @Test func closuresChooseIdentityAndContent() throws {
        // Rows are plain strings: the first letter is the identity, the rest the content.
        let old = [["apple", "banana"], ["cherry"]]
        let new = [["banana", "cherry"], ["avocado"]]
        let stages = try ListChanges.stagedDifference(
            from: old, to: new, sectionID: { $0.count }, rows: { $0 }, rowID: { $0.first! }, rowContentEqual: ==)
        // Section identity is the row count here. "a" moves to the second section and its
        // content changed, "c" moves to the first; "b" stays.
        #expect(
            stages == [
                ListChanges(movedRows: [.init(from: path(0, 0), to: path(1, 0)), .init(from: path(1, 0), to: path(0, 1))]),
                ListChanges(reconfiguredRows: [path(1, 0)]),
            ]
        )
    }

    @Test("The staged diff of random sectioned data reproduces the target", arguments: testSeeds(count: 300))
    func randomSectionedData(seed: UInt64) throws {
        var generator = SectionedDataGenerator(seed: seed)
        let old = generator.list()
        let new = generator.change(old)
        let stages = try ListChanges.stagedDifference(from: old, to: new, rows: \.rows)
        expectReproduces(stages, from: old, to: new)
        #expect(stages.isEmpty == (old == new))
        // The staged forms skip index paths on the way; they must stage exactly the general form.
        #expect(stages == (try ListChanges.difference(from: old, to: new, rows: \.rows).staged()))
    }

    @Test("The staged diff of larger random data reproduces the target", arguments: testSeeds(count: 20))
    func largerRandomSectionedData(seed: UInt64) throws {
        var generator = SectionedDataGenerator(seed: seed)
        var old = generator.list(maxSections: 12, maxRows: 40)
        for _ in 0..<3 {
            let new = generator.change(old)
            expectReproduces(try ListChanges.stagedDifference(from: old, to: new, rows: \.rows), from: old, to: new)
            old = new
        }
    }

    /// The same lists with UUID identifiers (identifier n becomes the n-th of a set of UUIDs),
    /// which the diff hashes its own way.
    @Test("UUID identifiers diff like the integers they stand for", arguments: testSeeds(count: 50))
    func uuidIdentifiers(seed: UInt64) throws {
        struct Row: Identifiable, Equatable {
            var id: UUID
            var content: Int
        }
        var generator = SectionedDataGenerator(seed: seed)
        let old = generator.list()
        let new = generator.change(old)
        let largest = (old + new).flatMap(\.rows).map(\.id).max() ?? 0
        let uuids = (0...largest).map { _ in UUID() }
        func withUUIDs(_ sections: [TestSection]) -> [(id: Int, rows: [Row])] {
            sections.map { ($0.id, $0.rows.map { Row(id: uuids[$0.id], content: $0.content) }) }
        }
        let stages = try ListChanges.stagedDifference(
            from: withUUIDs(old), to: withUUIDs(new), sectionID: \.id, rows: \.rows, rowID: \.id, rowContentEqual: ==)
        #expect(stages == (try ListChanges.stagedDifference(from: old, to: new, rows: \.rows)))
        expectReproduces(stages, from: old, to: new)

        let duplicate = uuids[0]
        #expect(
            throws: ListDiffError.duplicateRowIdentifier(
                identifier: "\(duplicate)", side: .new, first: path(0, 1), second: path(0, 2))
        ) {
            try ListChanges.difference(
                from: [Row(id: uuids[0], content: 0)],
                to: [Row(id: UUID(), content: 0), Row(id: duplicate, content: 0), Row(id: duplicate, content: 1)])
        }
    }

    @Test("The staged diff of random flat lists reproduces the target", arguments: testSeeds(count: 100))
    func randomFlatLists(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let old = (0..<Int.random(in: 0...30, using: &rng)).map { TestRow(id: $0, content: 0) }
        var new = old.filter { _ in Int.random(in: 0..<5, using: &rng) > 0 }
        for _ in 0..<Int.random(in: 0...5, using: &rng) where !new.isEmpty {
            let row = new.remove(at: Int.random(in: new.indices, using: &rng))
            new.insert(row, at: Int.random(in: 0...new.count, using: &rng))
        }
        for index in new.indices where Int.random(in: 0..<4, using: &rng) == 0 { new[index].content += 1 }
        for id in 100..<(100 + Int.random(in: 0...5, using: &rng)) {
            new.insert(TestRow(id: id, content: 0), at: Int.random(in: 0...new.count, using: &rng))
        }
        let stages = try ListChanges.stagedDifference(from: old, to: new)
        expectReproduces(stages, from: [TestSection(id: 0, rows: old)], to: [TestSection(id: 0, rows: new)])
    }
}

/// An identifier whose hash only depends on the identifier modulo `buckets`, so that many
/// identifiers share a full hash value: the diff's table must compare them by `==`.
private struct CollidingID: Hashable, CustomStringConvertible {
    var value: Int
    var buckets: Int

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value % buckets) }
    var description: String { "\(value)" }
}

@Suite("Sectioned diff, colliding hashes")
struct SectionedDiffCollisionTests {
    private struct Row: Equatable {
        var id: CollidingID
        var content: Int
    }

    private func colliding(_ sections: [TestSection], buckets: Int) -> [(id: Int, rows: [Row])] {
        sections.map { section in
            (section.id, section.rows.map { Row(id: CollidingID(value: $0.id, buckets: buckets), content: $0.content) })
        }
    }

    /// With one bucket every identifier has the same hash; with a few, chains of equal hashes
    /// interleave. Either way the diff must equal the one of the plain integers.
    @Test("Identifiers with equal hashes diff like distinct integers", arguments: testSeeds(count: 40))
    func equalHashes(seed: UInt64) throws {
        var generator = SectionedDataGenerator(seed: seed)
        let old = generator.list(maxSections: 5, maxRows: 12)
        let new = generator.change(old)
        for buckets in [1, 3] {
            let stages = try ListChanges.stagedDifference(
                from: colliding(old, buckets: buckets), to: colliding(new, buckets: buckets),
                sectionID: \.id, rows: \.rows, rowID: \.id, rowContentEqual: ==)
            #expect(stages == (try ListChanges.stagedDifference(from: old, to: new, rows: \.rows)))
            expectReproduces(stages, from: old, to: new)
        }
    }

    /// Repeats are found among colliding identifiers too, and the error names the same pair
    /// as for identifiers that do not collide.
    @Test func repeatsAmongEqualHashes() throws {
        func rows(_ ids: [Int], buckets: Int) -> [Row] {
            ids.map { Row(id: CollidingID(value: $0, buckets: buckets), content: 0) }
        }
        for buckets in [1, 2, 1_000] {
            func diff(_ old: [Int], _ new: [Int]) throws(ListDiffError) -> ListChanges {
                try ListChanges.difference(
                    from: [rows(old, buckets: buckets)], to: [rows(new, buckets: buckets)], sectionID: { _ in 0 },
                    rows: { $0 }, rowID: \.id, rowContentEqual: ==)
            }
            #expect(throws: ListDiffError.duplicateRowIdentifier(identifier: "3", side: .old, first: path(0, 2), second: path(0, 4))) {
                try diff([1, 2, 3, 4, 3, 2], [1])
            }
            // A repeat of a row that has an old counterpart is found before one that has not.
            #expect(throws: ListDiffError.duplicateRowIdentifier(identifier: "2", side: .new, first: path(0, 2), second: path(0, 5))) {
                try diff([1, 2], [7, 7, 2, 1, 8, 2])
            }
            #expect(throws: ListDiffError.duplicateRowIdentifier(identifier: "7", side: .new, first: path(0, 0), second: path(0, 3))) {
                try diff([1, 2], [7, 2, 1, 7, 8])
            }
            let changes = try diff([1, 2, 3, 4], [4, 3, 5, 2])
            #expect(
                changes
                    == ListChanges(
                        deletedRows: [path(0, 0)], insertedRows: [path(0, 2)],
                        movedRows: [.init(from: path(0, 2), to: path(0, 1)), .init(from: path(0, 3), to: path(0, 0))]))
        }
    }
}
