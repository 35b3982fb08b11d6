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

private func names(_ controller: some SectionedResults<Item>) -> [[String]] {
    controller.sections.map { $0.objects.map(\.name) }
}

/// A delegate that keeps each delivered batch.
private final class BatchRecorder: ResultsControllerDelegate {
    typealias Object = Item
    var batches: [ListChanges] = []
    func controller(_ controller: any SectionedResults<Item>, didChangeContentWith changes: ListChanges) { batches.append(changes) }
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

    /// A search over a base that has not fetched yet fetches the base first (it stopped the
    /// program), and both then follow commits.
    @Test func aSearchOverAnUnfetchedBaseFetchesIt() throws {
        let (graph, fetched, _) = try makeBase()
        let base = ResultsController(graph: graph, request: fetched.request)
        #expect(!base.hasFetched)
        let search = SearchController(base: base, searching: \.name, searchText: "BA")
        #expect(base.hasFetched)
        #expect(names(base) == names(fetched))
        #expect(names(search) == [["Baba ganoush", "Babybel", "Cabbage"], ["Banana"], ["abacus"]])
        let item = graph.insert(Item())
        item.name = "Baobab"
        item.location = fetched.object(at: IndexPath(row: 0, section: 0)).location
        _ = try graph.commit()
        #expect(names(base) == names(fetched))
        #expect(search.fetchedObjects.contains { $0 === item })
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
        let search = SearchController(base: base, narrowing: .contains()) { text in
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
            base: base, format: "name CONTAINS[cd] $text OR location.name BEGINSWITH[c] $text", schema: schema)
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

    /// A first launch: the base list is empty while an object of another entity is
    /// inserted, committed, deleted and committed; the first item committed afterwards is
    /// folded and found (it used to trap in the folded-text column).
    @Test(arguments: [false, true])
    func anotherEntityDeletedWhileTheBaseIsEmptyDoesNotBreakTheSearch(sectioned: Bool) throws {
        let graph = ObjectGraph()
        let base = ResultsController(graph: graph, request: FetchRequest(
            Item.self, sortedBy: [SortKey(\.name)], sectionKey: sectioned ? SectionKey(\.location?.name, ascending: false) : nil))
        base.performFetch()
        let search = SearchController(base: base, searching: \.name, searchText: "ja")
        let recorder = BatchRecorder()
        search.delegate = recorder
        let location = graph.insert(Location())
        location.name = "Pantry"
        _ = try graph.commit()
        graph.delete(location)
        _ = try graph.commit()
        let jam = graph.insert(Item())
        jam.name = "Jam"
        let bread = graph.insert(Item())
        bread.name = "Bread"
        _ = try graph.commit()
        #expect(names(search) == [["Jam"]])
        #expect(names(base).flatMap { $0 } == ["Bread", "Jam"])
        search.searchText = "b"
        #expect(names(search) == [["Bread"]])
        #expect(recorder.batches.count == 2)
    }

    /// Names that a prefix search tells apart only after folding: "Éclair" begins with "éc"
    /// but not with "c".
    private static func pastries() throws -> (ObjectGraph, ResultsController<Item>) {
        let graph = ObjectGraph()
        for name in ["Coffee", "Éclair", "cake", "Jam", "Ham"] {
            graph.insert(Item()).name = name
        }
        _ = try graph.commit()
        let base = ResultsController(graph: graph, request: FetchRequest(Item.self, sortedBy: [SortKey(\.name)]))
        base.performFetch()
        return (graph, base)
    }

    /// A prefix search narrows only when the new folded text begins with the old one:
    /// "c" → "Éc" is not a narrowing under BEGINSWITH[cd], so "Éclair" appears, as in a
    /// fresh search (the text used to be called narrowed because "Éc" contains "c").
    @Test(arguments: [0, 1, 2])
    func prefixSearchNarrowsOnlyWhenTheFoldedTextBeginsWithTheOld(rule: Int) throws {
        let (_, base) = try Self.pastries()
        let search: SearchController<Item> = switch rule {
        case 0: SearchController(base: base, narrowing: .beginsWith()) { .beginsWith(\.name, $0) }
        case 1: SearchController(base: base, narrowing: .whenTextExtends) { .beginsWith(\.name, $0) }
        default: try SearchController(
            base: base, format: "name BEGINSWITH[cd] $text", schema: GraphPredicateSchema(Item.self, Location.self),
            narrowing: .beginsWith(options: [.caseInsensitive, .diacriticInsensitive]))
        }
        let recorder = BatchRecorder()
        search.delegate = recorder
        let steps: [(String, [String])] = [
            ("c", ["cake", "Coffee"]), ("Éc", ["Éclair"]), ("éC", ["Éclair"]), ("é", ["Éclair"]), ("", rule == 2 ? [] : ["cake", "Coffee", "Éclair", "Ham", "Jam"]),
            ("c", ["cake", "Coffee"]), ("co", ["Coffee"]), ("o", []), ("Ha", ["Ham"]), ("Ja", ["Jam"]), ("a", []),
        ]
        for (text, expected) in steps {
            let before = rendered(search)
            recorder.batches = []
            search.searchText = text
            #expect(Set(names(search).flatMap { $0 }) == Set(expected), "after typing \"\(text)\"")
            let after = rendered(search)
            #expect(recorder.batches.count <= 1, "after typing \"\(text)\"")
            if let batch = recorder.batches.first {
                expectReproduces(batch, from: before, to: after, "after typing \"\(text)\"")
            } else {
                #expect(before == after, "after typing \"\(text)\"")
            }
        }
    }

    /// The built-in rules claim a narrowing only when it holds for their predicate.
    @Test func narrowingRulesFollowTheirPredicates() {
        let beginsWith = SearchNarrowing.beginsWith()
        #expect(!beginsWith.narrows(from: "c", to: "Éc"))
        #expect(beginsWith.narrows(from: "éc", to: "ECL"))
        #expect(beginsWith.narrows(from: "", to: "a"))
        #expect(!beginsWith.narrows(from: "a", to: "ba"))
        let contains = SearchNarrowing.contains()
        #expect(contains.narrows(from: "c", to: "Éc"))
        #expect(contains.narrows(from: "", to: "a"))
        #expect(!contains.narrows(from: "ab", to: "a"))
        // A format CONTAINS matches nothing for the empty text.
        let format = SearchNarrowing.contains(options: [.caseInsensitive])
        #expect(!format.narrows(from: "", to: "a"))
        #expect(format.narrows(from: "a", to: ""))
        #expect(format.narrows(from: "A", to: "ba"))
        #expect(!format.narrows(from: "e", to: "é"))
        #expect(!SearchNarrowing.beginsWith(options: [.caseInsensitive]).narrows(from: "a", to: "ba"))
        let extends = SearchNarrowing.whenTextExtends
        #expect(extends.narrows(from: "ba", to: "bab"))
        #expect(!extends.narrows(from: "a", to: "ba"))
        #expect(!extends.narrows(from: "", to: "a"))
        #expect(!SearchNarrowing.never.narrows(from: "a", to: "ab"))
        #expect(SearchNarrowing.never.narrows(from: "a", to: "a"))
    }
}
