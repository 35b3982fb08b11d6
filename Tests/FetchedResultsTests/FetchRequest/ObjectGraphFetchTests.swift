import FetchedResults
import Foundation
import Testing
import TestSupport

@Suite("ObjectGraph one-shot fetch and count")
struct ObjectGraphFetchTests {
    private static let names = ["apple", "Apple", "éclair", "file 2", "file 10", "milk", "bread", ""]

    /// A request chosen by the random generator: predicate, sort keys, section key, window.
    private static func randomRequest(_ rng: inout SeededGenerator) -> FetchRequest<Item> {
        let predicate: FetchPredicate<Item>? = switch Int.random(in: 0..<4, using: &rng) {
        case 1: .equal(\.listed, true)
        case 2: .greaterOrEqual(\.quantity, 2)
        case 3: FetchPredicate { $0.location?.name != "attic" }
        default: nil
        }
        let sortKeys: [SortKey<Item>] = [
            [], [SortKey(\.name, comparison: .localizedStandard)], [SortKey(\.quantity, ascending: false), SortKey(\.name)],
        ].randomElement(using: &rng)!
        let window: (offset: Int, limit: Int?) = [(0, nil), (0, 5), (3, nil), (2, 4), (0, 0), (50, nil)].randomElement(using: &rng)!
        return FetchRequest(
            Item.self, predicate: predicate, sortedBy: sortKeys,
            sectionKey: Bool.random(using: &rng) ? SectionKey(\.location?.name, ascending: Bool.random(using: &rng)) : nil,
            fetchLimit: window.limit, fetchOffset: window.offset)
    }

    /// `fetch(_:)` returns a fresh controller's objects, in its order, and `count(for:)` their
    /// number, with committed and pending changes alike.
    @Test(arguments: testSeeds(count: 8))
    func fetchAndCountAgreeWithAController(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let graph = ObjectGraph()
        let locations = ["Fridge", "attic", "Pantry"].map { name in
            let location = graph.insert(Location())
            location.name = name
            return location
        }
        func insertRandom() {
            let item = graph.insert(Item())
            item.name = Self.names.randomElement(using: &rng)!
            item.quantity = Int.random(in: 0..<4, using: &rng)
            item.listed = Bool.random(using: &rng)
            item.location = locations.randomElement(using: &rng)
        }
        for round in 0..<12 {
            for _ in 0..<Int.random(in: 0..<8, using: &rng) { insertRandom() }
            let items = graph.objects(of: Item.self)
            for _ in 0..<Int.random(in: 0..<4, using: &rng) {
                if let item = items.randomElement(using: &rng) { graph.delete(item) }
            }
            graph.objects(of: Item.self).randomElement(using: &rng)?.quantity = Int.random(in: 0..<4, using: &rng)
            // Half the rounds compare with changes pending.
            if Bool.random(using: &rng) { _ = try graph.commit() }
            for _ in 0..<4 {
                let request = Self.randomRequest(&rng)
                let controller = ResultsController(graph: graph, request: request)
                controller.performFetch()
                let expected = controller.sections.flatMap(\.objects).map(\.objectID)
                #expect(graph.fetch(request).map(\.objectID) == expected, "round \(round)")
                #expect(graph.count(for: request) == expected.count, "round \(round)")
            }
        }
    }

    @Test func fetchHonoursTheWindowAndCountsWithoutSorting() throws {
        let graph = ObjectGraph()
        for (name, quantity) in [("milk", 2), ("bread", 0), ("eggs", 5), ("rice", 1)] {
            let item = graph.insert(Item())
            item.name = name
            item.quantity = quantity
        }
        let byQuantity = FetchRequest(Item.self, predicate: .greater(\.quantity, 0), sortedBy: [SortKey(\.quantity)])
        #expect(graph.fetch(byQuantity).map(\.name) == ["rice", "milk", "eggs"])
        #expect(graph.count(for: byQuantity) == 3)
        var window = byQuantity
        window.fetchOffset = 1
        window.fetchLimit = 1
        #expect(graph.fetch(window).map(\.name) == ["milk"])
        #expect(graph.count(for: window) == 1)
        window.fetchOffset = 10
        #expect(graph.fetch(window).isEmpty && graph.count(for: window) == 0)
        #expect(graph.count(for: FetchRequest(Item.self)) == 4)
    }
}
