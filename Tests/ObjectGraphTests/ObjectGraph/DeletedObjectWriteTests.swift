import Foundation
import ObjectGraph
import Testing

/// Writes to a deleted object stop where they are made, and reinserting one says it was
/// deleted; neither leaves a transaction that no commit can get through.
@Suite("Writes to deleted objects are caught where they happen")
struct DeletedObjectWriteTests {
    /// The standard error of an exit test, as text.
    private static func text(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    @Test func settingAnAttributeOfAnObjectDeletedEarlierTraps() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (graph, _, _, _, eggs, _) = try groceryGraph()
            graph.delete(eggs)
            try graph.commit()
            eggs.name = "Ghost"
        }
        #expect(Self.text(result).contains("name was set after the object was deleted"))
    }

    @Test func settingAnEqualValueAfterAPendingDeleteTraps() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (graph, _, _, milk, _, _) = try groceryGraph()
            graph.delete(milk)
            milk.name = "Milk"
        }
        #expect(Self.text(result).contains("name was set after the object was deleted"))
    }

    @Test func settingARelationshipOfADeletedObjectTraps() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (graph, _, shop, milk, _, _) = try groceryGraph()
            graph.delete(milk)
            try graph.commit()
            milk.location = shop
        }
        #expect(Self.text(result).contains("location was set after the object was deleted"))
    }

    @Test func changingAToManyRelationshipOfADeletedObjectTraps() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (graph, _, shop, milk, _, _) = try groceryGraph()
            graph.delete(shop)
            shop.items.insert(milk)
        }
        #expect(Self.text(result).contains("items was set after the object was deleted"))
    }

    @Test func setValueOnADeletedObjectThrowsAndKeepsTheTransactionCommittable() throws {
        let (graph, _, _, milk, eggs, _) = try groceryGraph()
        graph.delete(eggs)
        try graph.commit()
        milk.quantity = 7
        #expect(throws: ObjectGraphError.objectNotFound(eggs.objectID)) { try eggs.setValue("Ghost", forKey: "name") }
        #expect(eggs.name == "Eggs")
        let changes = try #require(try graph.commit())
        #expect(changes.updated[milk.objectID]?.names == ["quantity"] && milk.quantity == 7)
    }

    @Test func reinsertingADeletedObjectSaysItWasDeleted() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (graph, _, _, milk, _, _) = try groceryGraph()
            graph.delete(milk)
            try graph.commit()
            graph.insert(milk)
        }
        let message = Self.text(result)
        #expect(message.contains("was deleted; a deleted object cannot be inserted again"))
        #expect(!message.contains("already in a graph"))
    }

    @Test func insertingAnObjectTwiceSaysItIsInThisGraph() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (graph, _, _, milk, _, _) = try groceryGraph()
            graph.insert(milk)
        }
        #expect(Self.text(result).contains("is already in this graph"))
    }
}
