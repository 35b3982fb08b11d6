import ObjectGraph
import Testing

/// The error a failed commit throws, or `nil` when it succeeds.
private func commitError(_ graph: ObjectGraph) -> CommitError? {
    do {
        try graph.commit()
        return nil
    } catch {
        return error
    }
}

@Suite("Commit errors keep every pending change")
struct CommitErrorTests {
    @Test func relatingAnObjectOfAnotherGraphThrows() throws {
        let (graph, home, _, milk, _, _) = try groceryGraph()
        let other = ObjectGraph()
        let away = other.insert(Location())
        try other.commit()
        milk.location = away
        milk.quantity = 3
        guard case .objectFromAnotherGraph(let id, let relationship)? = commitError(graph) else { Issue.record("no error"); return }
        #expect(id == milk.objectID && relationship == "location")
        #expect(milk.location === away && milk.quantity == 3 && graph.hasChanges)
        #expect(away.items.isEmpty && !other.hasChanges)  // the other graph is left alone
        #expect(!home.items.contains(milk))
        graph.rollback()
        #expect(milk.location === home && home.items.contains(milk) && milk.quantity == 0)
    }

    @Test func relatingADeletedObjectThrows() throws {
        let (graph, _, shop, milk, _, bread) = try groceryGraph()
        graph.delete(shop)
        try graph.commit()
        #expect(bread.location == nil)
        milk.location = shop
        guard case .relationshipToDeletedObject(let id, let relationship, let target)? = commitError(graph) else {
            Issue.record("no error")
            return
        }
        #expect(id == milk.objectID && relationship == "location" && target == shop.objectID)
        #expect(milk.location === shop && graph.hasChanges)
        milk.location = nil
        let changes = try #require(try graph.commit())
        #expect(changes.updated[milk.objectID]?.names == ["location"])
    }

    @Test func validationFailuresThrowTheObjectsError() throws {
        let graph = ObjectGraph()
        let stock = graph.insert(Stock())
        stock.quantity = -1
        let other = graph.insert(Stock())
        other.quantity = 5
        guard case .validationFailed(let id, let underlying)? = commitError(graph) else { Issue.record("no error"); return }
        #expect(id == stock.objectID)
        #expect(underlying as? InvalidQuantity == InvalidQuantity())
        #expect(graph.count(of: Stock.self) == 2 && stock.quantity == -1 && other.quantity == 5 && graph.hasChanges)
        stock.quantity = 1
        let changes = try #require(try graph.commit())
        #expect(changes.inserted == [stock.objectID, other.objectID])
        stock.quantity = -2
        guard case .validationFailed? = commitError(graph) else { Issue.record("no error"); return }
        graph.rollback()
        #expect(stock.quantity == 1)
    }

    @Test func anErrorCommitsNothingAndNotifiesNoOne() throws {
        let (graph, _, shop, milk, _, _) = try groceryGraph()
        var deliveries = 0
        let token = graph.addObserver { _ in deliveries += 1 }
        graph.delete(shop)
        try graph.commit()
        #expect(deliveries == 1)
        milk.name = "Oat"
        milk.location = shop
        #expect(commitError(graph) != nil)
        #expect(deliveries == 1)
        #expect(milk.name == "Oat" && graph.hasChanges)
        withExtendedLifetime(token) {}
    }

    @Test func transactionsCommitOrRollBack() throws {
        let (graph, _, shop, milk, _, _) = try groceryGraph()
        let result = try graph.transaction(author: "tx") { () -> Int in
            milk.quantity = 4
            return 42
        }
        #expect(result == 42 && !graph.hasChanges && milk.quantity == 4)

        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try graph.transaction {
                milk.quantity = 9
                milk.location = shop
                throw Abort()
            }
        }
        #expect(!graph.hasChanges && milk.quantity == 4 && milk.location !== shop)

        graph.delete(shop)
        try graph.commit()
        #expect(throws: CommitError.self) {
            try graph.transaction { milk.location = shop }
        }
        #expect(graph.hasChanges && milk.location === shop)
        graph.rollback()
    }

    @Test func existingObjectThrowsForUnknownIDs() throws {
        let (graph, _, _, milk, _, _) = try groceryGraph()
        let id = milk.objectID
        graph.delete(milk)
        #expect(throws: ObjectGraphError.objectNotFound(id)) { try graph.existingObject(with: id) }
        graph.rollback()
        #expect(try graph.existingObject(with: id) === milk)
        let inserted = graph.insert(Item())
        let insertedID = inserted.objectID
        graph.rollback()
        #expect(throws: ObjectGraphError.objectNotFound(insertedID)) { try graph.existingObject(with: insertedID) }
    }
}
