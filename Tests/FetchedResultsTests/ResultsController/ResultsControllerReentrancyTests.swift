import FetchedResults
import FetchedResultsTesting
import Foundation
import Testing
import TestSupport

/// The rows of a controller with identifiers only: read during a delivery, when other
/// observers' writes may be pending, a cell's content is not yet what any batch promises.
private func shape(_ controller: some SectionedResults<Item>) -> [ListSimulator<String, ObjectID, String>.Section] {
    controller.sections.map { section in
        .init(id: section.name, rows: section.objects.map { .init(id: $0.objectID, content: "") })
    }
}

/// Reads every row of a controller the ways a list view does.
private func readEverything(_ controller: some SectionedResults<Item>) {
    _ = controller.fetchedObjects
    for (sectionIndex, section) in controller.sections.enumerated() {
        for row in section.objects.indices {
            let object = controller.object(at: IndexPath(row: row, section: sectionIndex))
            _ = object.name
            _ = controller.indexPath(for: object)
        }
    }
}

/// A delegate that checks each batch against the shape it last saw, and runs a closure.
private final class WritingDelegate: ResultsControllerDelegate {
    typealias Object = Item
    var displayed: [ListSimulator<String, ObjectID, String>.Section] = []
    var label = ""
    var onChange: (() -> Void)?
    var batches = 0

    func controller(_ controller: any SectionedResults<Item>, didChangeContentWith changes: ListChanges) {
        batches += 1
        let now = shape(controller)
        expectApplying(stages: changes.staged(), from: displayed, yields: now, strict: true, "\(label): \(changes)")
        displayed = now
        onChange?()
    }
}

@Suite("ResultsController: reads and writes from inside deliveries and between a delete and its commit")
struct ResultsControllerReentrancyTests {
    private func fixture() throws -> (ObjectGraph, [Item]) {
        let graph = ObjectGraph()
        let items = ["a", "b", "c"].map { name in
            let item = graph.insert(Item())
            item.name = name
            return item
        }
        try graph.commit()
        return (graph, items)
    }

    @Test("A deleted object stays readable at its place until the commit, with isDeleted true")
    func pendingDeletionIsReadable() throws {
        let (graph, items) = try fixture()
        let controller = ResultsController(graph: graph, request: FetchRequest(Item.self, sortedBy: [SortKey(\.name)]))
        controller.performFetch()
        graph.delete(items[0])
        let first = try #require(controller.object(ifPresentAt: IndexPath(row: 0, section: 0)))
        #expect(first === items[0] && first.isDeleted)
        #expect(controller.fetchedObjects.map(\.name) == ["a", "b", "c"])
        #expect(controller.sections[0].objects.count == 3)
        #expect(controller.indexPath(for: items[0]) == IndexPath(row: 0, section: 0))
        readEverything(controller)
        try graph.commit()
        #expect(controller.fetchedObjects.map(\.name) == ["b", "c"])
        #expect(controller.indexPath(for: items[0]) == nil)
    }

    @Test("A rolled-back deletion leaves the controller as it was")
    func rolledBackDeletion() throws {
        let (graph, items) = try fixture()
        let controller = ResultsController(graph: graph, request: FetchRequest(Item.self, sortedBy: [SortKey(\.name)]))
        controller.performFetch()
        graph.delete(items[1])
        readEverything(controller)
        graph.rollback()
        #expect(!items[1].isDeleted)
        #expect(controller.fetchedObjects.map(\.name) == ["a", "b", "c"])
    }

    @Test("One controller's delegate deletes and commits; another controller is read during the delivery")
    func secondControllerReadDuringDelivery() throws {
        let (graph, items) = try fixture()
        let first = ResultsController(graph: graph, request: FetchRequest(Item.self, sortedBy: [SortKey(\.name)]))
        let second = ResultsController(graph: graph, request: FetchRequest(Item.self, sortedBy: [SortKey(\.name, ascending: false)]))
        first.performFetch()
        second.performFetch()
        let delegate = WritingDelegate()
        delegate.displayed = shape(first)
        var round = 0
        delegate.onChange = {
            round += 1
            guard round == 1 else { return }
            graph.delete(items[2])
            readEverything(second)            // pending deletion
            readEverything(first)
            _ = try? graph.commit()           // committed, not yet delivered to `second`
            readEverything(second)
        }
        first.delegate = delegate
        items[0].name = "z"
        try graph.commit()
        #expect(first.fetchedObjects.map(\.name) == ["b", "z"])
        #expect(second.fetchedObjects.map(\.name) == ["z", "b"])
    }

    @Test("Index paths far out of range, and a window of fetchLimit .max")
    func extremeIndexPathsAndWindows() throws {
        let (graph, items) = try fixture()
        let controller = ResultsController(graph: graph, request: FetchRequest(Item.self, sortedBy: [SortKey(\.name)]))
        controller.performFetch()
        for path in [IndexPath(row: .max, section: 0), IndexPath(row: .max, section: 1), IndexPath(row: 0, section: .max),
                     IndexPath(row: .min, section: 0), IndexPath(row: 0, section: .min), IndexPath(row: .max, section: .max)] {
            #expect(controller.object(ifPresentAt: path) == nil, "\(path)")
        }
        for (limit, offset) in [(Int.max, 1), (Int.max, 0), (Int.max, Int.max), (1, Int.max), (Int.max - 1, 2)] {
            let windowed = ResultsController(
                graph: graph, request: FetchRequest(Item.self, sortedBy: [SortKey(\.name)], fetchLimit: limit, fetchOffset: offset))
            windowed.performFetch()
            let expected = Array(items.map(\.name).sorted().dropFirst(min(offset, 3)))
            #expect(windowed.fetchedObjects.map(\.name) == expected, "limit \(limit), offset \(offset)")
            #expect(windowed.object(ifPresentAt: IndexPath(row: .max, section: 0)) == nil)
            items[0].name = items[0].name == "a" ? "a2" : "a"
            try graph.commit()
            #expect(windowed.numberOfObjects == expected.count)
        }
    }

    /// Two or three controllers on one graph whose delegates write (and sometimes commit)
    /// while a commit is delivered, and read every controller while doing so.
    @Test(arguments: testSeeds(count: 12))
    func delegateWritesAcrossControllers(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let graph = ObjectGraph()
        let locations = ["Fridge", "Pantry", "attic"].map { name in
            let location = graph.insert(Location())
            location.name = name
            return location
        }
        let names = ["apple", "bread", "milk", "éclair", "zucchini", "file 2", "file 10"]
        for _ in 0..<20 {
            let item = graph.insert(Item())
            item.name = names.randomElement(using: &rng)!
            item.quantity = Int.random(in: 0..<4, using: &rng)
            item.location = locations.randomElement(using: &rng)
        }
        try graph.commit()
        let requests = [
            FetchRequest(Item.self, sortedBy: [SortKey(\.name)], sectionKey: SectionKey(\.location?.name)),
            FetchRequest(Item.self, predicate: .greaterOrEqual(\.quantity, 2), sortedBy: [SortKey(\.quantity, ascending: false)]),
            FetchRequest(Item.self, sortedBy: [SortKey(\.name, ascending: false)], fetchLimit: 6, fetchOffset: 2),
        ]
        let count = Int.random(in: 2...3, using: &rng)
        let controllers = requests.prefix(count).map { ResultsController(graph: graph, request: $0) }
        let delegates = controllers.indices.map { _ in WritingDelegate() }
        var budget = 0
        for (index, (controller, delegate)) in zip(controllers, delegates).enumerated() {
            controller.performFetch()
            controller.delegate = delegate
            delegate.displayed = shape(controller)
            delegate.label = "seed \(seed), controller \(index)"
            delegate.onChange = {
                for other in controllers { readEverything(other) }
                guard budget > 0 else { return }
                budget -= 1
                let items = graph.objects(of: Item.self)
                switch Int.random(in: 0..<5, using: &rng) {
                case 0: if let item = items.randomElement(using: &rng) { graph.delete(item) }
                case 1: items.randomElement(using: &rng)?.name = names.randomElement(using: &rng)!
                case 2: items.randomElement(using: &rng)?.quantity = Int.random(in: 0..<4, using: &rng)
                case 3: items.randomElement(using: &rng)?.location = locations.randomElement(using: &rng)
                default:
                    let item = graph.insert(Item())
                    item.name = names.randomElement(using: &rng)!
                }
                for other in controllers { readEverything(other) }
                if Bool.random(using: &rng) { _ = try? graph.commit() }
                for other in controllers { readEverything(other) }
            }
        }
        for step in 0..<60 {
            budget = Int.random(in: 0...3, using: &rng)
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let items = graph.objects(of: Item.self)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: if let item = items.randomElement(using: &rng) { graph.delete(item) }
                case 1: items.randomElement(using: &rng)?.name = names.randomElement(using: &rng)!
                case 2: locations.randomElement(using: &rng)?.name = ["Fridge", "Pantry", "attic", "Garage"].randomElement(using: &rng)!
                default:
                    let item = graph.insert(Item())
                    item.name = names.randomElement(using: &rng)!
                    item.quantity = Int.random(in: 0..<4, using: &rng)
                }
            }
            for controller in controllers { readEverything(controller) }
            try graph.commit()
            #expect(!graph.hasChanges, "seed \(seed), step \(step): every follow-up write was committed")
            for (index, controller) in controllers.enumerated() {
                let fresh = ResultsController(graph: graph, request: controller.request)
                fresh.performFetch()
                #expect(rendered(controller) == rendered(fresh), "seed \(seed), step \(step), controller \(index)")
                #expect(delegates[index].displayed == shape(controller), "seed \(seed), step \(step), controller \(index)")
            }
        }
    }
}
