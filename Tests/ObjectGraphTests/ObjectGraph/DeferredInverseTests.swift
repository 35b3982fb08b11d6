import Observation
@testable import ObjectGraph
import Testing

/// Bulk to-one writes between objects inserted in one transaction list the inverse members
/// instead of adding them; every way of looking at the inverse must see them all the same.
@Suite("Deferred inverses")
struct DeferredInverseTests {
    /// A new location and `count` new items related to it by the bulk path.
    private func bulk(_ count: Int) -> (ObjectGraph, Location, [Item]) {
        let graph = ObjectGraph()
        let home = graph.insert(Location())
        let items = (0..<count).map { _ in graph.insert(Item()) }
        for item in items { item.location = home }
        return (graph, home, items)
    }

    @Test func theGetterSeesDeferredMembers() {
        let (graph, home, items) = bulk(5)
        #expect(graph._deferredInverses.count == 1)
        #expect(home.items == Set(items))
        #expect(graph._deferredInverses.isEmpty)
        graph._checkAllInvariants()
    }

    @Test func readersKeyValueAndTrackingSeeDeferredMembers() throws {
        let (graph, home, items) = bulk(3)
        let reader = try #require(PropertyReader(\Location.items))
        #expect(reader(home) == Set(items))

        let (otherGraph, other, more) = bulk(2)
        #expect(other.value(forKey: "items") as? Set<Item> == Set(more))
        withExtendedLifetime(otherGraph) {}

        let (tracked, third, some) = bulk(2)
        let (count, reads) = tracked.trackReads { third.items.count }
        #expect(count == 2 && some.allSatisfy { $0.location === third })
        #expect(reads.contains(third.objectID, Location.entity.index(of: "items")!))
        withExtendedLifetime(graph) {}
    }

    @Test func theSetterAndGeneralWritesSeeDeferredMembers() {
        let (graph, home, items) = bulk(4)
        let shop = graph.insert(Location())
        items[0].location = shop  // general path: the owner already has a location
        #expect(!home.items.contains(items[0]) && shop.items == [items[0]])
        let (graph2, home2, items2) = bulk(3)
        home2.items.remove(items2[1])  // the setter compares with every member
        #expect(home2.items == [items2[0], items2[2]] && items2[1].location == nil)
        graph2._checkAllInvariants()
        graph._checkAllInvariants()
    }

    @Test func deletingAnOwnerOrTheTargetKeepsInversesConsistent() throws {
        let (graph, home, items) = bulk(4)
        graph.delete(items[2])
        #expect(home.items == [items[0], items[1], items[3]])
        let changes = try #require(try graph.commit())
        #expect(changes.insertedIDs.count == 4)
        #expect(home.items.count == 3)

        let (graph2, home2, items2) = bulk(3)
        graph2.delete(home2)
        #expect(items2.allSatisfy { $0.location == nil })
        let inserted = try #require(try graph2.commit())
        #expect(inserted.insertedIDs.count == 3)
    }

    @Test func rollbackDropsDeferredMembersAndRestoresCommittedOnes() throws {
        let graph = ObjectGraph()
        let home = graph.insert(Location())
        try graph.commit()
        let kitchen = graph.insert(Location())
        let items = (0..<6).map { _ in graph.insert(Item()) }
        for (position, item) in items.enumerated() { item.location = position < 3 ? kitchen : home }
        graph.rollback()
        #expect(home.items.isEmpty)
        #expect(kitchen.graph == nil && kitchen.items.isEmpty)
        #expect(items.allSatisfy { $0.graph == nil && $0.location == nil })
        #expect(graph._deferredInverses.isEmpty && !graph.hasChanges)
    }

    @Test func commitAddsEveryDeferredMemberAndReportsInsertsInOrder() throws {
        let graph = ObjectGraph()
        let locations = (0..<3).map { _ in graph.insert(Location()) }
        var items: [Item] = []
        for index in 0..<30 {
            let item = graph.insert(Item())
            item.location = locations[index % 3]
            items.append(item)
        }
        let changes = try #require(try graph.commit())
        #expect(changes.insertedIDs == locations.map(\.objectID) + items.map(\.objectID))
        for (position, location) in locations.enumerated() {
            #expect(location.items == Set(items.enumerated().filter { $0.offset % 3 == position }.map(\.element)))
        }
        #expect(!items[0].isInserted && !locations[0].isInserted)
        graph._checkAllInvariants()
    }

    @Test func observingATargetFlushesAndLaterWritesNotify() {
        let (graph, home, items) = bulk(2)
        let fired = Counter()
        withObservationTracking {
            #expect(home.items.count == 2)
        } onChange: {
            fired.increment()
        }
        let extra = graph.insert(Item())
        extra.location = home
        #expect(fired.value == 1)
        #expect(home.items == Set(items + [extra]))
    }

    @Test func interleavedInsertsKeepTheirOrderAndRollBack() throws {
        let graph = ObjectGraph()
        var expected: [ObjectID] = []
        for index in 0..<12 {
            if index % 4 == 0 {
                expected.append(graph.insert(Location()).objectID)
            } else {
                let item = graph.insert(Item())
                expected.append(item.objectID)
                if index % 4 == 3 { graph.delete(item); expected.removeLast() }
            }
        }
        let changes = try #require(try graph.commit())
        #expect(changes.insertedIDs == expected)

        let tag = graph.insert(Tag())
        let deleted = graph.insert(Item())
        deleted.tags = [tag]
        graph.delete(deleted)
        #expect(tag.items.isEmpty)
        graph.rollback()
        #expect(tag.graph == nil && deleted.graph == nil && !deleted.isDeleted)
        #expect(graph.count(of: Location.self) == 3 && graph.count(of: Item.self) == 6)
    }
}
