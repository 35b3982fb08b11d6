// The example of the FetchedResultsKit catalog's landing page
// (Sources/FetchedResultsKit/FetchedResultsKit.docc/FetchedResultsKit.md), compiled and run.
// When you change it here, change it in the article too (and the other way round).

import FetchedResultsKit
import Foundation
import Testing

/// The landing page's model, in its own namespace so that its names do not clash.
enum FetchedResultsKitLanding {
    final class Item: GraphObject {
        @Attribute var name = ""
        @Attribute var listed = false
    }

    @MainActor
    @Suite("Article: FetchedResultsKit overview")
    struct LandingPageTests {
        @Test func theDataFlowExample() throws {
            let graph = ObjectGraph()
            let milk = graph.insert(Item())
            milk.name = "Milk"
            try graph.commit()

            let controller = ResultsController(
                graph: graph,
                request: FetchRequest(Item.self, sortedBy: [SortKey(\.name)])
            )
            controller.performFetch()
            #expect(controller.object(at: IndexPath(row: 0, section: 0)).name == "Milk")
        }
    }
}
