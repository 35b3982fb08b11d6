import Observation
@testable import ObjectGraph
import Testing

/// A commit leaves bulk-deferred inverse members deferred: the targets are committed objects
/// then, and every later way of reading, writing, deleting or rolling back must still see the
/// members, exactly once.
@Suite("Deferred inverses across commits")
struct DeferredInverseCommitTests {
    /// Two new locations and `count` new items alternating between them, committed.
    private func committedBulk(_ count: Int) throws -> (ObjectGraph, [Location], [Item]) {
        let graph = ObjectGraph()
        let locations = [graph.insert(Location()), graph.insert(Location())]
        let items = (0..<count).map { index in
            let item = graph.insert(Item())
            item.location = locations[index % 2]
            return item
        }
        try graph.commit()
        return (graph, locations, items)
    }

    @Test func aCommitKeepsTheListsAndTheGetterStillSeesEveryMember() throws {
        let (graph, locations, items) = try committedBulk(6)
        #expect(graph._deferredInverses.count == 2 && !graph.hasChanges)
        #expect(!locations[0].isInserted && !items[0].isInserted)
        #expect(locations[0].items == Set(items.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)))
        #expect(graph._deferredInverses.isEmpty)
        #expect(locations[1].items.count == 3)
        graph._checkAllInvariants()
    }

    @Test func anAttributeWriteToACommittedTargetThenAFlushKeepsItsPendingEntry() throws {
        let (graph, locations, items) = try committedBulk(4)
        locations[0].name = "Pantry"
        #expect(locations[0].items.count == 2)  // flushes every list
        graph.rollback()
        #expect(locations[0].name == "" && locations[0].items.count == 2)
        locations[1].name = "Fridge"
        let changes = try #require(try graph.commit())
        #expect(changes.updated.keys.map { $0 } == [locations[1].objectID])
        #expect(Set(items.map { $0.location! }) == Set(locations))
        graph._checkAllInvariants()
    }

    @Test func deletingAMemberOrATargetAfterTheCommit() throws {
        let (graph, locations, items) = try committedBulk(6)
        graph.delete(items[2])
        graph.delete(locations[1])
        let changes = try #require(try graph.commit())
        #expect(changes.deleted == [items[2].objectID, locations[1].objectID])
        #expect(locations[0].items == [items[0], items[4]])
        #expect(items[1].location == nil && items[3].location == nil)
        graph._checkAllInvariants()
    }

    @Test func aLaterTransactionMixesNewListsWithCommittedOnes() throws {
        let (graph, locations, items) = try committedBulk(4)
        let shelf = graph.insert(Location())
        let more = (0..<3).map { _ in graph.insert(Item()) }
        for item in more { item.location = shelf }  // new lists, bulk path
        #expect(graph._deferredInverses.count == 3)
        graph._checkInvariants()
        try graph.commit()
        let extra = graph.insert(Item())
        extra.location = locations[0]  // a committed target: the general path flushes
        #expect(graph._deferredInverses.isEmpty)
        try graph.commit()
        #expect(locations[0].items == [items[0], items[2], extra])
        #expect(shelf.items == Set(more))
        graph.rollback()
        graph._checkAllInvariants()
    }

    @Test func aRollbackAfterTheCommitFlushesAndRestores() throws {
        let (graph, locations, items) = try committedBulk(4)
        items[0].location = locations[1]
        graph.rollback()
        #expect(items[0].location === locations[0])
        #expect(locations[0].items == [items[0], items[2]] && locations[1].items == [items[1], items[3]])
        graph._checkAllInvariants()
    }

    @Test func observingACommittedTargetSeesLaterWrites() throws {
        let (graph, locations, _) = try committedBulk(4)
        let fired = Counter()
        withObservationTracking {
            #expect(locations[1].items.count == 2)
        } onChange: {
            fired.increment()
        }
        let extra = graph.insert(Item())
        extra.location = locations[1]
        #expect(fired.value == 1 && locations[1].items.count == 3)
    }

    @Test func aGraphThatGoesAwayReleasesTheDeferredMembers() throws {
        weak var weakItem: Item?
        weak var weakLocation: Location?
        do {
            let (graph, locations, items) = try committedBulk(4)
            weakItem = items[3]
            weakLocation = locations[0]
            #expect(graph._deferredInverses.count == 2)
        }
        #expect(weakItem == nil && weakLocation == nil)
    }
}
