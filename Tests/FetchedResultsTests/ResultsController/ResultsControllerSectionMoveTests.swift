import FetchedResults
import FetchedResultsTesting
import Foundation
import Testing
import TestSupport

/// Renaming the related objects that name whole sections: the controller moves each section
/// as a block and reports the same valid batch as a row-by-row update would.
@Suite("ResultsController section moves")
struct ResultsControllerSectionMoveTests {
    @Test(arguments: testSeeds(count: 4))
    func renamingLocationsMovesTheirSections(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let graph = ObjectGraph()
        let locations = (0..<6).map { index in
            let location = graph.insert(Location())
            location.name = "shelf \(index)"
            return location
        }
        for index in 0..<300 {
            let item = graph.insert(Item())
            item.name = "item \(Int.random(in: 0..<50, using: &rng))"
            item.quantity = index
            item.location = locations.randomElement(using: &rng)
        }
        _ = try graph.commit()
        let sectionsAscending = Bool.random(using: &rng)
        let controller = ResultsController(graph: graph, request: FetchRequest(
            Item.self, sortedBy: [SortKey(\.name)], sectionKey: SectionKey(\.location?.name, ascending: sectionsAscending)))
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        controller.performFetch()
        func reference() -> [ListSimulator<String, ObjectID, String>.Section] {
            referenceFetch(graph, predicate: { _ in true }, section: { $0.location?.name ?? "" },
                           sectionsAscending: sectionsAscending, sort: [{ compare($0.name, $1.name) }])
        }

        for step in 0..<12 {
            let before = rendered(controller)
            // One to three locations take names no other location has: their sections move
            // whole, past, between or before the others.
            for location in locations.shuffled(using: &rng).prefix(Int.random(in: 1...3, using: &rng)) {
                location.name = "shelf \(step)-\(Int.random(in: 0..<1_000, using: &rng))"
            }
            _ = try graph.commit()
            let after = rendered(controller)
            #expect(after.map(\.id) == reference().map(\.id))
            #expect(after.map { $0.rows.map(\.id) } == reference().map { $0.rows.map(\.id) })
            let batch = try #require(delegate.batches().last)
            expectReproduces(batch.whole, from: before, to: after, "step \(step): \(batch.whole)")
            expectReproduces(batch.replayed, from: before, to: after, "step \(step), delegate callbacks: \(batch.replayed)")
        }
    }
}
