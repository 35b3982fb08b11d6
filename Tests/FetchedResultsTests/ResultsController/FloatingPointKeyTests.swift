import FetchedResults
import FetchedResultsTesting
import Foundation
import Testing
import TestSupport

/// A product whose floating-point keys may be NaN, infinite, `-0.0` or `nil`.
final class Priced: GraphObject {
    @Attribute var name = ""
    @Attribute var price = 0.0
    @Attribute var weight: Float = 0
    @Attribute var discount: Double?

    /// What a cell shows: every property, with numbers that compare equal shown alike.
    var rendering: String {
        "\(name)|\(Self.show(price))|\(Self.show(Double(weight)))|\(Self.show(discount))"
    }

    /// A number as a cell shows it: every NaN as "NaN", `-0.0` as "0".
    static func show(_ value: Double?) -> String {
        guard let value else { return "nil" }
        return value.isNaN ? "NaN" : value == 0 ? "0" : "\(value)"
    }
}

/// The documented total order of floating-point keys, written out independently of the
/// library: `nil < -inf < … < -0.0 == 0.0 < … < +inf < NaN`; `nil` when the values tie.
private func compareTotal(_ a: Double?, _ b: Double?, ascending: Bool = true) -> Bool? {
    func rank(_ value: Double?) -> (Int, Double) {
        guard let value else { return (0, 0) }
        return value.isNaN ? (2, 0) : (1, value)
    }
    let (ra, rb) = (rank(a), rank(b))
    if ra.0 != rb.0 { return (ra.0 < rb.0) == ascending }
    if ra.1 == rb.1 { return nil }
    return (ra.1 < rb.1) == ascending
}

/// Numbers that break a `<`-based order: NaNs of both signs, infinities, both zeros.
private let specials: [Double] = [.nan, -.nan, .infinity, -.infinity, -0.0, 0.0, 1.5, -2, 3, .greatestFiniteMagnitude]

/// One request of the randomized test, chosen by the seed.
private struct FloatConfiguration: CustomStringConvertible {
    /// 0: price; 1: weight (`Float`) then price; 2: discount (`Double?`) then price.
    var keys: Int
    var ascending: Bool
    /// Whether rows are sectioned by their discount.
    var sectioned: Bool
    var window: (offset: Int, limit: Int?)

    init(_ seed: UInt64) {
        var rng = SeededGenerator(seed: seed ^ 0xF10A7)
        keys = Int.random(in: 0..<3, using: &rng)
        ascending = Bool.random(using: &rng)
        sectioned = Int.random(in: 0..<3, using: &rng) == 0
        window = [(0, nil), (0, nil), (0, 7), (3, nil)].randomElement(using: &rng)!
    }

    var description: String {
        "keys \(keys), \(ascending ? "ascending" : "descending"), sectioned \(sectioned), window \(window)"
    }

    var sortKeys: [SortKey<Priced>] {
        switch keys {
        case 1: [SortKey(\.weight, ascending: ascending), SortKey(\.price)]
        case 2: [SortKey(\.discount, ascending: ascending), SortKey(\.price, ascending: !ascending)]
        default: [SortKey(\.price, ascending: ascending)]
        }
    }

    func request() -> FetchRequest<Priced> {
        FetchRequest(
            Priced.self, sortedBy: sortKeys,
            sectionKey: sectioned ? SectionKey(\.discount, title: { Priced.show($0) }) : nil,
            fetchLimit: window.limit, fetchOffset: window.offset)
    }

    /// The rows in the documented order, as a fresh fetch from scratch.
    func reference(_ graph: ObjectGraph, matching: (Priced) -> Bool = { _ in true }) -> [ListSimulator<String, ObjectID, String>.Section] {
        let comparators: [(Priced, Priced) -> Bool?] = switch keys {
        case 1: [{ compareTotal(Double($0.weight), Double($1.weight), ascending: ascending) }, { compareTotal($0.price, $1.price) }]
        case 2: [{ compareTotal($0.discount, $1.discount, ascending: ascending) }, { compareTotal($0.price, $1.price, ascending: !ascending) }]
        default: [{ compareTotal($0.price, $1.price, ascending: ascending) }]
        }
        let sectioned = sectioned
        let sorted = graph.objects(of: Priced.self).filter(matching).sorted { a, b in
            if sectioned, let order = compareTotal(a.discount, b.discount) { return order }
            for compare in comparators {
                if let order = compare(a, b) { return order }
            }
            return a.objectID < b.objectID
        }
        let low = min(window.offset, sorted.count)
        let high = window.limit.map { min(sorted.count, low + $0) } ?? sorted.count
        return groupedIntoSections(sorted[low..<high].map { object in
            (section: sectioned ? Priced.show(object.discount) : "", row: .init(id: object.objectID, content: object.rendering))
        })
    }
}

/// Records each batch a controller delivers.
private final class BatchRecorder: ResultsControllerDelegate {
    typealias Object = Priced
    var batches: [ListChanges] = []
    func controller(_ controller: any SectionedResults<Priced>, didChangeContentWith changes: ListChanges) { batches.append(changes) }
}

private func rendered(_ results: some SectionedResults<Priced>) -> [ListSimulator<String, ObjectID, String>.Section] {
    results.sections.map { section in
        .init(id: section.name, rows: section.objects.map { .init(id: $0.objectID, content: $0.rendering) })
    }
}

@Suite("Floating-point keys")
struct FloatingPointKeyTests {
    /// The reproduction of issue 32: NaN prices written one commit at a time misordered the
    /// rows, then stopped the process with "slot N is not in the order tree under its keys".
    @Test func nanPricesWrittenOneCommitAtATimeKeepTheFetchOrder() throws {
        var rng = SeededGenerator(seed: 32)
        let graph = ObjectGraph()
        for k in 0..<305 {
            let object = graph.insert(Priced())
            object.name = "p\(k)"
            object.price = Double(k % 7)
        }
        _ = try graph.commit()
        let configuration = FloatConfiguration(keys: 0, ascending: true, sectioned: false, window: (0, nil))
        let controller = ResultsController(graph: graph, request: configuration.request())
        let recorder = BatchRecorder()
        controller.delegate = recorder
        controller.performFetch()
        let objects = graph.objects(of: Priced.self)
        for step in 0..<1_200 {
            let before = rendered(controller)
            recorder.batches = []
            let object = objects.randomElement(using: &rng)!
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: object.price = .nan
            case 1: object.price = Double(Int.random(in: 0..<7, using: &rng))
            default: object.name = "p\(Int.random(in: 0..<1_000, using: &rng))"
            }
            _ = try graph.commit()
            let after = rendered(controller)
            try #require(after == configuration.reference(graph), "step \(step)")
            try #require(recorder.batches.count <= 1, "step \(step): one commit, one batch")
            if let batch = recorder.batches.first {
                try #require(expectReproduces(batch, from: before, to: after, "step \(step): \(batch)"))
            }
        }
    }

    /// NaN, ±infinity, `-0.0` and `nil` in `Double`, `Float` and `Double?` keys, sort and
    /// section keys, windows, and a search over the controller: after every commit the rows
    /// are a fresh fetch's, and every batch replays in a strict simulator.
    @Test(arguments: testSeeds(count: 12))
    func specialValuesMatchAFreshFetchAndEveryBatchReplays(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let configuration = FloatConfiguration(seed)
        let graph = ObjectGraph()
        func randomDiscount() -> Double? {
            Int.random(in: 0..<4, using: &rng) == 0 ? nil : specials.randomElement(using: &rng)!
        }
        func insertRandom() {
            let object = graph.insert(Priced())
            object.name = ["a", "b", "ab"].randomElement(using: &rng)!
            object.price = specials.randomElement(using: &rng)!
            object.weight = Float(specials.randomElement(using: &rng)!)
            object.discount = randomDiscount()
        }
        for _ in 0..<40 { insertRandom() }
        _ = try graph.commit()

        let controller = ResultsController(graph: graph, request: configuration.request())
        let recorder = BatchRecorder()
        controller.delegate = recorder
        controller.performFetch()
        #expect(rendered(controller) == configuration.reference(graph), "\(configuration)")
        let search = SearchController(base: controller, searching: \.name, searchText: "b")
        let searchRecorder = BatchRecorder()
        search.delegate = searchRecorder

        for step in 0..<150 {
            let before = rendered(controller), searchBefore = rendered(search)
            recorder.batches = []
            searchRecorder.batches = []
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let objects = graph.objects(of: Priced.self)
                switch Int.random(in: 0..<7, using: &rng) {
                case 0: insertRandom()
                case 1: if let object = objects.randomElement(using: &rng) { graph.delete(object) }
                case 2: objects.randomElement(using: &rng)?.price = specials.randomElement(using: &rng)!
                case 3: objects.randomElement(using: &rng)?.weight = Float(specials.randomElement(using: &rng)!)
                case 4: objects.randomElement(using: &rng)?.discount = randomDiscount()
                case 5: objects.randomElement(using: &rng)?.name = ["a", "b", "ab"].randomElement(using: &rng)!
                default: if let object = objects.randomElement(using: &rng) { object.price = object.price }
                }
            }
            _ = try graph.commit()
            let after = rendered(controller), searchAfter = rendered(search)
            try #require(after == configuration.reference(graph), "step \(step), \(configuration)")
            // The search fetches as its base does, with the names containing "b" only (the
            // base's window cuts the search's results).
            let searchExpected = configuration.reference(graph, matching: { $0.name.contains("b") })
            try #require(searchAfter == searchExpected, "step \(step), \(configuration): search")
            for (batches, from, to) in [(recorder.batches, before, after), (searchRecorder.batches, searchBefore, searchAfter)] {
                try #require(batches.count <= 1, "step \(step): one commit, one batch")
                if let batch = batches.first {
                    try #require(expectReproduces(batch, from: from, to: to, "step \(step), \(configuration): \(batch)"))
                } else {
                    try #require(from == to, "step \(step): the results changed without a batch")
                }
            }
        }
    }
}

extension FloatingPointKeyTests {
    /// An ordered list sectioned by a `Double?` key with NaN, ±infinity, `-0.0` and `nil`:
    /// sections in the total order (one NaN section), rows in the relationship's order.
    @Test(arguments: testSeeds(count: 4))
    func orderedListSectionsFollowTheTotalOrder(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let graph = ObjectGraph()
        let catalog = graph.insert(Catalog())
        func randomDiscount() -> Double? {
            Int.random(in: 0..<4, using: &rng) == 0 ? nil : specials.randomElement(using: &rng)!
        }
        catalog.products = (0..<30).map { k in
            let product = graph.insert(Priced())
            product.name = "p\(k)"
            product.discount = randomDiscount()
            return product
        }
        _ = try graph.commit()
        let list = OrderedResultsController(
            graph: graph, owner: catalog, relationship: \.products, sectionKey: SectionKey(\.discount, title: { Priced.show($0) }))
        let recorder = BatchRecorder()
        list.delegate = recorder
        list.performFetch()
        func reference() -> [ListSimulator<String, ObjectID, String>.Section] {
            var sections: [(key: Double?, rows: [Priced])] = []
            for product in catalog.products {
                if let index = sections.firstIndex(where: { compareTotal($0.key, product.discount) == nil }) {
                    sections[index].rows.append(product)
                } else {
                    sections.append((product.discount, [product]))
                }
            }
            return sections.sorted { compareTotal($0.key, $1.key) ?? false }.map { section in
                .init(id: Priced.show(section.key), rows: section.rows.map { .init(id: $0.objectID, content: $0.rendering) })
            }
        }
        #expect(rendered(list) == reference())
        for step in 0..<120 {
            let before = rendered(list)
            recorder.batches = []
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: catalog.products.randomElement(using: &rng)?.discount = randomDiscount()
                case 1: catalog.products.shuffle(using: &rng)
                default: catalog.products.randomElement(using: &rng)?.price = specials.randomElement(using: &rng)!
                }
            }
            _ = try graph.commit()
            let after = rendered(list)
            try #require(after == reference(), "step \(step)")
            try #require(recorder.batches.count <= 1, "step \(step): one commit, one batch")
            if let batch = recorder.batches.first {
                try #require(expectReproduces(batch, from: before, to: after, "step \(step): \(batch)"))
            } else {
                try #require(before == after, "step \(step): the results changed without a batch")
            }
        }
    }
}

/// An owner of a hand-ordered list of products.
final class Catalog: GraphObject {
    @Relationship var products: [Priced]
}

extension FloatConfiguration {
    fileprivate init(keys: Int, ascending: Bool, sectioned: Bool, window: (offset: Int, limit: Int?)) {
        self.keys = keys
        self.ascending = ascending
        self.sectioned = sectioned
        self.window = window
    }
}
