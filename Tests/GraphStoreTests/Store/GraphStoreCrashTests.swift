import Foundation
@testable import GraphStore
import ObjectGraph
import Testing
import TestSupport

/// Power loss, I/O errors and damage, through the simulated file system.
@Suite("GraphStore: crashes, I/O errors and damage")
struct GraphStoreCrashTests {
    static let path = "/store"

    /// Opens (or creates) the store on a simulated file system.
    static func open(
        _ fileSystem: SimulatedFileSystem, _ recovery: GraphStore.Recovery = .refuse,
        journalPreallocation: Int = GraphStore.defaultJournalPreallocation
    ) throws -> GraphStore {
        let store = try GraphStore.open(
            path: path, schema: storeSchema, options: GraphStore.Options(recovery: recovery, minimumCompactionBytes: 8 << 10),
            fileSystem: fileSystem)
        store.journalPreallocation = journalPreallocation
        return store
    }

    /// The journal's preallocations the crash tests run with: the default, whose zeros the
    /// commits overwrite, and a small one, smaller than nearly every record, so that nearly
    /// every commit writes zeros past its record as well.
    static let preallocations = [GraphStore.defaultJournalPreallocation, 32]

    /// The power-loss cases: every seed with each preallocation, synchronous, and two seeds
    /// with each preallocation under deferred durability.
    static let powerLossCases: [(seed: UInt64, preallocation: Int, deferred: Bool)] =
        testSeeds(count: 4).flatMap { seed in preallocations.map { (seed, $0, false) } }
        + testSeeds(count: 2).flatMap { seed in preallocations.map { (seed, $0, true) } }

    /// Power is cut at every operation of a seeded workload (commits, compactions every 25
    /// commits and, under deferred durability, a flush every four); after the reboot the store
    /// opens, reporting no damage, to the state of some commit between the last one made
    /// durable (reported durable, flushed or compacted) and the one in flight.
    @Test(arguments: powerLossCases)
    func powerLossAtEveryOperation(seed: UInt64, preallocation: Int, deferred: Bool) throws {
        let options = GraphStore.Options(
            durability: deferred ? .deferred(interval: .seconds(3_600)) : .synchronous, minimumCompactionBytes: 8 << 10)
        var crashPoints = 0
        for crashAfter in 0..<260 {
            let fileSystem = SimulatedFileSystem()
            var workload = StoreWorkload(seed: seed)
            let store = try GraphStore.open(path: Self.path, schema: storeSchema, options: options, fileSystem: fileSystem)
            store.journalPreallocation = preallocation
            // Every committed state since the last one made durable.
            var candidates = [dump(store.graph)]
            fileSystem.scheduleCrash(afterOperations: crashAfter, seed: seed &+ UInt64(crashAfter))
            commits: for step in 0..<90 {
                for _ in 0..<Int.random(in: 1...4, using: &workload.rng) { workload.edit(store.graph) }
                let attempted = dump(store.graph)
                do {
                    try store.graph.commit()
                    candidates = deferred ? candidates + [attempted] : [attempted]
                    if step % 25 == 24 {
                        try store.compact()
                        candidates = [attempted]
                    } else if deferred && step % 4 == 3 {
                        try store.flush()
                        candidates = [attempted]
                    }
                } catch {
                    candidates.append(attempted)
                    break commits
                }
                if fileSystem.crashed { break }
            }
            guard fileSystem.crashed else { break }
            crashPoints += 1
            store.close()
            let reopened = try GraphStore.open(path: Self.path, schema: storeSchema, options: options, fileSystem: fileSystem)
            let state = dump(reopened.graph)
            let context = "seed \(seed), preallocation \(preallocation), deferred \(deferred), crash after \(crashAfter) operations"
            #expect(candidates.contains(state), "\(context): \(reopened.openReport)\(difference(state, candidates.last))")
            #expect(reopened.openReport.damage.isEmpty, "\(context): \(reopened.openReport)")
            reopened.close()
        }
        #expect(crashPoints > (deferred ? 100 : 150), "seed \(seed), preallocation \(preallocation), deferred \(deferred)")
    }

    /// The n-th write, sync, rename or directory sync fails: the commit (or compaction)
    /// throws, the graph in memory keeps its pending changes, later commits are refused, and
    /// reopening gives the old or the new state.
    @Test(arguments: [SimulatedFileSystem.Operation.write, .sync, .rename, .syncDirectory], preallocations)
    func injectedErrors(operation: SimulatedFileSystem.Operation, preallocation: Int) throws {
        for occurrence in 1...12 {
            let fileSystem = SimulatedFileSystem()
            var workload = StoreWorkload(seed: UInt64(occurrence))
            let store = try Self.open(fileSystem, journalPreallocation: preallocation)
            fileSystem.injectFailure(operation, atOccurrence: occurrence)
            var durable = dump(store.graph)
            var failedWith: [String]?
            for step in 0..<40 {
                for _ in 0..<2 { workload.edit(store.graph) }
                let attempted = dump(store.graph)
                do {
                    try store.graph.commit()
                    durable = attempted
                    if step % 5 == 4 { try store.compact() }
                } catch let error as CommitError {
                    // Memory is exactly as before the call: every change still pending.
                    #expect(store.graph.hasChanges)
                    #expect(dump(store.graph) == attempted)
                    guard case .persistenceFailed = error else {
                        Issue.record("\(operation) #\(occurrence): \(error)")
                        break
                    }
                    failedWith = attempted
                    // No later commit is reported durable.
                    #expect(throws: CommitError.self) { try store.graph.commit() }
                    break
                } catch {
                    // A compaction failed: the store goes on, or refuses every later commit.
                    failedWith = nil
                    do {
                        workload.edit(store.graph)
                        let next = dump(store.graph)
                        try store.graph.commit()
                        durable = next
                    } catch {}
                    break
                }
            }
            store.close()
            fileSystem.simulatePowerLoss(seed: UInt64(occurrence))
            let reopened = try Self.open(fileSystem)
            let state = dump(reopened.graph)
            #expect(state == durable || state == failedWith, "\(operation) #\(occurrence), preallocation \(preallocation): \(reopened.openReport)\(difference(state, durable))\(difference(state, failedWith))")
            reopened.close()
        }
    }

    /// A committed store, its true state, and the states before each of its last commits.
    static func committedStore(seed: UInt64) throws -> (SimulatedFileSystem, [[String]]) {
        let fileSystem = SimulatedFileSystem()
        var workload = StoreWorkload(seed: seed)
        let store = try open(fileSystem)
        var states = [dump(store.graph)]
        for step in 0..<50 {
            try workload.commitEdits(store.graph)
            states.append(dump(store.graph))
            if step == 20 { try store.compact() }
        }
        store.close()
        return (fileSystem, states)
    }

    /// Random byte damage in the snapshot or the journal is always detected: `.refuse` throws
    /// or, when only the last record was hit (indistinguishable from a torn write), opens to
    /// the state before it and says so; `.salvage` opens a consistent graph and reports the
    /// loss. Nothing opens silently to a state that was never committed.
    @Test(arguments: testSeeds(count: 4))
    func randomDamageIsDetected(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        var detected = 0
        for trial in 0..<120 {
            let (fileSystem, states) = try Self.committedStore(seed: seed &+ UInt64(trial % 4))
            let file = Bool.random(using: &rng) ? "/store/snapshot" : "/store/journal"
            let bytes = try fileSystem.readFile(file)
            // Bytes of records: the journal's preallocated zeros after them hold no data
            // (damage there is a torn tail, tested with the reader).
            let dataEnd = file.hasSuffix("journal") ? Int(try RecordScan(bytes: bytes, path: file).validEnd) : bytes.count
            #expect(file.hasSuffix("snapshot") || dataEnd < bytes.count, "\(file) has no preallocated zeros")
            let offset = Int.random(in: 0..<dataEnd, using: &rng)
            var damaged = bytes[offset]
            while damaged == bytes[offset] { damaged = UInt8.random(in: 0...255, using: &rng) }
            fileSystem.corrupt(file, at: offset, with: [damaged])
            let context = "seed \(seed), trial \(trial): byte \(offset) of \(file)"
            do {
                let store = try Self.open(fileSystem, .refuse)
                let state = dump(store.graph)
                if state == states.last! {
                    // The byte was not read (a block's padding) or the damage was repaired
                    // by nothing: the state is still the committed one.
                } else {
                    #expect(state == states[states.count - 2] && store.openReport.tornTailBytes > 0, "\(context): \(store.openReport)")
                }
                store.close()
            } catch {
                detected += 1
                // Salvage opens what is intact and says what was lost.
                if let store = try? Self.open(fileSystem, .salvage) {
                    #expect(!store.openReport.isClean || store.openReport.tornTailBytes > 0 || dump(store.graph) == states.last!, "\(context)")
                    store.close()
                }
            }
        }
        #expect(detected > 30)
    }
}

/// Errors name the files a person finds in the store's directory.
@Suite("GraphStore: error messages")
struct GraphStoreErrorMessageTests {
    /// After a compaction, a failed journal write names `journal`, the file's name since the
    /// compaction renamed it into place, not the temporary name it was written under.
    @Test func aFailedWriteAfterACompactionNamesTheJournal() throws {
        let fileSystem = SimulatedFileSystem()
        var workload = StoreWorkload(seed: 7)
        let store = try GraphStoreCrashTests.open(fileSystem)
        try workload.commitEdits(store.graph)
        try store.compact()
        fileSystem.injectFailure(.write, atOccurrence: 1)
        do {
            try workload.commitEdits(store.graph)
            Issue.record("the injected write failure did not reach the commit")
        } catch {
            let message = "\(error)"
            #expect(message.contains("\(GraphStoreCrashTests.path)/journal"), "\(message)")
            #expect(!message.contains("journal.tmp"), "\(message)")
        }
        store.close()
    }
}
