// The examples of README.md's tour, compiled and run as tests. When you change one here,
// change it in README.md too (and the other way round): each section names its heading.

import FetchedResultsKit
import FetchedResultsTesting
import Foundation
import Testing

// MARK: - "The object graph"

final class Location: GraphObject {
    @Attribute var name = ""
    @Relationship var items: Set<Item>
}

final class Item: GraphObject {
    @Attribute var name = ""
    @Attribute var listed = false
    @Attribute var quantity = 1
    @Relationship(inverse: \Location.items) var location: Location?
}

// MARK: - "A controller with sections"

final class ItemsAdapter: ResultsControllerDelegate {
    private(set) var delivered: [ListChanges] = []
    func controller(_ controller: any SectionedResults<Item>, didChangeContentWith changes: ListChanges) {
        print(changes)                                  // one batch per commit
        delivered.append(changes)
    }
}

// MARK: - "Hand-ordered lists"

final class Playlist: GraphObject {
    @Attribute var title = ""
    @Relationship var songs: [Song]
}

final class Song: GraphObject {
    @Attribute var title = ""
    @Relationship(inverse: \Playlist.songs) var playlist: Playlist?
}

/// Keeps each whole batch a controller delivers.
final class BatchLog: ResultsControllerDelegate {
    typealias Object = Song
    var batches: [ListChanges] = []
    func controller(_ controller: any SectionedResults<Song>, didChangeContentWith changes: ListChanges) { batches.append(changes) }
}

// MARK: - "The accumulator and a view adapter"

/// A view adapter: what an app writes around its table view. This one prints.
final class PrintingList: ListUpdateTarget {
    var isVisible = true
    var displayedRowCounts: [Int] = []
    var rows: () -> [Int] = { [] }
    private(set) var log: [String] = []

    func reloadData() {
        displayedRowCounts = rows()
        log.append("reload")
    }

    func performBatch(stages: [ListChanges]) {
        displayedRowCounts = rows()
        log.append(contentsOf: stages.map(\.description))
    }
}

@MainActor
@Suite("README tour")
struct ReadmeTourTests {
    @Test func objectGraph() throws {
        let graph = ObjectGraph()
        let fridge = graph.insert(Location())
        fridge.name = "Fridge"
        let milk = graph.insert(Item())
        milk.name = "Milk"
        milk.location = fridge  // fridge.items now holds milk too

        var seen: [GraphChanges] = []
        let observation = graph.addObserver { seen.append($0) }
        let changes = try graph.commit(author: "readme")

        #expect(changes?.inserted == [fridge.objectID, milk.objectID])
        #expect(fridge.items == [milk])
        #expect(seen.count == 1)
        observation.cancel()
    }

    @Test func controllerWithSections() throws {
        let graph = ObjectGraph()
        let fridge = graph.insert(Location())
        fridge.name = "Fridge"
        let pantry = graph.insert(Location())
        pantry.name = "Pantry"
        for (name, location) in [("Milk", fridge), ("Eggs", fridge), ("Rice", pantry)] {
            let item = graph.insert(Item())
            item.name = name
            item.location = location
        }
        try graph.commit()

        let request = FetchRequest(
            Item.self,
            sortedBy: [SortKey(\.name, comparison: .localizedStandard)],
            sectionKey: SectionKey(\.location?.name)
        )
        let controller = ResultsController(graph: graph, request: request)
        controller.performFetch()
        #expect(controller.sections.map(\.name) == ["Fridge", "Pantry"])
        #expect(controller.object(at: IndexPath(row: 0, section: 0)).name == "Eggs")

        let adapter = ItemsAdapter()
        controller.delegate = adapter                           // held weakly, as in Core Data

        // Renaming a location re-sections every item that reads it.
        pantry.name = "Cupboard"
        try graph.commit()
        #expect(controller.sections.map(\.name) == ["Cupboard", "Fridge"])
        #expect(adapter.delivered.count == 1)
    }

    @Test func oneShotFetchAndCount() throws {
        let graph = ObjectGraph()
        for (name, listed) in [("Milk", true), ("Bread", false), ("Eggs", true)] {
            let item = graph.insert(Item())
            item.name = name
            item.listed = listed
        }
        try graph.commit()

        let listed = FetchRequest(Item.self, predicate: .equal(\.listed, true), sortedBy: [SortKey(\.name)])
        let toBuy = graph.fetch(listed)             // [Item], in the request's order, read now
        let howMany = graph.count(for: listed)      // 2, without reading sort keys or sorting
        #expect(toBuy.map(\.name) == ["Eggs", "Milk"])
        #expect(howMany == 2)
    }

    @Test func totals() throws {
        let graph = ObjectGraph()
        let fridge = graph.insert(Location())
        fridge.name = "Fridge"
        let pantry = graph.insert(Location())
        pantry.name = "Pantry"
        var eggs: Item!
        for (name, location, listed, quantity) in [("Milk", fridge, true, 2), ("Eggs", fridge, false, 3), ("Rice", pantry, true, 1)] {
            let item = graph.insert(Item())
            item.name = name
            item.location = location
            item.listed = listed
            item.quantity = quantity
            if name == "Eggs" { eggs = item }
        }
        try graph.commit()

        let toGet = Total.count(where: FetchPredicate<Item>.equal(\.listed, true))
        let pieces = Total.sum(\Item.quantity)
        var totalled = FetchRequest(Item.self, sortedBy: [SortKey(\.name)], sectionKey: SectionKey(\.location?.name))
        totalled.totals = [AnyTotal(toGet), AnyTotal(pieces)]
        let shop = ResultsController(graph: graph, request: totalled)
        shop.performFetch()
        #expect(shop.total(toGet) == 2)                   // 2: the listed items of every section
        #expect(shop.sections[0].total(pieces) == 5)      // 5: the first section's quantities, added up

        let adapter = ItemsAdapter()
        shop.delegate = adapter
        eggs.quantity = 6
        try graph.commit()                  // the Fridge's quantities now add up to 8
        #expect(shop.sections[0].total(pieces) == 8)
        #expect(adapter.delivered.count == 1)
    }

    @Test func accumulatorWithViewAdapter() throws {
        var model = Array(1...20)
        let list = PrintingList()
        list.rows = { [model.count] }
        list.reloadData()

        let accumulator = ChangeAccumulator(target: list)
        // Two batches arrive before the screen refreshes…
        model.append(21)
        accumulator.add(ListChanges(insertedRows: [IndexPath(row: 20, section: 0)]))
        model.remove(at: 0)
        accumulator.add(ListChanges(deletedRows: [IndexPath(row: 0, section: 0)]))
        // …and are delivered as one batch relative to what the list last showed.
        let report = accumulator.flush()
        #expect(report.outcome == .animated)
        #expect(list.log.last == "ListChanges(-[0.0] +[0.19])")
    }

    @Test func search() throws {
        let graph = ObjectGraph()
        let fridge = graph.insert(Location())
        fridge.name = "Fridge"
        for name in ["Banana", "Bread", "Basil", "Milk"] {
            let item = graph.insert(Item())
            item.name = name
            item.location = fridge
        }
        try graph.commit()
        let items = ResultsController(
            graph: graph,
            request: FetchRequest(Item.self, sortedBy: [SortKey(\.name)], sectionKey: SectionKey(\.location?.name))
        )
        items.performFetch()

        let search = SearchController(base: items, searching: \.name)  // name CONTAINS[cd] text
        search.searchText = "ba"  // delivered as one animated change, never a reload
        #expect(search.fetchedObjects.map(\.name) == ["Banana", "Basil"])
        search.searchText = "ban"  // narrowing: tests only the current matches
        #expect(search.fetchedObjects.map(\.name) == ["Banana"])

        // A format string with `$text` is bound against a schema that knows every class it reaches.
        let both = try SearchController(
            base: items, format: "name CONTAINS[cd] $text OR location.name CONTAINS[cd] $text",
            schema: GraphPredicateSchema(Item.self, Location.self),
            narrowing: .contains(options: [.caseInsensitive, .diacriticInsensitive]))
        both.searchText = "fri"     // every item in the Fridge, and any item named "fri…"
        #expect(both.fetchedObjects.map(\.name) == ["Banana", "Basil", "Bread", "Milk"])
        both.searchText = "mil"
        #expect(both.fetchedObjects.map(\.name) == ["Milk"])

        // A row picked in the search results is the same object in the main list.
        let picked = IndexPath(row: 0, section: 0)
        #expect(items.object(at: try #require(search.baseIndexPath(forObjectAt: picked))).name == "Banana")
    }

    @Test func handOrderedLists() throws {
        let graph = ObjectGraph()
        let mix = graph.insert(Playlist())
        mix.songs = ["One", "Two", "Three", "Four"].map { title in
            let song = graph.insert(Song())
            song.title = title
            return song
        }
        _ = try graph.commit()
        let log = BatchLog()

        let songs = OrderedResultsController(graph: graph, owner: mix, relationship: \.songs)
        songs.performFetch()
        songs.delegate = log
        // The user dragged the first row below the third; the table view already shows it.
        try songs.moveRow(from: IndexPath(row: 0, section: 0), to: IndexPath(row: 2, section: 0))
        #expect(mix.songs.map(\.title) == ["Two", "Three", "One", "Four"])
        #expect(songs.fetchedObjects.map(\.title) == ["Two", "Three", "One", "Four"])
        #expect(log.batches.allSatisfy { $0.isEmpty }, "the drag is not delivered back")
        mix.songs.reverse()
        try graph.commit()
        #expect(songs.fetchedObjects.map(\.title) == ["Four", "One", "Three", "Two"])
        let batch = try #require(log.batches.last)
        #expect(!batch.movedRows.isEmpty && batch.insertedRows.isEmpty && batch.deletedRows.isEmpty)
    }

    @Test func restoration() throws {
        let graph = ObjectGraph()
        let milk = graph.insert(Item())
        milk.name = "Milk"
        try graph.commit()
        let controller = ResultsController(graph: graph, request: FetchRequest(Item.self, sortedBy: [SortKey(\.name)]))
        controller.performFetch()

        let saved = try #require(controller.restorationIdentifier(forObjectAt: IndexPath(row: 0, section: 0)))
        // … the app is relaunched with the same graph, or the list changed meanwhile …
        let path = controller.indexPath(forRestorationIdentifier: saved)
        #expect(path == IndexPath(row: 0, section: 0))
    }

    @Test func formatPredicates() throws {
        let graph = ObjectGraph()
        let cafe = graph.insert(Item())
        cafe.name = "Café au lait"
        cafe.listed = true
        let tea = graph.insert(Item())
        tea.name = "Tea"
        tea.listed = true
        try graph.commit()

        let cafes = try FetchRequest(
            Item.self, format: "name CONTAINS[cd] %@ AND listed == YES", "cafe",
            sortedBy: [SortKey(\.name)]
        )
        let predicate = try FormatPredicate("name CONTAINS[cd] %@ AND listed == YES", "cafe").bind(to: Item.self)
        #expect(predicate.evaluate(cafe))
        #expect(!predicate.evaluate(tea))
        let sameRequest = FetchRequest(Item.self, predicate: predicate, sortedBy: [SortKey(\.name)])
        for request in [cafes, sameRequest] {
            let controller = ResultsController(graph: graph, request: request)
            controller.performFetch()
            #expect(controller.fetchedObjects.map(\.name) == ["Café au lait"])
        }

        #expect(throws: PredicateSyntaxError.self) {
            try FormatPredicate("name CONTAINS[cd] AND", "cafe")
        }
    }

    @Test func arrayDiff() throws {
        struct Aisle: Identifiable { var id: String; var items: [Product] }
        struct Product: Identifiable, Equatable { var id: String; var price: Int }

        let old = [Aisle(id: "Dairy", items: [.init(id: "Milk", price: 2), .init(id: "Butter", price: 3)])]
        let new = [
            Aisle(id: "Dairy", items: [.init(id: "Butter", price: 4)]),
            Aisle(id: "Bakery", items: [.init(id: "Bread", price: 1)]),
        ]
        let stages = try ListChanges.stagedDifference(from: old, to: new, rows: \.items)
        // Milk deleted and Bakery inserted; Butter, repriced, moves up from 0.1 to 0.0, so it
        // is reconfigured at 0.0 in a second stage, where its position no longer changes.
        #expect(stages == [
            ListChanges(insertedSections: [1], deletedRows: [IndexPath(row: 0, section: 0)]),
            ListChanges(reconfiguredRows: [IndexPath(row: 0, section: 0)]),
        ])

        // Prove it the way a table view would: apply it to a strict simulator.
        let table = ListSimulator<String, String, Int>(
            old.map { .init(id: $0.id, rows: $0.items.map { .init(id: $0.id, content: $0.price) }) }
        )
        try table.apply(
            stages: stages,
            newState: new.map { .init(id: $0.id, rows: $0.items.map { .init(id: $0.id, content: $0.price) }) }
        )
        #expect(table.rowIDs == [["Butter"], ["Bread"]])
    }

}

// MARK: - "Unit-testing a view model with ListSimulator" (as written in the README)

/// The view model under test: a sorted list that says which rows changed.
final class FridgeModel {
    private(set) var items: [String]
    init(items: [String]) { self.items = items.sorted() }

    /// Adds an item in order and returns the change for the list view.
    func add(_ item: String) -> ListChanges {
        let row = items.firstIndex { $0 > item } ?? items.count
        items.insert(item, at: row)
        return ListChanges(insertedRows: [IndexPath(row: row, section: 0)])
    }
}

@Suite("README tour: unit-testing a view model")
struct ReadmeViewModelTests {
    @Test func addingButterInsertsARow() {
        let model = FridgeModel(items: ["Milk", "Eggs"])
        let before = ListSimulator.sections(["Fridge": model.items])
        let change = model.add("Butter")
        expectApplying(change, from: before, yields: ListSimulator.sections(["Fridge": model.items]))
    }

    /// Sections from runtime data; the data source is read in `init`, then at every batch.
    @Test func sectionsFromRuntimeData() {
        typealias Table = ListSimulator<String, String, String>
        var aisles = [(name: "Dairy", items: ["Milk"]), (name: "Bakery", items: ["Bread", "Rolls"])]
        let table = Table { aisles.map { Table.Section(id: $0.name, rowIDs: $0.items) } }   // reads aisles now
        #expect(table.rowIDs == [["Milk"], ["Bread", "Rolls"]])
        #expect(table.reloadCount == 0)
        aisles[0].items.append("Butter")
        table.performBatch(stages: [ListChanges(insertedRows: [IndexPath(row: 1, section: 0)])])   // reads aisles again
        #expect(table.failures.isEmpty)                                        // true: the batch was valid
        #expect(table.rowIDs == [["Milk", "Butter"], ["Bread", "Rolls"]])
        #expect(Table.sections(aisles.map { ($0.name, $0.items) }) == table.sections)
    }

    @Test func twoAdditionsAnimateAsOneBatch() {
        typealias Table = ListSimulator<String, String, String>
        let model = FridgeModel(items: ["Eggs", "Milk", "Yogurt"])
        let table = Table { Table.sections(["Fridge": model.items]) }   // the table view
        table.reloadData()
        // By default a batch that changes more than half the rows reloads instead of animating:
        // in a three-row list, that is two changes. Let batches of fewer than 8 changes animate.
        let accumulator = ChangeAccumulator(target: table, policy: DefaultReloadPolicy(minimumChangeCountForShare: 8))
        accumulator.add(model.add("Butter"))
        accumulator.add(model.add("Apples"))
        accumulator.flush()
        #expect(table.failures.isEmpty)
        #expect(table.animatedUpdateCount == 1)
        #expect(table.rowIDs == [["Apples", "Butter", "Eggs", "Milk", "Yogurt"]])
    }

    /// The README's comment is true: the default policy reloads the same two additions.
    @Test func theDefaultPolicyReloadsTwoChangesInThreeRows() {
        typealias Table = ListSimulator<String, String, String>
        let model = FridgeModel(items: ["Eggs", "Milk", "Yogurt"])
        let table = Table { Table.sections(["Fridge": model.items]) }
        table.reloadData()
        let accumulator = ChangeAccumulator(target: table)
        accumulator.add(model.add("Butter"))
        accumulator.add(model.add("Apples"))
        accumulator.flush()
        #expect(table.failures.isEmpty)
        #expect(table.animatedUpdateCount == 0)
        #expect(table.reloadCount == 2)
        #expect(table.rowIDs == [["Apples", "Butter", "Eggs", "Milk", "Yogurt"]])
    }
}

// MARK: - "Adapting to a UI toolkit": the UIKit sketch's shape, without UIKit

/// A stand-in for a `@MainActor` view controller with a table view.
@MainActor
final class ItemsScreen {
    var controller: ResultsController<Item>!
    lazy var accumulator = ChangeAccumulator(target: self)
    var isOnScreen = true
    var rowCounts: [Int] = []
    private(set) var batches: [[ListChanges]] = []

    func showRows() { rowCounts = controller.sections.map(\.numberOfObjects) }
}

extension ItemsScreen: @MainActor ResultsControllerDelegate {
    func controller(_ controller: any SectionedResults<Item>, didChangeContentWith changes: ListChanges) {
        accumulator.add(changes)
        accumulator.flush()   // or once per display-link tick
    }
}

extension ItemsScreen: @MainActor ListUpdateTarget {
    var isVisible: Bool { isOnScreen }
    var displayedRowCounts: [Int] { rowCounts }
    func reloadData() { showRows() }
    func performBatch(stages: [ListChanges]) {
        batches.append(stages)
        showRows()
    }
}

@MainActor
@Suite("README: a @MainActor view adapter")
struct ReadmeMainActorAdapterTests {
    @Test func isolatedConformancesDriveTheList() throws {
        let graph = ObjectGraph()
        let fridge = graph.insert(Location())
        fridge.name = "Fridge"
        for name in ["Milk", "Eggs", "Cheese", "Yogurt"] {
            let item = graph.insert(Item())
            item.name = name
            item.location = fridge
        }
        try graph.commit()

        let screen = ItemsScreen()
        screen.controller = ResultsController(
            graph: graph, request: FetchRequest(Item.self, sortedBy: [SortKey(\.name)])
        )
        screen.controller.delegate = screen
        screen.controller.performFetch()
        screen.reloadData()

        let butter = graph.insert(Item())
        butter.name = "Butter"
        try graph.commit()
        #expect(screen.batches == [[ListChanges(insertedRows: [IndexPath(row: 0, section: 0)])]])
        #expect(screen.rowCounts == [5])
    }
}

// MARK: - "Keeping data"

@Suite("README tour: keeping data")
struct ReadmeKeepingDataTests {
    @Test func keepingData() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let schema = try StoreSchema([Item.self, Location.self])   // throws for a type it cannot store
        let store = try GraphStore.open(at: directory, schema: schema)
        let graph = store.graph
        let milk = graph.insert(Item())
        milk.name = "Milk"
        try graph.commit()
        let saved = milk.objectID.uriRepresentation
        store.close()
        let reopened = try GraphStore.open(at: directory, schema: schema)
        let id = reopened.graph.objectID(forURIRepresentation: saved)
        #expect(id.flatMap { reopened.graph.object(with: $0) as? Item }?.name == "Milk")
        #expect(reopened.graph.identifier == graph.identifier)
        reopened.close()
    }
}

@Suite("README tour: one store, many processes, and its history")
@MainActor
struct ReadmeSharingTests {
    @Test func anotherProcessesCommitArrivesWhileFollowing() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let schema = try StoreSchema([Item.self, Location.self])
        let store = try GraphStore.open(at: directory, schema: schema, options: .init(sharing: .shared))
        let following = Task { @MainActor in try await store.followChanges() }   // the others' commits, as they come
        // "Another process": a second store on the directory.
        let other = try GraphStore.open(at: directory, schema: schema, options: .init(sharing: .shared))
        other.graph.insert(Item()).name = "Oat milk"
        try other.graph.commit(author: "grocery-dude add")
        var heard: [GraphChanges] = []
        let observation = store.graph.addObserver { heard.append($0) }
        let deadline = ContinuousClock.now + .seconds(20)
        while heard.isEmpty && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        following.cancel()
        observation.cancel()
        #expect(heard.first?.isExternal == true)
        #expect(heard.first?.author == "grocery-dude add")
        #expect(store.graph.objects(of: Item.self).map(\.name) == ["Oat milk"])
        other.close()
        store.close()
    }

    @Test func historyAfterASavedToken() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let schema = try StoreSchema([Item.self, Location.self])
        let store = try GraphStore.open(at: directory, schema: schema)
        var savedToken = store.historyToken
        store.graph.insert(Item()).name = "Milk"
        try store.graph.commit(author: "me")
        let changes = try store.history(after: savedToken)   // every process's commits, oldest first
        for transaction in changes {
            #expect(transaction.author == "me" && transaction.inserted.count == 1 && transaction.timestamp != nil)
            savedToken = transaction.token                    // Codable: survives a relaunch
        }
        #expect(changes.count == 1 && savedToken == store.historyToken)
        store.close()
    }
}

// MARK: - "Undo and redo"

@Suite("README tour: undo and redo")
struct ReadmeUndoTests {
    @Test func undoAndRedo() throws {
        let graph = ObjectGraph()
        let milk = graph.insert(Item())
        milk.name = "Milk"
        try graph.commit()
        let undo = GraphUndoManager(levelsOfUndo: 50)
        graph.undoManager = undo
        graph.delete(milk)
        try graph.commit(actionName: "Delete Milk")
        try undo.undo()
        #expect(!milk.isDeleted && graph.object(with: milk.objectID) === milk)
        #expect(undo.redoActionName == "Delete Milk")
    }
}
