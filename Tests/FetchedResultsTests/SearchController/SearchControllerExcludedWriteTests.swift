@testable import FetchedResults
import FetchedResultsTesting
import Foundation
import Testing
import TestSupport

/// A search over a sectioned base while commits write rows its text excludes: a row whose
/// writes cannot change its searched string keeps no evaluation of its own in the search,
/// which copies the base's dependency entry for it. Whatever the search leaves alone must
/// still follow later commits: a rename that makes the row match, a text that shows it, a
/// location rename that re-sections it once shown.
@Suite("SearchController writes to excluded rows")
struct SearchControllerExcludedWriteTests {
    /// Names of which the search texts keep a few.
    private static let names = ["apple", "Grape", "papaya", "bread", "milk", "butter", "cheese", "soap", "pear", "Crème"]
    /// Texts from narrow to broad, and the empty one that shows every base row.
    private static let texts = ["ap", "app", "pa", "e", "", "gr", "m", "ap"]
    private static let locationNames = ["Fridge", "Pantry", "attic", "Éclair shelf", "basement"]
    private static let notes = ["", "ripe", "apt", "old"]

    /// What the searched string reads, by seed.
    private enum Searched: CaseIterable {
        /// The name alone.
        case name
        /// The name and the note: two own properties.
        case nameAndNote
        /// The name and the location's name: the string reads another object, and the
        /// search evaluates every row it touches.
        case nameAndLocation

        func string(_ item: Item) -> String {
            switch self {
            case .name: item.name
            case .nameAndNote: "\(item.name) \(item.note)"
            case .nameAndLocation: "\(item.name) \(item.location?.name ?? "")"
            }
        }
    }

    @Test(arguments: testSeeds(count: 20))
    func writesToExcludedAndShownRowsMatchAFreshFetch(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        // One seed in five searches a string that reads the location.
        let searched: Searched = switch seed % 5 {
        case 0: .nameAndLocation
        case 1, 2: .name
        default: .nameAndNote
        }
        // 0: no base predicate; 1: `quantity >= 1`, which quantity writes change; 2: `listed`.
        let baseFilter = [0, 1, 1, 2][Int(seed / 5 % 4)]
        let closureKey = seed / 20 % 2 == 1
        // A sort key that reads the location too (read outside the section key).
        let sortsByLocation = seed / 40 % 2 == 1
        let graph = ObjectGraph()
        var locations = (0..<4).map { index in
            let location = graph.insert(Location())
            location.name = Self.locationNames[index]
            return location
        }
        func randomName(_ suffix: Int) -> String { "\(Self.names.randomElement(using: &rng)!) \(suffix)" }
        func randomItem() {
            let item = graph.insert(Item())
            item.name = randomName(Int.random(in: 0..<50, using: &rng))
            item.quantity = Int.random(in: 0..<3, using: &rng)
            item.listed = Bool.random(using: &rng)
            item.note = Self.notes.randomElement(using: &rng)!
            item.location = Int.random(in: 0..<8, using: &rng) == 0 ? nil : locations.randomElement(using: &rng)
        }
        for _ in 0..<80 { randomItem() }
        _ = try graph.commit()

        func included(_ item: Item) -> Bool {
            switch baseFilter {
            case 1: item.quantity >= 1
            case 2: item.listed
            default: true
            }
        }
        let sectionKey = closureKey
            ? SectionKey<Item> { $0.locationSectionName(readsItems: true) }
            : SectionKey(\.location?.name)
        var sortKeys = [SortKey(\Item.name), SortKey(\.quantity, ascending: false)]
        if sortsByLocation { sortKeys.insert(SortKey { $0.location?.name.count ?? -1 }, at: 1) }
        let base = ResultsController(graph: graph, request: FetchRequest(
            Item.self, predicate: baseFilter == 0 ? nil : FetchPredicate(included),
            sortedBy: sortKeys, sectionKey: sectionKey))
        base.performFetch()
        var text = Self.texts.randomElement(using: &rng)!
        let search = SearchController(base: base, searching: { searched.string($0) }, searchText: text)
        let delegate = RecordingDelegate()
        search.delegate = delegate
        func reference() -> [ListSimulator<String, ObjectID, String>.Section] {
            var sort: [(Item, Item) -> Bool?] = [{ compare($0.name, $1.name) }]
            if sortsByLocation { sort.append { compare($0.location?.name.count ?? -1, $1.location?.name.count ?? -1) } }
            sort.append { compare($0.quantity, $1.quantity, ascending: false) }
            return referenceFetch(
                graph,
                predicate: { item in
                    included(item)
                        && (text.isEmpty || searched.string(item).range(of: text, options: [.caseInsensitive, .diacriticInsensitive]) != nil)
                },
                section: { $0.locationSectionName(readsItems: closureKey) },
                sort: sort)
        }
        func shown(_ item: Item) -> Bool { search.indexPath(for: item) != nil }
        #expect(rendered(search) == reference(), "seed \(seed): the first fetch")

        for step in 0..<150 {
            let before = rendered(search)
            delegate.events = []
            var what: [String] = []
            let kind = Int.random(in: 0..<10, using: &rng)
            if kind == 0 {
                text = Self.texts.randomElement(using: &rng)!
                what.append("text")
                search.searchText = text
            } else {
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    // A few rows take half of the writes, so that a row is written again
                    // after a write the search left alone (or one the base excluded it for).
                    let all = graph.objects(of: Item.self)
                    let items = Bool.random(using: &rng) ? Array(all.sorted { $0.objectID < $1.objectID }.prefix(8)) : all
                    // Mostly rows the search does not show, as the base-excluded benchmark writes.
                    let excluded = items.filter { !shown($0) }
                    let pool = Int.random(in: 0..<4, using: &rng) == 0 || excluded.isEmpty ? items : excluded
                    guard let item = pool.randomElement(using: &rng) else {
                        randomItem()
                        what.append("insert")
                        continue
                    }
                    switch Int.random(in: 0..<12, using: &rng) {
                    case 0:
                        randomItem()
                        what.append("insert")
                    case 1:
                        graph.delete(item)
                        what.append("delete")
                    case 2, 3:
                        // A name that may make the row match, or stop matching.
                        item.name = randomName(step)
                        what.append("name")
                    case 4:
                        item.note = Self.notes.randomElement(using: &rng)!
                        what.append("note")
                    case 5, 6:
                        item.quantity = Int.random(in: 0..<3, using: &rng)
                        what.append("quantity")
                    case 7:
                        item.listed.toggle()
                        what.append("listed")
                    case 8:
                        item.quantity = Int.random(in: 0..<3, using: &rng)
                        item.location = Int.random(in: 0..<6, using: &rng) == 0 ? nil : locations.randomElement(using: &rng)
                        what.append("quantity and location")
                    case 9:
                        locations.randomElement(using: &rng)!.name = Self.locationNames.randomElement(using: &rng)!
                        what.append("location rename")
                    case 10 where locations.count < 6:
                        let location = graph.insert(Location())
                        location.name = Self.locationNames.randomElement(using: &rng)!
                        locations.append(location)
                        item.location = location
                        what.append("new location")
                    default:
                        item.location = locations.randomElement(using: &rng)
                        what.append("location")
                    }
                }
                _ = try graph.commit()
            }
            let after = rendered(search)
            let context = "seed \(seed), step \(step) (\(what.joined(separator: ", ")), text \"\(text)\"), searched \(searched), "
                + "closure key \(closureKey), base filter \(baseFilter), sorts by location \(sortsByLocation)"
            #expect(after == reference(), "\(context)")
            #expect(rendered(base) == referenceFetch(
                graph, predicate: included, section: { $0.locationSectionName(readsItems: closureKey) },
                sort: [{ compare($0.name, $1.name) }]
                    + (sortsByLocation ? [{ compare($0.location?.name.count ?? -1, $1.location?.name.count ?? -1) }] : [])
                    + [{ compare($0.quantity, $1.quantity, ascending: false) }]), "\(context): the base")
            delegate.expectAtMostOneBatch(from: before, to: after, context)
        }
        // The shortcut is taken where it may be, and only there.
        if searched == .nameAndLocation {
            #expect(search.engine.adoptedEntryCount == 0, "seed \(seed): a string that reads the location left rows alone")
        } else {
            #expect(search.engine.adoptedEntryCount > 0, "seed \(seed): no write left an excluded row alone")
        }
    }
}
