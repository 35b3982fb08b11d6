import ObjectGraph
import TestSupport
import Testing

@Suite("GraphChanges")
struct GraphChangesTests {
    @Test func insertedIDsListEachInsertOnceInInsertionOrder() throws {
        let graph = ObjectGraph()
        let home = graph.insert(Location())
        let milk = graph.insert(Item())
        let eggs = graph.insert(Item())
        milk.location = home
        eggs.location = home
        milk.name = "Milk"  // a second write must not list milk twice
        let gone = graph.insert(Item())
        graph.delete(gone)
        let changes = try #require(try graph.commit())
        #expect(changes.insertedIDs == [home.objectID, milk.objectID, eggs.objectID])
        #expect(changes.inserted == [home.objectID, milk.objectID, eggs.objectID])
        #expect(changes.description.contains("inserted: 3"))
    }

    @Test func settingInsertedReplacesTheIDs() {
        var changes = GraphChanges()
        #expect(changes.isEmpty && changes.insertedIDs.isEmpty)
        let graph = ObjectGraph()
        let ids = (0..<3).map { _ in graph.insert(Item()).objectID }
        changes.inserted = Set(ids)
        #expect(!changes.isEmpty)
        #expect(Set(changes.insertedIDs) == Set(ids) && changes.insertedIDs.count == 3)
        changes.inserted.remove(ids[0])
        #expect(changes.inserted == Set(ids[1...]))
        #expect(Set(changes.insertedIDs) == Set(ids[1...]) && changes.insertedIDs.count == 2)
        changes.inserted = []
        #expect(changes.isEmpty)
    }

    @Test(arguments: testSeeds(count: 8))
    func committedChangesEqualChangesMadeFromSets(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let graph = ObjectGraph()
        var expected: Set<ObjectID> = []
        var order: [ObjectID] = []
        for _ in 0..<Int.random(in: 1...200, using: &rng) {
            let item = graph.insert(Item())
            if Bool.random(using: &rng) {
                graph.delete(item)
            } else {
                expected.insert(item.objectID)
                order.append(item.objectID)
            }
        }
        let changes = try graph.commit(author: "seeded")
        guard !expected.isEmpty else {
            #expect(changes == nil)
            return
        }
        let committed = try #require(changes)
        #expect(committed.insertedIDs == order)
        let rebuilt = GraphChanges(inserted: expected, author: "seeded")
        // Equal both ways, before and after either side built its set.
        #expect(committed == rebuilt && rebuilt == committed)
        #expect(committed.inserted == expected)
        #expect(committed == rebuilt)
        var other = rebuilt
        other.inserted.remove(order[0])
        #expect(committed != other)
    }
}
