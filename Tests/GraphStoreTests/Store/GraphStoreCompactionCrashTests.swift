import Foundation
@testable import GraphStore
import ObjectGraph
import Testing
import TestSupport

/// Power loss at every step of a compaction, and of the first commits after it.
@Suite("GraphStore: crashes during a compaction")
struct GraphStoreCompactionCrashTests {
    /// A store with committed edits, a compaction and more commits behind it, so that the
    /// journal holds records of its generation when the next compaction starts.
    static func preparedStore(seed: UInt64) throws -> (SimulatedFileSystem, GraphStore, StoreWorkload) {
        let fileSystem = SimulatedFileSystem()
        var workload = StoreWorkload(seed: seed)
        let store = try GraphStoreCrashTests.open(fileSystem)
        for step in 0..<12 {
            try workload.commitEdits(store.graph)
            if step == 5 { try store.compact() }
        }
        return (fileSystem, store, workload)
    }

    /// The generation in a file's header on the simulated disk, or `nil` without one.
    static func generation(of path: String, in fileSystem: SimulatedFileSystem) -> UInt64? {
        guard let bytes = try? fileSystem.readFile(path) else { return nil }
        return try? RecordFileHeader.decode(bytes.prefix(RecordFormat.fileHeaderSize), path: path).generation
    }

    /// Power is cut in place of each operation of a compaction (each write, sync, rename and
    /// directory sync), with every unsynced write applied, dropped, torn or garbled at
    /// random: the store reopens undamaged to the committed state, and a journal of the
    /// generation before is never replayed onto the new snapshot.
    @Test(arguments: testSeeds(count: 3))
    func powerLossAtEveryStepOfACompaction(seed: UInt64) throws {
        var crashPoints = 0
        for crashAfter in 0..<400 {
            let (fileSystem, store, _) = try Self.preparedStore(seed: seed)
            let committed = dump(store.graph)
            let before = Self.generation(of: GraphStoreCrashTests.path + "/snapshot", in: fileSystem)
            fileSystem.scheduleCrash(afterOperations: crashAfter, seed: seed &+ UInt64(crashAfter))
            do {
                try store.compact()
            } catch {}
            guard fileSystem.crashed else {
                store.close()
                break
            }
            crashPoints += 1
            store.close()
            let context = "seed \(seed), crash after \(crashAfter) operations of the compaction"
            let snapshotGeneration = Self.generation(of: GraphStoreCrashTests.path + "/snapshot", in: fileSystem)
            let reopened = try GraphStoreCrashTests.open(fileSystem)
            #expect(dump(reopened.graph) == committed, "\(context): \(reopened.openReport)\(difference(dump(reopened.graph), committed))")
            #expect(reopened.openReport.damage.isEmpty, "\(context): \(reopened.openReport)")
            if let snapshotGeneration, let before, snapshotGeneration > before {
                // The new snapshot holds every commit: nothing of the old journal is replayed.
                #expect(reopened.openReport.replayedCommits == 0, "\(context): \(reopened.openReport)")
            }
            reopened.close()
        }
        #expect(crashPoints > 5)
    }

    /// Power is cut at every operation of the first commits after a compaction: the store
    /// reopens to the last commit reported durable or the one in flight, never to the state
    /// before the compaction's commits nor to a damaged store.
    @Test(arguments: testSeeds(count: 3))
    func powerLossAtEveryStepOfTheCommitsAfterACompaction(seed: UInt64) throws {
        var crashPoints = 0
        for crashAfter in 0..<60 {
            var (fileSystem, store, workload) = try Self.preparedStore(seed: seed)
            try store.compact()
            var durable = dump(store.graph)
            var inFlight: [String]?
            fileSystem.scheduleCrash(afterOperations: crashAfter, seed: seed &+ UInt64(crashAfter))
            for _ in 0..<4 {
                for _ in 0..<3 { workload.edit(store.graph) }
                let attempted = dump(store.graph)
                do {
                    try store.graph.commit()
                    durable = attempted
                } catch {
                    inFlight = attempted
                    break
                }
                if fileSystem.crashed { break }
            }
            guard fileSystem.crashed else {
                store.close()
                break
            }
            crashPoints += 1
            store.close()
            let reopened = try GraphStoreCrashTests.open(fileSystem)
            let state = dump(reopened.graph)
            let context = "seed \(seed), crash after \(crashAfter) operations after the compaction"
            #expect(state == durable || state == inFlight, "\(context): \(reopened.openReport)\(difference(state, durable))")
            #expect(reopened.openReport.damage.isEmpty, "\(context): \(reopened.openReport)")
            reopened.close()
        }
        #expect(crashPoints > 3)
    }
}
