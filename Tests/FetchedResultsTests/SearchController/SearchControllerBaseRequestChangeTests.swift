@testable import FetchedResults
import FetchedResultsTesting
import Foundation
import Testing
import TestSupport

/// A search follows its base's request: when the base's request changes (another filter,
/// order and sections), the search's becomes the new one with the search predicate added,
/// reported as one change, and later commits keep it matching a fresh fetch of that request.
/// (It used to keep the old request while taking keys and dependencies from a base whose
/// rows were no longer its own: wrong rows, or a failed invariant.)
@Suite("SearchController after its base's request changed")
struct SearchControllerBaseRequestChangeTests {
    private static let names = ["apple", "Grape", "papaya", "bread", "milk", "soap", "pear"]
    private static let locationNames = ["Fridge", "Pantry", "attic", "basement"]

    @Test(arguments: testSeeds(count: 8))
    func searchFollowsTheBaseRequest(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let graph = ObjectGraph()
        let locations = Self.locationNames.map { name in
            let location = graph.insert(Location())
            location.name = name
            return location
        }
        func randomItem() {
            let item = graph.insert(Item())
            item.name = "\(Self.names.randomElement(using: &rng)!) \(Int.random(in: 0..<40, using: &rng))"
            item.quantity = Int.random(in: 0..<3, using: &rng)
            item.listed = Bool.random(using: &rng)
            item.location = Int.random(in: 0..<6, using: &rng) == 0 ? nil : locations.randomElement(using: &rng)
        }
        for _ in 0..<60 { randomItem() }
        _ = try graph.commit()
        let base = ResultsController(graph: graph, request: FetchRequest(
            Item.self, sortedBy: [SortKey(\Item.name), SortKey(\.quantity, ascending: false)], sectionKey: SectionKey(\.location?.name)))
        base.performFetch()
        let text = ["ap", "a", "e", ""][Int(seed % 4)]
        let search = SearchController(base: base, searching: { $0.name }, searchText: text)
        let delegate = RecordingDelegate()
        search.delegate = delegate
        func matches(_ item: Item) -> Bool { text.isEmpty || item.name.range(of: text, options: [.caseInsensitive, .diacriticInsensitive]) != nil }
        var changed = false
        func reference() -> [ListSimulator<String, ObjectID, String>.Section] {
            guard changed else {
                return referenceFetch(
                    graph, predicate: matches, section: { $0.location?.name ?? "" },
                    sort: [{ compare($0.name, $1.name) }, { compare($0.quantity, $1.quantity, ascending: false) }])
            }
            return referenceFetch(
                graph, predicate: { $0.quantity >= 1 && matches($0) }, section: { $0.listed ? "listed" : "other" },
                sort: [{ compare($0.quantity, $1.quantity) }, { compare($0.name, $1.name) }])
        }
        #expect(rendered(search) == reference(), "seed \(seed): the first fetch")
        // The base now shows items in stock only, in other sections and another order; the
        // search follows, in one change.
        let before = rendered(search)
        delegate.events = []
        base.request = FetchRequest(
            Item.self, predicate: FetchPredicate { $0.quantity >= 1 }, sortedBy: [SortKey(\Item.quantity), SortKey(\.name)],
            sectionKey: SectionKey { $0.listed ? "listed" : "other" })
        changed = true
        #expect(rendered(search) == reference(), "seed \(seed): after the base's request changed")
        #expect(search.request.sortKeys.count == 2 && search.request.sectionKey != nil)
        let batches = delegate.batches()
        #expect(batches.count == 1, "seed \(seed): one change for the new request")
        if let batch = batches.first { expectReproduces(batch.whole, from: before, to: rendered(search), "seed \(seed): \(batch.whole)") }
        for step in 0..<80 {
            let before = rendered(search)
            delegate.events = []
            let items = graph.objects(of: Item.self)
            let item = items.randomElement(using: &rng)!
            switch Int.random(in: 0..<7, using: &rng) {
            case 0: randomItem()
            case 1: graph.delete(item)
            case 2: item.name = "\(Self.names.randomElement(using: &rng)!) \(step)"
            case 3: item.quantity = Int.random(in: 0..<3, using: &rng)
            case 4: item.listed.toggle()
            case 5: locations.randomElement(using: &rng)!.name = Self.locationNames.randomElement(using: &rng)! + " \(step)"
            default: item.location = locations.randomElement(using: &rng)
            }
            _ = try graph.commit()
            let after = rendered(search)
            #expect(after == reference(), "seed \(seed), step \(step)")
            if let batch = delegate.batches().first {
                expectReproduces(batch.whole, from: before, to: after, "seed \(seed), step \(step): \(batch.whole)")
            } else {
                #expect(before == after, "seed \(seed), step \(step): the results changed without a batch")
            }
        }
    }
}
