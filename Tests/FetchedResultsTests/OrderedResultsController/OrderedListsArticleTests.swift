// The example of Sources/FetchedResults/FetchedResults.docc/OrderedLists.md ("Hand-ordered
// lists"), compiled and run. When you change the example here, change it in the article too.

import FetchedResults
import FetchedResultsTesting
import Foundation
import Testing

/// The entities of "Hand-ordered lists".
enum OrderedListsArticle {
    final class ShoppingList: GraphObject {
        @Attribute var name = ""
        @Relationship var items: [GroceryItem]
    }

    final class GroceryItem: GraphObject {
        @Attribute var name = ""
        @Attribute var aisle = ""
        @Attribute var listed = true
        @Relationship(inverse: \ShoppingList.items) var list: ShoppingList?
    }

    /// Counts the batches a controller delivers.
    final class Adapter: ResultsControllerDelegate {
        typealias Object = GroceryItem
        var batches: [ListChanges] = []
        func controller(_ controller: any SectionedResults<GroceryItem>, didChangeContentWith changes: ListChanges) {
            batches.append(changes)
        }
    }

    @Suite("Hand-ordered lists article")
    struct Tests {
        @Test func theExampleKeepsTheUsersOrderAndDoesNotEchoADrag() throws {
            let graph = ObjectGraph()
            let weekly = graph.insert(ShoppingList())
            weekly.items = [("milk", "Dairy"), ("bread", "Bakery"), ("butter", "Dairy"), ("rolls", "Bakery")].map { name, aisle in
                let item = graph.insert(GroceryItem())
                item.name = name
                item.aisle = aisle
                return item
            }
            _ = try graph.commit()
            let adapter = Adapter()

            let controller = OrderedResultsController(
                graph: graph, owner: weekly, relationship: \.items,
                predicate: .equal(\.listed, true),
                sectionKey: SectionKey(writable: \.aisle))
            controller.performFetch()
            controller.delegate = adapter

            #expect(controller.sections.map { $0.objects.map(\.name) } == [["bread", "rolls"], ["milk", "butter"]])
            // A drag inside an aisle: written to the relationship, not delivered back.
            try controller.moveRow(from: IndexPath(row: 1, section: 1), to: IndexPath(row: 0, section: 1))
            #expect(weekly.items.map(\.name) == ["butter", "milk", "bread", "rolls"])
            #expect(adapter.batches.isEmpty)
            // A drag into another aisle takes that aisle.
            try controller.moveRow(from: IndexPath(row: 0, section: 1), to: IndexPath(row: 2, section: 0))
            #expect(weekly.items.map(\.name) == ["milk", "bread", "rolls", "butter"])
            #expect(weekly.items.map(\.aisle) == ["Dairy", "Bakery", "Bakery", "Bakery"])
            #expect(adapter.batches.map(\.movedRows) == [[]], "only the moved row's cell is refreshed")
            // A reorder made elsewhere arrives as a move.
            weekly.items.reverse()
            _ = try graph.commit()
            #expect(adapter.batches.last.map { $0.movedRows.count > 0 && $0.insertedRows.isEmpty } == true)
        }
    }
}
