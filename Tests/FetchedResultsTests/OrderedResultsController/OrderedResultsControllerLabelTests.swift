import FetchedResultsTesting
import Foundation
@testable import FetchedResults
import Testing
import TestSupport

/// A committed list of `count` entries and a fetched controller over it.
private func makeController(count: Int) throws -> (ObjectGraph, ShoppingList, OrderedResultsController<ShoppingList, Entry>) {
    let graph = ObjectGraph()
    let list = graph.insert(ShoppingList())
    list.entries = (0..<count).map { index in
        let entry = graph.insert(Entry())
        entry.name = "e\(index)"
        return entry
    }
    _ = try graph.commit()
    let controller = OrderedResultsController(graph: graph, owner: list, relationship: \.entries)
    controller.performFetch()
    return (graph, list, controller)
}

@Suite("OrderedResultsController order labels")
struct OrderedResultsControllerLabelTests {
    @Test func aMoveRelabelsOnlyTheMovedMember() throws {
        let (graph, list, controller) = try makeController(count: 50)
        let before = controller.engine.labels
        let moved = list.entries[40]
        list.entries.remove(at: 40)
        list.entries.insert(moved, at: 3)
        _ = try graph.commit()
        let changed = controller.engine.labels.filter { before[$0.key] != $0.value }
        #expect(Array(changed.keys) == [moved.objectID])
        let label = try #require(controller.engine.labels[moved.objectID])
        #expect(label > before[list.entries[2].objectID]! && label < before[list.entries[4].objectID]!)
    }

    @Test func aCrowdedGapSpreadsOnlyItsNeighbourhood() throws {
        let (graph, list, controller) = try makeController(count: 400)
        let farAway = Array(list.entries[0..<100]) + Array(list.entries[300...])
        let before = controller.engine.labels
        // Each insertion lands right after e200, halving the same gap: it runs out after
        // about twenty and the window around it is spread out.
        for round in 0..<40 {
            let entry = graph.insert(Entry())
            entry.name = "n\(round)"
            list.entries.insert(entry, at: 201)
            _ = try graph.commit()
        }
        #expect(controller.fetchedObjects.map(\.name) == list.entries.map(\.name))
        for entry in farAway { #expect(controller.engine.labels[entry.objectID] == before[entry.objectID], "\(entry.name) was relabelled") }
        let near = list.entries[180..<260].map { controller.engine.labels[$0.objectID]! }
        #expect(zip(near, near.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test func labelsRunningOutAtAnEndSpreadTheWholeList() throws {
        let (graph, list, controller) = try makeController(count: 5)
        let saved = controller.engine.labels
        defer { controller.engine.labels = saved }
        // Labels near the limit, as after a very long run of appends.
        for (position, entry) in list.entries.enumerated() {
            controller.engine.labels[entry.objectID] = OrderedResultsEngine<ShoppingList, Entry>.labelLimit - 10 + Int64(position)
        }
        let arrival = graph.insert(Entry())
        var members = list.entries
        members.append(arrival)
        controller.engine.labels[arrival.objectID] = nil
        let assigned = controller.engine.relabel([arrival.objectID: 5], in: members)
        #expect(assigned.count == 6)
        let labels = members.map { assigned[$0.objectID]! }
        #expect(zip(labels, labels.dropFirst()).allSatisfy { $0 < $1 })
        #expect(labels.allSatisfy { abs($0) < OrderedResultsEngine<ShoppingList, Entry>.labelLimit / 2 })
    }

    @Test(arguments: testSeeds(count: 8))
    func randomMovesAndInsertionsKeepLabelsIncreasing(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let (graph, list, controller) = try makeController(count: 30)
        // A few hot spots take every insertion and move, so gaps run out again and again. (The
        // graph's own invariant checks cost O(n²) per commit for a long ordered relationship
        // with an inverse: the list stays short.)
        let hotSpots = (0..<3).map { _ in Int.random(in: 0..<30, using: &rng) }
        for step in 0..<120 {
            var members = list.entries
            let spot = min(hotSpots.randomElement(using: &rng)!, members.count)
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                if Int.random(in: 0..<3, using: &rng) > 0, members.count > 1 {
                    let moved = members.remove(at: Int.random(in: 0..<members.count, using: &rng))
                    members.insert(moved, at: min(spot, members.count))
                } else {
                    let entry = graph.insert(Entry())
                    entry.name = "s\(step)"
                    members.insert(entry, at: min(spot, members.count))
                }
            }
            list.entries = members
            _ = try graph.commit()
            #expect(controller.fetchedObjects.map(\.objectID) == list.entries.map(\.objectID), "step \(step)")
            let labels = list.entries.map { controller.engine.labels[$0.objectID]! }
            #expect(zip(labels, labels.dropFirst()).allSatisfy { $0 < $1 }, "step \(step)")
        }
    }
}
