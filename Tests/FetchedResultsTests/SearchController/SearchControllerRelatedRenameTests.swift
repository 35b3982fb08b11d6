import FetchedResults
import FetchedResultsTesting
import Foundation
import Testing
import TestSupport

/// A search over a sectioned base while related objects are renamed: most rows a rename
/// re-sections in the base are rows the search's text excludes, which the search leaves
/// alone; the rows it shows must still move, and the ones it leaves alone must follow later
/// commits once a broader text shows them.
@Suite("SearchController related renames")
struct SearchControllerRelatedRenameTests {
    /// Names of which the search texts keep a few.
    private static let names = ["apple", "Grape", "papaya", "bread", "milk", "butter", "cheese", "soap", "pear", "Crème"]
    /// Texts from narrow to broad, and the empty one that shows every base row.
    private static let texts = ["ap", "app", "pa", "e", "", "gr", "m"]
    /// Location names; renaming to "attic" makes the closure section key read the
    /// location's items too.
    private static let locationNames = ["Fridge", "Pantry", "attic", "Éclair shelf", "basement", "cellar"]

    @Test(arguments: testSeeds(count: 16))
    func renamesMovesAndTextChangesMatchAFreshFetch(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let closureKey = seed % 2 == 1
        let baseFiltered = seed % 3 == 2
        let graph = ObjectGraph()
        var locations = (0..<4).map { index in
            let location = graph.insert(Location())
            location.name = Self.locationNames[index]
            return location
        }
        func randomItem() {
            let item = graph.insert(Item())
            item.name = "\(Self.names.randomElement(using: &rng)!) \(Int.random(in: 0..<50, using: &rng))"
            item.quantity = Int.random(in: 0..<3, using: &rng)
            item.location = Int.random(in: 0..<8, using: &rng) == 0 ? nil : locations.randomElement(using: &rng)
        }
        for _ in 0..<80 { randomItem() }
        _ = try graph.commit()

        let sectionKey = closureKey
            ? SectionKey<Item> { $0.locationSectionName(readsItems: true) }
            : SectionKey(\.location?.name)
        let base = ResultsController(graph: graph, request: FetchRequest(
            Item.self, predicate: baseFiltered ? .greaterOrEqual(\.quantity, 1) : nil,
            sortedBy: [SortKey(\.name), SortKey(\.quantity, ascending: false)], sectionKey: sectionKey))
        base.performFetch()
        var text = Self.texts.randomElement(using: &rng)!
        let search = SearchController(base: base, searching: \.name, searchText: text)
        let delegate = RecordingDelegate()
        search.delegate = delegate
        func reference() -> [ListSimulator<String, ObjectID, String>.Section] {
            referenceFetch(
                graph,
                predicate: { item in
                    (!baseFiltered || item.quantity >= 1)
                        && (text.isEmpty || item.name.range(of: text, options: [.caseInsensitive, .diacriticInsensitive]) != nil)
                },
                section: { $0.locationSectionName(readsItems: closureKey) },
                sort: [{ compare($0.name, $1.name) }, { compare($0.quantity, $1.quantity, ascending: false) }])
        }
        #expect(rendered(search) == reference(), "seed \(seed): the first fetch")

        for step in 0..<150 {
            let before = rendered(search)
            delegate.events = []
            var what: String
            switch Int.random(in: 0..<10, using: &rng) {
            case 0...3:
                what = "rename"
                for _ in 0..<Int.random(in: 1...2, using: &rng) {
                    locations.randomElement(using: &rng)!.name = Self.locationNames.randomElement(using: &rng)!
                }
                _ = try graph.commit()
            case 4, 5:
                text = Self.texts.randomElement(using: &rng)!
                what = "text"
                search.searchText = text
            default:
                what = "commit"
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    let items = graph.objects(of: Item.self)
                    switch Int.random(in: 0..<7, using: &rng) {
                    case 0: randomItem()
                    case 1: if let item = items.randomElement(using: &rng) { graph.delete(item) }
                    case 2: items.randomElement(using: &rng)?.name = "\(Self.names.randomElement(using: &rng)!) \(step)"
                    case 3: items.randomElement(using: &rng)?.quantity = Int.random(in: 0..<3, using: &rng)
                    case 4: locations.randomElement(using: &rng)!.name = Self.locationNames.randomElement(using: &rng)!
                    case 5 where locations.count < 6:
                        let location = graph.insert(Location())
                        location.name = Self.locationNames.randomElement(using: &rng)!
                        locations.append(location)
                    default: items.randomElement(using: &rng)?.location = locations.randomElement(using: &rng)
                    }
                }
                _ = try graph.commit()
            }
            let after = rendered(search)
            let context = "seed \(seed), step \(step) (\(what), text \"\(text)\"), closure key \(closureKey), base filtered \(baseFiltered)"
            #expect(after == reference(), "\(context)")
            let batches = delegate.batches()
            #expect(batches.count <= 1, "\(context): one change, one batch")
            if let batch = batches.first {
                expectReproduces(batch.whole, from: before, to: after, "\(context): \(batch.whole)")
                expectReproduces(batch.replayed, from: before, to: after, "\(context), delegate callbacks: \(batch.replayed)")
            } else {
                #expect(before == after, "\(context): the results changed without a batch")
            }
        }
    }
}
