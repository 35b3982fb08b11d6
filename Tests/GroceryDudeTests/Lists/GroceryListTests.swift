import FetchedResultsKit
import FetchedResultsTesting
import GroceryDudeCore
import Testing
import TestSupport

@Suite("Grocery lists")
@MainActor
struct GroceryListTests {
    @Test func sectionsAndOrder() {
        let store = GroceryStore()
        let prepare = GroceryList(store: store, kind: .prepare)
        #expect((0..<prepare.sectionCount).map(prepare.sectionName(at:)) == GroceryStore.seedLocations)
        #expect(names(prepare) == referenceNames(store, kind: .prepare, search: ""))
        let shop = GroceryList(store: store, kind: .shop)
        #expect(names(shop) == referenceNames(store, kind: .shop, search: ""))
        #expect(shop.rowCount == GroceryStore.seed.filter(\.listed).count)
        #expect(shop.indexTitle(at: 0) == "B")
    }

    /// Random edits through the store, undone and redone; every batch a list reports must apply to a strict
    /// simulator and leave it showing exactly what the list (and a from-scratch reference)
    /// holds.
    @Test(arguments: testSeeds(count: 12))
    func everyBatchApplies(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let store = GroceryStore()
        let kind = ListKind.allCases.randomElement(using: &rng)!
        let list = GroceryList(store: store, kind: kind, searchText: Bool.random(using: &rng) ? "a" : "")
        let simulator = GrocerySimulator(dataSource: { simulatorSections(list) })
        var batches = 0
        list.onChange = { changes in
            batches += 1
            simulator.performBatch(stages: changes.staged())
        }
        let pool = ["apple", "Banana", "cherry", "Dates", "éclair", "fig", "grape", "kiwi", "lime", "mango"]
        let searches = ["", "a", "an", "e", "i", "zzz"]
        for step in 0..<60 {
            let items = store.items
            switch Int.random(in: 0..<9, using: &rng) {
            case 0, 1:
                if let item = items.randomElement(using: &rng) { try store.toggle(item) }
            case 2:
                if let item = items.randomElement(using: &rng) {
                    try store.rename(item, to: "\(pool.randomElement(using: &rng)!) \(step)")
                }
            case 3:
                if let item = items.randomElement(using: &rng) { try store.delete(item) }
            case 4:
                try store.add(
                    name: "\(pool.randomElement(using: &rng)!) \(step)", location: store.locations.randomElement(using: &rng),
                    aisle: store.aisles.randomElement(using: &rng), listed: Bool.random(using: &rng))
            case 5:
                list.searchText = searches.randomElement(using: &rng)!
            case 7:
                _ = try? store.undo()  // refused (and said so) after an import that conflicts
            case 8:
                _ = try? store.redo()
            default:
                let count = Int.random(in: 1...6, using: &rng)
                let built = try ImportJob.build(
                    count: count, locations: store.locations.map(\.name), aisles: store.aisles.map(\.name)) { _ in }
                try store.commitImport(built)
            }
            #expect(simulator.failures.isEmpty, "step \(step): \(simulator.failures)")
            #expect(simulator.sections == simulatorSections(list), "step \(step)")
            #expect(names(list) == referenceNames(store, kind: kind, search: list.searchText), "step \(step)")
        }
        #expect(batches > 0)
    }

    @Test func aRenameThatMovesARowMarksItAndKeepsTheCursorOnIt() throws {
        let store = GroceryStore()
        let list = GroceryList(store: store, kind: .prepare)
        let screen = ListScreen(list: list) { true }
        list.onChange = { screen.performBatch(stages: $0.staged()) }
        let butter = try #require(store.item(named: "Butter"))
        #expect(screen.select(butter.objectID))
        try store.rename(butter, to: "Yoghurt butter")
        #expect(screen.marked == [butter.objectID])
        #expect(screen.selectedItemID == butter.objectID)
        #expect(screen.rowCounts == (0..<list.sectionCount).map(list.rowCount(inSection:)))
        screen.reloadData()
        #expect(screen.marked.isEmpty)
    }

    @Test func aDeletedSelectionLeavesTheCursorInPlace() throws {
        let store = GroceryStore()
        let list = GroceryList(store: store, kind: .prepare)
        let screen = ListScreen(list: list) { true }
        list.onChange = { screen.performBatch(stages: $0.staged()) }
        screen.setCursor(3)
        let gone = try #require(screen.selectedItemID)
        try store.delete(try #require(store.graph.object(with: gone, as: Item.self)))
        #expect(screen.cursor == 3)
        #expect(screen.selectedItemID != gone)
        #expect(screen.totalRows == list.rowCount)
    }

    @Test func aNewSectionMarksItsRows() throws {
        let store = GroceryStore()
        let list = GroceryList(store: store, kind: .shop)
        let screen = ListScreen(list: list) { true }
        list.onChange = { screen.performBatch(stages: $0.staged()) }
        let croissants = try #require(store.item(named: "Lemons"))
        try store.toggle(croissants)
        #expect(screen.marked == [croissants.objectID])
    }
}

@Suite("Grocery list predicates")
@MainActor
struct GroceryListPredicateTests {
    @Test func predicatesOfEachList() throws {
        #expect(GroceryList.predicate(kind: .prepare, searchText: "") == nil)
        let shop = try #require(GroceryList.predicate(kind: .shop, searchText: ""))
        #expect(shop.format == "listed == YES")
        let search = try #require(GroceryList.predicate(kind: .shop, searchText: "jam"))
        #expect(search.format == "listed == YES AND name CONTAINS[cd] %@")
        #expect(search.description.contains("CONTAINS[cd]"))
    }

    @Test(arguments: ["\"", "%@", "\\", "' OR TRUEPREDICATE", "ÉCLAIR"])
    func searchTextIsAValueNeverSyntax(text: String) {
        let store = GroceryStore()
        let list = GroceryList(store: store, kind: .prepare, searchText: text)
        #expect(list.rowCount == 0)
        #expect(names(list) == referenceNames(store, kind: .prepare, search: text))
    }
}
