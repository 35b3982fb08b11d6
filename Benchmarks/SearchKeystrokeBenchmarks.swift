import FetchedResults
import Foundation

/// A product of the keystroke rows: a name with accents and mixed case, in one of 26 aisles.
final class KeystrokeProduct: GraphObject {
    @Attribute var name = ""
    @Attribute var aisle = 0
}

/// One million products in a graph, a base controller (sectioned by aisle, sorted by name)
/// and a search controller on it, built once and shared by the keystroke rows.
private final class KeystrokeFixture {
    static let count = 1_000_000
    let batchListener = KeystrokeBatchListener()
    nonisolated(unsafe) static var shared: KeystrokeFixture?

    let graph = ObjectGraph()
    let base: ResultsController<KeystrokeProduct>
    let search: SearchController<KeystrokeProduct>
    /// The base controller's rows in order, with each row's name: the naive scan's input.
    let baseRows: [(section: SortValue, rows: [(id: ObjectID, name: String)])]

    static func make() -> KeystrokeFixture {
        if let shared { return shared }
        let fixture = KeystrokeFixture()
        shared = fixture
        return fixture
    }

    private init() {
        // Brand, description and product, with accents and mixed case; about one name in
        // fifteen has a "j" (a jam, a jamón, jalapeños, a juice), as in a grocery catalogue.
        let brands = [
            "Müller", "Señor Sabor", "Crème d'Or", "Løkke", "Ökoland", "Café Noir", "Dvořák & Co", "Žabka", "Été",
            "BONNE MAMAN", "naturkost", "Île Verte", "Ça Va", "Bøgh", "Høst", "Açaí Brasil", "Über Fresh", "Fröhlich",
        ]
        let descriptions = [
            "Organic", "fresh", "Smoked", "Dark", "Spicy", "Crémeux", "Sweet", "light", "Frozen", "Wholegrain", "Salted",
            "Roasted", "Vegan", "Classic", "Mild", "Extra", "Piquant", "Doré", "Rústico", "Brûlé", "Sauvage", "Épicé",
        ]
        let products = [
            "Jamón", "jalapeños", "Jam", "Juice", "Crème fraîche", "Brie", "Gruyère", "Emmental", "Pâté", "Crêpes",
            "Baguette", "Croissants", "Müsli", "Haferflocken", "Äpfel", "Birnen", "Würstchen", "Käse", "Smörgåsbord",
            "Knäckebröd", "Coffee", "tea", "Cocoa", "Milk", "Yogurt", "butter", "Eggs", "Flour", "Sugar", "Salt",
            "Pepper", "Olive oil", "Vinegar", "Mustard", "Ketchup", "Mayonnaise", "Honey", "Rice", "Pasta", "Noodles",
            "Lentils", "Chickpeas", "Quinoa", "Couscous", "Tomatoes", "Onions", "Garlic", "Potatoes", "Carrots",
            "Spinach", "Lettuce", "Peppers", "Mushrooms", "Lemons", "Oranges", "Bananas", "Grapes", "Cherries",
            "Almonds", "Walnuts",
        ]
        var state: UInt64 = 0x6B65_7973
        func next() -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int(truncatingIfNeeded: (z ^ (z >> 31)) >> 1)
        }
        for _ in 0..<Self.count {
            let product = graph.insert(KeystrokeProduct())
            let brand = brands[next() % brands.count]
            let description = descriptions[next() % descriptions.count]
            product.name = "\(brand) \(description) \(products[next() % products.count]) \(next() % 1000)g"
            product.aisle = next() % 26
        }
        do { _ = try graph.commit() } catch { fatalError("search.keystroke fixture failed to commit: \(error)") }
        base = ResultsController(graph: graph, request: FetchRequest(
            KeystrokeProduct.self, sortedBy: [SortKey { $0.name }],
            sectionKey: SectionKey(title: { "Aisle \($0)" }) { $0.aisle }))
        base.performFetch()
        search = SearchController(base: base, searching: { $0.name })
        // A list adapter listens, as in an app, so each keystroke's delivery is timed too.
        search.delegate = batchListener
        let snapshot = base.snapshot
        let graph = graph
        baseRows = graph.withoutObservation {
            snapshot.sections.map { section in
                (section.identifier, section.objectIDs.map { id in
                    (id, (graph.object(with: id) as! KeystrokeProduct).name)
                })
            }
        }
    }

    /// The naive scan: every name tested with `range(of:options:)`, in the base order.
    func naiveResults(_ text: String) -> [(section: SortValue, ids: [ObjectID])] {
        baseRows.compactMap { section in
            let ids = section.rows.compactMap { row in
                text.isEmpty || row.name.range(of: text, options: [.caseInsensitive, .diacriticInsensitive]) != nil ? row.id : nil
            }
            return ids.isEmpty ? nil : (section.section, ids)
        }
    }

    /// The naive keystroke: scan from scratch and diff the old results with the new ones.
    func naiveKeystroke(from old: [(section: SortValue, ids: [ObjectID])], to text: String) -> ListChanges {
        let new = naiveResults(text)
        let changes = try? ListChanges.difference(
            from: old, to: new, sectionID: \.section, rows: \.ids, rowID: { $0 }, rowContentEqual: { _, _ in true })
        return changes ?? ListChanges()
    }

    /// Sets the search text and returns the number of rows the delivered change touched.
    func type(_ text: String) -> Int {
        search.searchText = text
        return search.numberOfObjects
    }
}

/// A delegate that keeps the last whole batch, as a list adapter would hand it on.
private final class KeystrokeBatchListener: ResultsControllerDelegate {
    typealias Object = KeystrokeProduct
    var lastBatch = ListChanges()

    func controller(_ controller: any SectionedResults<KeystrokeProduct>, didChangeContentWith changes: ListChanges) {
        lastBatch = changes
    }
}

/// One keystroke: the text before it and after it.
private struct Keystroke {
    var suffix: String
    var from: String
    var to: String
}

/// The typing sequence "j" → "ja" → "jam" → "ja" → "", each keystroke from the text before.
private let keystrokes = [
    Keystroke(suffix: "j", from: "", to: "j"),
    Keystroke(suffix: "ja", from: "j", to: "ja"),
    Keystroke(suffix: "jam", from: "ja", to: "jam"),
    Keystroke(suffix: "ja-again", from: "jam", to: "ja"),
    Keystroke(suffix: "clear", from: "ja", to: ""),
]

/// A row timing one keystroke of the search controller against the naive scan and diff.
private func keystrokeBenchmark(_ name: String, baseline: String, _ keystroke: @escaping () -> Keystroke) -> Benchmark {
    Benchmark(name, baseline: baseline, runs: 5) {
        let fixture = KeystrokeFixture.make()
        let keystroke = keystroke()
        let old = fixture.naiveResults(keystroke.from)
        let expected = fixture.naiveResults(keystroke.to).reduce(0) { $0 + $1.ids.count }
        return .init(
            subject: { stopwatch in
                _ = fixture.type(keystroke.from)
                let count = stopwatch.measure { fixture.type(keystroke.to) }
                precondition(count == expected, "\(name): the search shows \(count) rows, the naive scan \(expected)")
            },
            baseline: { stopwatch in
                let changes = stopwatch.measure { fixture.naiveKeystroke(from: old, to: keystroke.to) }
                blackHole(changes)
            })
    }
}

/// Rows timing each keystroke of a typing sequence over a million names, and the slowest
/// refinement as the headline row.
func searchKeystrokeBenchmarks() -> [Benchmark] {
    let baseline = "naive scan: range(of:options: [.caseInsensitive, .diacriticInsensitive]) over all names + sectioned diff"
    // The slowest refinement ("j" → "ja" or "ja" → "jam"), chosen by timing both once.
    let slowest = keystrokeBenchmark("search.keystroke.1m", baseline: baseline + " (slowest refinement)") {
        let fixture = KeystrokeFixture.make()
        var worst = keystrokes[1]
        var worstTime = Duration.zero
        for keystroke in keystrokes[1...2] {
            _ = fixture.type(keystroke.from)
            let start = ContinuousClock.now
            _ = fixture.type(keystroke.to)
            let time = ContinuousClock.now - start
            if time > worstTime { (worst, worstTime) = (keystroke, time) }
        }
        printError("search.keystroke.1m: the slowest refinement is \"\(worst.from)\" → \"\(worst.to)\"")
        return worst
    }
    return [slowest] + keystrokes.map { keystroke in
        keystrokeBenchmark("search.keystroke.1m.\(keystroke.suffix)", baseline: baseline) { keystroke }
    }
}
