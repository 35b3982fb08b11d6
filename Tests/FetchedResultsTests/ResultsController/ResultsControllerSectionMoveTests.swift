import FetchedResults
import FetchedResultsTesting
import Foundation
import Testing
import TestSupport

/// Renaming the related objects that name whole sections: the controller moves each section
/// as a block and reports the same valid batch as a row-by-row update would.
@Suite("ResultsController section moves")
struct ResultsControllerSectionMoveTests {
    @Test(arguments: testSeeds(count: 4))
    func renamingLocationsMovesTheirSections(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let graph = ObjectGraph()
        let locations = (0..<6).map { index in
            let location = graph.insert(Location())
            location.name = "shelf \(index)"
            return location
        }
        for index in 0..<300 {
            let item = graph.insert(Item())
            item.name = "item \(Int.random(in: 0..<50, using: &rng))"
            item.quantity = index
            item.location = locations.randomElement(using: &rng)
        }
        _ = try graph.commit()
        let sectionsAscending = Bool.random(using: &rng)
        let controller = ResultsController(graph: graph, request: FetchRequest(
            Item.self, sortedBy: [SortKey(\.name)], sectionKey: SectionKey(\.location?.name, ascending: sectionsAscending)))
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        controller.performFetch()
        func reference() -> [ListSimulator<String, ObjectID, String>.Section] {
            referenceFetch(graph, predicate: { _ in true }, section: { $0.location?.name ?? "" },
                           sectionsAscending: sectionsAscending, sort: [{ compare($0.name, $1.name) }])
        }

        for step in 0..<12 {
            let before = rendered(controller)
            // One to three locations take names no other location has: their sections move
            // whole, past, between or before the others.
            for location in locations.shuffled(using: &rng).prefix(Int.random(in: 1...3, using: &rng)) {
                location.name = "shelf \(step)-\(Int.random(in: 0..<1_000, using: &rng))"
            }
            _ = try graph.commit()
            let after = rendered(controller)
            #expect(after.map(\.id) == reference().map(\.id))
            #expect(after.map { $0.rows.map(\.id) } == reference().map { $0.rows.map(\.id) })
            let batch = try #require(delegate.batches().last)
            expectReproduces(batch.whole, from: before, to: after, "step \(step): \(batch.whole)")
            expectReproduces(batch.replayed, from: before, to: after, "step \(step), delegate callbacks: \(batch.replayed)")
        }
    }

    /// Renamed locations whose items' displayed quantities change in the same commit: the
    /// sections still move whole, with some of their rows refreshed and the others not (or
    /// all, or none), and every batch replays, cells compared, onto a fresh fetch's rows.
    @Test(arguments: testSeeds(count: 4))
    func renamingLocationsWithSomeRowsRefreshedMovesTheirSections(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let graph = ObjectGraph()
        let locations = (0..<5).map { index in
            let location = graph.insert(Location())
            location.name = "shelf \(index)"
            return location
        }
        for index in 0..<200 {
            let item = graph.insert(Item())
            item.name = "item \(Int.random(in: 0..<40, using: &rng))"
            item.quantity = index
            item.location = locations.randomElement(using: &rng)
        }
        _ = try graph.commit()
        var request = FetchRequest(Item.self, sortedBy: [SortKey(\.name)], sectionKey: SectionKey(\.location?.name))
        request.displayedKeys = [\.name, \.quantity]
        let controller = ResultsController(graph: graph, request: request)
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        controller.performFetch()

        for step in 0..<16 {
            let before = rendered(controller)
            let batchCount = 0
            let renamed = Array(locations.shuffled(using: &rng).prefix(Int.random(in: 1...2, using: &rng)))
            for location in renamed {
                location.name = "shelf \(step)-\(Int.random(in: 0..<1_000, using: &rng))"
            }
            // None, a few, or every item of the renamed locations shows a new quantity.
            let members = renamed.flatMap { Array($0.items) }.sorted { $0.objectID < $1.objectID }
            let written = switch Int.random(in: 0..<4, using: &rng) {
            case 0: [Item]()
            case 1: members
            default: Array(members.shuffled(using: &rng).prefix(Int.random(in: 1...4, using: &rng)))
            }
            for item in written { item.quantity += 1_000 }
            _ = try graph.commit()
            let after = rendered(controller)
            let context = "seed \(seed), step \(step), \(written.count) of \(members.count) rows refreshed"
            #expect(after == referenceFetch(graph, predicate: { _ in true }, section: { $0.location?.name ?? "" },
                                            sort: [{ compare($0.name, $1.name) }]), "\(context)")
            let batches = delegate.batches()
            // A moved row's callback says whether its cell shows new content.
            let refreshed = Set(written.map(\.objectID))
            for event in delegate.events {
                guard case .object(.move(let id, _, _, let contentChanged)) = event else { continue }
                #expect(contentChanged == refreshed.contains(id), "\(context): \(id) moved, content changed \(contentChanged)")
            }
            delegate.events = []
            let batch = try #require(batches.count > batchCount ? batches.last : nil, "\(context): no batch")
            expectReproduces(batch.whole, from: before, to: after, "\(context): \(batch.whole)")
            expectReproduces(batch.replayed, from: before, to: after, "\(context), delegate callbacks: \(batch.replayed)")
        }
    }

    /// Renaming a location re-reads only the section keys of its items: neither the
    /// predicate nor the sort keys run again (they read nothing that changed).
    @Test func renamingASectionKeyReadsOnlySectionKeysAgain() throws {
        let graph = ObjectGraph()
        let locations = (0..<3).map { index in
            let location = graph.insert(Location())
            location.name = "shelf \(index)"
            return location
        }
        for index in 0..<90 {
            let item = graph.insert(Item())
            item.name = "item \(index % 17)"
            item.quantity = index
            item.location = locations[index % 3]
        }
        _ = try graph.commit()
        let calls = ClosureCalls()
        let controller = ResultsController(graph: graph, request: FetchRequest(
            Item.self,
            predicate: FetchPredicate { item in
                calls.predicate += 1
                return item.quantity >= 0
            },
            sortedBy: [SortKey { item in
                calls.sort += 1
                return item.name
            }],
            sectionKey: SectionKey { item in
                calls.section += 1
                return item.location?.name
            }))
        controller.performFetch()
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        let before = rendered(controller)
        (calls.predicate, calls.sort, calls.section) = (0, 0, 0)

        locations[1].name = "attic"
        _ = try graph.commit()

        #expect(calls.predicate == 0 && calls.sort == 0, "the predicate ran \(calls.predicate) times, the sort key \(calls.sort)")
        // Once per item of the renamed location, and once more to name its new section.
        #expect(calls.section <= 31)
        let after = rendered(controller)
        #expect(after.map(\.id) == ["attic", "shelf 0", "shelf 2"])
        let batch = try #require(delegate.batches().last)
        expectReproduces(batch.whole, from: before, to: after)
        expectReproduces(batch.replayed, from: before, to: after)
    }

    /// Random commits (renamed and re-parented locations, renamed, inserted and deleted
    /// items) on requests whose section keys may share what they read with the predicate or
    /// a sort key, read an own property too, or read other keys depending on the name: every
    /// batch replays, and the rows match a fresh fetch.
    @Test(arguments: testSeeds(count: 6))
    func sectionKeysReadAgainMatchAFreshFetch(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let graph = ObjectGraph()
        var locations = (0..<5).map { index in
            let location = graph.insert(Location())
            location.name = "shelf \(index)"
            return location
        }
        var items: [Item] = []
        for index in 0..<120 {
            let item = graph.insert(Item())
            item.name = "item \(Int.random(in: 0..<40, using: &rng))"
            item.quantity = index
            item.listed = Bool.random(using: &rng)
            item.location = Int.random(in: 0..<8, using: &rng) == 0 ? nil : locations.randomElement(using: &rng)
            items.append(item)
        }
        _ = try graph.commit()
        // The section key: the location's name; with the item's own flag; or, for
        // locations named "x…", the number of items there too (another key).
        let sectionShape = Int.random(in: 0..<3, using: &rng)
        let section: (Item) -> String = { item in
            switch sectionShape {
            case 0: return item.location?.name ?? "-"
            case 1: return "\(item.location?.name ?? "-")/\(item.listed)"
            default:
                guard let location = item.location else { return "-" }
                return location.name.hasPrefix("x") ? "\(location.name)#\(location.items.count)" : location.name
            }
        }
        // The predicate may read the location's name too, so its key is not the section key's alone.
        let predicateReadsLocation = Bool.random(using: &rng)
        let predicate: (Item) -> Bool = { item in
            predicateReadsLocation ? item.location?.name != "shelf 3" : item.quantity % 5 != 0
        }
        let controller = ResultsController(graph: graph, request: FetchRequest(
            Item.self, predicate: FetchPredicate(predicate), sortedBy: [SortKey(\.name)], sectionKey: SectionKey(section)))
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        controller.performFetch()
        func reference() -> [ListSimulator<String, ObjectID, String>.Section] {
            referenceFetch(graph, predicate: predicate, section: section, sort: [{ compare($0.name, $1.name) }])
        }
        let describe = "seed \(seed), section shape \(sectionShape), predicate reads the location \(predicateReadsLocation)"

        for step in 0..<30 {
            let before = rendered(controller)
            let batchCount = delegate.batches().count
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                switch Int.random(in: 0..<10, using: &rng) {
                case 0..<4:
                    let name = ["shelf", "x", "attic"].randomElement(using: &rng)!
                    locations.randomElement(using: &rng)!.name = "\(name) \(Int.random(in: 0..<6, using: &rng))"
                case 4:
                    items.randomElement(using: &rng)!.location = locations.randomElement(using: &rng)
                case 5:
                    items.randomElement(using: &rng)!.name = "item \(Int.random(in: 0..<40, using: &rng))"
                case 6:
                    items.randomElement(using: &rng)!.listed.toggle()
                case 7:
                    let item = graph.insert(Item())
                    item.name = "item \(Int.random(in: 0..<40, using: &rng))"
                    item.location = locations.randomElement(using: &rng)
                    items.append(item)
                case 8:
                    guard items.count > 1 else { break }
                    let index = Int.random(in: 0..<items.count, using: &rng)
                    if !items[index].isDeleted { graph.delete(items[index]) }
                    items.remove(at: index)
                default:
                    let location = graph.insert(Location())
                    location.name = "shelf \(Int.random(in: 0..<6, using: &rng))"
                    locations.append(location)
                }
            }
            _ = try graph.commit()
            let after = rendered(controller)
            #expect(after == reference(), "\(describe), step \(step): the rows differ from a fresh fetch")
            let batches = delegate.batches()
            guard batches.count > batchCount, let batch = batches.last else {
                #expect(before == after, "\(describe), step \(step): the rows changed without a batch")
                continue
            }
            expectReproduces(batch.whole, from: before, to: after, "\(describe), step \(step): \(batch.whole)")
            expectReproduces(batch.replayed, from: before, to: after, "\(describe), step \(step), delegate callbacks")
        }
    }
}

/// Counts the calls of a request's closures.
private final class ClosureCalls: @unchecked Sendable {
    var predicate = 0
    var sort = 0
    var section = 0
}
