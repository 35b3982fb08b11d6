import FetchedResults
import FetchedResultsTesting
import Foundation
import Testing
import TestSupport

/// One base request of the randomized search test, chosen by the seed.
private struct SearchConfiguration: CustomStringConvertible {
    var predicate: Int
    var sectioned: Bool
    var window: (offset: Int, limit: Int?)
    /// Whether the search is a closure predicate rather than folded text.
    var closureSearch: Bool

    /// A folded-text search over an unwindowed base request, chosen by the seed.
    init(unwindowed seed: UInt64) {
        self.init(seed)
        window = (0, nil)
        closureSearch = false
    }

    init(_ seed: UInt64) {
        var rng = SeededGenerator(seed: seed ^ 0x5EA7C4)
        predicate = Int.random(in: 0..<3, using: &rng)
        sectioned = Int.random(in: 0..<4, using: &rng) > 0
        window = [(0, nil), (0, nil), (0, nil), (0, 6), (2, nil)].randomElement(using: &rng)!
        closureSearch = Int.random(in: 0..<4, using: &rng) == 0
    }

    var description: String {
        "predicate \(predicate), sectioned \(sectioned), window \(window), \(closureSearch ? "closure" : "folded text") search"
    }

    func matches(_ item: Item) -> Bool {
        switch predicate {
        case 1: item.quantity >= 1
        case 2: item.location?.name != "attic"
        default: true
        }
    }

    func request() -> FetchRequest<Item> {
        let predicate: FetchPredicate<Item>? = switch predicate {
        case 1: .greaterOrEqual(\.quantity, 1)
        case 2: FetchPredicate { $0.location?.name != "attic" }
        default: nil
        }
        return FetchRequest(
            Item.self, predicate: predicate,
            sortedBy: [SortKey(\.name), SortKey(\.quantity, ascending: false)],
            sectionKey: sectioned ? SectionKey(\.location?.name) : nil,
            fetchLimit: window.limit, fetchOffset: window.offset)
    }

    /// A from-scratch fetch with both predicates: the base one and `CONTAINS[cd] text`.
    func reference(_ graph: ObjectGraph, text: String) -> [ListSimulator<String, ObjectID, String>.Section] {
        referenceFetch(
            graph,
            predicate: { item in
                matches(item) && (text.isEmpty || item.name.range(of: text, options: [.caseInsensitive, .diacriticInsensitive]) != nil)
            },
            section: sectioned ? { $0.location?.name ?? "" } : nil,
            sort: [{ compare($0.name, $1.name) }, { compare($0.quantity, $1.quantity, ascending: false) }],
            offset: window.offset, limit: window.limit)
    }
}

/// Names with accents, mixed case and a decomposed accent.
private let names = ["Banana", "bañera", "Cabana", "abba", "Crème", "creme", "Ñandú", "nacho", "cafe\u{301}", "Café", "bab", "BABA"]
private let typed: [Character] = ["a", "b", "n", "A", "B", "é", "ñ", "c", "e"]
private let locationNames = ["Fridge", "Pantry", "attic", "Éclair shelf", "basement"]

@Suite("SearchController randomized")
struct SearchControllerRandomizedTests {
    @Test(arguments: testSeeds(count: 12))
    func typingAndCommitsMatchAFreshFetchAndEveryBatchReplays(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let configuration = SearchConfiguration(seed)
        let graph = ObjectGraph()
        var locations = (0..<3).map { index in
            let location = graph.insert(Location())
            location.name = locationNames[index]
            return location
        }
        func randomItem() -> Item {
            let item = graph.insert(Item())
            item.name = names.randomElement(using: &rng)!
            item.quantity = Int.random(in: 0..<3, using: &rng)
            item.location = Int.random(in: 0..<6, using: &rng) == 0 ? nil : locations.randomElement(using: &rng)
            return item
        }
        for _ in 0..<30 { _ = randomItem() }
        _ = try graph.commit()

        let base = ResultsController(graph: graph, request: configuration.request())
        base.performFetch()
        let search: SearchController<Item> = configuration.closureSearch
            ? SearchController(base: base, narrowing: .contains()) { text in .contains(\.name, text) }
            : SearchController(base: base, searching: \.name)
        let delegate = RecordingDelegate()
        search.delegate = delegate
        var text = ""
        #expect(rendered(search) == configuration.reference(graph, text: text))

        for step in 0..<160 {
            let before = rendered(search)
            delegate.events = []
            let action = Int.random(in: 0..<10, using: &rng)
            var what: String
            switch action {
            case 0...3:
                text.append(typed.randomElement(using: &rng)!)
                what = "type"
            case 4, 5:
                if !text.isEmpty { text.removeLast() }
                what = "delete"
            case 6:
                text = String((0..<Int.random(in: 1...3, using: &rng)).map { _ in typed.randomElement(using: &rng)! })
                what = "paste"
            case 7:
                text = ""
                what = "clear"
            default:
                what = "commit"
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    let items = graph.objects(of: Item.self)
                    switch Int.random(in: 0..<8, using: &rng) {
                    case 0: _ = randomItem()
                    case 1: if let item = items.randomElement(using: &rng) { graph.delete(item) }
                    case 2: items.randomElement(using: &rng)?.name = names.randomElement(using: &rng)!
                    case 3: items.randomElement(using: &rng)?.quantity = Int.random(in: 0..<3, using: &rng)
                    case 4: items.randomElement(using: &rng)?.note = ["", "x"].randomElement(using: &rng)!
                    case 5: items.randomElement(using: &rng)?.location = locations.randomElement(using: &rng)
                    case 6: locations.randomElement(using: &rng)?.name = locationNames.randomElement(using: &rng)!
                    default:
                        if locations.count < 5 {
                            let location = graph.insert(Location())
                            location.name = locationNames.randomElement(using: &rng)!
                            locations.append(location)
                        }
                    }
                }
                _ = try graph.commit()
            }
            if what != "commit" { search.searchText = text }
            let after = rendered(search)
            let context = "step \(step) (\(what), text \"\(text)\"), \(configuration)"
            #expect(after == configuration.reference(graph, text: text), "\(context)")
            #expect(rendered(base) == configuration.reference(graph, text: ""), "\(context): base")
            let batches = delegate.batches()
            #expect(batches.count <= 1, "\(context): one change, one batch")
            if let batch = batches.first {
                expectReproduces(batch.whole, from: before, to: after, "\(context): \(batch.whole)")
                expectReproduces(batch.replayed, from: before, to: after, "\(context), delegate callbacks: \(batch.replayed)")
                if what != "commit" {
                    #expect(batch.whole.reloadedRows.isEmpty && batch.whole.reconfiguredRows.isEmpty, "\(context): a text change refreshes no row")
                }
            } else {
                #expect(before == after, "\(context): the results changed without a batch")
            }
        }
    }

    /// Long narrowing chains, broadenings back through them, edits that fall back to a
    /// middle step, clears and retyping, with commits in between: every path of an
    /// unwindowed folded-text search (the bulk first keystroke, narrowing in place,
    /// broadening from the kept rows, the cleared search sharing the base index, and the
    /// every-row pass after a commit), each result equal to a fresh fetch and each batch
    /// replayed.
    @Test(arguments: testSeeds(count: 8))
    func narrowingChainsBroadeningAndCommitsMatchAFreshFetch(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let configuration = SearchConfiguration(unwindowed: seed)
        let graph = ObjectGraph()
        let locations = (0..<4).map { index in
            let location = graph.insert(Location())
            location.name = locationNames[index]
            return location
        }
        func randomName() -> String {
            (0..<Int.random(in: 1...3, using: &rng)).map { _ in names.randomElement(using: &rng)! }.joined(separator: " ")
        }
        func randomItem() {
            let item = graph.insert(Item())
            item.name = randomName()
            item.quantity = Int.random(in: 0..<3, using: &rng)
            item.location = locations.randomElement(using: &rng)
        }
        for _ in 0..<120 { randomItem() }
        _ = try graph.commit()
        let base = ResultsController(graph: graph, request: configuration.request())
        base.performFetch()
        let search = SearchController(base: base, searching: \.name)
        let delegate = RecordingDelegate()
        search.delegate = delegate
        var text = ""
        var typedSoFar: [String] = []
        for step in 0..<120 {
            let before = rendered(search)
            delegate.events = []
            var what: String
            switch Int.random(in: 0..<20, using: &rng) {
            case 0...7:
                typedSoFar.append(text)
                text.append(typed.randomElement(using: &rng)!)
                what = "type"
            case 8...11:
                if !text.isEmpty { text.removeLast() }
                what = "delete"
            case 12, 13:
                // Back to an earlier text of the chain: a broadening to a kept step.
                text = typedSoFar.randomElement(using: &rng) ?? ""
                what = "back"
            case 14:
                // Change the last character: an edit that falls back to a middle step.
                if !text.isEmpty { text.removeLast() }
                text.append(typed.randomElement(using: &rng)!)
                what = "edit"
            case 15:
                text = ""
                typedSoFar = []
                what = "clear"
            default:
                what = "commit"
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    let items = graph.objects(of: Item.self)
                    switch Int.random(in: 0..<5, using: &rng) {
                    case 0: randomItem()
                    case 1: if let item = items.randomElement(using: &rng) { graph.delete(item) }
                    case 2: items.randomElement(using: &rng)?.name = randomName()
                    case 3: items.randomElement(using: &rng)?.quantity = Int.random(in: 0..<3, using: &rng)
                    default: items.randomElement(using: &rng)?.location = locations.randomElement(using: &rng)
                    }
                }
                _ = try graph.commit()
            }
            if what != "commit" { search.searchText = text }
            let after = rendered(search)
            let context = "step \(step) (\(what), text \"\(text)\"), \(configuration)"
            #expect(after == configuration.reference(graph, text: text), "\(context)")
            delegate.expectAtMostOneBatch(from: before, to: after, context)
        }
    }
}
