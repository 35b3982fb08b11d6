import FetchedResults
import FetchedResultsTesting
import Foundation
import Observation
import Synchronization
import Testing

/// A delegate shared by several controllers: it records which controller each batch came from.
private final class SourceRecorder: ResultsControllerDelegate {
    typealias Object = Item
    var sources: [ObjectIdentifier] = []
    var names: [[String]] = []
    func controller(_ controller: any SectionedResults<Item>, didChangeContentWith changes: ListChanges) {
        sources.append(ObjectIdentifier(controller))
        // The controller named is the public one, fully readable during the callback.
        names.append(controller.fetchedObjects.map(\.name))
    }
}

/// Any controller's rows, read through the protocol alone.
private func rows(_ results: some SectionedResults<Item>) -> [[String]] {
    results.sections.map { $0.objects.map(\.name) }
}

/// The controllers are final classes behind one read protocol; none can be substituted for
/// another, so no member exists that one of them would have to refuse by trapping. That a
/// `SearchController`'s request has no setter, and that a search cannot be derived from an
/// `OrderedResultsController`, are compile-time facts: these tests show the API that
/// replaced them works.
@Suite("SectionedResults")
struct SectionedResultsTests {
    private func makeBase() throws -> (ObjectGraph, ResultsController<Item>, Location) {
        let graph = ObjectGraph()
        let fridge = graph.insert(Location())
        fridge.name = "Fridge"
        for name in ["Butter", "banana", "Milk", "Basil"] {
            let item = graph.insert(Item())
            item.name = name
            item.location = fridge
        }
        _ = try graph.commit()
        let base = ResultsController(graph: graph, request: FetchRequest(
            Item.self, sortedBy: [SortKey(\.name, comparison: .localizedStandard)], sectionKey: SectionKey(\.location?.name)))
        base.performFetch()
        return (graph, base, fridge)
    }

    @Test func oneDelegateServesEveryControllerAndIsToldWhichOneChanged() throws {
        let (graph, base, fridge) = try makeBase()
        let search = SearchController(base: base, searching: \.name, searchText: "ba")
        let recorder = SourceRecorder()
        base.delegate = recorder
        search.delegate = recorder
        #expect(base.delegate === recorder && search.delegate === recorder)

        let item = graph.insert(Item())
        item.name = "Bacon"
        item.location = fridge
        _ = try graph.commit()
        // The base hears of the commit first (it observed the graph first), then the search.
        #expect(recorder.sources == [ObjectIdentifier(base), ObjectIdentifier(search)])
        #expect(recorder.names == [["Bacon", "banana", "Basil", "Butter", "Milk"], ["Bacon", "banana", "Basil"]])

        search.searchText = "bas"
        #expect(recorder.sources.last == ObjectIdentifier(search))
        #expect(rows(search) == [["Basil"]])
        #expect(rows(base) == [["Bacon", "banana", "Basil", "Butter", "Milk"]])
    }

    @Test func aSearchRequestIsReadOnlyAndFollowsTheSearchText() throws {
        let (_, base, _) = try makeBase()
        let search = SearchController(base: base, searching: \.name)
        let results: any SectionedResults<Item> = search
        #expect(results.request.sortKeys.count == 1 && results.request.sectionKey != nil)
        #expect(results.hasFetched)
        search.searchText = "mi"
        #expect(rows(search) == [["Milk"]])
        #expect(search.fetchedObjects.map(\.name) == ["Milk"])
    }

    @Test func sectionIndexTitlesComeFromTheProviderAndTheSearchSharesThem() throws {
        let (_, base, _) = try makeBase()
        let search = SearchController(base: base, searching: \.name)
        #expect(base.sectionIndexTitles == ["F"] && search.sectionIndexTitles == ["F"])
        let notified = Mutex(0)
        withObservationTracking { _ = base.sections } onChange: { notified.withLock { $0 += 1 } }
        base.sectionIndexTitleProvider = { name in name.isEmpty ? nil : name.lowercased() }
        #expect(notified.withLock { $0 } == 1, "a new title provider changes the observable sections")
        #expect(base.sections.map(\.indexTitle) == ["fridge"])
        #expect(search.sectionIndexTitles == ["fridge"])
        #expect(search.sectionIndexTitle(forSectionName: "Pantry") == "pantry")
        base.sectionIndexTitleProvider = nil
        #expect(base.sectionIndexTitles == ["F"])
    }

    @Test func observationTracksReadsThroughEachController() throws {
        let (graph, base, fridge) = try makeBase()
        let search = SearchController(base: base, searching: \.name)
        let baseChanges = Mutex(0)
        let searchChanges = Mutex(0)
        withObservationTracking { _ = base.fetchedObjects } onChange: { baseChanges.withLock { $0 += 1 } }
        withObservationTracking { _ = search.sections } onChange: { searchChanges.withLock { $0 += 1 } }
        search.searchText = "zz"
        #expect(searchChanges.withLock { $0 } == 1 && baseChanges.withLock { $0 } == 0)
        let item = graph.insert(Item())
        item.name = "Zucchini"
        item.location = fridge
        _ = try graph.commit()
        #expect(baseChanges.withLock { $0 } == 1)
    }
}
