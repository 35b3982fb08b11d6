import FetchedResults
import FetchedResultsTesting
import Foundation
import Observation
import Synchronization
import Testing

/// Items in three locations, a base controller sectioned by location name and sorted by
/// name, committed and fetched.
private func makeBase() throws -> (ObjectGraph, ResultsController<Item>, [String: Location]) {
    let graph = ObjectGraph()
    var locations: [String: Location] = [:]
    for name in ["Fridge", "Pantry", "attic"] {
        let location = graph.insert(Location())
        location.name = name
        locations[name] = location
    }
    let rows: [(String, String)] = [
        ("Banana", "Pantry"), ("Babybel", "Fridge"), ("bread", "Pantry"), ("Cabbage", "Fridge"), ("Crème", "Fridge"),
        ("abacus", "attic"), ("Baba ganoush", "Fridge"), ("Jam", "Pantry"), ("Ñandú", "attic"),
    ]
    for (name, location) in rows {
        let item = graph.insert(Item())
        item.name = name
        item.location = locations[location]
    }
    _ = try graph.commit()
    let base = ResultsController(graph: graph, request: FetchRequest(
        Item.self, sortedBy: [SortKey(\.name)], sectionKey: SectionKey(\.location?.name)))
    base.performFetch()
    return (graph, base, locations)
}

private func names(_ controller: ResultsController<Item>) -> [[String]] {
    controller.sections.map { $0.objects.map(\.name) }
}

/// A delegate that keeps each delivered batch.
private final class BatchRecorder: ResultsControllerDelegate {
    typealias Object = Item
    var batches: [ListChanges] = []
    func controller(_ controller: ResultsController<Item>, didChangeContentWith changes: ListChanges) { batches.append(changes) }
}

@Suite("SearchController surface")
struct SearchControllerSurfaceTests {
    @Test func searchFiltersTheBaseRowsInTheirSectionsAndOrder() throws {
        let (_, base, _) = try makeBase()
        let search = SearchController(base: base, searching: \.name, searchText: "BA")
        // Sections in the base order (attic, Fridge, Pantry), rows in the base order.
        #expect(search.sections.map(\.name) == ["Fridge", "Pantry", "attic"])
        #expect(names(search) == [["Baba ganoush", "Babybel", "Cabbage"], ["Banana"], ["abacus"]])
        #expect(search.request.sectionKey != nil && search.request.sortKeys.count == 1)
    }

    @Test func indexPathsTitlesAndRestorationBehaveAsOnTheMainController() throws {
        let (_, base, _) = try makeBase()
        let search = SearchController(base: base, searching: \.name, searchText: "a")
        #expect(search.sectionIndexTitles == ["F", "P", "A"])
        #expect(search.section(forSectionIndexTitle: "P", at: 1) == 1)
        for (sectionIndex, section) in search.sections.enumerated() {
            #expect(section.indexTitle == base.sectionIndexTitle(forSectionName: section.name))
            for (row, object) in section.objects.enumerated() {
                let path = IndexPath(row: row, section: sectionIndex)
                #expect(search.object(at: path) === object)
                #expect(search.indexPath(for: object) == path)
                // A row selected in the search results is the same object in the main list.
                let basePath = try #require(search.baseIndexPath(forObjectAt: path))
                #expect(base.object(at: basePath) === object)
                #expect(search.indexPath(forBaseIndexPath: basePath) == path)
                // Restoration identifiers name the object, the same in both controllers.
                let identifier = try #require(search.restorationIdentifier(forObjectAt: path))
                #expect(identifier == base.restorationIdentifier(forObjectAt: basePath))
                #expect(search.indexPath(forRestorationIdentifier: identifier) == path)
                #expect(base.indexPath(forRestorationIdentifier: identifier) == basePath)
            }
        }
        let hidden = try #require(base.fetchedObjects.first { $0.name == "Crème" })
        #expect(search.indexPath(for: hidden) == nil)
        #expect(search.indexPath(forBaseIndexPath: try #require(base.indexPath(for: hidden))) == nil)
    }

    @Test func narrowingTestsOnlyTheCurrentMatchesAndBroadeningOnlyTheOthers() throws {
        let (_, base, _) = try makeBase()
        var tested = 0
        let search = SearchController(base: base, narrowsWhenTextExtends: true) { text in
            FetchPredicate { item in
                tested += 1
                return text.isEmpty || item.name.range(of: text, options: [.caseInsensitive, .diacriticInsensitive]) != nil
            }
        }
        tested = 0
        search.searchText = "ba"
        #expect(tested == 9, "from the empty text every base row is a current match")
        let matches = search.numberOfObjects
        #expect(matches == 5)
        tested = 0
        search.searchText = "bab"
        #expect(tested == matches, "\"ba\" → \"bab\" tests only the current matches")
        #expect(names(search) == [["Baba ganoush", "Babybel"]])
        tested = 0
        search.searchText = "ba"
        #expect(tested == 9 - 2, "\"bab\" → \"ba\" tests only the rows that were not matches")
        #expect(search.numberOfObjects == 5)
    }

    @Test func textChangesAreDiffsThatEmptyAndRestoreSections() throws {
        let (_, base, _) = try makeBase()
        let search = SearchController(base: base, searching: \.name)
        let recorder = BatchRecorder()
        search.delegate = recorder
        var previous = rendered(search)
        for text in ["b", "ba", "bab", "ba", "Ñ", "", "crè", "CRE"] {
            search.searchText = text
            let now = rendered(search)
            if previous != now {
                let batch = try #require(recorder.batches.last)
                expectReproduces(batch, from: previous, to: now, "text \"\(text)\"")
            }
            previous = now
        }
        #expect(names(search) == [["Crème"]])
        let batchesSoFar = recorder.batches.count
        search.searchText = "cre"  // same folded text: nothing to report
        #expect(recorder.batches.count == batchesSoFar)
        search.searchText = ""
        let clear = try #require(recorder.batches.last)
        #expect(!clear.insertedSections.isEmpty && !clear.insertedRows.isEmpty, "clearing the text is a diff, not a reload")
        #expect(names(search) == names(base))
    }

    @Test func graphChangesKeepTheSearchLive() throws {
        let (graph, base, locations) = try makeBase()
        let search = SearchController(base: base, searching: \.name, searchText: "ba")
        let recorder = BatchRecorder()
        search.delegate = recorder
        let before = rendered(search)
        let banana = try #require(base.fetchedObjects.first { $0.name == "Banana" })
        let jam = try #require(base.fetchedObjects.first { $0.name == "Jam" })
        banana.name = "Plantain"
        jam.name = "Jam Baker"
        locations["Fridge"]!.name = "Cellar"
        _ = try graph.commit()
        #expect(names(search) == [["Baba ganoush", "Babybel", "Cabbage"], ["Jam Baker"], ["abacus"]])
        #expect(search.sections.map(\.name) == ["Cellar", "Pantry", "attic"])
        let batch = try #require(recorder.batches.last)
        expectReproduces(batch, from: before, to: rendered(search))
    }

    @Test func changeStreamAndObservationDeliverTextChanges() async throws {
        let (_, base, _) = try makeBase()
        let search = SearchController(base: base, searching: \.name)
        let stream = search.changes()
        let observed = Mutex(false)
        withObservationTracking { _ = search.sections } onChange: { observed.withLock { $0 = true } }
        search.searchText = "jam"
        #expect(observed.withLock { $0 })
        var iterator = stream.makeAsyncIterator()
        let changeSet = try #require(await iterator.next())
        #expect(changeSet.changes.deletedSections.count == 2)
        #expect(changeSet.objectChanges.allSatisfy { if case .delete = $0 { true } else { false } })
    }

    @Test func formatSearchBindsTheTextVariable() throws {
        let (graph, base, _) = try makeBase()
        let schema = GraphPredicateSchema(Item.self, Location.self)
        let search = try SearchController(
            base: base, format: "name CONTAINS[cd] $text OR location.name BEGINSWITH[c] $text", schema: schema,
            narrowsWhenTextExtends: false)
        search.searchText = "pan"
        #expect(names(search) == [["bread", "Banana", "Jam"].sorted()])
        search.searchText = "CRÉ"
        #expect(names(search) == [["Crème"]])
        let item = graph.insert(Item())
        item.name = "crepe"
        _ = try graph.commit()
        #expect(names(search) == [["crepe"], ["Crème"]], "an item without a location is in the section named \"\"")
        #expect(throws: PredicateSyntaxError.self) { try SearchController(base: base, format: "name CONTAINS[cd] $other", schema: schema) }
    }
}
