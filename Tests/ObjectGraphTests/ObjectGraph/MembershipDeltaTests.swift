import ObjectGraph
import Testing

/// A to-many relationship of a committed object keeps the members it gained and lost in the
/// transaction (not a copy of its set): rollback, change reporting and deletes must come out
/// as they would from a copy.
@Suite("Membership delta")
struct MembershipDeltaTests {
    @Test func rollbackRestoresMembersAddedRemovedAndReadded() throws {
        let (graph, home, shop, milk, eggs, bread) = try groceryGraph()
        let butter = graph.insert(Item())
        butter.location = home  // gained (a new object)
        milk.location = shop  // lost
        eggs.location = nil  // lost
        eggs.location = home  // and back
        bread.location = home  // gained from another location
        home.items.remove(butter)  // gained, then lost again
        #expect(home.items == [eggs, bread])
        graph.rollback()
        #expect(home.items == [milk, eggs])
        #expect(shop.items == [bread])
        #expect(milk.location === home && eggs.location === home && bread.location === shop)
        #expect(butter.graph == nil && butter.location == nil)
        #expect(!graph.hasChanges)
        #expect(try graph.commit() == nil)
    }

    @Test func membersLostAndRegainedAreNoChange() throws {
        let (graph, home, shop, milk, _, bread) = try groceryGraph()
        milk.location = shop
        milk.location = home
        home.items.remove(milk)
        home.items.insert(milk)
        bread.location = nil
        let changes = try #require(try graph.commit())
        #expect(changes.updated[home.objectID] == nil)
        #expect(changes.updated[milk.objectID] == nil)
        #expect(changes.updated[shop.objectID]?.names == ["items"])
        #expect(changes.updated[bread.objectID]?.names == ["location"])
        #expect(home.items.count == 2 && shop.items.isEmpty)
    }

    @Test func aNewObjectDeletedInItsTransactionLeavesTheInverseUnchanged() throws {
        let (graph, home, _, milk, eggs, _) = try groceryGraph()
        let butter = graph.insert(Item())
        butter.location = home
        #expect(home.items.contains(butter))
        graph.delete(butter)
        #expect(home.items == [milk, eggs])
        #expect(try graph.commit() == nil)
        #expect(graph.object(with: butter.objectID) == nil)
    }

    @Test func deletesNullifyTheInverseAndRollBack() throws {
        let (graph, home, shop, milk, eggs, bread) = try groceryGraph()
        graph.delete(milk)
        graph.delete(shop)
        #expect(home.items == [eggs] && bread.location == nil)
        graph.rollback()
        #expect(home.items == [milk, eggs] && shop.items == [bread] && bread.location === shop)
        #expect(!milk.isDeleted && !shop.isDeleted)

        graph.delete(milk)
        let changes = try #require(try graph.commit())
        #expect(changes.deleted == [milk.objectID])
        #expect(changes.updated[home.objectID]?.names == ["items"])
        #expect(home.items == [eggs])
    }

    @Test func replacingTheWholeSetKeepsTheDifference() throws {
        let (graph, home, shop, milk, eggs, bread) = try groceryGraph()
        home.items = [eggs, bread]
        #expect(milk.location == nil && bread.location === home && shop.items.isEmpty)
        home.items = [milk, eggs]
        shop.items = [bread]
        #expect(try graph.commit() == nil)
        home.items = []
        graph.rollback()
        #expect(home.items == [milk, eggs] && milk.location === home)
    }

    @Test func manyToManyBothSidesRollBack() throws {
        let graph = ObjectGraph()
        let fruit = graph.insert(Tag())
        let dairy = graph.insert(Tag())
        let milk = graph.insert(Item())
        let apple = graph.insert(Item())
        milk.tags = [dairy]
        apple.tags = [fruit]
        try graph.commit()
        milk.tags = [fruit]
        fruit.items.remove(apple)
        dairy.items.insert(apple)
        #expect(fruit.items == [milk] && dairy.items == [apple])
        graph.rollback()
        #expect(fruit.items == [apple] && dairy.items == [milk])
        #expect(milk.tags == [dairy] && apple.tags == [fruit])
    }
}
