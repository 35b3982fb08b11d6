import Foundation
@testable import GraphStore
import ObjectGraph
import Testing
import TestSupport

@Suite("GraphStore: a graph kept on disk")
struct GraphStoreTests {
    @Test("A new directory starts empty; what was committed is there after a reopen, IDs and URIs included")
    func roundTrip() throws {
        let directory = TemporaryDirectory()
        var workload = StoreWorkload(seed: 7)
        let expected: [String]
        let identifier: UUID
        let uris: [String]
        do {
            let store = try GraphStore.open(at: directory.url, schema: storeSchema)
            #expect(store.openReport.created)
            #expect(store.graph.objects(of: Product.self).isEmpty)
            for _ in 0..<200 { try workload.commitEdits(store.graph) }
            expected = dump(store.graph)
            identifier = store.graph.identifier
            uris = store.graph.objects(of: Product.self).map(\.objectID.uriRepresentation)
            store.close()
        }
        let store = try GraphStore.open(at: directory.url, schema: storeSchema)
        defer { store.close() }
        #expect(store.openReport.isClean, "\(store.openReport)")
        #expect(store.openReport.replayedCommits > 0)
        #expect(store.graph.identifier == identifier)
        #expect(dump(store.graph) == expected)
        for uri in uris {
            let id = try #require(store.graph.objectID(forURIRepresentation: uri), "\(uri)")
            #expect(store.graph.object(with: id) != nil)
        }
        // New objects never reuse a serial, even of an object deleted before the reopen.
        let before = store.graph.serialCount(of: Product.entity)
        let product = store.graph.insert(Product())
        try store.graph.commit()
        #expect(product.objectID.serialNumber == before)
    }

    @Test("Randomized graphs survive compaction and reopening, at every step", arguments: testSeeds(count: 6))
    func randomizedRoundTrips(seed: UInt64) throws {
        let directory = TemporaryDirectory()
        var workload = StoreWorkload(seed: seed)
        var expected: [String]?
        for round in 0..<4 {
            let store = try GraphStore.open(at: directory.url, schema: storeSchema)
            if let expected { #expect(dump(store.graph) == expected, "seed \(seed), round \(round): reopen\(difference(dump(store.graph), expected))") }
            #expect(store.openReport.isClean, "seed \(seed), round \(round): \(store.openReport)")
            for step in 0..<60 {
                try workload.commitEdits(store.graph)
                if step == 30 && round % 2 == 1 { try store.compact() }
            }
            expected = dump(store.graph)
            store.close()
        }
        let report = try GraphStore.verify(at: directory.url, schema: storeSchema)
        #expect(report.isClean, "seed \(seed): \(report)")
    }

    @Test("A second open of the same directory is refused while the first is open")
    func lock() throws {
        let directory = TemporaryDirectory()
        let store = try GraphStore.open(at: directory.url, schema: storeSchema)
        #expect {
            _ = try GraphStore.open(at: directory.url, schema: storeSchema)
        } throws: { error in
            guard case GraphStoreError.locked = error else { return false }
            return true
        }
        store.close()
        let again = try GraphStore.open(at: directory.url, schema: storeSchema)
        again.close()
    }

    @Test("A closed store's graph refuses commits instead of losing them")
    func closedStoreRefusesCommits() throws {
        let directory = TemporaryDirectory()
        let store = try GraphStore.open(at: directory.url, schema: storeSchema)
        let graph = store.graph
        store.close()
        graph.insert(Shelf()).name = "late"
        #expect(throws: CommitError.self) { try graph.commit() }
        #expect(graph.hasChanges)
    }

    @Test("An attribute the store cannot save is an error naming it")
    func unsupportedAttribute() {
        struct Opaque {}
        final class Odd: GraphObject {
            @Attribute var range: Opaque? = nil
        }
        #expect {
            _ = try StoreSchema([Odd.self])
        } throws: { error in
            guard case GraphStoreError.unsupportedAttribute(let entity, let property, _) = error else { return false }
            return entity == "Odd" && property == "range"
        }
    }

    @Test("Compacting with uncommitted changes throws and writes nothing of them")
    func compactingWithUncommittedChanges() throws {
        let directory = TemporaryDirectory()
        do {
            let store = try GraphStore.open(at: directory.url, schema: storeSchema)
            defer { store.close() }
            let kept = store.graph.insert(Product())
            kept.name = "kept"
            try store.graph.commit()
            kept.name = "renamed, never committed"
            let stray = store.graph.insert(Product())
            stray.name = "inserted, never committed"
            #expect {
                try store.compact()
            } throws: { error in
                guard case GraphStoreError.pendingChanges = error else { return false }
                return error.localizedDescription.contains("uncommitted changes")
            }
            #expect(store.graph.hasChanges && kept.name == "renamed, never committed")
            store.graph.rollback()
            try store.compact()
        }
        let reopened = try GraphStore.open(at: directory.url, schema: storeSchema)
        defer { reopened.close() }
        #expect(reopened.graph.objects(of: Product.self).map(\.name) == ["kept"])
    }

    @Test("The journal is compacted automatically once it outgrows the snapshot")
    func automaticCompaction() throws {
        let directory = TemporaryDirectory()
        let options = GraphStore.Options(compactionFactor: 2, minimumCompactionBytes: 16 << 10)
        var workload = StoreWorkload(seed: 3)
        let store = try GraphStore.open(at: directory.url, schema: storeSchema, options: options)
        // The journal's records (its file also holds zeros ahead of them): each compaction
        // starts them again.
        var largest: UInt64 = 0
        var compactions = 0
        var previous = try #require(store.journalEnd)
        for _ in 0..<300 {
            try workload.commitEdits(store.graph)
            let end = try #require(store.journalEnd)
            if end < previous { compactions += 1 }
            largest = max(largest, end)
            previous = end
        }
        let expected = dump(store.graph)
        store.close()
        #expect(compactions >= 2, "the journal was compacted \(compactions) times")
        #expect(largest < 24 << 10, "the journal's records reached \(largest) bytes")
        let reopened = try GraphStore.open(at: directory.url, schema: storeSchema)
        defer { reopened.close() }
        #expect(dump(reopened.graph) == expected)
    }

    @Test("A compaction's replaced snapshot and journal are closed on another thread, none left open")
    func replacedFilesAreClosed() throws {
        let directory = TemporaryDirectory()
        var workload = StoreWorkload(seed: 11)
        let store = try GraphStore.open(at: directory.url, schema: storeSchema, options: GraphStore.Options(compactionFactor: nil))
        defer { store.close() }
        for round in 0..<6 {
            for _ in 0..<40 { try workload.commitEdits(store.graph) }
            try store.compact()
            store.waitForReleasedFiles()
            // Every descriptor of the store's directory names a file that is still there:
            // the files the compactions replaced, held open through their renames, are
            // closed (their blocks freed), none leaked.
            let replaced = Self.openFiles(under: directory.url.path).filter { $0.hasSuffix(" (deleted)") }
            #expect(replaced.isEmpty, "round \(round): still open: \(replaced)")
            #expect(Self.openFiles(under: directory.url.path).contains(directory.url.path + "/journal"))
        }
        let expected = dump(store.graph)
        store.close()
        let reopened = try GraphStore.open(at: directory.url, schema: storeSchema)
        defer { reopened.close() }
        #expect(dump(reopened.graph) == expected)
    }

    @Test("A commit that would leave more serials unused than a store keeps throws, keeps its changes and writes nothing")
    func unusedSerialLimit() throws {
        let directory = TemporaryDirectory()
        let store = try GraphStore.open(at: directory.url, schema: storeSchema, options: GraphStore.Options(compactionFactor: nil))
        store.unusedSerialLimit = 50
        let products = (0..<60).map { index in
            let product = store.graph.insert(Product())
            product.name = "p\(index)"
            return product
        }
        try store.graph.commit()
        // 40 deleted: 40 serials unused, within the limit.
        for product in products.prefix(40) { store.graph.delete(product) }
        try store.graph.commit()
        let committed = dump(store.graph)
        let journal = directory.url.appendingPathComponent("journal")
        let journalBytes = try Data(contentsOf: journal)
        let journalEnd = store.journalEnd
        // Eleven more would make 51.
        for product in products.dropFirst(40).prefix(11) { store.graph.delete(product) }
        #expect {
            try store.graph.commit()
        } throws: { error in
            guard case CommitError.persistenceFailed(let cause) = error,
                  case GraphStoreError.tooManyUnusedSerials(entity: "Product", unused: 51)? = cause as? GraphStoreError
            else { return false }
            return true
        }
        #expect(store.graph.hasChanges, "the deletions are still pending")
        #expect(try Data(contentsOf: journal) == journalBytes && store.journalEnd == journalEnd)
        // Ten fit; the store goes on.
        store.graph.rollback()
        #expect(dump(store.graph) == committed)
        for product in products.dropFirst(40).prefix(10) { store.graph.delete(product) }
        try store.graph.commit()
        let expected = dump(store.graph)
        store.close()
        let reopened = try GraphStore.open(at: directory.url, schema: storeSchema)
        defer { reopened.close() }
        #expect(dump(reopened.graph) == expected)
        #expect(reopened.graph.objects(of: Product.self).count == 10)
    }

    /// The targets of this process's open descriptors under `directory` (`/proc/self/fd`),
    /// a replaced file's ending in " (deleted)".
    private static func openFiles(under directory: String) -> [String] {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.compactMap { descriptor in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + descriptor),
                  target.hasPrefix(directory + "/") else { return nil }
            return target
        }
    }
}
