import FetchedResults
import FetchedResultsTesting
import Foundation
import Observation
import Synchronization
import Testing

@Suite("ResultsController surface")
struct ResultsControllerSurfaceTests {
    private func makeGraph() throws -> (ObjectGraph, [Location], [Item]) {
        let graph = ObjectGraph()
        let locations = ["Fridge", "Freezer", "Pantry"].map { name in
            let location = graph.insert(Location())
            location.name = name
            return location
        }
        let items = (0..<9).map { index in
            let item = graph.insert(Item())
            item.name = ["file 10", "file 2", "Apple", "éclair", "Eclair", "banana", "file 1", "Cherry", "date"][index]
            item.quantity = index
            item.listed = index % 3 != 0
            item.location = locations[index % 3]
            return item
        }
        _ = try graph.commit()
        return (graph, locations, items)
    }

    @Test func aSectionKeptAcrossAChangeReadsItsCurrentObjects() throws {
        let (graph, locations, items) = try makeGraph()
        let request = FetchRequest(Item.self, sortedBy: [SortKey(\.name, comparison: .localizedStandard)],
                                   sectionKey: SectionKey(\.location?.name))
        let controller = ResultsController(graph: graph, request: request)
        controller.performFetch()
        let kept = controller.sections
        #expect(kept[1].name == "Fridge" && kept[1].objects.map(\.name) == ["éclair", "file 1", "file 10"])
        let eclair = try #require(items.first { $0.name == "éclair" })
        graph.delete(eclair)
        try graph.commit()
        // Read live: the deleted object is not handed out, and nothing traps.
        #expect(kept[1].objects.map(\.name) == ["file 1", "file 10"])
        for item in items where item.location === locations[2] { graph.delete(item) }
        try graph.commit()
        #expect(kept[2].name == "Pantry" && kept[2].objects.isEmpty)
        #expect(controller.sections.map(\.name) == ["Freezer", "Fridge"])
    }

    @Test func coreDataSurface() throws {
        let (graph, _, items) = try makeGraph()
        let request = FetchRequest(Item.self, sortedBy: [SortKey(\.name, comparison: .localizedStandard)],
                                   sectionKey: SectionKey(\.location?.name))
        let controller = ResultsController(graph: graph, request: request)
        #expect(controller.fetchedObjects.isEmpty && controller.sections.isEmpty)
        controller.performFetch()
        #expect(controller.sections.map(\.name) == ["Freezer", "Fridge", "Pantry"])
        #expect(controller.sections.map(\.numberOfObjects) == [3, 3, 3])
        #expect(controller.sections[1].objects.map(\.name) == ["éclair", "file 1", "file 10"])
        #expect(controller.sectionIndexTitles == ["F", "P"])
        #expect(controller.section(forSectionIndexTitle: "P", at: 1) == 2)
        #expect(controller.section(forSectionIndexTitle: "G", at: 1) == 1)
        let path = IndexPath(row: 1, section: 1)
        #expect(controller.object(at: path) === items[6])
        #expect(controller.indexPath(for: items[6]) == path)
        #expect(controller.indexPath(forObjectID: items[6].objectID) == path)
        #expect(controller.object(ifPresentAt: IndexPath(row: 3, section: 1)) == nil)
        #expect(controller.object(ifPresentAt: IndexPath(row: 0, section: 3)) == nil)
        #expect(controller.numberOfObjects == 9)

        let titled = ResultsController(graph: graph, request: request)
        titled.sectionIndexTitleProvider = { name in name.isEmpty ? nil : String(name.prefix(2)).lowercased() }
        titled.performFetch()
        #expect(titled.sectionIndexTitles == ["fr", "pa"])
    }

    @Test func stringComparisonsOrderRows() throws {
        let (graph, _, _) = try makeGraph()
        func names(_ comparison: StringComparison) -> [String] {
            let controller = ResultsController(graph: graph, request: FetchRequest(Item.self, sortedBy: [SortKey(\.name, comparison: comparison)]))
            controller.performFetch()
            return controller.fetchedObjects.map(\.name)
        }
        #expect(names(.exact) == ["Apple", "Cherry", "Eclair", "banana", "date", "file 1", "file 10", "file 2", "éclair"])
        #expect(names(.caseInsensitive).prefix(4) == ["Apple", "banana", "Cherry", "date"])
        #expect(names(.localizedStandard).suffix(3) == ["file 1", "file 2", "file 10"])
        let diacritics = names(.caseDiacriticInsensitive)
        #expect(Set(diacritics[4...5]) == ["éclair", "Eclair"])
    }

    @Test func foundationSortDescriptorsAreAccepted() throws {
        let (graph, _, _) = try makeGraph()
        let key = try SortKey(SortDescriptor(\Item.quantity, order: .reverse))
        let controller = ResultsController(graph: graph, request: FetchRequest(Item.self, sortedBy: [key]))
        controller.performFetch()
        #expect(controller.fetchedObjects.map(\.quantity) == Array((0..<9).reversed()))
    }

    @Test func restorationIdentifiersSurviveChanges() throws {
        let (graph, _, items) = try makeGraph()
        let controller = ResultsController(graph: graph, request: FetchRequest(Item.self, predicate: .equal(\.listed, true),
                                                                                sortedBy: [SortKey(\.quantity)]))
        controller.performFetch()
        let identifier = try #require(controller.restorationIdentifier(forObjectAt: IndexPath(row: 0, section: 0)))
        #expect(controller.indexPath(forRestorationIdentifier: identifier) == IndexPath(row: 0, section: 0))
        items[1].quantity = 100
        _ = try graph.commit()
        #expect(controller.indexPath(forRestorationIdentifier: identifier) == IndexPath(row: 5, section: 0))
        items[2].listed = false
        _ = try graph.commit()
        #expect(controller.indexPath(forRestorationIdentifier: identifier) == IndexPath(row: 4, section: 0))
        items[1].listed = false
        _ = try graph.commit()
        #expect(controller.indexPath(forRestorationIdentifier: identifier) == nil)
        #expect(controller.indexPath(forRestorationIdentifier: "not an identifier") == nil)
        #expect(controller.restorationIdentifier(forObjectAt: IndexPath(row: 9, section: 0)) == nil)
    }

    @Test func snapshotNamesSectionsAndObjects() throws {
        let (graph, _, items) = try makeGraph()
        let controller = ResultsController(graph: graph, request: FetchRequest(Item.self, sortedBy: [SortKey(\.quantity)],
                                                                                sectionKey: SectionKey(\.location?.name)))
        controller.performFetch()
        let snapshot = controller.snapshot
        #expect(snapshot.sections.map(\.name) == ["Freezer", "Fridge", "Pantry"])
        #expect(snapshot.sectionIdentifiers == [.string("Freezer"), .string("Fridge"), .string("Pantry")])
        #expect(snapshot.itemIdentifiers(inSection: .string("Fridge")) == [items[0], items[3], items[6]].map(\.objectID))
        #expect(snapshot.numberOfItems == 9)
    }

    @Test func changesArriveAsAnAsyncSequence() async throws {
        let (graph, _, items) = try makeGraph()
        let controller = ResultsController(graph: graph, request: FetchRequest(Item.self, sortedBy: [SortKey(\.quantity)]))
        controller.performFetch()
        var iterator = controller.changes().makeAsyncIterator()
        items[0].quantity = 50
        _ = try graph.commit()
        let change = try #require(await iterator.next())
        #expect(change.changes.movedRows == [.init(from: IndexPath(row: 0, section: 0), to: IndexPath(row: 8, section: 0))])
        #expect(change.changes.reconfiguredRows == [IndexPath(row: 0, section: 0)])
        #expect(change.objectChanges == [.move(items[0].objectID, from: IndexPath(row: 0, section: 0),
                                               to: IndexPath(row: 8, section: 0), contentChanged: true)])
    }

    @Test func observationSeesEachChange() throws {
        let (graph, _, items) = try makeGraph()
        let controller = ResultsController(graph: graph, request: FetchRequest(Item.self, sortedBy: [SortKey(\.quantity)]))
        controller.performFetch()
        let changed = Mutex(0)
        withObservationTracking { _ = controller.fetchedObjects } onChange: { changed.withLock { $0 += 1 } }
        items[0].note = "unrelated to the order, still an update"
        _ = try graph.commit()
        #expect(changed.withLock { $0 } == 1)
        withObservationTracking { _ = controller.sections } onChange: { changed.withLock { $0 += 1 } }
        graph.delete(items[3])
        _ = try graph.commit()
        #expect(changed.withLock { $0 } == 2)
    }

    @Test func changingTheRequestAnimatesTheDifference() throws {
        let (graph, _, _) = try makeGraph()
        let controller = ResultsController(graph: graph, request: FetchRequest(Item.self, sortedBy: [SortKey(\.quantity)],
                                                                                sectionKey: SectionKey(\.location?.name)))
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        controller.performFetch()
        var before = rendered(controller)
        controller.request.predicate = .equal(\.listed, true)
        #expect(controller.fetchedObjects.allSatisfy(\.listed) && controller.numberOfObjects == 6)
        expectReproduces(try #require(delegate.batches().last).whole, from: before, to: rendered(controller))

        before = rendered(controller)
        delegate.events = []
        var reversed = controller.request
        reversed.sortKeys = [SortKey(\.quantity, ascending: false)]
        reversed.sectionKey?.ascending = false
        controller.request = reversed
        #expect(controller.sections.map(\.name) == ["Pantry", "Freezer"])
        let batch = try #require(delegate.batches().first)
        expectReproduces(batch.whole, from: before, to: rendered(controller))
        expectReproduces(batch.replayed, from: before, to: rendered(controller))
    }

    @Test func displayedKeysFilterUpdates() throws {
        let (graph, _, items) = try makeGraph()
        var request = FetchRequest(Item.self, sortedBy: [SortKey(\.quantity)])
        request.displayedKeys = [\.name]
        let controller = ResultsController(graph: graph, request: request)
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        controller.performFetch()
        items[4].note = "not displayed"
        _ = try graph.commit()
        #expect(delegate.events.isEmpty)
        items[4].name = "displayed"
        _ = try graph.commit()
        #expect(delegate.batches().first?.whole == ListChanges(reloadedRows: [IndexPath(row: 4, section: 0)]))
    }

    @Test func manyControllersAndADelegateThatWrites() throws {
        let (graph, _, items) = try makeGraph()
        let all = ResultsController(graph: graph, request: FetchRequest(Item.self, sortedBy: [SortKey(\.quantity)]))
        let listed = ResultsController(graph: graph, request: FetchRequest(Item.self, predicate: .equal(\.listed, true),
                                                                            sortedBy: [SortKey(\.name)]))
        let delegate = RecordingDelegate()
        all.delegate = delegate
        all.performFetch()
        listed.performFetch()
        // During delivery the delegate reads the controller and writes to the graph: the
        // write arrives as the next change.
        delegate.onDidChange = { controller in
            #expect(controller.fetchedObjects.first === items[1])
            delegate.onDidChange = nil
            items[1].listed = false
        }
        items[0].quantity = 99
        _ = try graph.commit()
        if graph.hasChanges { _ = try graph.commit() }
        #expect(delegate.batches().count == 2)
        #expect(!listed.fetchedObjects.contains(items[1]) && listed.numberOfObjects == 5)
        #expect(all.fetchedObjects.last === items[0])
    }

    @Test func aDeinitializedControllerStopsObserving() throws {
        let (graph, _, items) = try makeGraph()
        weak var weakController: ResultsController<Item>?
        do {
            let controller = ResultsController(graph: graph, request: FetchRequest(Item.self))
            controller.performFetch()
            weakController = controller
        }
        #expect(weakController == nil)
        items[0].quantity = 42
        _ = try graph.commit()
    }
}

@Suite("Keys read by closures")
struct ClosureKeyTests {
    @Test func closureKeysOrderAndSectionLikeKeyPaths() throws {
        let graph = ObjectGraph()
        let shelf = graph.insert(Location())
        shelf.name = "Shelf"
        let names = ["b", "a", "c"]
        let items = names.map { name in
            let item = graph.insert(Item())
            item.name = name
            item.location = name == "c" ? nil : shelf
            return item
        }
        _ = try graph.commit()
        let controller = ResultsController(graph: graph, request: FetchRequest(
            Item.self, sortedBy: [SortKey(ascending: false) { $0.name }], sectionKey: SectionKey { $0.location?.name }))
        controller.performFetch()
        #expect(controller.sections.map(\.name) == ["", "Shelf"])
        #expect(controller.fetchedObjects.map(\.name) == ["c", "b", "a"])
        shelf.name = "Attic"  // closures are tracked like key paths
        _ = try graph.commit()
        #expect(controller.sections.map(\.name) == ["", "Attic"])
        items[2].location = shelf
        _ = try graph.commit()
        #expect(controller.sections.map(\.name) == ["Attic"])
    }
}
