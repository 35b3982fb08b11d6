import Observation
import ObjectGraph
import Testing

/// The bulk-insert case of a to-one setter (both objects new in the transaction) against
/// the cases next to it that must still take the general path.
@Suite("Bulk insert")
struct BulkInsertTests {
    @Test func newObjectsRelateBothSidesAndCommitOrRollBack() throws {
        let graph = ObjectGraph()
        let home = graph.insert(Location())
        let shop = graph.insert(Location())
        let items = (0..<10).map { _ in graph.insert(Item()) }
        for (position, item) in items.enumerated() { item.location = position.isMultiple(of: 2) ? home : shop }
        #expect(home.items == Set(items.enumerated().filter { $0.offset.isMultiple(of: 2) }.map(\.element)))
        #expect(home.items.count == 5 && shop.items.count == 5)
        // Moving a new item (its relationship is no longer empty) leaves the old side.
        items[0].location = shop
        #expect(!home.items.contains(items[0]) && shop.items.contains(items[0]))
        let changes = try #require(try graph.commit())
        #expect(changes.insertedIDs.count == 12 && changes.updated.isEmpty)

        // A second transaction of new items: rollback takes them out of the inverse.
        let extra = graph.insert(Item())
        extra.location = home
        #expect(home.items.contains(extra))
        graph.rollback()
        #expect(!home.items.contains(extra) && home.items.count == 4)
        #expect(extra.location == nil)
    }

    @Test func anObservedNewLocationIsNotifiedOfItsNewItem() throws {
        let graph = ObjectGraph()
        let home = graph.insert(Location())
        let milk = graph.insert(Item())
        let fired = Counter()
        withObservationTracking {
            _ = home.items
        } onChange: {
            fired.increment()
        }
        milk.location = home
        #expect(fired.value == 1)
        #expect(home.items == [milk])
    }

    @Test func aDeletedNewTargetIsStillRefusedAtCommit() {
        let graph = ObjectGraph()
        let home = graph.insert(Location())
        let milk = graph.insert(Item())
        graph.delete(home)
        milk.location = home
        do {
            try graph.commit()
            Issue.record("a relationship to a deleted object was committed")
        } catch {
            guard case .relationshipToDeletedObject(let owner, "location", let target) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(owner == milk.objectID && target == home.objectID)
        }
        #expect(graph.hasChanges)
    }
}
