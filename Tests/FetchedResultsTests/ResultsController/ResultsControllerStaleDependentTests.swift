import FetchedResults
import FetchedResultsTesting
import Foundation
import Testing
import TestSupport

/// A controller sectioned by a related object's name, under commits that delete most items
/// of one location (their dependency entries stay stale until the location's list is
/// compacted or freed), rename locations (whose dependents must skip the stale entries),
/// re-parent and insert items, checked after every commit against a fresh fetch and by
/// replaying the delivered batch.
@Suite("ResultsController stale dependents")
struct ResultsControllerStaleDependentTests {
    @Test(arguments: testSeeds(count: 6))
    func deletionsThenRenamesMatchAFreshFetch(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let graph = ObjectGraph()
        let locations = ["Fridge", "Pantry", "Garage"].map { name in
            let location = graph.insert(Location())
            location.name = name
            return location
        }
        var items: [Item] = []
        func insertItem(in location: Location?) {
            let item = graph.insert(Item())
            item.name = ["milk", "bread", "apple", "eggs"].randomElement(using: &rng)!
            item.quantity = Int.random(in: 0..<3, using: &rng)
            item.location = location
            items.append(item)
        }
        for index in 0..<90 { insertItem(in: locations[index % 3]) }
        _ = try graph.commit()

        let request = FetchRequest(
            Item.self, sortedBy: [SortKey(\.name), SortKey(\.quantity)], sectionKey: SectionKey(\.location?.name))
        let controller = ResultsController(graph: graph, request: request)
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        controller.performFetch()
        func reference() -> [ListSimulator<String, ObjectID, String>.Section] {
            referenceFetch(
                graph, predicate: { _ in true }, section: { $0.location?.name ?? "" },
                sort: [{ compare($0.name, $1.name) }, { compare($0.quantity, $1.quantity) }])
        }
        #expect(rendered(controller) == reference())

        for step in 0..<40 {
            let before = rendered(controller)
            delegate.events = []
            switch step % 4 {
            case 0, 1:
                // Delete a few items, mostly of the first location, so its list gathers stale
                // entries, is compacted and, once every item of it is gone, freed.
                for _ in 0..<Int.random(in: 1...6, using: &rng) {
                    let candidates = items.indices.filter { items[$0].location === locations[0] || Int.random(in: 0..<4, using: &rng) == 0 }
                    guard let index = candidates.randomElement(using: &rng) else { break }
                    graph.delete(items.remove(at: index))
                }
            case 2:
                // Rename a location: its live dependents re-section, its stale ones are skipped.
                let location = locations.randomElement(using: &rng)!
                location.name = ["Fridge", "Pantry", "Garage", "Attic", "Cellar"].randomElement(using: &rng)!
            default:
                // Re-parent one item and insert others, some into the first location again.
                items.randomElement(using: &rng)?.location = locations.randomElement(using: &rng)
                for _ in 0..<Int.random(in: 0...3, using: &rng) {
                    insertItem(in: Int.random(in: 0..<5, using: &rng) == 0 ? nil : locations.randomElement(using: &rng))
                }
            }
            _ = try graph.commit()
            let after = rendered(controller)
            #expect(after == reference(), "step \(step)")
            if let batch = delegate.batches().first {
                expectReproduces(batch.whole, from: before, to: after, "step \(step): \(batch.whole)")
            } else {
                #expect(before == after, "step \(step): the results changed without a batch")
            }
        }
    }
}
