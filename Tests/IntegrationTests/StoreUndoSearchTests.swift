import FetchedResultsKit
import FetchedResultsTesting
import Foundation
import Testing
import TestSupport

final class Shelf: GraphObject {
    @Attribute var name = ""
    @Relationship var goods: Set<Good>
}

final class Good: GraphObject {
    @Attribute var name = ""
    @Attribute var quantity = 0
    @Attribute var note: String? = nil
    @Relationship(inverse: \Shelf.goods) var shelf: Shelf?
}

/// What a list view shows of a controller: section names and rows.
private typealias Shown = [ListSimulator<String, ObjectID, String>.Section]

private func rendered(_ results: some SectionedResults<Good>) -> Shown {
    results.sections.map { section in
        .init(id: section.name, rows: section.objects.map { .init(id: $0.objectID, content: "\($0.name)|\($0.quantity)|\($0.note ?? "-")") })
    }
}

/// Passes a controller's changes to an accumulator, as a view adapter does.
private final class Forwarder: ResultsControllerDelegate {
    typealias Object = Good
    let accumulator: ChangeAccumulator
    init(_ accumulator: ChangeAccumulator) { self.accumulator = accumulator }
    func controller(_ controller: any SectionedResults<Good>, didChangeContentWith changes: ListChanges) {
        accumulator.add(changes)
    }
}

/// One screen: a sectioned controller and a search over it, each shown by a strict
/// simulated list view through an accumulator.
@MainActor
private final class Screen {
    /// The totals both lists keep, and the request that keeps them.
    let totals = GoodTotals()

    let base: ResultsController<Good>
    let search: SearchController<Good>
    let views: [(ListSimulator<String, ObjectID, String>, ChangeAccumulator, Forwarder)]

    init(graph: ObjectGraph, text: String) {
        let base = ResultsController(graph: graph, request: totals.request)
        base.performFetch()
        let search = SearchController(base: base, searching: \.name)
        search.searchText = text
        self.base = base
        self.search = search
        func view(_ results: some SectionedResults<Good>) -> (ListSimulator<String, ObjectID, String>, ChangeAccumulator, Forwarder) {
            let simulator = ListSimulator<String, ObjectID, String>(strict: true) { rendered(results) }
            simulator.reloadData()
            let accumulator = ChangeAccumulator(target: simulator, policy: DefaultReloadPolicy(maximumChangeCount: .max, maximumShare: 2))
            return (simulator, accumulator, Forwarder(accumulator))
        }
        views = [view(base), view(search)]
        base.delegate = views[0].2
        search.delegate = views[1].2
    }

    /// Flushes both views and expects each to show what a fresh fetch and a fresh search
    /// show, reached by valid batches only.
    func expectCurrent(_ graph: ObjectGraph, _ context: String) {
        for (_, accumulator, _) in views { accumulator.flush() }
        let fresh = ResultsController(graph: graph, request: totals.request)
        fresh.performFetch()
        let freshSearch = SearchController(base: fresh, searching: \.name)
        freshSearch.searchText = search.searchText
        let expected = [rendered(fresh), rendered(freshSearch)]
        for (index, (simulator, _, _)) in views.enumerated() {
            #expect(simulator.failures.isEmpty, "\(context), view \(index): \(simulator.failures)")
            #expect(simulator.sections == expected[index], "\(context), view \(index)")
        }
        for mismatch in totals.mismatches([base, search], [fresh, freshSearch]) { Issue.record("\(context): \(mismatch)") }
    }
}

/// Everything a graph holds, by object identifier: values and relationships.
private func contents(of graph: ObjectGraph) -> [String] {
    let goods = graph.objects(of: Good.self).map { good in
        "\(good.objectID) \(good.name) \(good.quantity) \(good.note ?? "-") \(good.shelf.map { "\($0.objectID)" } ?? "-")"
    }
    let shelves = graph.objects(of: Shelf.self).map { shelf in
        "\(shelf.objectID) \(shelf.name) [\(shelf.goods.map { "\($0.objectID)" }.sorted().joined(separator: ","))]"
    }
    return (goods + shelves).sorted()
}

/// The features together, as an app uses them: a durable store, undo and redo (grouped
/// steps among them), compaction, relaunches, and a sectioned controller with a search over
/// it on screen. After every step both lists equal a fresh fetch and were reached by valid
/// batches; every relaunch opens exactly the graph that was in memory, and reports no damage.
@Suite("Store, undo, search and relaunches together")
@MainActor
struct StoreUndoSearchTests {
    @Test(arguments: testSeeds(count: 6))
    func randomSessionsKeepEverythingAndShowItRight(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frk-integration-\(seed)-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let schema = try StoreSchema([Good.self, Shelf.self])
        var store = try GraphStore.open(at: directory, schema: schema)
        defer { store.close() }
        var undo = GraphUndoManager()
        store.graph.undoManager = undo
        let names = ["Milk", "milk", "Eggs", "Bread", "apple", "Apricot", "Sugar"]
        let shelfNames = ["Fridge", "Pantry", "Shed", "Cellar"]
        var screen = Screen(graph: store.graph, text: "a")
        var steps = 0

        func randomEdit(_ graph: ObjectGraph) {
            let goods = graph.objects(of: Good.self)
            let shelves = graph.objects(of: Shelf.self)
            switch Int.random(in: 0..<10, using: &rng) {
            case 0, 1:
                let good = graph.insert(Good())
                good.name = names.randomElement(using: &rng)!
                good.quantity = Int.random(in: 0..<4, using: &rng)
                good.shelf = Bool.random(using: &rng) ? shelves.randomElement(using: &rng) : nil
            case 2: if let good = goods.randomElement(using: &rng) { graph.delete(good) }
            case 3: goods.randomElement(using: &rng)?.name = names.randomElement(using: &rng)!
            case 4: goods.randomElement(using: &rng)?.quantity = Int.random(in: 0..<4, using: &rng)
            case 5: goods.randomElement(using: &rng)?.note = Bool.random(using: &rng) ? nil : "note"
            case 6:
                // Into a section, out of one, or out of every section.
                goods.randomElement(using: &rng)?.shelf = Int.random(in: 0..<4, using: &rng) == 0 ? nil : shelves.randomElement(using: &rng)
            case 7:
                // Re-sections every row of the shelf.
                shelves.randomElement(using: &rng)?.name = shelfNames.randomElement(using: &rng)!
            case 8:
                if shelves.count < 5 {
                    let shelf = graph.insert(Shelf())
                    shelf.name = shelfNames.randomElement(using: &rng)!
                }
            default:
                if shelves.count > 1, let shelf = shelves.randomElement(using: &rng) { graph.delete(shelf) }
            }
        }
        func commit(_ graph: ObjectGraph) throws {
            for _ in 0..<Int.random(in: 1...4, using: &rng) { randomEdit(graph) }
            try graph.commit()
        }

        for shelf in shelfNames.prefix(2) {
            store.graph.insert(Shelf()).name = shelf
        }
        try store.graph.commit()
        for _ in 0..<140 {
            steps += 1
            let context = "seed \(seed), step \(steps)"
            let graph = store.graph
            switch Int.random(in: 0..<14, using: &rng) {
            case 0...4:
                try commit(graph)
            case 5:
                // A grouped step: edits, then deletes, then inserts, undone as one.
                undo.beginUndoGrouping()
                for _ in 0..<Int.random(in: 2...3, using: &rng) { try commit(graph) }
                undo.endUndoGrouping()
            case 6, 7:
                if undo.canUndo { try undo.undo() }
            case 8, 9:
                if undo.canRedo { try undo.redo() }
            case 10:
                try store.compact()
            case 11:
                screen.search.searchText = ["", "a", "mi", "e", "Ap"].randomElement(using: &rng)!
            default:
                // A relaunch: the graph opens as it was in memory, and nothing is reported lost.
                let before = contents(of: graph)
                let text = screen.search.searchText
                store.close()
                store = try GraphStore.open(at: directory, schema: schema)
                #expect(store.openReport.isClean && store.openReport.damage.isEmpty, "\(context): \(store.openReport)")
                #expect(contents(of: store.graph) == before, "\(context): the relaunch changed the graph")
                undo = GraphUndoManager()
                store.graph.undoManager = undo
                screen = Screen(graph: store.graph, text: text)
            }
            screen.expectCurrent(store.graph, context)
        }
    }
}
