@testable import ObjectGraph
import Testing

/// An entity whose validation looks at the other objects of the commit: it records what
/// `isInserted` says about them, and may write to one (which validation must not do).
final class Audited: GraphObject {
    @Attribute var value = 0
    @Relationship var peer: Audited?
    /// Set by each validation: whether every object in `Audited.watched` reported inserted.
    nonisolated(unsafe) static var sawEveryWatchedInserted = true
    nonisolated(unsafe) static var watched: [Audited] = []
    nonisolated(unsafe) static var writeToPeer = false

    override func validateForCommit() throws {
        if !Self.watched.allSatisfy(\.isInserted) { Self.sawEveryWatchedInserted = false }
        if value < 0 { throw InvalidQuantity() }
        if Self.writeToPeer, let peer { peer.value += 1 }
    }
}

/// The commit validates each inserted object and marks it committed in one pass; a failure
/// part-way must leave every inserted object exactly as it was.
@Suite("Validation of inserted objects", .serialized)
struct InsertValidationTests {
    @Test func aFailurePartWayLeavesEveryInsertPending() throws {
        let graph = ObjectGraph()
        let objects = (0..<10).map { index in
            let object = graph.insert(Audited())
            object.value = index == 6 ? -1 : index
            return object
        }
        Audited.watched = objects
        Audited.sawEveryWatchedInserted = true
        defer { Audited.watched = [] }
        #expect(throws: CommitError.self) { try graph.commit() }
        #expect(Audited.sawEveryWatchedInserted)
        #expect(objects.allSatisfy(\.isInserted) && graph.hasChanges)
        graph._checkAllInvariants()

        objects[6].value = 6  // still a pending insert: nothing is recorded
        let changes = try #require(try graph.commit())
        #expect(changes.insertedIDs == objects.map(\.objectID) && changes.updated.isEmpty)
        #expect(objects.allSatisfy { !$0.isInserted } && Audited.sawEveryWatchedInserted)
        objects[3].value = 30
        #expect(try graph.commit()?.updated.keys.map { $0 } == [objects[3].objectID])
        graph._checkAllInvariants()
    }

    @Test func aFailureAfterBulkRelationsRollsBackCleanly() throws {
        let graph = ObjectGraph()
        let home = graph.insert(Location())
        let items = (0..<5).map { _ in graph.insert(Item()) }
        for item in items { item.location = home }
        let bad = graph.insert(Audited())
        bad.value = -1
        #expect(throws: CommitError.self) { try graph.commit() }
        #expect(items.allSatisfy(\.isInserted) && home.isInserted)
        graph.rollback()
        #expect(graph.count(of: Item.self) == 0 && items.allSatisfy { $0.graph == nil })
        graph._checkAllInvariants()
    }

    @Test func aValidationThatWritesToAValidatedInsertTraps() async {
        await #expect(processExitsWith: .failure) {
            let graph = ObjectGraph()
            let first = graph.insert(Audited())
            let second = graph.insert(Audited())
            second.peer = first
            Audited.writeToPeer = true
            _ = try? graph.commit()
        }
    }
}
