import FetchedResults
import FetchedResultsTesting
import Foundation
import ListUpdates
import Testing
import TestSupport

/// A controller's sections and rows without the cells' contents: a commit made during a
/// delivery changes the objects before the controllers hear of it.
private func shape(_ controller: some SectionedResults<Item>) -> [ListSimulator<String, ObjectID, String>.Section] {
    rendered(controller).map { section in .init(id: section.id, rows: section.rows.map { .init(id: $0.id, content: "") }) }
}

/// A delegate that keeps the rows its list view shows: each batch is applied (by a strict
/// `ListSimulator`) to the rows it showed, and must yield the controller's rows at that
/// moment (their order and sections; the cells' contents are checked after each step).
private final class ViewTracker: ResultsControllerDelegate {
    typealias Object = Item
    /// The rows the list view shows.
    var view: [ListSimulator<String, ObjectID, String>.Section]
    /// What the test is doing, for failure messages.
    var context = ""
    /// Runs after each batch.
    var onBatch: (() -> Void)?

    init(_ controller: some SectionedResults<Item>) {
        view = shape(controller)
    }

    func controller(_ controller: any SectionedResults<Item>, didChangeContentWith changes: ListChanges) {
        let now = shape(controller)
        expectApplying(stages: changes.staged(), from: view, yields: now, strict: true, "\(context): \(changes)")
        view = now
        onBatch?()
    }
}

/// A cleared search shares its base controller's index; what its readers see must still
/// change only when it hears of a commit.
@Suite("SearchController sharing its base's index")
struct SearchControllerSharingTests {
    private static let names = ["apple", "Apricot", "banana", "grape", "pear", "papaya", "crème", "Éclair"]
    private static let locationNames = ["attic", "pantry", "fridge", "cellar"]

    /// A base delegate that reads a cleared search during the base's delivery sees the rows
    /// the search's delegate heard of, not the commit the search has yet to hear of.
    @Test func aClearedSearchReadDuringTheBaseDeliveryShowsWhatItsDelegateHeard() throws {
        let graph = ObjectGraph()
        let location = graph.insert(Location())
        location.name = "attic"
        for index in 0..<12 {
            let item = graph.insert(Item())
            item.name = Self.names[index % Self.names.count]
            item.location = location
        }
        _ = try graph.commit()
        let base = ResultsController(graph: graph, request: FetchRequest(
            Item.self, sortedBy: [SortKey(\.name)], sectionKey: SectionKey(\.location?.name)))
        base.performFetch()
        let search = SearchController(base: base, searching: \.name, searchText: "ap")
        let tracker = ViewTracker(search)
        search.delegate = tracker
        search.searchText = ""
        let baseTracker = ViewTracker(base)
        base.delegate = baseTracker
        var seenDuringBaseDelivery: [ListSimulator<String, ObjectID, String>.Section]?
        baseTracker.onBatch = { seenDuringBaseDelivery = shape(search) }
        let before = shape(search)

        let fresh = graph.insert(Item())
        fresh.name = "apple pie"
        fresh.location = location
        location.name = "pantry"
        _ = try graph.commit()

        #expect(seenDuringBaseDelivery == before, "the search showed the commit before it heard of it")
        #expect(tracker.view == shape(search))
        #expect(rendered(search) == rendered(base))
    }

    /// A row the text excluded, shown once the search is cleared (sharing the base's index)
    /// and kept when the text is typed again, follows a rename of its location: the search
    /// recorded what the excluded row's section key reads, though its text excluded it.
    @Test func aRowTheTextExcludedFollowsItsLocationAfterClearingAndTypingAgain() throws {
        let graph = ObjectGraph()
        let attic = graph.insert(Location())
        attic.name = "attic"
        let pantry = graph.insert(Location())
        pantry.name = "pantry"
        let pear = graph.insert(Item())
        pear.name = "pear"
        pear.location = attic
        let apple = graph.insert(Item())
        apple.name = "apple"
        apple.location = pantry
        _ = try graph.commit()
        let base = ResultsController(graph: graph, request: FetchRequest(
            Item.self, sortedBy: [SortKey(\.name)], sectionKey: SectionKey(\.location?.name)))
        base.performFetch()
        // "ap" excludes the pear: the search has evaluated it without showing it.
        let search = SearchController(base: base, searching: \.name, searchText: "ap")
        let tracker = ViewTracker(search)
        search.delegate = tracker
        search.searchText = ""
        search.searchText = "e"

        attic.name = "cellar"
        _ = try graph.commit()

        #expect(rendered(search).map(\.id) == ["cellar", "pantry"])
        #expect(rendered(search) == rendered(base))
        #expect(tracker.view == shape(search))
    }

    /// Two searches over one base, cleared and typed into at random, with commits that
    /// rename locations (whole sections move), move, rename, insert and delete items, and a
    /// base delegate that reads both searches and sometimes commits again during its
    /// delivery: every batch of each search replays on what its list view showed, a read
    /// during the base's delivery shows what the search's delegate heard, and each search
    /// ends every step equal to a fresh fetch.
    @Test(arguments: testSeeds(count: 10))
    func clearedAndTypedSearchesFollowCommitsMadeDuringDelivery(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let graph = ObjectGraph()
        var locations = (0..<3).map { index in
            let location = graph.insert(Location())
            location.name = Self.locationNames[index]
            return location
        }
        func randomItem() {
            let item = graph.insert(Item())
            item.name = Self.names.randomElement(using: &rng)!
            item.quantity = Int.random(in: 0..<3, using: &rng)
            item.location = Int.random(in: 0..<8, using: &rng) == 0 ? nil : locations.randomElement(using: &rng)
        }
        func randomWrites(_ count: Int) {
            for _ in 0..<count {
                let items = graph.objects(of: Item.self)
                switch Int.random(in: 0..<8, using: &rng) {
                case 0: randomItem()
                case 1: if let item = items.randomElement(using: &rng) { graph.delete(item) }
                case 2: items.randomElement(using: &rng)?.name = Self.names.randomElement(using: &rng)!
                case 3: items.randomElement(using: &rng)?.quantity = Int.random(in: 0..<3, using: &rng)
                case 4: items.randomElement(using: &rng)?.location = locations.randomElement(using: &rng)
                case 5, 6: locations.randomElement(using: &rng)?.name = Self.locationNames.randomElement(using: &rng)! + "\(Int.random(in: 0..<3, using: &rng))"
                default:
                    if locations.count < 5 {
                        let location = graph.insert(Location())
                        location.name = Self.locationNames.randomElement(using: &rng)!
                        locations.append(location)
                    }
                }
            }
        }
        for _ in 0..<40 { randomItem() }
        _ = try graph.commit()

        let sectioned = seed % 3 != 0
        let base = ResultsController(graph: graph, request: FetchRequest(
            Item.self, sortedBy: [SortKey(\.name), SortKey(\.quantity, ascending: false)],
            sectionKey: sectioned ? SectionKey(\.location?.name) : nil))
        base.performFetch()
        let searches = [SearchController(base: base, searching: \.name), SearchController(base: base, searching: \.name, searchText: "a")]
        var texts = ["", "a"]
        let trackers = searches.map(ViewTracker.init)
        for (search, tracker) in zip(searches, trackers) { search.delegate = tracker }
        let baseTracker = ViewTracker(base)
        base.delegate = baseTracker
        var nestedCommits = 0
        var context = ""
        baseTracker.onBatch = {
            for (number, (search, tracker)) in zip(searches, trackers).enumerated() {
                #expect(shape(search) == tracker.view, "\(context): search \(number) changed before it heard of the commit")
            }
            // Now and then a write during delivery: the next commit, delivered after this one.
            if nestedCommits < 2 && Int.random(in: 0..<4, using: &rng) == 0 {
                nestedCommits += 1
                randomWrites(1)
                do { _ = try graph.commit() } catch { Issue.record("\(context): nested commit failed: \(error)") }
            }
        }
        func reference(_ text: String) -> [ListSimulator<String, ObjectID, String>.Section] {
            referenceFetch(
                graph,
                predicate: { text.isEmpty || $0.name.range(of: text, options: [.caseInsensitive, .diacriticInsensitive]) != nil },
                section: sectioned ? { $0.location?.name ?? "" } : nil,
                sort: [{ compare($0.name, $1.name) }, { compare($0.quantity, $1.quantity, ascending: false) }])
        }

        for step in 0..<120 {
            nestedCommits = 0
            let which = Int.random(in: 0..<2, using: &rng)
            let action = Int.random(in: 0..<10, using: &rng)
            switch action {
            case 0, 1: texts[which] = ""
            case 2: texts[which].append(["a", "p", "e", "É"].randomElement(using: &rng)!)
            case 3: if !texts[which].isEmpty { texts[which].removeLast() }
            default: break
            }
            context = "seed \(seed), step \(step), action \(action), texts \(texts)"
            for tracker in trackers + [baseTracker] { tracker.context = context }
            if action <= 3 {
                searches[which].searchText = texts[which]
            } else {
                randomWrites(Int.random(in: 1...4, using: &rng))
                _ = try graph.commit()
            }
            for (number, search) in searches.enumerated() {
                #expect(rendered(search) == reference(texts[number]), "\(context): search \(number)")
                #expect(trackers[number].view == shape(search), "\(context): search \(number)'s list view")
            }
            #expect(rendered(base) == reference(""), "\(context): base")
        }
    }
}
