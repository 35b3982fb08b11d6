import FetchedResultsTesting
import Foundation
import Testing

@Suite("ListSimulator")
struct ListSimulatorTests {
    // MARK: Content tracking

    @Test func untouchedChangedRowWithoutRefreshShowsStaleContent() throws {
        let old = state(("A", [1, 2, 3]))
        let new = state(("A", [1, 2, 3]), changed: [2])
        for strict in [true, false] {
            let table = Table(old, strict: strict)
            #expect(throws: ListSimulatorError.doesNotProduceNewState(ListDifference(elements: [
                .content(ip(0, 1), id: "2", actual: "r2", expected: "r2*"),
            ]))) {
                try table.apply(ListChanges(), newState: new)
            }
            #expect(table.sections == old)
        }
        // With content checks off the stale cell stays visible, as on a device.
        let lenient = Table(old, strict: false)
        lenient.verifiesContent = false
        try lenient.apply(ListChanges(), newState: new)
        #expect(lenient[ip(0, 1)].content == "r2")
        #expect(lenient.rowIDs == [[1, 2, 3]])
        // A reconfigure refreshes it in place; so does a reload.
        for refresh in [ListChanges(reconfiguredRows: [ip(0, 1)]), ListChanges(reloadedRows: [ip(0, 1)])] {
            let table = Table(old)
            try table.apply(refresh, newState: new)
            #expect(table[ip(0, 1)] == Table.Row(id: 2, content: "r2*"))
        }
    }

    @Test func rowsOfAMovedSectionKeepTheirRenderingUntilRefreshed() throws {
        let old = state(("A", [1, 2]), ("B", [3]))
        let new = state(("B", [3]), ("A", [1, 2]), changed: [2])
        let moveSection = ListChanges(movedSections: [.init(from: 0, to: 1)])
        let table = Table(old)
        #expect(throws: ListSimulatorError.self) { try table.apply(moveSection, newState: new) }
        let error = ListSimulator.check(applying: [moveSection], from: old, to: new)
        #expect(error?.batchError == .movedRowNotRefreshed(from: ip(0, 1), to: ip(1, 1), shown: "r2", current: "r2*"))
        try table.apply(stages: [moveSection, ListChanges(reconfiguredRows: [ip(1, 1)])], newState: new)
        #expect(table.sections == new)
    }

    @Test func movedChangedRowIsCaughtUnlessALaterStageRefreshesIt() throws {
        let old = state(("A", [1, 2, 3]), ("B", [4]))
        let new = state(("A", [2, 3]), ("B", [1, 4]), changed: [1])
        let structural = ListChanges(movedRows: [move(ip(0, 0), ip(1, 0))])
        let error = ListSimulator.check(applying: [structural], from: old, to: new)
        #expect(error?.rule == 16)
        #expect(error?.description.contains("stage 1 of") == false)
        // A refresh at the before-position misses: the moved row is at 1.0 now.
        let wrongRefresh = ListSimulator.check(
            applying: [structural, ListChanges(reconfiguredRows: [ip(0, 0)])], from: old, to: new
        )
        #expect(wrongRefresh?.rule == 16)
        #expect(wrongRefresh?.description.contains("(stage 1 of 2: ListChanges(→[0.0→1.0]))") == true)
        #expect(ListSimulator.check(applying: [structural, ListChanges(reconfiguredRows: [ip(1, 0)])], from: old, to: new) == nil)
        #expect(ListSimulator.check(applying: [structural, ListChanges(reloadedRows: [ip(1, 0)])], from: old, to: new) == nil)
    }

    @Test func everyStageIsValidatedAgainstTheFinalCounts() {
        let old = state(("A", [1, 2]))
        let new = state(("A", [1, 2, 3]), changed: [1])
        // The second stage's before-state is the first stage's result, and its positions exist.
        #expect(ListSimulator.check(
            applying: [ListChanges(insertedRows: [ip(0, 2)]), ListChanges(reconfiguredRows: [ip(0, 0)])],
            from: old, to: new
        ) == nil)
        // A structural second stage is held to the final counts too.
        let error = ListSimulator.check(
            applying: [ListChanges(), ListChanges(insertedRows: [ip(0, 2)], reconfiguredRows: [ip(0, 0)])],
            from: old, to: new
        )
        #expect(error == .rejected(
            .invalidRowCount(section: 0, sectionBefore: 0, after: 3, before: 2, inserted: 0, deleted: 0, movedIn: 0, movedOut: 0),
            stage: 1, stageCount: 2, changes: ListChanges()
        ))
        #expect(error?.description.contains("(stage 1 of 2: ListChanges(none))") == true)
        let second = ListSimulator.check(
            applying: [ListChanges(insertedRows: [ip(0, 2)]), ListChanges(reconfiguredRows: [ip(0, 3)])],
            from: old, to: new
        )
        #expect(second?.rule == 5)
        if case let .rejected(_, stage, count, _) = second {
            #expect(stage == 2 && count == 2)
        }
    }

    // MARK: Log and counters

    @Test func logsOperationsAndCountsReloadsAndBatches() throws {
        let table = Table(state(("A", [1, 2, 3])))
        #expect(table.reloadCount == 0)
        try table.apply(
            stages: [
                ListChanges(insertedSections: [1], deletedRows: [ip(0, 0)], movedRows: [move(ip(0, 2), ip(0, 0))]),
                ListChanges(reconfiguredRows: [ip(0, 1)]),
            ],
            newState: state(("A", [3, 2]), ("B", [7]), changed: [2])
        )
        table.reloadData(state(("C", [9])))
        #expect(table.reloadCount == 1)
        #expect(table.animatedUpdateCount == 1)
        #expect(table.batchCount == 2)
        #expect(table.logDescription == """
            batch 1/2:
              delete row 0.0 (1)
              move row 0.2→0.0 (3)
              insert section 1 (B, 1 rows)
            batch 2/2:
              reconfigure row 0.1→0.1 (2)
            reloadData: 1 sections, 1 rows
            """)
        table.resetHistory()
        #expect(table.operations.isEmpty && table.reloadCount == 0 && table.batchCount == 0)
        #expect(table.sections == state(("C", [9])))
    }

    @Test func anEmptyUpdateIsNotAnAnimatedUpdate() throws {
        let table = Table(state(("A", [1])))
        try table.apply(stages: [], newState: state(("A", [1])))
        #expect(table.animatedUpdateCount == 0)
        #expect(table.batchCount == 0)
        // …but it must still leave the new state on display.
        #expect(throws: ListSimulatorError.self) { try table.apply(stages: [], newState: state(("A", [2]))) }
    }

    @Test func stateIsUnchangedAfterEveryKindOfError() throws {
        let old = state(("A", [1, 2, 3]))
        let table = Table(old)
        try table.apply(ListChanges(deletedRows: [ip(0, 2)]), newState: state(("A", [1, 2])))
        let shown = table.sections
        let log = table.operations
        let attempts: [(ListChanges, [Table.Section])] = [
            (ListChanges(deletedRows: [ip(0, 5)]), state(("A", [1]))),  // rule 5
            (ListChanges(deletedRows: [ip(0, 0), ip(0, 0)]), state(("A", [2]))),  // rule 14
            (ListChanges(insertedRows: [ip(0, 2)]), state(("A", [1, 2]))),  // rule 13
            (ListChanges(deletedRows: [ip(0, 0)]), state(("A", [1]))),  // wrong row removed
            (ListChanges(movedRows: [move(ip(0, 0), ip(0, 1))]), state(("A", [2, 1]), changed: [1])),  // rule 16
        ]
        for (changes, new) in attempts {
            #expect(throws: ListSimulatorError.self) { try table.apply(changes, newState: new) }
            #expect(table.sections == shown)
            #expect(table.operations == log)
            #expect(table.batchCount == 1 && table.animatedUpdateCount == 1)
        }
    }

    @Test func updateDecisionsApplyAsReloadOrStages() throws {
        let table = Table(state(("A", [1])))
        try table.apply(ListUpdate.reload, newState: state(("A", [5, 6])))
        #expect(table.reloadCount == 1)
        try table.apply(ListUpdate.animate([ListChanges(deletedRows: [ip(0, 0)])]), newState: state(("A", [6])))
        #expect(table.rowIDs == [[6]])
        #expect(table.sectionIDs == ["A"])
    }

    // MARK: ListUpdateTarget

    /// Drives a target only through the protocol, as an accumulator does.
    func flush(_ target: some ListUpdateTarget, _ stages: [ListChanges]) -> Bool {
        guard target.isVisible else {
            target.reloadData()
            return false
        }
        target.performBatch(stages: stages)
        return true
    }

    @Test func conformsToListUpdateTargetReadingItsDataSource() {
        final class Model {
            var sections = state(("A", [1, 2]), ("B", [3]))
        }
        let model = Model()
        let table = Table { model.sections }
        #expect(table.displayedRowCounts == [2, 1])
        #expect(table.displayedRowCount == 3)
        #expect(table.reloadCount == 0)

        model.sections = state(("A", [2]), ("B", [3, 4]))
        #expect(flush(table, [ListChanges(deletedRows: [ip(0, 0)], insertedRows: [ip(1, 1)])]))
        #expect(table.failures.isEmpty)
        #expect(table.sections == model.sections)

        // A rejected batch is recorded, and the state stays.
        let before = table.sections
        model.sections = state(("A", [2, 5]), ("B", [3, 4]))
        #expect(flush(table, [ListChanges(insertedRows: [ip(0, 2)])]))
        #expect(table.failures.count == 1)
        #expect(table.failures.first?.rule == 5)
        #expect(table.sections == before)

        // A hidden list gets a reload.
        table.isVisible = false
        #expect(!flush(table, [ListChanges(insertedRows: [ip(0, 1)])]))
        #expect(table.sections == model.sections)
        #expect(table.reloadCount == 1)

        // In strict mode a batch on a hidden list is a failure (rule 17).
        table.performBatch(stages: [ListChanges()])
        #expect(table.failures.last?.rule == 17)
    }

    @Test func rowsWithoutSeparateContent() throws {
        let table = ListSimulator<Int, String, String>([.init(id: 0, rowIDs: ["a", "b"])])
        try table.apply(ListChanges(movedRows: [move(ip(0, 0), ip(0, 1))]), newState: [.init(id: 0, rowIDs: ["b", "a"])])
        #expect(table.rowIDs == [["b", "a"]])
        #expect(ListSimulator<Int, String, String>.Row("x") == .init(id: "x", content: "x"))
        typealias Identities = ListSimulator<String, Int, Int>
        let sections = Identities.sections(["fruit": [1, 2], "veg": [3]])
        #expect(sections.map(\.id) == ["fruit", "veg"])
        #expect(sections[0].rows == [.init(id: 1, content: 1), .init(id: 2, content: 2)])
        #expect(Identities.check(applying: [ListChanges(deletedSections: [0])], from: sections, to: Identities.sections(["veg": [3]])) == nil)
    }

    @Test func differenceListsElementsAndSummarizesLongOnes() {
        let difference = Table.difference(
            between: state(("A", [1, 2, 3]), ("B", [4])),
            and: state(("A", [1, 9]), ("C", [4, 5]), ("D", []))
        )
        #expect(difference.elements == [
            .sectionCount(actual: 2, expected: 3),
            .rowCount(section: 0, actual: 3, expected: 2),
            .rowID(ip(0, 1), actual: "2", expected: "9"),
            .extraRow(ip(0, 2), actual: "3"),
            .sectionID(section: 1, actual: "B", expected: "C"),
            .rowCount(section: 1, actual: 1, expected: 2),
            .missingRow(ip(1, 1), expected: "5"),
            .missingSection(2, expected: "D"),
        ])
        #expect(difference.description.hasPrefix("- 2 sections, expected 3\n- section 0 has 3 rows, expected 2\n"))
        let long = Table.difference(between: state(("A", Array(0..<30))), and: state(("A", Array(100..<130))))
        #expect(long.elements.count == 30)
        #expect(long.description.hasSuffix("- … and 10 more"))
        #expect(Table.difference(between: state(("A", [1])), and: state(("A", [1]))).isEmpty)
    }

    // MARK: Issue 32

    /// Sections built from runtime data, not only from a literal.
    @Test func sectionsFromRuntimePairs() {
        typealias Names = ListSimulator<String, String, String>
        let groups: [(name: String, items: [String])] = [("Fridge", ["Milk", "Eggs"]), ("Pantry", []), ("Shelf", ["Rice"])]
        let sections = Names.sections(groups.map { ($0.name, $0.items) })
        #expect(sections == Names.sections(["Fridge": ["Milk", "Eggs"], "Pantry": [], "Shelf": ["Rice"]]))
        #expect(sections.map(\.id) == ["Fridge", "Pantry", "Shelf"])
        #expect(Names.sections([(String, [String])]()).isEmpty)
        let table = Names(Names.sections(AnySequence(groups.lazy.map { ($0.name, $0.items) })))
        #expect(table.sections == sections)
    }

    /// An insert at the wrong position names the row the batch implies it inserts and the
    /// row the new state has there, not only the latter (which reads as if it were inserted).
    @Test func aWrongInsertNamesTheImpliedAndTheShownRow() {
        typealias Names = ListSimulator<String, String, String>
        let old = Names.sections(["List": ["Eggs"]])
        let new = Names.sections(["List": ["Bread", "Eggs"]])
        let wrong = Names.failureReport(applying: [ListChanges(insertedRows: [ip(0, 1)])], from: old, to: new)
        #expect(wrong?.contains("insert row 0.1 (the batch inserts Bread here; the new state has Eggs at 0.1)") == true, "\(wrong ?? "")")
        #expect(wrong?.contains("insert row 0.1 (Eggs)") == false)
        #expect(Names.failureReport(applying: [ListChanges(insertedRows: [ip(0, 0)])], from: old, to: new) == nil)
        // A correct insert logs the inserted row alone.
        let table = Names(old)
        #expect(throws: Never.self) { try table.apply(stages: [ListChanges(insertedRows: [ip(0, 0)])], newState: new) }
        #expect(table.operations.last == .insertRow(ip(0, 0), id: "Bread", implied: nil))
    }
}
