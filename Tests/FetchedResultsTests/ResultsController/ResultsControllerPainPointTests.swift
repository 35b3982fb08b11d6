import FetchedResults
import FetchedResultsTesting
import Foundation
import Testing

/// The Core Data pain points, one test each.
@Suite("ResultsController pain points")
struct ResultsControllerPainPointTests {
    private func makeGraph() throws -> (ObjectGraph, [Location], [Item]) {
        let graph = ObjectGraph()
        let locations = ["Fridge", "Pantry"].map { name in
            let location = graph.insert(Location())
            location.name = name
            return location
        }
        let items = (0..<6).map { index in
            let item = graph.insert(Item())
            item.name = "item \(index)"
            item.quantity = index * 10
            item.location = locations[index % 2]
            return item
        }
        _ = try graph.commit()
        return (graph, locations, items)
    }

    private func byLocation() -> FetchRequest<Item> {
        FetchRequest(Item.self, sortedBy: [SortKey(\.name)], sectionKey: SectionKey(\.location?.name))
    }

    @Test func renamingARelatedObjectReSectionsItsItems() throws {
        let (graph, locations, _) = try makeGraph()
        let controller = ResultsController(graph: graph, request: byLocation())
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        controller.performFetch()
        let before = rendered(controller)
        #expect(controller.sections.map(\.name) == ["Fridge", "Pantry"])

        locations[0].name = "Toolbox"  // sorts after "Pantry": its three items change section
        _ = try graph.commit()
        #expect(controller.sections.map(\.name) == ["Pantry", "Toolbox"])
        #expect(controller.sections.map(\.numberOfObjects) == [3, 3])
        let batch = try #require(delegate.batches().first)
        #expect(batch.whole.deletedSections == [0] && batch.whole.insertedSections == [1])
        expectReproduces(batch.whole, from: before, to: rendered(controller))
    }

    /// Unchanged rows stay put, so a changed row can move to the index path it had: items by
    /// quantity 0, 10, …, 50, where item 5 becomes 5 and item 3 becomes 15, move item 3 from
    /// row 3 to row 3. Fed one by one to an accumulator that reads positions exactly, the
    /// events leave a strict simulator in the controller's order.
    @Test func aMoveToAnEqualIndexPathStaysAMoveThroughTheEventPath() throws {
        let (graph, _, items) = try makeGraph()
        let controller = ResultsController(graph: graph, request: FetchRequest(Item.self, sortedBy: [SortKey(\.quantity)]))
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        controller.performFetch()
        let simulator = ListSimulator<String, ObjectID, String>(strict: true) { rendered(controller) }
        simulator.reloadData()
        let accumulator = ChangeAccumulator(target: simulator, policy: DefaultReloadPolicy(maximumChangeCount: .max, maximumShare: 2),
                                            eventInterpretation: .exact)

        items[5].quantity = 5
        items[3].quantity = 15
        _ = try graph.commit()
        for event in delegate.events {
            switch event {
            case .willChange: accumulator.willChangeContent()
            case .section(.insert(let at, _)): accumulator.didChangeSection(at: at, for: .insert)
            case .section(.delete(let at, _)): accumulator.didChangeSection(at: at, for: .delete)
            case .object(.insert(let id, let at)): accumulator.didChangeObject(id, at: nil, for: .insert, newIndexPath: at)
            case .object(.delete(let id, let at)): accumulator.didChangeObject(id, at: at, for: .delete, newIndexPath: nil)
            case .object(.move(let id, let from, let to, let changed)):
                accumulator.didChangeObject(id, at: from, for: .move, newIndexPath: to)
                if changed { accumulator.didChangeObject(id, at: from, for: .update, newIndexPath: to) }
            case .object(.update(let id, let at, let new)): accumulator.didChangeObject(id, at: at, for: .update, newIndexPath: new)
            case .didChange: accumulator.didChangeContent()
            case .batch: break
            }
        }
        #expect(delegate.events.contains { event in
            if case .object(.move(_, let from, let to, _)) = event { return from == to }
            return false
        }, "the commit no longer produces the equal-index-path move this test is about")
        let report = accumulator.flush()
        #expect(report.outcome == .animated)
        #expect(simulator.failures.isEmpty, "\(simulator.failures)")
        #expect(simulator.sections == rendered(controller))
    }

    @Test func aRowMovesIntoASectionInsertedInTheSameCommit() throws {
        let (graph, _, items) = try makeGraph()
        let controller = ResultsController(graph: graph, request: byLocation())
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        controller.performFetch()
        let before = rendered(controller)

        let garage = graph.insert(Location())
        garage.name = "Garage"
        items[2].location = garage
        _ = try graph.commit()
        #expect(controller.sections.map(\.name) == ["Fridge", "Garage", "Pantry"])
        let batch = try #require(delegate.batches().first)
        // The row leaves its old section and arrives with the new section: no move into an
        // inserted section (a list view rejects that).
        #expect(batch.whole == ListChanges(insertedSections: [1], deletedRows: [IndexPath(row: 1, section: 0)]))
        expectReproduces(batch.whole, from: before, to: rendered(controller))
        expectReproduces(batch.replayed, from: before, to: rendered(controller))
        #expect(delegate.events.contains(.object(.move(items[2].objectID, from: IndexPath(row: 1, section: 0),
                                                        to: IndexPath(row: 0, section: 1), contentChanged: true))))
    }

    @Test func limitAndOffsetStayTrueAfterUpdates() throws {
        let (graph, _, items) = try makeGraph()
        let request = FetchRequest(Item.self, sortedBy: [SortKey(\.quantity)], fetchLimit: 3, fetchOffset: 1)
        let controller = ResultsController(graph: graph, request: request)
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        controller.performFetch()
        #expect(controller.fetchedObjects == Array(items[1...3]))

        var before = rendered(controller)
        let first = graph.insert(Item())
        first.quantity = -1  // sorts first: the window shifts by one
        _ = try graph.commit()
        #expect(controller.fetchedObjects == Array(items[0...2]))
        expectReproduces(try #require(delegate.batches().last).whole, from: before, to: rendered(controller))

        before = rendered(controller)
        delegate.events = []
        graph.delete(items[1])  // inside the window: the next row is pulled in
        items[5].quantity = 15  // and another row jumps into the window
        _ = try graph.commit()
        #expect(controller.fetchedObjects == [items[0], items[5], items[2]])
        expectReproduces(try #require(delegate.batches().first).whole, from: before, to: rendered(controller))
    }

    @Test func aSortKeyWriteThatKeepsTheOrderReportsNoMove() throws {
        let (graph, _, items) = try makeGraph()
        let controller = ResultsController(graph: graph, request: FetchRequest(Item.self, sortedBy: [SortKey(\.quantity)]))
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        controller.performFetch()
        let before = rendered(controller)

        items[2].quantity = 25  // between 10 and 30: the order does not change
        _ = try graph.commit()
        let batch = try #require(delegate.batches().first)
        #expect(batch.whole == ListChanges(reloadedRows: [IndexPath(row: 2, section: 0)]))
        #expect(delegate.events.contains(.object(.update(items[2].objectID, at: IndexPath(row: 2, section: 0),
                                                          newIndexPath: IndexPath(row: 2, section: 0)))))
        expectReproduces(batch.whole, from: before, to: rendered(controller))
    }
}
