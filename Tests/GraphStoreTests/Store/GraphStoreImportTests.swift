import Foundation
@testable import GraphStore
import ObjectGraph
import Testing
import TestSupport

/// Imports: a `GraphBatch` applied to a stored graph is one streamed record, whole or absent
/// after any failure, with progress and cancellation.
@Suite("GraphStore: imports")
struct GraphStoreImportTests {
    static let path = "/store"

    static func open(_ fileSystem: SimulatedFileSystem, chunkSize: Int = 4 << 10) throws -> GraphStore {
        let store = try GraphStore.open(
            path: path, schema: storeSchema, options: GraphStore.Options(compactionFactor: nil), fileSystem: fileSystem)
        store.journalChunkSize = chunkSize
        return store
    }

    /// A batch of `count` products spread over shelves and tags, with songs in playlists:
    /// every relationship kind, objects referring to objects inserted by the same batch.
    static func batch(products count: Int, seed: UInt64 = 1) -> GraphBatch {
        var rng = SeededGenerator(seed: seed)
        var batch = GraphBatch()
        let shelves = (0..<20).map { batch.insert(Shelf.self, values: ["name": "shelf \($0)"]) }
        let tags = (0..<5).map { batch.insert(Tag.self, values: ["label": "tag \($0)"]) }
        for index in 0..<count {
            batch.insert(
                Product.self,
                values: [
                    "name": "product \(index)", "count": Int.random(in: -1_000...1_000, using: &rng),
                    "price": Double(index) / 4, "flag": index % 3 == 0, "note": index % 2 == 0 ? "even" : nil as String?,
                ],
                relationships: ["shelf": [shelves[index % shelves.count]], "tags": index % 4 == 0 ? [tags[index % tags.count]] : []])
        }
        for list in 0..<3 {
            let songs = (0..<7).map { batch.insert(Song.self, values: ["title": "song \(list).\($0)"]) }
            batch.insert(Playlist.self, values: ["title": "list \(list)"], relationships: ["songs": songs.reversed()])
        }
        return batch
    }

    @Test("A large import is one record, written in bounded chunks, and reads back equal")
    func largeImportRoundTrips() throws {
        let directory = TemporaryDirectory()
        let expected: [String]
        let recordsBefore: Int
        do {
            let store = try GraphStore.open(at: directory.url, schema: storeSchema, options: GraphStore.Options(compactionFactor: nil))
            try store.graph.commit()
            let journal = directory.url.path + "/journal"
            recordsBefore = try RecordScan(bytes: PosixFileSystem().readFile(journal), path: journal).records.count
            let changes = try #require(try store.graph.apply(Self.batch(products: 50_000)))
            #expect(changes.inserted.count == 50_000 + 20 + 5 + 3 * 8)
            expected = dump(store.graph)
            let scan = try RecordScan(bytes: PosixFileSystem().readFile(journal), path: journal)
            // One record more: the whole import, several MiB, in one logical record.
            #expect(scan.records.count == recordsBefore + 1)
            #expect(try #require(scan.records.last).payload.count > 2 * RecordWriter.defaultChunkSize)
            store.close()
        }
        let store = try GraphStore.open(at: directory.url, schema: storeSchema)
        defer { store.close() }
        #expect(store.openReport.isClean && store.openReport.replayedCommits == 1, "\(store.openReport)")
        #expect(dump(store.graph) == expected)
    }

    @Test("A large commit is written in several writes, none larger than about a chunk")
    func largeCommitIsStreamed() throws {
        let fileSystem = SimulatedFileSystem()
        let store = try Self.open(fileSystem, chunkSize: 16 << 10)
        defer { store.close() }
        // Only the record's writes (the writer's tests cover the zeros written after it).
        store.journalPreallocation = 0
        let writesBefore = fileSystem.count(of: .write)
        let sizeBefore = try fileSystem.fileSize(Self.path + "/journal")
        try store.graph.apply(Self.batch(products: 20_000))
        let written = try fileSystem.fileSize(Self.path + "/journal") - sizeBefore
        let writes = fileSystem.count(of: .write) - writesBefore
        // Each write but the last carries at least a chunk and at most a chunk and a block.
        #expect(writes > 1)
        #expect(UInt64(writes - 1) * UInt64(16 << 10) <= written)
        #expect(written <= UInt64(writes) * UInt64((16 << 10) + RecordFormat.blockSize))
    }

    @Test("Progress covers applying and writing, in order, ending complete")
    func progressIsReported() throws {
        let fileSystem = SimulatedFileSystem()
        let store = try Self.open(fileSystem)
        defer { store.close() }
        var reports: [ImportProgress] = []
        let batch = Self.batch(products: 30_000)
        let operations = batch.count
        try store.graph.apply(batch, author: "import") { reports.append($0) }
        let applying = reports.filter { $0.phase == .applying }
        let writing = reports.filter { $0.phase == .writing }
        #expect(reports.first == ImportProgress(phase: .applying, completedUnitCount: 0, totalUnitCount: 2 * operations))
        #expect(applying.last == ImportProgress(phase: .applying, completedUnitCount: 2 * operations, totalUnitCount: 2 * operations))
        #expect(reports.firstIndex { $0.phase == .writing } == applying.count)
        #expect(writing.first?.completedUnitCount == 0)
        #expect(writing.last.map { $0.completedUnitCount == $0.totalUnitCount && $0.totalUnitCount > 60_000 } == true)
        for phase in [applying, writing] {
            #expect(zip(phase, phase.dropFirst()).allSatisfy { $0.completedUnitCount < $1.completedUnitCount })
            // A few hundred reports at most, however many units.
            #expect(phase.count > 5 && phase.count <= phase[0].totalUnitCount / 4_096 + 3)
        }
        // Without a store there is no writing phase.
        var inMemory: [ImportProgress.Phase] = []
        try ObjectGraph().apply(Self.batch(products: 10)) { inMemory.append($0.phase) }
        #expect(Set(inMemory) == [.applying])
    }

    struct Stop: Error {}

    /// Cancelling at the n-th report of a phase: the import throws `.cancelled`, the graph and
    /// the journal's bytes are as before, and the store goes on taking commits.
    @Test(arguments: [(ImportProgress.Phase.applying, 3), (.writing, 1), (.writing, 6), (.writing, 100)])
    func cancellation(phase: ImportProgress.Phase, at report: Int) throws {
        let fileSystem = SimulatedFileSystem()
        let store = try Self.open(fileSystem)
        var workload = StoreWorkload(seed: 5)
        for _ in 0..<5 { try workload.commitEdits(store.graph) }
        let before = dump(store.graph)
        let journalBefore = try fileSystem.readFile(Self.path + "/journal")
        var seen = 0
        var lastSeen: ImportProgress?
        do {
            try store.graph.apply(Self.batch(products: 30_000)) { progress in
                lastSeen = progress
                guard progress.phase == phase else { return }
                seen += 1
                if seen == report || progress.completedUnitCount == progress.totalUnitCount { throw Stop() }
            }
            Issue.record("the import was not cancelled")
        } catch .cancelled(let error) {
            #expect(error is Stop)
        } catch {
            Issue.record("\(error)")
        }
        #expect(lastSeen?.phase == phase)
        #expect(!store.graph.hasChanges)
        #expect(dump(store.graph) == before)
        #expect(try fileSystem.readFile(Self.path + "/journal") == journalBefore)
        // The store still works, and what it has is what was committed.
        try workload.commitEdits(store.graph)
        let after = dump(store.graph)
        store.close()
        fileSystem.simulatePowerLoss(seed: 9)
        let reopened = try Self.open(fileSystem)
        defer { reopened.close() }
        #expect(reopened.openReport.isClean, "\(reopened.openReport)")
        #expect(dump(reopened.graph) == after)
    }

    /// The n-th write of a streamed import fails: the import throws `.persistenceFailed`,
    /// memory is as before, the store refuses later commits, and reopening drops the torn
    /// record whole.
    @Test(arguments: [1, 2, 5, 17])
    func failedWriteInTheMiddleOfAnImport(occurrence: Int) throws {
        let fileSystem = SimulatedFileSystem()
        let store = try Self.open(fileSystem)
        var workload = StoreWorkload(seed: UInt64(occurrence))
        for _ in 0..<5 { try workload.commitEdits(store.graph) }
        let before = dump(store.graph)
        fileSystem.injectFailure(.write, atOccurrence: occurrence)
        do {
            try store.graph.apply(Self.batch(products: 20_000))
            Issue.record("write #\(occurrence) failed, yet the import did not throw")
        } catch .persistenceFailed {
        } catch {
            Issue.record("\(error)")
        }
        #expect(!store.graph.hasChanges)
        #expect(dump(store.graph) == before)
        store.graph.insert(Shelf()).name = "after the failure"
        #expect(throws: CommitError.self) { try store.graph.commit() }
        store.graph.rollback()
        store.close()
        let reopened = try Self.open(fileSystem)
        defer { reopened.close() }
        #expect(dump(reopened.graph) == before)
        #expect(reopened.openReport.damage.isEmpty, "\(reopened.openReport)")
        #expect(occurrence == 1 || reopened.openReport.tornTailBytes > 0, "\(reopened.openReport)")
    }

    @Test("A plain commit whose streamed record fails keeps its pending changes")
    func failedWriteOfALargeCommitKeepsPendingChanges() throws {
        let fileSystem = SimulatedFileSystem()
        let store = try Self.open(fileSystem)
        defer { store.close() }
        var workload = StoreWorkload(seed: 3)
        for _ in 0..<3_000 { _ = workload.randomProduct(store.graph) }
        let attempted = dump(store.graph)
        fileSystem.injectFailure(.write, atOccurrence: 4)
        #expect(throws: CommitError.self) { try store.graph.commit() }
        #expect(store.graph.hasChanges)
        #expect(dump(store.graph) == attempted)
        #expect(fileSystem.count(of: .write) >= 4)
    }

    /// Power is cut at every operation of a streamed import (each write of its record, then
    /// its sync), with unsynced writes applied, dropped, torn or garbled at random: the store
    /// reopens to the state before the import or after it, never to a part of it.
    @Test(arguments: testSeeds(count: 3))
    func powerLossInTheMiddleOfAnImport(seed: UInt64) throws {
        // The states before and after, from a graph without a store (same serials).
        let reference = ObjectGraph()
        try reference.apply(Self.batch(products: 10, seed: 99))
        let before = dump(reference)
        try reference.apply(Self.batch(products: 3_000, seed: seed))
        let after = dump(reference)
        var crashPoints = 0
        var imported = 0
        for crashAfter in 0..<200 {
            let fileSystem = SimulatedFileSystem()
            let store = try Self.open(fileSystem)
            try store.graph.apply(Self.batch(products: 10, seed: 99))
            fileSystem.scheduleCrash(afterOperations: crashAfter, seed: seed &+ UInt64(crashAfter))
            do {
                try store.graph.apply(Self.batch(products: 3_000, seed: seed))
                #expect(dump(store.graph) == after)
            } catch {
                #expect(dump(store.graph) == before)
            }
            guard fileSystem.crashed else {
                store.close()
                break
            }
            crashPoints += 1
            store.close()
            let reopened = try Self.open(fileSystem)
            let state = dump(reopened.graph)
            let context = "seed \(seed), crash after \(crashAfter) operations: \(reopened.openReport)"
            if state == after { imported += 1 }
            #expect(state == before || state == after, "\(context)\(difference(state, before))")
            #expect(reopened.openReport.damage.isEmpty, "\(context)")
            reopened.close()
        }
        // 3,000 products make a record of about ten writes (a write carries at least a
        // chunk, and whole fragments: up to a block), then a sync; a crash in place of the
        // sync may keep every write.
        #expect(crashPoints >= 10)
        #expect(imported <= 1)
    }
}
