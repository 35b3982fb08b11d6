import Observation
import ObjectGraph
import Testing

@Suite("Observers and Observation")
struct ObserverTests {
    @Test func observersGetEachCommitInOrderUntilCancelled() throws {
        let (graph, _, _, milk, _, _) = try groceryGraph()
        var received: [GraphChanges] = []
        let token = graph.addObserver { received.append($0) }
        milk.quantity = 1
        let first = try graph.commit(author: "a")
        milk.quantity = 2
        let second = try graph.commit(author: "b")
        #expect(received == [first, second].compactMap { $0 })
        #expect(received.map(\.author) == ["a", "b"])
        token.cancel()
        milk.quantity = 3
        try graph.commit()
        #expect(received.count == 2)
    }

    @Test func droppingTheTokenStopsObserving() throws {
        let (graph, _, _, milk, _, _) = try groceryGraph()
        var count = 0
        do {
            let token = graph.addObserver { _ in count += 1 }
            milk.quantity = 1
            try graph.commit()
            withExtendedLifetime(token) {}
        }
        milk.quantity = 2
        try graph.commit()
        #expect(count == 1)
    }

    @Test func observerWritesBecomeTheNextCommitWithoutRecursion() throws {
        let (graph, _, _, milk, eggs, _) = try groceryGraph()
        var deliveries: [GraphChanges] = []
        var depth = 0
        let writer = graph.addObserver { changes in
            depth += 1
            defer { depth -= 1 }
            #expect(depth == 1, "delivery recursed")
            deliveries.append(changes)
            // React to the user's commit by writing (not committing) another change.
            if changes.author == "user", changes.updated[milk.objectID]?.contains("quantity") == true {
                eggs.quantity = milk.quantity * 12
            }
        }
        var seenByLater: [GraphChanges] = []
        let later = graph.addObserver { seenByLater.append($0) }
        milk.quantity = 2
        let committed = try graph.commit(author: "user")
        #expect(!graph.hasChanges)
        #expect(eggs.quantity == 24)
        #expect(deliveries.count == 2)
        #expect(deliveries.first == committed)
        #expect(deliveries.last?.author == nil)
        #expect(deliveries.last?.updated[eggs.objectID]?.names == ["quantity"])
        // Every observer sees the first commit before anyone sees the second.
        #expect(seenByLater == deliveries)
        withExtendedLifetime((writer, later)) {}
    }

    @Test func anObserverCanCommitItsOwnTaggedWritesAndSkipThem() throws {
        let (graph, _, _, milk, _, _) = try groceryGraph()
        var authors: [String?] = []
        let committer = graph.addObserver { changes in
            authors.append(changes.author)
            guard changes.author != "committer" else { return }
            milk.listed.toggle()
            #expect(throws: Never.self) { try graph.commit(author: "committer") }
        }
        milk.quantity = 2
        try graph.commit(author: "user")
        #expect(authors == ["user", "committer"])
        #expect(milk.listed && !graph.hasChanges)
        withExtendedLifetime(committer) {}
    }

    @Test func aFailedAutomaticCommitRollsTheObserverWritesBackAndReportsIt() throws {
        let graph = ObjectGraph()
        let stock = graph.insert(Stock())
        try graph.commit()
        var failures: [CommitError] = []
        let breaker = graph.addObserver(onFollowUpFailure: { failures.append($0) }) { changes in
            if changes.author == "user" { stock.quantity = -1 }
        }
        stock.values = [1]
        try graph.commit(author: "user")
        // The observer's invalid write is not left for the next, unrelated commit to trip on.
        #expect(!graph.hasChanges && stock.quantity == 0 && stock.values == [1])
        #expect(failures.count == 1)
        stock.values = [2]
        #expect(throws: Never.self) { try graph.commit(author: "other") }
        withExtendedLifetime(breaker) {}
    }

    @Test func changesAsAnAsyncSequence() async throws {
        let (graph, _, _, milk, _, _) = try groceryGraph()
        let stream = graph.changes
        milk.quantity = 1
        let first = try graph.commit()
        milk.quantity = 2
        let second = try graph.commit()
        var iterator = stream.makeAsyncIterator()
        let a = await iterator.next()
        let b = await iterator.next()
        #expect(a == first && b == second)
    }

    @Test func readsInsideWithObservationTrackingFireOnChange() throws {
        let (graph, home, _, milk, _, _) = try groceryGraph()
        let fired = Counter()
        withObservationTracking {
            _ = milk.name
        } onChange: {
            fired.increment()
        }
        milk.quantity = 5
        #expect(fired.value == 0)
        milk.name = "Oat milk"
        #expect(fired.value == 1)

        // A relationship changed from the other side (inverse maintenance) fires too.
        let relationFired = Counter()
        withObservationTracking {
            _ = milk.location
        } onChange: {
            relationFired.increment()
        }
        home.items.remove(milk)
        #expect(relationFired.value == 1)

        // Rollback restores the name, which fires a tracked read again.
        let rollbackFired = Counter()
        withObservationTracking {
            _ = milk.name
        } onChange: {
            rollbackFired.increment()
        }
        graph.rollback()
        #expect(rollbackFired.value == 1)
        #expect(milk.name == "Milk")
    }
}
