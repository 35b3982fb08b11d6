@testable import FetchedResults
import FetchedResultsTesting
import Foundation
import Testing
import TestSupport

/// A commit that only renames what whole sections are named after: the controller reads
/// every row's section key again and moves whole sections as blocks when their rows agree,
/// and its results and batches match a fresh fetch whatever the section key reads (the
/// related object's name alone, the row's identity too, or state outside the graph).
@Suite("ResultsController section renames")
struct ResultsControllerSectionRenameTests {
    /// What a request's section key reads.
    private enum SectionShape: CaseIterable {
        /// The location's name: every row of a location shares its section.
        case locationName
        /// The location's name, and for names that start with "x" a digit of the row's own
        /// ID, which no tracking sees: such a location's rows fall into two sections.
        case withIdentity
        /// The location's name, and for names that start with "x" a bucket from a table
        /// outside the graph, fixed per row.
        case withOutsideTable
        /// The location's name and the item's own name: a location's rows fall into many
        /// sections, which move as many blocks.
        case withOwnName
    }

    /// Sections and rows without the cells' contents: what a list view's rows are while a
    /// commit that rewrote some cells is being delivered.
    private static func shape(
        _ sections: [ListSimulator<String, ObjectID, String>.Section]
    ) -> [ListSimulator<String, ObjectID, String>.Section] {
        sections.map { section in .init(id: section.id, rows: section.rows.map { .init(id: $0.id, content: "") }) }
    }

    /// Random renames of locations (to a fresh name, to another location's name, to their
    /// own name, two at once, or together with other writes), on requests with or without
    /// a displayed-keys list, a window, or a cleared search following the controller: the
    /// rows match a fresh fetch after every commit, and every batch, whole and replayed from
    /// the one-by-one callbacks, turns the old rows into the new ones in a strict
    /// `ListSimulator`.
    @Test(arguments: testSeeds(count: 12))
    func renamesMatchAFreshFetch(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let graph = ObjectGraph()
        var locations = (0..<6).map { index in
            let location = graph.insert(Location())
            location.name = "shelf \(index)"
            return location
        }
        var items: [Item] = []
        for index in 0..<Int.random(in: 40...240, using: &rng) {
            let item = graph.insert(Item())
            item.name = "item \(Int.random(in: 0..<30, using: &rng))"
            item.quantity = index
            item.location = Int.random(in: 0..<10, using: &rng) == 0 ? nil : locations.randomElement(using: &rng)
            items.append(item)
        }
        _ = try graph.commit()
        let shape = SectionShape.allCases.randomElement(using: &rng)!
        var buckets: [ObjectID: Int] = [:]
        for item in items { buckets[item.objectID] = Int.random(in: 0..<2, using: &rng) }
        let section: (Item) -> String = { item in
            let name = item.location?.name ?? "-"
            switch shape {
            case .locationName: return name
            // Only for names that start with "x": renaming a location to one splits its
            // section, whose rows then agree on no one new value.
            case .withIdentity: return name.hasPrefix("x") ? "\(name)#\("\(item.objectID)".utf8.last! % 2)" : name
            case .withOutsideTable: return name.hasPrefix("x") ? "\(name)@\(buckets[item.objectID] ?? 9)" : name
            case .withOwnName: return "\(name)/\(item.name)"
            }
        }
        let sectionsAscending = Bool.random(using: &rng)
        let filtered = Bool.random(using: &rng)
        let predicate: (Item) -> Bool = { !filtered || $0.quantity % 4 != 0 }
        var request = FetchRequest(
            Item.self, predicate: FetchPredicate(predicate), sortedBy: [SortKey(\.name)],
            sectionKey: SectionKey(ascending: sectionsAscending, section))
        let displays = Bool.random(using: &rng)
        if displays { request.displayedKeys = [\.name, \.quantity] }
        let windowed = Int.random(in: 0..<4, using: &rng) == 0
        if windowed {
            request.fetchOffset = Int.random(in: 0..<10, using: &rng)
            request.fetchLimit = Int.random(in: 5..<60, using: &rng)
        }
        let controller = ResultsController(graph: graph, request: request)
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        controller.performFetch()
        // A search whose text was cleared shares the controller's index; one that reads it
        // while the controller delivers gets an index of its own, undoing the commit.
        let followed = !windowed && Bool.random(using: &rng)
        let search = followed ? SearchController(base: controller, searching: \.name, searchText: "item 1") : nil
        search?.searchText = ""
        let searchDelegate = RecordingDelegate()
        search?.delegate = searchDelegate
        let readsSearchDuringDelivery = Bool.random(using: &rng)
        var searchDuringDelivery: [ListSimulator<String, ObjectID, String>.Section]?
        delegate.onDidChange = { _ in
            if readsSearchDuringDelivery, let search { searchDuringDelivery = Self.shape(rendered(search)) }
        }
        func reference() -> [ListSimulator<String, ObjectID, String>.Section] {
            referenceFetch(graph, predicate: predicate, section: section, sectionsAscending: sectionsAscending,
                           sort: [{ compare($0.name, $1.name) }], offset: request.fetchOffset, limit: request.fetchLimit)
        }
        let describe = "seed \(seed), \(shape), ascending \(sectionsAscending), filtered \(filtered), displays \(displays), "
            + "windowed \(windowed), followed \(followed)"

        for step in 0..<30 {
            let before = rendered(controller)
            let searchBefore = search.map(rendered)
            let batchCount = delegate.batches().count
            let searchBatchCount = searchDelegate.batches().count
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<5:
                let prefix = Bool.random(using: &rng) ? "x" : "shelf"
                locations.randomElement(using: &rng)!.name = "\(prefix) \(step)-\(Int.random(in: 0..<1_000, using: &rng))"
            case 5:
                // Onto another location's name: the sections merge.
                let pair = locations.shuffled(using: &rng).prefix(2)
                pair.first!.name = pair.last!.name
            case 6:
                // To its own name: nothing moves.
                let location = locations.randomElement(using: &rng)!
                location.name = location.name
            case 7:
                for location in locations.shuffled(using: &rng).prefix(2) {
                    location.name = "attic \(step)-\(Int.random(in: 0..<1_000, using: &rng))"
                }
            case 8:
                locations.randomElement(using: &rng)!.name = "shelf \(step)-\(Int.random(in: 0..<1_000, using: &rng))"
                let item = items.randomElement(using: &rng)!
                // A cell shows the item's location, which a request that displays only the
                // name and quantity does not refresh for: re-parented only without that list.
                if displays || Bool.random(using: &rng) {
                    item.name = "item \(Int.random(in: 0..<30, using: &rng))"
                } else {
                    item.location = locations.randomElement(using: &rng)
                }
            default:
                let location = graph.insert(Location())
                location.name = "shelf \(Int.random(in: 0..<8, using: &rng))"
                locations.append(location)
                let item = graph.insert(Item())
                item.name = "item \(Int.random(in: 0..<30, using: &rng))"
                item.location = location
                buckets[item.objectID] = Int.random(in: 0..<2, using: &rng)
                items.append(item)
            }
            searchDuringDelivery = nil
            _ = try graph.commit()
            let after = rendered(controller)
            #expect(after == reference(), "\(describe), step \(step): the rows differ from a fresh fetch")
            let batches = delegate.batches()
            if batches.count > batchCount, let batch = batches.last {
                expectReproduces(batch.whole, from: before, to: after, "\(describe), step \(step): \(batch.whole)")
                expectReproduces(batch.replayed, from: before, to: after, "\(describe), step \(step), delegate callbacks: \(batch.replayed)")
            } else {
                #expect(before == after, "\(describe), step \(step): the rows changed without a batch")
            }
            guard let search, let searchBefore else { continue }
            if let searchDuringDelivery {
                #expect(searchDuringDelivery == Self.shape(searchBefore), "\(describe), step \(step): the search showed the commit before it heard of it")
            }
            let searchAfter = rendered(search)
            #expect(searchAfter == after, "\(describe), step \(step): the cleared search differs from its base")
            let searchBatches = searchDelegate.batches()
            if searchBatches.count > searchBatchCount, let batch = searchBatches.last {
                expectReproduces(batch.whole, from: searchBefore, to: searchAfter, "\(describe), step \(step), search: \(batch.whole)")
                expectReproduces(batch.replayed, from: searchBefore, to: searchAfter, "\(describe), step \(step), search callbacks")
            }
        }
        // Without a window, renames to fresh names moved whole sections as blocks.
        if !windowed {
            #expect(controller.engine.sectionRenameCommits > 0, "\(describe): no commit moved sections as blocks")
        }
    }

    /// The same commits with and without moving whole sections give the same batches.
    @Test(arguments: testSeeds(count: 4))
    func blocksAndRowByRowDeliverTheSameBatches(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let graph = ObjectGraph()
        let locations = (0..<5).map { index in
            let location = graph.insert(Location())
            location.name = "shelf \(index)"
            return location
        }
        for index in 0..<150 {
            let item = graph.insert(Item())
            item.name = "item \(Int.random(in: 0..<30, using: &rng))"
            item.quantity = index
            item.location = locations.randomElement(using: &rng)
        }
        _ = try graph.commit()
        let request = FetchRequest(Item.self, sortedBy: [SortKey(\.name)], sectionKey: SectionKey { $0.location?.name })
        let blocks = ResultsController(graph: graph, request: request)
        let rowByRow = ResultsController(graph: graph, request: request)
        rowByRow.engine.movesWholeSections = false
        let blocksDelegate = RecordingDelegate()
        let rowByRowDelegate = RecordingDelegate()
        blocks.delegate = blocksDelegate
        rowByRow.delegate = rowByRowDelegate
        blocks.performFetch()
        rowByRow.performFetch()
        for step in 0..<20 {
            locations.randomElement(using: &rng)!.name = "shelf \(step)-\(Int.random(in: 0..<1_000, using: &rng))"
            _ = try graph.commit()
            #expect(rendered(blocks) == rendered(rowByRow), "seed \(seed), step \(step)")
        }
        #expect(blocks.engine.sectionRenameCommits == 20)
        #expect(rowByRow.engine.sectionRenameCommits == 0)
        let expected = rowByRowDelegate.batches()
        let actual = blocksDelegate.batches()
        #expect(actual.map(\.whole) == expected.map(\.whole))
        #expect(actual.map(\.replayed) == expected.map(\.replayed))
        // The one-by-one callbacks too, up to the order of the moves within a commit.
        func moves(_ events: [RecordingDelegate.Event]) -> [[String]] {
            var result: [[String]] = []
            for event in events {
                switch event {
                case .willChange: result.append([])
                case .object(let change): result[result.count - 1].append("\(change)")
                default: break
                }
            }
            return result.map { $0.sorted() }
        }
        #expect(moves(blocksDelegate.events) == moves(rowByRowDelegate.events))
    }

    /// A rename that moves many sections at once (a section per location and item name):
    /// every one moves as a block, and the batch reproduces a fresh fetch.
    @Test(arguments: testSeeds(count: 3))
    func aRenameMovesManySectionsAsBlocks(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let graph = ObjectGraph()
        let locations = (0..<3).map { index in
            let location = graph.insert(Location())
            location.name = "shelf \(index)"
            return location
        }
        for index in 0..<300 {
            let item = graph.insert(Item())
            item.name = "item \(Int.random(in: 0..<40, using: &rng))"
            item.quantity = index
            item.location = locations.randomElement(using: &rng)
        }
        _ = try graph.commit()
        let section: (Item) -> String = { "\($0.location?.name ?? "-")/\($0.name)" }
        let controller = ResultsController(graph: graph, request: FetchRequest(
            Item.self, sortedBy: [SortKey(\.quantity)], sectionKey: SectionKey(section)))
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        controller.performFetch()
        for step in 0..<6 {
            let before = rendered(controller)
            locations.randomElement(using: &rng)!.name = "shelf \(step)-\(Int.random(in: 0..<1_000, using: &rng))"
            _ = try graph.commit()
            let after = rendered(controller)
            #expect(after == referenceFetch(graph, predicate: { _ in true }, section: section, sort: [{ compare($0.quantity, $1.quantity) }]))
            let batch = try #require(delegate.batches().last)
            #expect(batch.whole.deletedSections.count > 8, "seed \(seed), step \(step): \(batch.whole.deletedSections.count) sections moved")
            expectReproduces(batch.whole, from: before, to: after, "seed \(seed), step \(step): \(batch.whole)")
            expectReproduces(batch.replayed, from: before, to: after, "seed \(seed), step \(step), delegate callbacks")
        }
        #expect(controller.engine.sectionRenameCommits == 6)
    }
}
