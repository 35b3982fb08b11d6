import FetchedResults
import FetchedResultsTesting
import Foundation
import Testing
import TestSupport

/// One controller configuration of the randomized test, chosen by the seed.
private struct Configuration: CustomStringConvertible {
    var predicate: Int
    var sectioned: Bool
    var sectionsAscending: Bool
    var comparison: StringComparison
    var window: (offset: Int, limit: Int?)

    init(_ seed: UInt64) {
        var rng = SeededGenerator(seed: seed ^ 0xC0FFEE)
        predicate = Int.random(in: 0..<4, using: &rng)
        sectioned = Int.random(in: 0..<3, using: &rng) > 0
        sectionsAscending = Bool.random(using: &rng)
        comparison = StringComparison.allCases.randomElement(using: &rng)!
        window = [(0, nil), (0, nil), (0, 8), (3, nil), (2, 6), (0, 1)].randomElement(using: &rng)!
    }

    var description: String {
        "predicate \(predicate), sectioned \(sectioned) \(sectionsAscending ? "asc" : "desc"), \(comparison), window \(window)"
    }

    func matches(_ item: Item) -> Bool {
        switch predicate {
        case 1: item.listed
        case 2: item.quantity >= 2
        case 3: item.location?.name != "attic"
        default: true
        }
    }

    var fetchPredicate: FetchPredicate<Item>? {
        switch predicate {
        case 1: .equal(\.listed, true)
        case 2: .greaterOrEqual(\.quantity, 2)
        case 3: FetchPredicate { $0.location?.name != "attic" }
        default: nil
        }
    }

    func request() -> FetchRequest<Item> {
        FetchRequest(
            Item.self, predicate: fetchPredicate,
            sortedBy: [SortKey(\.name, comparison: comparison), SortKey(\.quantity, ascending: false)],
            sectionKey: sectioned ? SectionKey(\.location?.name, ascending: sectionsAscending) : nil,
            fetchLimit: window.limit, fetchOffset: window.offset)
    }

    func reference(_ graph: ObjectGraph) -> [ListSimulator<String, ObjectID, String>.Section] {
        let comparison = comparison
        return referenceFetch(
            graph, predicate: matches, section: sectioned ? { $0.location?.name ?? "" } : nil,
            sectionsAscending: sectionsAscending,
            sort: [{ compare(comparison.fold($0.name), comparison.fold($1.name)) }, { compare($0.quantity, $1.quantity, ascending: false) }],
            offset: window.offset, limit: window.limit)
    }
}

private let names = ["apple", "Apple", "éclair", "Eclair", "file 2", "file 10", "milk", "Milk", "bread", "zucchini", "file 02"]
private let locationNames = ["Fridge", "Pantry", "attic", "Garage", "shed 2", "shed 10", "Éclair shelf"]

@Suite("ResultsController randomized")
struct ResultsControllerRandomizedTests {
    @Test(arguments: testSeeds(count: 16))
    func everyCommitMatchesAFreshFetchAndEveryBatchReplays(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let configuration = Configuration(seed)
        let graph = ObjectGraph()
        var locations = (0..<4).map { index in
            let location = graph.insert(Location())
            location.name = locationNames[index]
            return location
        }
        func randomItem() -> Item {
            let item = graph.insert(Item())
            item.name = names.randomElement(using: &rng)!
            item.quantity = Int.random(in: 0..<4, using: &rng)
            item.listed = Bool.random(using: &rng)
            item.location = Int.random(in: 0..<5, using: &rng) == 0 ? nil : locations.randomElement(using: &rng)
            return item
        }
        for _ in 0..<30 { _ = randomItem() }
        _ = try graph.commit()

        let controller = ResultsController(graph: graph, request: configuration.request())
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        controller.performFetch()
        #expect(rendered(controller) == configuration.reference(graph), "\(configuration)")

        for step in 0..<200 {
            let before = rendered(controller)
            delegate.events = []
            for _ in 0..<Int.random(in: 1...5, using: &rng) {
                let items = graph.objects(of: Item.self)
                switch Int.random(in: 0..<12, using: &rng) {
                case 0: _ = randomItem()
                case 1: if let item = items.randomElement(using: &rng) { graph.delete(item) }
                case 2: items.randomElement(using: &rng)?.name = names.randomElement(using: &rng)!
                case 3: items.randomElement(using: &rng)?.quantity = Int.random(in: 0..<4, using: &rng)
                case 4: items.randomElement(using: &rng)?.listed.toggle()
                case 5: items.randomElement(using: &rng)?.note = ["", "x", "y"].randomElement(using: &rng)!
                case 6: items.randomElement(using: &rng)?.location = locations.randomElement(using: &rng)
                case 7: items.randomElement(using: &rng)?.location = nil
                case 8:
                    // Renaming a location re-sections (or re-filters) every item that reads it.
                    locations.randomElement(using: &rng)?.name = locationNames.randomElement(using: &rng)!
                case 9:
                    if locations.count < 6 {
                        let location = graph.insert(Location())
                        location.name = locationNames.randomElement(using: &rng)!
                        locations.append(location)
                    }
                case 10:
                    if locations.count > 2 {
                        graph.delete(locations.remove(at: Int.random(in: 0..<locations.count, using: &rng)))
                    }
                default:
                    // A write of an equal value is no change at all.
                    if let item = items.randomElement(using: &rng) { item.name = item.name }
                }
            }
            _ = try graph.commit()
            let after = rendered(controller)
            #expect(after == configuration.reference(graph), "step \(step), \(configuration)")
            let batches = delegate.batches()
            #expect(batches.count <= 1, "step \(step): one commit, one batch")
            if let batch = batches.first {
                expectReproduces(batch.whole, from: before, to: after, "step \(step), \(configuration): \(batch.whole)")
                expectReproduces(batch.replayed, from: before, to: after, "step \(step), delegate callbacks: \(batch.replayed)")
            } else {
                #expect(before == after, "step \(step): the results changed without a batch")
            }
        }
    }
}
