import ObjectGraph
import Testing

/// A value whose release a test can watch.
private final class Payload: Sendable {}

private final class Box: GraphObject {
    @Attribute var name = ""
    @Attribute var payload: Payload? = nil
}

@Suite("Imports: progress, cancellation and the batch's release")
struct ImportProgressTests {
    static func batch(items count: Int) -> GraphBatch {
        var batch = GraphBatch()
        let home = batch.insert(Location.self, values: ["name": "home"])
        for index in 0..<count {
            batch.insert(Item.self, values: ["name": "item \(index)", "quantity": index], relationships: ["location": [home]])
        }
        return batch
    }

    @Test func progressCountsEachOperationTwiceAndEndsComplete() throws {
        let graph = ObjectGraph()
        var reports: [ImportProgress] = []
        let changes = try #require(try graph.apply(Self.batch(items: 10_000), author: "import") { reports.append($0) })
        #expect(changes.inserted.count == 10_001 && changes.author == "import")
        let total = 2 * 10_001
        #expect(reports.allSatisfy { $0.phase == .applying && $0.totalUnitCount == total })
        #expect(reports.first?.completedUnitCount == 0)
        #expect(reports.last?.completedUnitCount == total && reports.last?.fractionCompleted == 1)
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.completedUnitCount < $1.completedUnitCount })
        #expect(reports.count >= 5 && reports.count <= total / 4_096 + 3)
        #expect(reports[1].description == "applying 4096/\(total)")
    }

    struct Stop: Error {}

    @Test(arguments: [0, 2, 4])
    func cancellingLeavesTheGraphAsItWas(at report: Int) throws {
        let (graph, home, _, milk, _, _) = try groceryGraph()
        let items = graph.objects(of: Item.self).map(\.name)
        var deliveries = 0
        let token = graph.addObserver { _ in deliveries += 1 }
        var batch = Self.batch(items: 10_000)
        batch.update(milk.objectID, values: ["name": "Oat milk"], relationships: ["location": [.existing(home.objectID)]])
        var seen = 0
        do {
            try graph.apply(batch) { _ in
                defer { seen += 1 }
                if seen == report { throw Stop() }
            }
            Issue.record("not cancelled")
        } catch .cancelled(let error) {
            #expect(error is Stop)
        } catch {
            Issue.record("\(error)")
        }
        #expect(!graph.hasChanges && deliveries == 0)
        #expect(graph.objects(of: Item.self).map(\.name) == items && milk.name == "Milk")
        #expect(graph.count(of: Location.self) == 2)
        withExtendedLifetime(token) {}
    }

    /// Values a batch gives an object and later replaces are released during the import, not
    /// at its end: the batch's operations are let go as they are applied.
    @Test func theBatchIsReleasedAsItIsApplied() throws {
        let graph = ObjectGraph()
        let box = graph.insert(Box())
        try graph.commit()
        weak var replaced: Payload?
        func makeBatch() -> GraphBatch {
            var batch = GraphBatch()
            let first = Payload()
            replaced = first
            batch.update(box.objectID, values: ["payload": first as Payload?])
            batch.update(box.objectID, values: ["payload": Payload() as Payload?])
            for index in 0..<10_000 { batch.insert(Box.self, values: ["name": "box \(index)"]) }
            return batch
        }
        var releasedDuringImport = false
        try graph.apply(makeBatch()) { progress in
            if progress.completedUnitCount == progress.totalUnitCount { releasedDuringImport = replaced == nil }
        }
        #expect(releasedDuringImport)
        #expect(box.payload != nil && replaced == nil)
    }
}
