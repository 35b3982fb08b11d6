import Foundation
import GraphStore
import ObjectGraph

#if canImport(Glibc)
    import Glibc
#endif

// Stores shared by processes (the store group's rows for `Sharing.shared`): how long another
// process takes to hear of a commit, what readers attached cost a writer, and how fast a store
// applies the commits others made. Reader processes are this executable started again with
// `--follow-store DIR`: they follow as an app does (inotify wakes them, `refresh()` applies)
// and print when their observer hears of each commit.

/// The schema of the graph group's model.
private let sharedSchema: StoreSchema = {
    do {
        return try StoreSchema([BenchItem.self, BenchLocation.self])
    } catch {
        preconditionFailure("the benchmark model cannot be stored: \(error)")
    }
}()

/// Items in the stores the rows share: a hundred thousand (a reader process loads its own
/// copy), or `FRK_STORE_OBJECTS`.
private let sharedObjects = ProcessInfo.processInfo.environment["FRK_STORE_OBJECTS"].flatMap { Int($0) } ?? 100_000

/// `CLOCK_MONOTONIC` in nanoseconds: one clock for every process of the machine.
private func monotonicNanoseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return time.tv_sec * 1_000_000_000 + time.tv_nsec
}

private func openShared(_ path: String, synchronous: Bool = true) -> GraphStore {
    do {
        let options = GraphStore.Options(
            durability: synchronous ? .synchronous : .deferred(interval: .seconds(3_600)), compactionFactor: nil, sharing: .shared)
        return try GraphStore.open(at: URL(fileURLWithPath: path), schema: sharedSchema, options: options)
    } catch {
        preconditionFailure("the benchmark's shared store did not open: \(error)")
    }
}

/// The reader process: follows the store in `path` until its standard input closes, printing
/// `heard <ns>` (the monotonic clock) each time its observer hears of another process's
/// commit, and `ready` once it follows.
func followStoreChild(path: String) -> Never {
    let store = openShared(path)
    let observation = store.graph.addObserver { changes in
        guard changes.isExternal else { return }
        let line = "heard \(monotonicNanoseconds())\n"
        _ = line.withCString { write(1, $0, strlen($0)) }
    }
    let events = inotify_init1(Int32(IN_CLOEXEC))
    precondition(events >= 0 && inotify_add_watch(events, path, UInt32(IN_MODIFY | IN_MOVED_TO | IN_CREATE)) >= 0, "inotify: errno \(errno)")
    _ = "ready\n".withCString { write(1, $0, strlen($0)) }
    var buffer = [UInt8](repeating: 0, count: 4_096)
    var descriptors = [pollfd(fd: events, events: Int16(POLLIN), revents: 0), pollfd(fd: 0, events: Int16(POLLIN), revents: 0)]
    while true {
        _ = poll(&descriptors, 2, 1_000)
        if descriptors[1].revents != 0 { break }
        if descriptors[0].revents != 0 { _ = buffer.withUnsafeMutableBytes { read(events, $0.baseAddress, $0.count) } }
        do {
            try store.refresh()
        } catch {
            preconditionFailure("the reader's refresh failed: \(error)")
        }
    }
    observation.cancel()
    store.close()
    exit(0)
}

/// A reader process following a store: started, then stopped (its standard input closed)
/// and waited for when released.
private final class ReaderProcess {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var pending = ""

    init(path: String) {
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--follow-store", path]
        process.standardInput = input
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            preconditionFailure("cannot start a reader process: \(error)")
        }
        precondition(nextLine() == "ready", "the reader process did not start")
    }

    /// The next line the reader prints (blocking).
    func nextLine() -> String {
        while true {
            if let newline = pending.firstIndex(of: "\n") {
                let line = String(pending[..<newline])
                pending.removeSubrange(...newline)
                return line
            }
            let data = output.fileHandleForReading.availableData
            precondition(!data.isEmpty, "the reader process stopped")
            pending += String(decoding: data, as: UTF8.self)
        }
    }

    /// When the reader's observer heard of the next commit, on the monotonic clock.
    func nextHeard() -> Int {
        let line = nextLine()
        guard line.hasPrefix("heard "), let time = Int(line.dropFirst("heard ".count)) else {
            preconditionFailure("the reader process printed \(line)")
        }
        return time
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

/// The p-th percentile (0...100) of some durations in nanoseconds.
private func percentile(_ values: [Int], _ p: Int) -> Duration {
    let sorted = values.sorted()
    return .nanoseconds(sorted[min(sorted.count - 1, sorted.count * p / 100)])
}

/// A new directory under /tmp for a row's stores, removed with everything in it when
/// released (the rows' bodies keep it until the row is done).
private final class SharedDirectory {
    let path = "/tmp/frk-shared-bench-\(getpid())-\(UUID().uuidString)"

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// A shared store of `count` items in a new directory, compacted and reopened for a writer
/// that commits 120 changes at a time (`CommitShape`), and for readers to follow it.
private func makeSharedStore(count: Int) -> (directory: SharedDirectory, store: GraphStore, shape: CommitShape) {
    let owner = SharedDirectory()
    let directory = owner.path
    let store = openShared(directory, synchronous: false)
    _ = populate(store.graph, count: count)
    do {
        try store.compact()
    } catch {
        preconditionFailure("the benchmark's compaction failed: \(error)")
    }
    store.close()
    let writer = openShared(directory)
    return (owner, writer, CommitShape(reopened: writer.graph))
}

extension CommitShape {
    /// A shape over a graph that already holds the items (a reopened store's).
    convenience init(reopened graph: ObjectGraph) {
        self.init(graph: graph, items: graph.objects(of: BenchItem.self), locations: graph.objects(of: BenchLocation.self))
    }
}

func storeSharingBenchmarks() -> [Benchmark] {
    [
        Benchmark("store.remote.latency", baseline: "the writer's own durable commit (p99 of 100)", runs: 5) {
            // A writer process commits 120 changes (100 renames, 10 deletes, 10 inserts) to a
            // shared store of 100,000 items; a reader process follows it. The subject is the
            // p99, over 100 commits, of the time from the writer's commit() returning to the
            // reader's observer hearing of it (woken by inotify, the record read and applied);
            // the baseline is the p99 of the writer's commit() itself.
            let (directory, writer, shape) = makeSharedStore(count: sharedObjects)
            let reader = ReaderProcess(path: directory.path)
            var latencies: [Int] = []
            return .init(
                subject: { stopwatch in
                    var lags: [Int] = []
                    for _ in 0..<100 {
                        shape.write()
                        precondition(shape.commit() != nil)
                        let returned = monotonicNanoseconds()
                        lags.append(reader.nextHeard() - returned)
                    }
                    latencies = lags
                    stopwatch.record(percentile(lags, 99))
                },
                baseline: { stopwatch in
                    var commits: [Int] = []
                    for _ in 0..<100 {
                        shape.write()
                        let start = monotonicNanoseconds()
                        precondition(shape.commit() != nil)
                        commits.append(monotonicNanoseconds() - start)
                        _ = reader.nextHeard()
                    }
                    stopwatch.record(percentile(commits, 99))
                    withExtendedLifetime((writer, directory)) {}
                },
                reference: (name: "median latency (last subject run)", body: { stopwatch in
                    stopwatch.record(latencies.isEmpty ? .zero : percentile(latencies, 50))
                })
            )
        },
        Benchmark("store.commit.120.1m.shared", baseline: "the same commit with no reader attached", runs: 15) {
            // The 120-change durable commit on a shared store of a million items (or
            // FRK_STORE_OBJECTS) with two reader processes following it; the baseline is the
            // same commit on the same store with the readers stopped.
            let count = ProcessInfo.processInfo.environment["FRK_STORE_OBJECTS"].flatMap { Int($0) } ?? 1_000_000
            let (directory, writer, shape) = makeSharedStore(count: count)
            var readers = [ReaderProcess(path: directory.path), ReaderProcess(path: directory.path)]
            let alone = { (stopwatch: inout Stopwatch) in
                shape.write()
                stopwatch.measure { precondition(shape.commit() != nil) }
            }
            return .init(
                subject: { stopwatch in
                    if readers.isEmpty { readers = [ReaderProcess(path: directory.path), ReaderProcess(path: directory.path)] }
                    shape.write()
                    stopwatch.measure { precondition(shape.commit() != nil) }
                    for reader in readers { _ = reader.nextHeard() }
                },
                baseline: { stopwatch in
                    readers = []
                    alone(&stopwatch)
                    withExtendedLifetime((writer, directory)) {}
                }
            )
        },
        Benchmark("store.catch-up.10k", baseline: "the same 10,000 commits made locally without a store", runs: 5) {
            // Another store on the directory made 10,000 commits of ten changes (renames and
            // moves between locations) to a store of 100,000 items; the subject is refresh()
            // applying them all (each read, decoded, applied and published); the baseline makes
            // the same commits on a graph without a store.
            let owner = SharedDirectory()
            let directory = owner.path
            let seed = openShared(directory, synchronous: false)
            _ = populate(seed.graph, count: sharedObjects)
            do {
                try seed.compact()
            } catch {
                preconditionFailure("the benchmark's compaction failed: \(error)")
            }
            seed.close()
            let plain = ObjectGraph()
            _ = populate(plain, count: sharedObjects)
            /// Ten changes per commit, the same sequence for every graph given the same seed.
            func makeCommits(_ graph: ObjectGraph, seed: UInt64) {
                let items = graph.objects(of: BenchItem.self)
                let locations = graph.objects(of: BenchLocation.self)
                var state = seed
                func next() -> Int {
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    return Int(truncatingIfNeeded: state >> 33)
                }
                for round in 0..<10_000 {
                    for change in 0..<10 {
                        let item = items[next() % items.count]
                        if change & 1 == 0 {
                            item.name = "Item \(round).\(change)"
                        } else {
                            item.location = locations[next() % locations.count]
                        }
                    }
                    do {
                        try graph.commit()
                    } catch {
                        preconditionFailure("a commit failed: \(error)")
                    }
                }
            }
            var round: UInt64 = 0
            return .init(
                subject: { stopwatch in
                    round += 1
                    let follower = openShared(directory)
                    let writer = openShared(directory, synchronous: false)
                    makeCommits(writer.graph, seed: round)
                    writer.close()
                    let applied = stopwatch.measure {
                        do {
                            return try follower.refresh()
                        } catch {
                            preconditionFailure("the refresh failed: \(error)")
                        }
                    }
                    precondition(applied == 10_000, "applied \(applied)")
                    follower.close()
                },
                baseline: { stopwatch in
                    stopwatch.measure { makeCommits(plain, seed: round &+ 1_000) }
                    withExtendedLifetime(owner) {}
                }
            )
        },
    ]
}
