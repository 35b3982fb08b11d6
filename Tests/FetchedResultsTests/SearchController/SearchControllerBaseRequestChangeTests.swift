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
            delegate.expectAtMostOneBatch(from: before, to: after, "seed \(seed), step \(step)")
        }
    }

    /// A graph of items in three locations, a base by name in location sections, and a
    /// search over it with `text` whose delegate records what it hears.
    private static func searchOverLocations(text: String) throws
        -> (ObjectGraph, [Item], ResultsController<Item>, SearchController<Item>, RecordingDelegate)
    {
        let graph = ObjectGraph()
        let locations = Self.locationNames.prefix(3).map { name in
            let location = graph.insert(Location())
            location.name = name
            return location
        }
        let items = (0..<30).map { index in
            let item = graph.insert(Item())
            item.name = "\(Self.names[index % Self.names.count]) \(index)"
            item.quantity = index % 3
            item.listed = index % 2 == 0
            item.location = locations[index % 3]
            return item
        }
        _ = try graph.commit()
        let base = ResultsController(graph: graph, request: FetchRequest(
            Item.self, sortedBy: [SortKey(\Item.name)], sectionKey: SectionKey(\.location?.name)))
        base.performFetch()
        let search = SearchController(base: base, searching: { $0.name }, searchText: text)
        let delegate = RecordingDelegate()
        search.delegate = delegate
        return (graph, items, base, search, delegate)
    }

    /// The results of the in-stock request below, with `text`.
    private static func inStock(_ graph: ObjectGraph, text: String) -> [ListSimulator<String, ObjectID, String>.Section] {
        referenceFetch(
            graph,
            predicate: { $0.quantity >= 1 && (text.isEmpty || $0.name.range(of: text, options: [.caseInsensitive, .diacriticInsensitive]) != nil) },
            section: { $0.listed ? "listed" : "other" },
            sort: [{ compare($0.quantity, $1.quantity) }, { compare($0.name, $1.name) }])
    }

    private static var inStockRequest: FetchRequest<Item> {
        FetchRequest(
            Item.self, predicate: FetchPredicate { $0.quantity >= 1 }, sortedBy: [SortKey(\Item.quantity), SortKey(\.name)],
            sectionKey: SectionKey { $0.listed ? "listed" : "other" })
    }

    @Test("The base's delegate sets the base's request while a commit is delivered; the search, sharing the base's rows or not, reports valid changes", arguments: ["", "ap"])
    func requestChangedWhileACommitIsDelivered(text: String) throws {
        let (graph, items, base, search, delegate) = try Self.searchOverLocations(text: text)
        let baseDelegate = RecordingDelegate()
        base.delegate = baseDelegate
        baseDelegate.onDidChange = { _ in
            baseDelegate.onDidChange = nil
            base.request = Self.inStockRequest
        }
        let before = rendered(search)
        items[4].name = "apricot 4"
        items[7].quantity = 0
        _ = try graph.commit()
        let after = rendered(search)
        #expect(after == Self.inStock(graph, text: text))
        // The new request, evaluated with the commit's values; then, when the search hears
        // of the commit, at most the refresh of the rows it changed.
        let batches = delegate.batches()
        #expect((1...2).contains(batches.count), "text \"\(text)\": \(batches.count) batches")
        for (position, batch) in batches.enumerated() {
            expectReproduces(batch.whole, from: position == 0 ? before : after, to: after, "text \"\(text)\", batch \(position)")
            expectReproduces(batch.replayed, from: position == 0 ? before : after, to: after, "text \"\(text)\", callbacks \(position)")
        }
    }

    @Test("The base's delegate commits while the base's new request is delivered; the search reports its new request, then the commit", arguments: ["", "ap"])
    func commitWhileTheNewRequestIsDelivered(text: String) throws {
        let (graph, items, base, search, delegate) = try Self.searchOverLocations(text: text)
        let baseDelegate = RecordingDelegate()
        base.delegate = baseDelegate
        var middle: [ListSimulator<String, ObjectID, String>.Section] = []
        baseDelegate.onDidChange = { _ in
            baseDelegate.onDidChange = nil
            middle = Self.inStock(graph, text: text)
            items[4].name = "apricot 4"
            items[7].quantity = 0
            items[9].listed.toggle()
            do { _ = try graph.commit() } catch { Issue.record("the commit failed: \(error)") }
        }
        let before = rendered(search)
        base.request = Self.inStockRequest
        let after = rendered(search)
        #expect(after == Self.inStock(graph, text: text))
        let batches = delegate.batches()
        #expect(batches.count == 2, "the new request, then the commit")
        if batches.count == 2 {
            expectReproduces(batches[0].whole, from: before, to: middle, "text \"\(text)\": the new request")
            expectReproduces(batches[1].whole, from: middle, to: after, "text \"\(text)\": the commit")
            expectReproduces(batches[1].replayed, from: middle, to: after, "text \"\(text)\": the commit's callbacks")
        }
    }

    @Test("The base fetches again with an uncommitted insert; the search stays right through the next commits", arguments: ["", "ap"])
    func baseFetchesAgain(text: String) throws {
        let (graph, items, base, search, delegate) = try Self.searchOverLocations(text: text)
        let added = graph.insert(Item())
        added.name = "apricot new"
        added.quantity = 2
        added.location = items[0].location
        base.performFetch()
        delegate.events = []
        for step in 0..<6 {
            let before = rendered(search)
            delegate.events = []
            switch step {
            case 0: break
            case 1: added.name = "banana new"
            case 2: added.name = "apricot again"
            case 3: items[5].name = "apple 5b"
            case 4: graph.delete(items[6])
            default: added.quantity = 0
            }
            _ = try graph.commit()
            let after = rendered(search)
            #expect(after == referenceFetch(
                graph, predicate: { text.isEmpty || $0.name.range(of: text, options: [.caseInsensitive, .diacriticInsensitive]) != nil },
                section: { $0.location?.name ?? "" }, sort: [{ compare($0.name, $1.name) }]), "text \"\(text)\", step \(step)")
            delegate.expectAtMostOneBatch(from: before, to: after, "text \"\(text)\", step \(step)")
        }
    }
}
