import Foundation
@testable import GraphStore
import ObjectGraph
import Testing
import TestSupport

/// Power loss under the protocol of stores shared by processes, through the simulated file
/// system: two stores on one directory take turns, each catching up on the other's commits,
/// and both compact.
@Suite("GraphStore: power loss with two stores sharing a directory")
struct GraphStoreSharingCrashTests {
    static let path = "/store"

    static let options = GraphStore.Options(compactionFactor: 2, minimumCompactionBytes: 8 << 10, sharing: .shared)

    /// Power is cut at every operation of a seeded workload in which two stores commit in
    /// turns (each reads the other's commits first), either compacts now and then, and the
    /// other follows; after the reboot a fresh store opens, reporting no damage, to the state
    /// of the last commit either store was told is durable, or of the one in flight.
    @Test(arguments: testSeeds(count: 2), GraphStoreCrashTests.preallocations)
    func powerLossAtEveryOperation(seed: UInt64, preallocation: Int) throws {
        var crashPoints = 0
        for crashAfter in 0..<220 {
            let fileSystem = SimulatedFileSystem()
            var rng = SeededGenerator(seed: seed)
            var workloads = [StoreWorkload(seed: seed), StoreWorkload(seed: seed &+ 1)]
            let stores = try (0..<2).map { _ in
                let store = try GraphStore.open(path: Self.path, schema: storeSchema, options: Self.options, fileSystem: fileSystem)
                store.journalPreallocation = preallocation
                return store
            }
            var candidates = [dump(stores[0].graph)]
            fileSystem.scheduleCrash(afterOperations: crashAfter, seed: seed &+ UInt64(crashAfter))
            steps: for step in 0..<80 {
                let which = Int.random(in: 0..<2, using: &rng)
                let store = stores[which]
                do {
                    // Caught up first, so that what the commit makes is what is pending now.
                    try store.refresh()
                    for _ in 0..<Int.random(in: 1...3, using: &rng) { workloads[which].edit(store.graph) }
                    let attempted = dump(store.graph)
                    do {
                        if try store.graph.commit() != nil { candidates = [attempted] }
                    } catch {
                        candidates.append(attempted)
                        break steps
                    }
                    if step % 20 == 19 { try store.compact() }
                } catch {
                    break steps
                }
                if fileSystem.crashed { break }
            }
            guard fileSystem.crashed else { break }
            crashPoints += 1
            for store in stores { store.close() }
            let reopened = try GraphStore.open(path: Self.path, schema: storeSchema, options: Self.options, fileSystem: fileSystem)
            let context = "seed \(seed), preallocation \(preallocation), crash after \(crashAfter) operations"
            #expect(candidates.contains(dump(reopened.graph)), "\(context): \(reopened.openReport)")
            #expect(reopened.openReport.damage.isEmpty, "\(context): \(reopened.openReport)")
            reopened.close()
        }
        #expect(crashPoints > 120, "seed \(seed), preallocation \(preallocation): \(crashPoints) crash points")
    }
}
