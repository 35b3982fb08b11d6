// The examples and claims of the FetchedResults catalog, compiled and run as tests. When you
// change an example here, change it in the article too (and the other way round).
//
// - `GettingStartedArticleTests` mirrors Sources/FetchedResults/FetchedResults.docc/
//   GettingStarted.md ("Getting started with a results controller"), section by section.
// - `ChangeDeliveryArticleTests` checks what ChangeDelivery.md ("How changes are delivered")
//   claims; that article has no code of its own.
//
// The articles' model types live in `FetchedResultsArticles` so that their names do not clash
// with the README tour's; the suites are nested in it, so the examples read unqualified.

import FetchedResultsKit
import Foundation
import Testing

/// The entities of "Getting started with a results controller".
enum FetchedResultsArticles {
    final class Location: GraphObject {
        @Attribute var name = ""
        @Relationship var items: Set<Item>
    }

    final class Item: GraphObject {
        @Attribute var name = ""
        @Attribute var quantity = 0
        @Attribute var listed = false
        @Relationship(inverse: \Location.items) var location: Location?
    }

    /// Records every whole-batch change a controller delivers.
    final class Recorder: ResultsControllerDelegate {
        typealias Object = Item
        private(set) var changes: [ListChanges] = []
        func controller(_ controller: any SectionedResults<Item>, didChangeContentWith changes: ListChanges) {
            self.changes.append(changes)
        }
    }

    /// A graph with a fridge (milk, eggs and a file), a pantry (rice) and an unlisted item.
    @MainActor
    static func makeGraph() throws -> (ObjectGraph, fridge: Location, pantry: Location) {
        let graph = ObjectGraph()
        let fridge = graph.insert(Location())
        fridge.name = "Fridge"
        let pantry = graph.insert(Location())
        pantry.name = "Pantry"
        for (name, quantity, listed, location) in [
            ("Milk", 1, true, fridge), ("Eggs", 6, true, fridge), ("File 10", 1, true, fridge),
            ("File 2", 1, true, fridge), ("Rice", 2, true, pantry), ("Salt", 0, true, pantry),
            ("Flour", 3, false, pantry),
        ] {
            let item = graph.insert(Item())
            item.name = name
            item.quantity = quantity
            item.listed = listed
            item.location = location
        }
        try graph.commit()
        return (graph, fridge, pantry)
    }
}

extension FetchedResultsArticles {
    @MainActor
    @Suite("Article: Getting started with a results controller")
    struct GettingStartedArticleTests {
        // "Describe what to fetch" and "Fetch and read"
        @Test func describeFetchAndRead() throws {
            let (graph, _, _) = try makeGraph()
            let indexPath = IndexPath(row: 1, section: 0)

            let request = FetchRequest(
                Item.self,
                predicate: .equal(\.listed, true) && .greater(\.quantity, 0),
                sortedBy: [SortKey(\.name, comparison: .localizedStandard)],
                sectionKey: SectionKey(\.location?.name)
            )

            let controller = ResultsController(graph: graph, request: request)
            controller.performFetch()

            let sectionCount = controller.sections.count            // numberOfSections
            let name = controller.sections[0].name                  // "Fridge"
            let rowCount = controller.sections[0].numberOfObjects   // numberOfRows(inSection:)
            let item = controller.object(at: indexPath)             // cellForRow(at:)
            let path = controller.indexPath(for: item)              // where an object is now
            let titles = controller.sectionIndexTitles              // the index on the right edge

            #expect(sectionCount == 2)
            #expect(name == "Fridge")
            #expect(rowCount == 4)
            // "File 2" sorts before "File 10" under .localizedStandard.
            #expect(controller.sections[0].objects.map(\.name) == ["Eggs", "File 2", "File 10", "Milk"])
            #expect(item.name == "File 2")
            #expect(path == indexPath)
            #expect(titles == ["F", "P"])
            #expect(controller.object(ifPresentAt: IndexPath(row: 4, section: 0)) == nil)
        }

        // "Describe what to fetch": closures read keys like key paths do.
        @Test func closureKeys() throws {
            let (graph, _, _) = try makeGraph()
            let request = FetchRequest(
                Item.self,
                predicate: FetchPredicate { $0.quantity > 0 },
                sortedBy: [SortKey { $0.name }],
                sectionKey: SectionKey { $0.location?.name }
            )
            let controller = ResultsController(graph: graph, request: request)
            controller.performFetch()
            #expect(controller.sections.map(\.name) == ["Fridge", "Pantry"])
            #expect(controller.sections[1].objects.map(\.name) == ["Flour", "Rice"])
        }

        // "Describe what to fetch": the window stays true after every commit.
        @Test func fetchWindow() throws {
            let (graph, _, _) = try makeGraph()
            let controller = ResultsController(
                graph: graph, request: FetchRequest(Item.self, sortedBy: [SortKey(\.name)], fetchLimit: 2, fetchOffset: 1))
            controller.performFetch()
            #expect(controller.fetchedObjects.map(\.name) == ["File 10", "File 2"])
            let apple = graph.insert(Item())
            apple.name = "Apple"
            try graph.commit()
            #expect(controller.fetchedObjects.map(\.name) == ["Eggs", "File 10"])
        }

        // "Fetch once, without a controller"
        @Test func fetchOnce() throws {
            let (graph, _, _) = try makeGraph()
            let request = FetchRequest(
                Item.self, predicate: .equal(\.listed, true) && .greater(\.quantity, 0),
                sortedBy: [SortKey(\.name, comparison: .localizedStandard)], sectionKey: SectionKey(\.location?.name))
            let items = graph.fetch(request)            // [Item], in the request's order
            let count = graph.count(for: request)       // how many `fetch` would return
            #expect(items.map(\.name) == ["Eggs", "File 2", "File 10", "Milk", "Flour", "Rice"].filter { $0 != "Flour" })
            #expect(count == 5)
            let controller = ResultsController(graph: graph, request: request)
            controller.performFetch()
            #expect(items.map(\.objectID) == controller.fetchedObjects.map(\.objectID))
            var window = request
            window.fetchOffset = 1
            window.fetchLimit = 2
            #expect(graph.fetch(window).map(\.name) == ["File 2", "File 10"])
            #expect(graph.count(for: window) == 2)
        }

        // "Restore state"
        @Test func restoreState() throws {
            let (graph, _, _) = try makeGraph()
            let controller = ResultsController(graph: graph, request: FetchRequest(Item.self, sortedBy: [SortKey(\.name)]))
            controller.performFetch()
            let first = IndexPath(row: 0, section: 0)
            let saved = try #require(controller.restorationIdentifier(forObjectAt: first))
            #expect(controller.indexPath(forRestorationIdentifier: saved) == first)
            graph.delete(controller.object(at: first))
            try graph.commit()
            #expect(controller.indexPath(forRestorationIdentifier: saved) == nil)
        }

        // "Change the request": a new predicate is reported as one change.
        @Test func changeTheRequest() throws {
            let (graph, _, _) = try makeGraph()
            let controller = ResultsController(graph: graph, request: FetchRequest(Item.self, sortedBy: [SortKey(\.name)]))
            controller.performFetch()
            let recorder = Recorder()
            controller.delegate = recorder
            let searchText = "fi"

            controller.request.predicate = .contains(\.name, searchText)

            #expect(controller.fetchedObjects.map(\.name) == ["File 10", "File 2"])
            #expect(recorder.changes.count == 1)
        }
    }

    @MainActor
    @Suite("Article: How changes are delivered")
    struct ChangeDeliveryArticleTests {
        private func fridgeController(_ graph: ObjectGraph) -> ResultsController<Item> {
            let controller = ResultsController(
                graph: graph,
                request: FetchRequest(Item.self, predicate: .equal(\.listed, true), sortedBy: [SortKey(\.name)])
            )
            controller.performFetch()
            return controller
        }

        // "One commit, one change": a commit that changes nothing the controller shows
        // delivers nothing.
        @Test func commitOutsideTheResultsDeliversNothing() throws {
            let (graph, _, _) = try makeGraph()
            let controller = fridgeController(graph)
            let recorder = Recorder()
            controller.delegate = recorder
            let unlisted = try #require(graph.objects(of: Item.self).first { !$0.listed })
            unlisted.quantity = 9
            try graph.commit()
            #expect(recorder.changes.isEmpty)
        }

        // "The index spaces": a sort-key write that keeps the row between the same
        // neighbours is an update, not a move.
        @Test func sortKeyWriteThatKeepsTheOrderIsAnUpdate() throws {
            let (graph, _, _) = try makeGraph()
            let controller = fridgeController(graph)
            let recorder = Recorder()
            controller.delegate = recorder
            let milk = try #require(controller.fetchedObjects.first { $0.name == "Milk" })
            let row = try #require(controller.indexPath(for: milk))
            milk.name = "Milk (2 l)"
            try graph.commit()
            let changes = try #require(recorder.changes.first)
            #expect(changes.movedRows.isEmpty)
            #expect(changes.reloadedRows + changes.reconfiguredRows == [row])
        }

        // "Updates": a row that moves and changed is a move plus a reconfigure of its
        // before-position; staged, the refresh comes second at the after-position.
        @Test func movedAndChangedRow() throws {
            let (graph, _, _) = try makeGraph()
            let controller = fridgeController(graph)
            let recorder = Recorder()
            controller.delegate = recorder
            let eggs = try #require(controller.fetchedObjects.first { $0.name == "Eggs" })
            eggs.name = "Yoghurt"
            try graph.commit()
            let changes = try #require(recorder.changes.first)
            let move = try #require(changes.movedRows.first)
            #expect(changes.reconfiguredRows == [move.from])
            let stages = changes.staged()
            #expect(stages.count == 2)
            #expect(stages[1].reconfiguredRows == [move.to])
        }

        // "One commit, one change": renaming a location re-sections exactly its items.
        @Test func renamingALocationResectionsItsItems() throws {
            let (graph, _, pantry) = try makeGraph()
            let controller = ResultsController(
                graph: graph,
                request: FetchRequest(Item.self, sortedBy: [SortKey(\.name)], sectionKey: SectionKey(\.location?.name))
            )
            controller.performFetch()
            let recorder = Recorder()
            controller.delegate = recorder
            pantry.name = "Cupboard"
            try graph.commit()
            #expect(controller.sections.map(\.name) == ["Cupboard", "Fridge"])
            #expect(controller.sections[0].objects.map(\.name) == ["Flour", "Rice", "Salt"])
            #expect(recorder.changes.count == 1)
        }
    }
}

// MARK: - Searching.md ("Searching a list") and FormatPredicates.md ("Format predicates")

extension FetchedResultsArticles {
    /// The list of Searching.md: Banana, Basil and Bread in the fridge, Milk unlisted.
    @MainActor
    static func makeSearchGraph() throws -> ObjectGraph {
        let graph = ObjectGraph()
        let fridge = graph.insert(Location())
        fridge.name = "Fridge"
        for (name, listed) in [("Banana", true), ("Basil", false), ("Bread", true), ("Milk", false)] {
            let item = graph.insert(Item())
            item.name = name
            item.listed = listed
            item.location = fridge
        }
        try graph.commit()
        return graph
    }

    @MainActor
    @Suite("Article: Searching a list")
    struct SearchingArticleTests {
        // "Search a text of each object" and "Map a search row to the main list"
        @Test func searchATextAndMapARow() throws {
            let graph = try makeSearchGraph()
            let items = ResultsController(
                graph: graph,
                request: FetchRequest(Item.self, sortedBy: [SortKey(\.name)], sectionKey: SectionKey(\.location?.name))
            )
            items.performFetch()

            let search = SearchController(base: items, searching: \.name)   // name CONTAINS[cd] text
            let recorder = SearchRecorder()
            search.delegate = recorder
            search.searchText = "ba"    // Banana, Basil: one animated change from the whole list
            #expect(search.fetchedObjects.map(\.name) == ["Banana", "Basil"])
            search.searchText = "ban"   // Banana: tests only the current matches
            #expect(search.fetchedObjects.map(\.name) == ["Banana"])

            let picked = IndexPath(row: 0, section: 0)
            let path = try #require(search.baseIndexPath(forObjectAt: picked))
            #expect(items.object(at: path).name == "Banana")

            search.searchText = ""      // the whole list again, as a diff
            #expect(search.fetchedObjects.map(\.name) == ["Banana", "Basil", "Bread", "Milk"])
            #expect(recorder.changes.count == 3)
        }

        // "Search with your own predicate"
        @Test func ownPredicateAndFormat() throws {
            let graph = try makeSearchGraph()
            let items = ResultsController(
                graph: graph,
                request: FetchRequest(Item.self, sortedBy: [SortKey(\.name)], sectionKey: SectionKey(\.location?.name))
            )
            items.performFetch()

            let prefixSearch = SearchController(base: items, narrowing: .beginsWith()) { text in
                .beginsWith(\.name, text)
            }
            prefixSearch.searchText = "b"   // Banana, Basil, Bread
            #expect(prefixSearch.fetchedObjects.map(\.name) == ["Banana", "Basil", "Bread"])

            let schema = GraphPredicateSchema(Item.self, Location.self)
            let listedSearch = try SearchController(
                base: items,
                format: "name CONTAINS[cd] $text AND listed == YES",
                schema: schema,
                narrowing: .contains(options: [.caseInsensitive, .diacriticInsensitive])
            )
            listedSearch.searchText = "a"   // the listed items whose name contains "a"
            #expect(listedSearch.fetchedObjects.map(\.name) == ["Banana", "Bread"])
        }
    }

    /// Records each whole batch a search delivers.
    final class SearchRecorder: ResultsControllerDelegate {
        private(set) var changes: [ListChanges] = []
        func controller(_ controller: any SectionedResults<Item>, didChangeContentWith changes: ListChanges) {
            self.changes.append(changes)
        }
    }

    @MainActor
    @Suite("Article: Format predicates")
    struct FormatPredicatesArticleTests {
        // "Fetch with a format"
        @Test func fetchWithAFormat() throws {
            let (graph, _, _) = try makeGraph()
            let request = try FetchRequest(
                Item.self,
                format: "listed == YES AND quantity > %d", 1,
                sortedBy: [SortKey(\.name)]
            )
            let controller = ResultsController(graph: graph, request: request)
            controller.performFetch()
            #expect(controller.fetchedObjects.map(\.name) == ["Eggs", "Rice"])
        }

        // "Parse and bind"
        @Test func parseAndBind() throws {
            let graph = ObjectGraph()
            let fridge = graph.insert(Location())
            fridge.name = "Fridge"
            let item = graph.insert(Item())
            item.name = "Café au lait"
            item.location = fridge
            try graph.commit()

            let predicate = try FormatPredicate("name CONTAINS[cd] %@ AND location.name == %@", "cafe", "Fridge")
                .bind(to: Item.self)
            #expect(predicate.evaluate(item))   // true for "Café au lait" in the fridge
            let request = FetchRequest(Item.self, predicate: predicate, sortedBy: [SortKey(\.name)])
            #expect(predicate.description == #"name CONTAINS[cd] "cafe" AND location.name == "Fridge""#)
            let controller = ResultsController(graph: graph, request: request)
            controller.performFetch()
            #expect(controller.fetchedObjects == [item])
        }

        // "Share a schema"
        @Test func shareASchema() throws {
            let (graph, _, _) = try makeGraph()
            let schema = GraphPredicateSchema(Item.self)            // Location comes with Item.location
            let observation = schema.maintainFoldedText(in: graph)
            let milk = FetchRequest(Item.self, predicate: try FormatPredicate("name CONTAINS[cd] %@", "milk").bind(to: schema))
            let eggs = try FetchRequest(Item.self, format: "name CONTAINS[cd] %@", "eggs", schema: schema)
            for (request, name) in [(milk, "Milk"), (eggs, "Eggs")] {
                let controller = ResultsController(graph: graph, request: request)
                controller.performFetch()
                #expect(controller.fetchedObjects.map(\.name) == [name])
            }
            #expect(schema.foldedTextCount > 0)
            observation.cancel()
        }

        // "Errors say where"
        @Test func errorsSayWhere() {
            var message = ""
            do {
                _ = try FormatPredicate("name CONTAINS[cd] AND listed == YES")
            } catch {
                message = error.localizedDescription
            }
            #expect(message.hasPrefix("syntax error at offset 18: found AND, expected "))
        }

        // "Errors say where": binding errors.
        @Test func bindingErrorsSayWhere() {
            do {
                _ = try FetchRequest(Item.self, format: "quantity > 1 AND location.colour == 'red'")
                Issue.record("an unknown key must throw")
            } catch {
                #expect(error.offset == 26)   // 26, the offset of "colour"
                #expect("\(error)".hasPrefix(
                    "unknown key at offset 26: found colour, expected a property of Location (items, name)"))
            }
        }

        // "The syntax": a description parses back.
        @Test func descriptionParsesBack() throws {
            let predicate = try FormatPredicate("ANY items.name BEGINSWITH[c] 'b' OR name IN {'Fridge', 'Pantry'}")
            #expect(try FormatPredicate(predicate.description).description == predicate.description)
        }
    }
}
