// The examples of the ListUpdates catalog, compiled and run as tests. Each suite mirrors one
// article of Sources/ListUpdates/ListUpdates.docc/, each test one of its sections (named in the
// test's comment). When you change an example here, change it in the article too (and the
// other way round).
//
// - `ListUpdatesOverviewTests` mirrors ListUpdates.md (the catalog's landing page).
// - `DiffingArraysArticleTests` mirrors DiffingArrays.md ("Diffing arrays"), including
//   "Keeping every section: stages with their data", whose UIKit loop runs here on a
//   strict simulator.
// - `ReloadOrAnimateArticleTests` mirrors ReloadOrAnimate.md ("Reload or Animate").
//
// The articles' model types live in `ListUpdatesArticles` so that their names do not clash with
// the README tour's; the suites are nested in it, so the examples read unqualified.

import FetchedResultsKit
import FetchedResultsTesting
import Foundation
import Testing

/// The types the ListUpdates articles assume.
enum ListUpdatesArticles {
    // MARK: DiffingArrays.md, "Overview"

    struct Aisle: Identifiable {
        var id: String
        var items: [Item]
    }

    struct Item: Identifiable, Equatable {
        var id: UUID
        var name: String
        var quantity: Int
    }

    // MARK: DiffingArrays.md, "Identity and content"

    /// A section that is not `Identifiable`: identified by its title.
    struct Folder {
        var title: String
        var entries: [Entry]
    }

    /// A row that is not `Identifiable`, refreshed when its revision changes.
    struct Entry {
        var objectID: Int
        var revision: Int
        var text: String
    }

    /// A flat row with an integer identifier.
    struct Numbered: Identifiable, Equatable {
        var id: Int
    }

    typealias AisleTable = ListSimulator<String, UUID, Item>

    static func aisleSections(_ aisles: [Aisle]) -> [AisleTable.Section] {
        aisles.map { .init(id: $0.id, rows: $0.items.map { .init(id: $0.id, content: $0) }) }
    }

    static func item(_ name: String, _ quantity: Int = 1) -> Item {
        Item(id: UUID(), name: name, quantity: quantity)
    }

    // MARK: ListUpdates.md, "Overview" and ReloadOrAnimate.md

    /// Stands in for a UIKit table view: shows row counts and keeps the batches it was given.
    final class TableView {
        var rowCounts: [Int]
        private(set) var applied: [ListChanges] = []
        private(set) var batchCount = 0
        init(rowCounts: [Int]) { self.rowCounts = rowCounts }

        func performBatchUpdates(_ updates: () -> Void) {
            batchCount += 1
            updates()
        }

        func record(_ stage: ListChanges) { applied.append(stage) }
    }

    /// A view adapter around a `TableView`, whose data source is `rows`.
    final class TableAdapter: ListUpdateTarget {
        let tableView: TableView
        var rows: () -> [Int]
        var isVisible = true
        private(set) var reloads = 0
        private(set) var batches: [[ListChanges]] = []

        init(tableView: TableView, rows: @escaping () -> [Int]) {
            self.tableView = tableView
            self.rows = rows
        }

        var displayedRowCounts: [Int] { tableView.rowCounts }

        func reloadData() {
            reloads += 1
            tableView.rowCounts = rows()
        }

        func performBatch(stages: [ListChanges]) {
            batches.append(stages)
            for stage in stages {
                tableView.performBatchUpdates { tableView.record(stage) }
            }
            tableView.rowCounts = rows()
        }
    }

    /// A logger with the shape of `os.Logger`'s `debug`.
    final class Logger {
        private(set) var messages: [String] = []
        func debug(_ message: String) { messages.append(message) }
    }
}

extension ListUpdatesArticles {
    @Suite("Article: ListUpdates overview")
    struct ListUpdatesOverviewTests {
        /// What an app's adapter does inside `performBatchUpdates`.
        private func apply(_ stage: ListChanges, to tableView: TableView) {
            tableView.record(stage)
        }

        // "Overview"
        @Test func stagesDriveBatchUpdates() throws {
            let milk = item("Milk"), bread = item("Bread")
            let oldAisles = [Aisle(id: "Dairy", items: [milk]), Aisle(id: "Bakery", items: [bread])]
            let newAisles = [Aisle(id: "Dairy", items: [milk, bread]), Aisle(id: "Bakery", items: [])]
            let tableView = TableView(rowCounts: [1, 1])

            let stages = try ListChanges.stagedDifference(from: oldAisles, to: newAisles, rows: \.items)
            for stage in stages {
                tableView.performBatchUpdates { apply(stage, to: tableView) }
            }
            #expect(tableView.batchCount == 1)
            #expect(tableView.applied == stages)
            #expect(stages[0].movedRows == [.init(from: IndexPath(row: 0, section: 1), to: IndexPath(row: 1, section: 0))])
        }
    }

    @Suite("Article: Diffing arrays")
    struct DiffingArraysArticleTests {
        /// Where the duplicate-identifier example would hand its stages to a view.
        private func show(_ stages: [ListChanges]) {
            Issue.record("expected a duplicate identifier error, got \(stages)")
        }

        // "Overview": a sectioned list, applied in order with the data source showing newAisles.
        @Test func sectionedDiff() throws {
            let milk = item("Milk"), butter = item("Butter"), bread = item("Bread")
            let oldAisles = [Aisle(id: "Dairy", items: [milk, butter])]
            var changedButter = butter
            changedButter.quantity = 2
            let newAisles = [Aisle(id: "Bakery", items: [bread]), Aisle(id: "Dairy", items: [changedButter])]

            let stages = try ListChanges.stagedDifference(from: oldAisles, to: newAisles, rows: \.items)

            #expect((0...2).contains(stages.count))
            let table = AisleTable(aisleSections(oldAisles))
            try table.apply(stages: stages, newState: aisleSections(newAisles))
            #expect(table[IndexPath(row: 0, section: 1)].content.quantity == 2)
        }

        // "Overview": a flat list is a list of one section.
        @Test func flatDiff() throws {
            let oldItems = (0..<5).map { Numbered(id: $0) }
            let newItems = [4, 0, 1, 2, 3, 5].map { Numbered(id: $0) }

            let stages = try ListChanges.stagedDifference(from: oldItems, to: newItems)

            let paths = stages.flatMap { $0.insertedRows + $0.deletedRows + $0.movedRows.flatMap { [$0.from, $0.to] } }
            #expect(paths.allSatisfy { $0.section == 0 })
            // "What the diff reports": moving one row from the bottom to the top is one move.
            #expect(stages.count == 1)
            #expect(stages[0].movedRows.count == 1)
            #expect(stages[0].insertedRows == [IndexPath(row: 5, section: 0)])
            let before = ListSimulator<Int, Int, Int>([.init(id: 0, rowIDs: oldItems.map(\.id))])
            try before.apply(stages: stages, newState: [.init(id: 0, rowIDs: newItems.map(\.id))])
        }

        // "Identity and content": closures, and a row that changes section is a move.
        @Test func closuresIdentifyAndCompare() throws {
            let old = [
                Folder(title: "Inbox", entries: [.init(objectID: 1, revision: 1, text: "a"), .init(objectID: 2, revision: 1, text: "b")]),
                Folder(title: "Done", entries: []),
            ]
            let new = [
                Folder(title: "Inbox", entries: [.init(objectID: 2, revision: 2, text: "b")]),
                Folder(title: "Done", entries: [.init(objectID: 1, revision: 1, text: "edited, same revision")]),
            ]

            let changes = try ListChanges.difference(
                from: old, to: new,
                sectionID: { $0.title },
                rows: { $0.entries },
                rowID: { $0.objectID },
                rowContentEqual: { $0.revision == $1.revision }
            )

            #expect(changes.movedRows == [.init(from: IndexPath(row: 0, section: 0), to: IndexPath(row: 0, section: 1))])
            #expect(changes.deletedRows.isEmpty && changes.insertedRows.isEmpty)
            // Row 2 kept its identifier and its revision changed: it is reconfigured.
            #expect(changes.reconfiguredRows == [IndexPath(row: 1, section: 0)])
        }

        // "Staging": a row that moved and changed is refreshed in a second stage.
        @Test func movedAndChangedRowIsRefreshedInASecondStage() throws {
            let milk = item("Milk"), eggs = item("Eggs")
            let oldAisles = [Aisle(id: "Dairy", items: [milk, eggs]), Aisle(id: "Fridge", items: [])]
            var changedMilk = milk
            changedMilk.quantity = 6
            // Rows that change section always move.
            let newAisles = [Aisle(id: "Dairy", items: [eggs]), Aisle(id: "Fridge", items: [changedMilk])]

            let general = try ListChanges.difference(from: oldAisles, to: newAisles, rows: \.items)
            #expect(general.movedRows.count == 1)
            #expect(general.reconfiguredRows == [general.movedRows[0].from])

            let stages = try ListChanges.stagedDifference(from: oldAisles, to: newAisles, rows: \.items)
            #expect(stages.count == 2)
            #expect(stages[1].reconfiguredRows == [general.movedRows[0].to])
            let table = AisleTable(aisleSections(oldAisles))
            try table.apply(stages: stages, newState: aisleSections(newAisles))
        }

        // "Keeping every section: stages with their data": a section that moves and gains a
        // row keeps its identity when each stage's data is shown during its batch.
        @Test func stagesWithTheirDataKeepEverySection() throws {
            let milk = item("Milk"), bread = item("Bread"), cheese = item("Cheese"), cake = item("Cake")
            let oldAisles = [Aisle(id: "Dairy", items: [milk]), Aisle(id: "Bakery", items: [bread])]
            // Both aisles gain an item, and they swap: one of them moves with its count changing.
            let newAisles = [Aisle(id: "Bakery", items: [bread, cake]), Aisle(id: "Dairy", items: [milk, cheese])]
            // The final-state stages recreate the section that moves.
            let finalState = try ListChanges.stagedDifference(from: oldAisles, to: newAisles, rows: \.items)
            #expect(finalState.first?.deletedSections.count == 1)

            let stages = try ListChanges.stagedDifferenceKeepingSections(from: oldAisles, to: newAisles, rows: \.items)

            // The adapter's loop, with a strict simulator standing in for the table view.
            var aisles = oldAisles
            let table = AisleTable { aisleSections(aisles) }
            for stage in stages {
                aisles = stage.data
                table.performBatch(stages: [stage.changes])
            }
            #expect(table.failures.isEmpty)
            #expect(table.sections == aisleSections(newAisles))
            #expect(stages.allSatisfy { $0.changes.deletedSections.isEmpty && $0.changes.insertedSections.isEmpty })
            #expect(stages.first?.data.map(\.items.count) == [1, 1])
        }

        // "Duplicate identifiers"
        @Test func duplicateIdentifiersThrow() throws {
            let old = [Numbered(id: 1)]
            let new = [1, 2, 3, 42, 42].map { Numbered(id: $0) }
            var message = ""
            do throws(ListDiffError) {
                let stages = try ListChanges.stagedDifference(from: old, to: new)
                show(stages)
            } catch {
                // error.description: "duplicate row identifier 42 in the new rows, at 0.3 and 0.4"
                message = error.description
            }
            #expect(message == "duplicate row identifier 42 in the new rows, at 0.3 and 0.4")
        }
    }

    @MainActor
    @Suite("Article: Reload or Animate")
    struct ReloadOrAnimateArticleTests {
        // "Overview"
        @Test func addThenFlush() {
            var model = [10, 20]
            let tableAdapter = TableAdapter(tableView: TableView(rowCounts: [2]), rows: { [model.count] })
            let changes = ListChanges(insertedRows: [IndexPath(row: 2, section: 0)])
            model.append(30)

            let accumulator = ChangeAccumulator(target: tableAdapter)
            // Wherever changes arrive — a controller's delegate, a diff of your arrays:
            accumulator.add(changes)
            // At the end of the commit, on a display-link tick, or after a debounce:
            accumulator.flush()

            #expect(tableAdapter.batches.count == 1)
            #expect(accumulator.lastReport?.outcome == .animated)
        }

        // "Cleaning up controller events": an insert followed by a delete of the same object
        // is nothing, a move whose index paths are equal is an update.
        @Test func controllerEventsAreCleanedUp() {
            let tableAdapter = TableAdapter(tableView: TableView(rowCounts: [3]), rows: { [3] })
            let accumulator = ChangeAccumulator(target: tableAdapter)
            accumulator.willChangeContent()
            accumulator.didChangeObject("new", at: nil, for: .insert, newIndexPath: IndexPath(row: 0, section: 0))
            accumulator.didChangeObject("new", at: IndexPath(row: 0, section: 0), for: .delete, newIndexPath: nil)
            accumulator.didChangeObject(
                "same", at: IndexPath(row: 1, section: 0), for: .move, newIndexPath: IndexPath(row: 1, section: 0))
            accumulator.didChangeContent()
            #expect(accumulator.pendingChanges.count == 1)
            #expect(accumulator.pendingChanges.reloadedRows + accumulator.pendingChanges.reconfiguredRows
                == [IndexPath(row: 1, section: 0)])
        }

        // "How batches compose": inserted then deleted disappears; moved away and back is untouched.
        @Test func compositionIsExact() {
            let tableAdapter = TableAdapter(tableView: TableView(rowCounts: [3]), rows: { [3] })
            let accumulator = ChangeAccumulator(target: tableAdapter)
            accumulator.add(ListChanges(insertedRows: [IndexPath(row: 3, section: 0)]))
            accumulator.add(ListChanges(deletedRows: [IndexPath(row: 3, section: 0)]))
            accumulator.add(ListChanges(movedRows: [.init(from: IndexPath(row: 0, section: 0), to: IndexPath(row: 2, section: 0))]))
            accumulator.add(ListChanges(movedRows: [.init(from: IndexPath(row: 2, section: 0), to: IndexPath(row: 0, section: 0))]))
            #expect(accumulator.pendingChanges.isEmpty)
            #expect(accumulator.flush().outcome == .nothing)
        }

        // "When a flush reloads": a hidden view gets nothing, then exactly one reload.
        @Test func hiddenTargetIsOwedOneReload() {
            var count = 4
            let tableAdapter = TableAdapter(tableView: TableView(rowCounts: [4]), rows: { [count] })
            tableAdapter.isVisible = false
            let accumulator = ChangeAccumulator(target: tableAdapter)
            count = 5
            accumulator.add(ListChanges(insertedRows: [IndexPath(row: 4, section: 0)]))
            #expect(accumulator.flush().outcome == .deferredUntilVisible)
            count = 6
            accumulator.add(ListChanges(insertedRows: [IndexPath(row: 5, section: 0)]))
            #expect(accumulator.flush().outcome == .deferredUntilVisible)
            #expect(tableAdapter.reloads == 0)

            tableAdapter.isVisible = true
            #expect(accumulator.flush().outcome == .reloaded)
            #expect(tableAdapter.reloads == 1 && tableAdapter.batches.isEmpty)
            #expect(tableAdapter.tableView.rowCounts == [6])
        }

        // "When a flush reloads": too many changes, too large a share.
        @Test func defaultPolicyThresholds() {
            let tableAdapter = TableAdapter(tableView: TableView(rowCounts: [4]), rows: { [1] })
            let accumulator = ChangeAccumulator(target: tableAdapter)
            accumulator.add(ListChanges(deletedRows: (0..<3).map { IndexPath(row: $0, section: 0) }))
            let report = accumulator.flush()
            #expect(report.outcome == .reloaded)
            #expect(DefaultReloadPolicy().maximumChangeCount == 500)
            #expect(DefaultReloadPolicy().maximumShare == 0.5)
        }

        // "Observing the decision"
        @Test func observingTheDecision() {
            let logger = Logger()
            let tableAdapter = TableAdapter(tableView: TableView(rowCounts: [1]), rows: { [2] })
            let accumulator = ChangeAccumulator(target: tableAdapter)

            accumulator.onFlush = { report in logger.debug("list update: \(report)") }

            accumulator.add(ListChanges(insertedRows: [IndexPath(row: 1, section: 0)]))
            let report = accumulator.flush()
            #expect(logger.messages == ["list update: \(report)"])
            #expect(accumulator.lastReport?.outcome == report.outcome)
        }

        // "Out-of-order calls": add(_:) while a bracket is open makes the accumulator owe a reload.
        @Test func addInsideAnOpenBracketOwesAReload() {
            let tableAdapter = TableAdapter(tableView: TableView(rowCounts: [2]), rows: { [2] })
            let accumulator = ChangeAccumulator(target: tableAdapter)
            accumulator.willChangeContent()
            accumulator.add(ListChanges(reconfiguredRows: [IndexPath(row: 0, section: 0)]))
            accumulator.didChangeContent()
            #expect(accumulator.pendingReload != nil)
        }
    }
}
