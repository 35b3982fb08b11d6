@testable import FetchedResults
import FetchedResultsTesting
import Foundation
import Testing
import TestSupport

/// What a commit costs a search kept attached to a large base: work for the rows whose
/// search results change, not for every row the commit touched in the base, and no copy of
/// the base's rows.
@Suite("SearchController commit cost")
struct SearchControllerCommitCostTests {
    /// A graph of items in three locations, committed.
    private static func makeGraph() throws -> (ObjectGraph, [Location], [Item]) {
        let graph = ObjectGraph()
        let locations = (0..<3).map { index in
            let location = graph.insert(Location())
            location.name = "shelf \(index)"
            return location
        }
        let items = (0..<60).map { index in
            let item = graph.insert(Item())
            item.name = ["apple", "banana", "grape", "pear"][index % 4] + " \(index)"
            item.quantity = index
            item.location = locations[index % 3]
            return item
        }
        _ = try graph.commit()
        return (graph, locations, items)
    }

    /// Items by name in location sections, and a search for "ap" in their names that counts
    /// each read of a searched text.
    private static func search(_ graph: ObjectGraph) -> (ResultsController<Item>, SearchController<Item>, TextReads, RecordingDelegate) {
        let base = ResultsController(graph: graph, request: FetchRequest(
            Item.self, sortedBy: [SortKey(\.name, comparison: .localizedStandard)], sectionKey: SectionKey(\.location?.name)))
        base.performFetch()
        let reads = TextReads()
        let search = SearchController(base: base, searching: { item in
            reads.count += 1
            return item.name
        }, searchText: "ap")
        let delegate = RecordingDelegate()
        search.delegate = delegate
        return (base, search, reads, delegate)
    }

    /// Renaming a location re-sections the search's rows without reading their searched
    /// text again (nothing it reads changed), matched rows and others alike.
    @Test func renamingALocationReadsNoSearchedTextAgain() throws {
        let (graph, locations, _) = try Self.makeGraph()
        let (_, search, reads, delegate) = Self.search(graph)
        let before = rendered(search)
        reads.count = 0

        locations[2].name = "attic"
        _ = try graph.commit()

        #expect(reads.count == 0, "the searched text was read \(reads.count) times")
        let after = rendered(search)
        #expect(after.map(\.id) == ["attic", "shelf 0", "shelf 1"])
        #expect(after.flatMap(\.rows).count == 30)
        let batch = try #require(delegate.batches().last)
        expectReproduces(batch.whole, from: before, to: after)
        expectReproduces(batch.replayed, from: before, to: after)
    }

    /// Writing the quantity and the location of items the search's text excludes reads no
    /// searched text and evaluates nothing in the search: it copies the base's dependency
    /// entries, so a later text that shows the items finds them in their new sections, and
    /// a later rename of their new location moves them.
    @Test func writingRowsTheTextExcludesReadsNoSearchedText() throws {
        let (graph, locations, items) = try Self.makeGraph()
        let (base, search, reads, delegate) = Self.search(graph)
        let before = rendered(search)
        reads.count = 0

        // Bananas and pears: the text excludes them.
        let excluded = items.filter { !$0.name.contains("ap") }.prefix(6)
        for (step, item) in excluded.enumerated() {
            item.quantity += 100
            item.location = locations[(step + 1) % 3]
            _ = try graph.commit()
        }

        #expect(reads.count == 0, "the searched text was read \(reads.count) times")
        #expect(search.engine.adoptedEntryCount == excluded.count)
        #expect(rendered(search) == before)
        #expect(delegate.batches().isEmpty, "a batch for rows the search does not show")
        // A broader text shows them where the base has them, and they follow a rename.
        search.searchText = "e"
        locations[1].name = "attic"
        _ = try graph.commit()
        #expect(rendered(search).flatMap(\.rows).count == 45)
        #expect(rendered(search) == rendered(base).compactMap { section in
            let rows = section.rows.filter { $0.content.split(separator: "|")[0].contains("e") }
            return rows.isEmpty ? nil : .init(id: section.id, rows: rows)
        })
    }

    /// Renaming a location re-reads each of its items' section key once, in the base
    /// controller: the search takes the base's new sections.
    @Test func renamingALocationReadsEachSectionKeyOnce() throws {
        let (graph, locations, _) = try Self.makeGraph()
        let reads = TextReads()
        let base = ResultsController(graph: graph, request: FetchRequest(
            Item.self, sortedBy: [SortKey(\.name)], sectionKey: SectionKey { item in
                reads.count += 1
                return item.location?.name
            }))
        base.performFetch()
        let search = SearchController(base: base, searching: \.name, searchText: "ap")
        let delegate = RecordingDelegate()
        search.delegate = delegate
        let before = rendered(search)
        reads.count = 0

        locations[0].name = "attic"
        _ = try graph.commit()

        // Once per item of the location, and once to name the new section.
        #expect(reads.count <= 21, "the section key was read \(reads.count) times")
        let after = rendered(search)
        #expect(after.map(\.id) == ["attic", "shelf 1", "shelf 2"])
        let batch = try #require(delegate.batches().last)
        expectReproduces(batch.whole, from: before, to: after)
        expectReproduces(batch.replayed, from: before, to: after)
    }

    /// A cleared search shares the base controller's rows: the next commits change them in
    /// place, without copying them, and the search reports the same valid batches.
    @Test func aClearedSearchSharesTheBaseRowsThroughCommits() throws {
        let (graph, locations, items) = try Self.makeGraph()
        let base = ResultsController(graph: graph, request: FetchRequest(
            Item.self, sortedBy: [SortKey(\.name)], sectionKey: SectionKey(\.location?.name)))
        base.performFetch()
        let search = SearchController(base: base, searching: \.name, searchText: "ap")
        let delegate = RecordingDelegate()
        search.delegate = delegate
        search.searchText = ""

        for step in 0..<4 {
            let before = rendered(search)
            let column = base.engine.index.keys.columns[0].withUnsafeBufferPointer { $0.baseAddress }
            let sections = base.engine.index.keys.sectionOf.withUnsafeBufferPointer { $0.baseAddress }
            // Renames only: no row comes or goes, so the columns keep their room.
            items[step * 7].name = "zucchini \(step)"
            locations[step % 3].name = "shelf \(step + 10)"
            _ = try graph.commit()
            #expect(base.engine.index.keys.columns[0].withUnsafeBufferPointer { $0.baseAddress } == column, "step \(step): the sort column was copied")
            #expect(base.engine.index.keys.sectionOf.withUnsafeBufferPointer { $0.baseAddress } == sections, "step \(step): the sections were copied")
            let after = rendered(search)
            #expect(after == rendered(base), "step \(step)")
            let batch = try #require(delegate.batches().last)
            expectReproduces(batch.whole, from: before, to: after, "step \(step)")
            expectReproduces(batch.replayed, from: before, to: after, "step \(step), delegate callbacks")
        }
        // Typing again gives the search rows of its own; the base's stay as they are.
        search.searchText = "ap"
        #expect(rendered(search).flatMap(\.rows).allSatisfy { $0.content.contains("ap") })
        items[1].name = "apricot"
        _ = try graph.commit()
        #expect(rendered(search).flatMap(\.rows).contains { $0.id == items[1].objectID })
        #expect(rendered(base).flatMap(\.rows).count == 60)
    }
}

/// Counts the reads of a search's text.
private final class TextReads: @unchecked Sendable {
    var count = 0
}
