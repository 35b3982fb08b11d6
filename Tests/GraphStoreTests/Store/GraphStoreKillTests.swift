import Foundation
@testable import GraphStore
import ObjectGraph
import Testing
import TestSupport

/// The number of commits a store has taken, kept in the store itself.
final class CommitCounter: GraphObject {
    @Attribute var commits = 0
}

private let killSchema = try! StoreSchema([Shelf.self, Product.self, Tag.self, Playlist.self, Song.self, CommitCounter.self])
private let childDirectoryVariable = "FRK_STORE_KILL_CHILD"

@Suite("GraphStore: a real process killed with SIGKILL")
struct GraphStoreKillTests {
    /// The child: commits on a real store until it is killed, printing the counter after
    /// each commit has returned (is durable). Runs only when the parent starts it.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childDirectoryVariable] != nil))
    func childWritesUntilKilled() throws {
        let path = try #require(ProcessInfo.processInfo.environment[childDirectoryVariable])
        let options = GraphStore.Options(compactionFactor: 2, minimumCompactionBytes: 32 << 10)
        let store = try GraphStore.open(at: URL(fileURLWithPath: path), schema: killSchema, options: options)
        let graph = store.graph
        let counter = graph.objects(of: CommitCounter.self).first ?? graph.insert(CommitCounter())
        var workload = StoreWorkload(seed: UInt64(counter.commits) &+ 17)
        while true {
            for _ in 0..<Int.random(in: 1...4, using: &workload.rng) { workload.edit(graph) }
            counter.commits += 1
            try graph.commit()
            FileHandle.standardOutput.write(Data("durable \(counter.commits)\n".utf8))
        }
    }

    /// The parent: starts the child dozens of times on one directory, kills it at a random
    /// moment, and checks that the store opens to a committed state no older than the last
    /// one the child reported durable.
    @Test func killedAtRandomMoments() throws {
        guard ProcessInfo.processInfo.environment[childDirectoryVariable] == nil else { return }
        let executable = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        let directory = TemporaryDirectory()
        var rng = SeededGenerator(seed: 0x5EED)
        var lastReported = 0
        var kills = 0
        for run in 0..<30 {
            let process = Process()
            process.executableURL = executable
            process.arguments = ["--testing-library", "swift-testing", "--filter", "childWritesUntilKilled"]
            var environment = ProcessInfo.processInfo.environment
            environment[childDirectoryVariable] = directory.url.path
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Wait until the child has committed at least once, then a random moment more.
            let deadline = Date().addingTimeInterval(30)
            var text = ""
            while !text.contains("durable") && Date() < deadline && process.isRunning {
                let chunk = output.fileHandleForReading.availableData
                text += String(decoding: chunk, as: UTF8.self)
            }
            usleep(UInt32.random(in: 1_000...60_000, using: &rng))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            text += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            if process.terminationReason == .uncaughtSignal { kills += 1 }
            let reported = text.split(separator: "\n").compactMap { line in
                line.hasPrefix("durable ") ? Int(line.dropFirst("durable ".count)) : nil
            }.last ?? lastReported
            #expect(reported >= lastReported, "run \(run): the child reported fewer commits than before")

            let store = try GraphStore.open(at: directory.url, schema: killSchema)
            let commits = store.graph.objects(of: CommitCounter.self).first?.commits ?? 0
            #expect(commits == reported || commits == reported + 1, "run \(run): reported \(reported), reopened with \(commits): \(store.openReport)")
            #expect(store.openReport.damage.isEmpty, "run \(run): \(store.openReport)")
            store.close()
            lastReported = commits
        }
        #expect(kills >= 25, "the child was killed \(kills) times")
        let report = try GraphStore.verify(at: directory.url, schema: killSchema)
        #expect(report.isClean, "\(report)")
    }
}
