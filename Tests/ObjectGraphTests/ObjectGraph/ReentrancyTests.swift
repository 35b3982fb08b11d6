import Foundation
import Testing
@testable import ObjectGraph

/// An item whose validation runs a closure: a commit or a rollback from inside it.
private final class Hooked: GraphObject {
    @Attribute var name = ""
    nonisolated(unsafe) static var duringValidation: ((Hooked) -> Void)?

    override func validateForCommit() throws {
        Self.duringValidation?(self)
    }
}

/// An item whose name must not be empty.
private final class Named: GraphObject {
    @Attribute var name = "x"

    struct Empty: Error {}

    override func validateForCommit() throws {
        if name.isEmpty { throw Empty() }
    }
}

@Suite("Re-entrant calls: commits, rollbacks and observers called back from inside the graph", .serialized)
struct ReentrancyTests {
    @Test("A commit from inside validateForCommit() throws commitInProgress; the outer commit goes on")
    func commitInsideValidation() throws {
        let graph = ObjectGraph()
        var inner: CommitError?
        Hooked.duringValidation = { object in
            do throws(CommitError) { try object.graph?.commit() } catch { inner = error }
        }
        defer { Hooked.duringValidation = nil }
        let object = graph.insert(Hooked())
        object.name = "a"
        let changes = try graph.commit()
        guard case .commitInProgress = inner else {
            Issue.record("the inner commit did not throw commitInProgress: \(String(describing: inner))")
            return
        }
        #expect(changes?.inserted.contains(object.objectID) == true)
        #expect(!graph.hasChanges)
    }

    @Test("A rollback from inside validateForCommit() changes nothing and makes the commit throw", arguments: [false, true])
    func rollbackInsideValidation(committedFirst: Bool) throws {
        let graph = ObjectGraph()
        let object = graph.insert(Hooked())
        if committedFirst { try graph.commit() }
        object.name = "pending"
        Hooked.duringValidation = { object in object.graph?.rollback() }
        defer { Hooked.duringValidation = nil }
        #expect(throws: CommitError.self) { try graph.commit() }
        do {
            try graph.commit()
        } catch .commitInProgress {
        } catch {
            Issue.record("expected commitInProgress, got \(error)")
        }
        // Nothing was lost: the change is still pending, and commits once the hook is gone.
        #expect(graph.hasChanges)
        #expect(object.name == "pending")
        #expect(object.isInserted == !committedFirst)
        Hooked.duringValidation = nil
        let changes = try #require(try graph.commit())
        #expect(changes.inserted.contains(object.objectID) == !committedFirst)
        #expect(object.name == "pending")
        // A rollback outside a commit still works.
        object.name = "later"
        graph.rollback()
        #expect(object.name == "pending")
        #expect(!graph.hasChanges)
    }

    @Test("Dropping a token whose closure holds the last reference to another observer's owner")
    func droppingATokenReleasesAnotherObserver() throws {
        let graph = ObjectGraph()
        _ = graph.insert(Hooked())
        try graph.commit()
        /// Something that observes the graph and stops observing when it goes away, as a
        /// results controller does.
        final class Owner {
            var token: GraphObservation?
            var heard = 0
            init(_ graph: ObjectGraph) {
                token = graph.addObserver { [unowned(unsafe) self] _ in self.heard += 1 }
            }
            deinit { token?.cancel() }
        }
        func make(_ graph: ObjectGraph) -> GraphObservation {
            let owner = Owner(graph)
            return graph.addObserver { _ in _ = owner.heard }
        }
        var token: GraphObservation? = make(graph)
        #expect(token != nil)
        token = nil
        // Both observers are gone: a commit calls nobody.
        graph.objects(of: Hooked.self)[0].name = "b"
        try graph.commit()
        token = make(graph)
        token?.cancel()
        token = nil
        graph.objects(of: Hooked.self)[0].name = "c"
        try graph.commit()
    }

    @Test("An observer's follow-up commit that fails is rolled back and reported to that observer")
    func followUpFailureGoesToTheObserver() throws {
        let graph = ObjectGraph()
        let object = graph.insert(Named())
        try graph.commit()
        var reported: [CommitError] = []
        var deliveries = 0
        let token = graph.addObserver(onFollowUpFailure: { reported.append($0) }) { changes in
            deliveries += 1
            if changes.author == "user" { object.name = "" }  // fails validation
        }
        object.name = "y"
        try graph.commit(author: "user")
        #expect(reported.count == 1)
        if case .validationFailed(let id, _)? = reported.first {
            #expect(id == object.objectID)
        } else {
            Issue.record("expected validationFailed, got \(reported)")
        }
        // The observer's writes were rolled back, so the next, unrelated commit succeeds.
        #expect(!graph.hasChanges)
        #expect(object.name == "y")
        let other = graph.insert(Named())
        let changes = try #require(try graph.commit(author: "other"))
        #expect(changes.inserted.contains(other.objectID))
        #expect(deliveries == 2)
        withExtendedLifetime(token) {}
    }

    @Test("An observer's follow-up writes are committed as soon as it returns")
    func followUpCommitsAfterEachObserver() throws {
        let graph = ObjectGraph()
        let object = graph.insert(Named())
        try graph.commit()
        var seenBySecond: [String] = []
        let first = graph.addObserver { changes in
            if changes.author == "user" { object.name = "from first" }
        }
        let second = graph.addObserver { changes in
            // The second observer never sees the first observer's writes as pending.
            #expect(!graph.hasChanges)
            seenBySecond.append(changes.author ?? "follow-up")
        }
        object.name = "y"
        try graph.commit(author: "user")
        #expect(seenBySecond == ["user", "follow-up"])
        #expect(object.name == "from first")
        #expect(!graph.hasChanges)
        withExtendedLifetime((first, second)) {}
    }
}

@Suite("Pending deletions stay registered until every observer has heard of them")
struct RegisteredObjectTests {
    @Test("registeredObject(with:) answers for a pending deletion, then forgets it at commit")
    func pendingDeletion() throws {
        let graph = ObjectGraph()
        let object = graph.insert(Named())
        try graph.commit()
        let id = object.objectID
        graph.delete(object)
        #expect(graph.object(with: id) == nil)
        #expect(graph.registeredObject(with: id) === object)
        #expect(object.isDeleted)
        graph.rollback()
        #expect(graph.object(with: id) === object)
        graph.delete(object)
        try graph.commit()
        #expect(graph.registeredObject(with: id) == nil)
    }

    @Test("During the delivery of the commit that deleted it, the object is still registered")
    func undeliveredDeletion() throws {
        let graph = ObjectGraph()
        let kept = graph.insert(Named())
        let doomed = graph.insert(Named())
        try graph.commit()
        let id = doomed.objectID
        var seen: [Bool] = []
        let token = graph.addObserver { changes in
            if changes.author == "user" {
                graph.delete(kept)          // pending, then committed as a follow-up
            }
            seen.append(graph.registeredObject(with: id) != nil)
        }
        graph.delete(doomed)
        try graph.commit(author: "user")
        // Heard the user's commit (doomed is still registered), then the follow-up commit.
        #expect(seen == [true, true])
        #expect(graph.registeredObject(with: id) == nil)
        #expect(graph.registeredObject(with: kept.objectID) == nil)
        withExtendedLifetime(token) {}
    }
}

@Suite("Graph numbers: handed out again once fresh ones run out")
struct GraphRegistryTests {
    @Test("Fresh tags first, then the longest-freed, and nil only when every tag is alive")
    func tagsAreReused() {
        var registry = _GraphRegistry()
        let limit: UInt64 = 5  // tags 1...4
        let ids = (0..<4).map { _ in UUID() }
        let tags = ids.map { registry.register($0, limit: limit) }
        #expect(tags == [1, 2, 3, 4])
        #expect(registry.register(UUID(), limit: limit) == nil)
        registry.freed.append(3)
        registry.freed.append(1)
        // A freed tag keeps its identifier until it is reused.
        #expect(registry.identifiers[3] == ids[2])
        let reused = UUID()
        #expect(registry.register(reused, limit: limit) == 3)
        #expect(registry.identifiers[3] == reused)
        #expect(registry.register(UUID(), limit: limit) == 1)
        #expect(registry.register(UUID(), limit: limit) == nil)
        #expect(registry.identifiers.count == 4)
    }

    @Test("Making and dropping many graphs keeps working, and IDs of live graphs stay distinct")
    func manyGraphs() throws {
        var previous: ObjectID?
        for _ in 0..<2_000 {
            let graph = ObjectGraph()
            let object = graph.insert(Named())
            #expect(graph.object(with: object.objectID) === object)
            if let previous { #expect(graph.object(with: previous) == nil) }
            previous = object.objectID
        }
    }
}
