import Foundation
import GraphStore
import ObjectGraph

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The store group: a durable commit, opening, compaction and the size on disk of a store of
// a million objects (the graph group's Item/Location model), each against the physical
// limit measured in the same run on the same disk: writing and syncing as many bytes to a
// plain file in the store's directory, or building the same objects in memory.

/// Objects per store: a million, or `FRK_STORE_OBJECTS` (a smaller store, to profile a row
/// under callgrind).
private let storeObjects = ProcessInfo.processInfo.environment["FRK_STORE_OBJECTS"].flatMap { Int($0) } ?? million

/// The schema of the graph group's model.
private let benchSchema: StoreSchema = {
    do {
        return try StoreSchema([BenchItem.self, BenchLocation.self])
    } catch {
        preconditionFailure("the benchmark model cannot be stored: \(error)")
    }
}()

/// Options that keep a benchmark's store as the row built it: no automatic compaction, and
/// for set-up only, no sync per commit.
private func benchOptions(synchronous: Bool) -> GraphStore.Options {
    GraphStore.Options(durability: synchronous ? .synchronous : .deferred(interval: .seconds(3_600)), compactionFactor: nil)
}

/// A directory under /tmp, removed with everything in it when this is released.
final class TemporaryDirectory {
    let url: URL

    init() {
        url = URL(fileURLWithPath: "/tmp/frk-store-bench-\(getpid())-\(UUID().uuidString)", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            preconditionFailure("cannot create \(url.path): \(error)")
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The size of a file of the directory (0 when it does not exist).
    func size(of name: String) -> Int {
        var info = stat()
        return stat(url.path + "/" + name, &info) == 0 ? Int(info.st_size) : 0
    }
}

/// A store in a temporary directory: closed, then removed, when released.
private final class BenchStore {
    let directory = TemporaryDirectory()
    let store: GraphStore

    init(options: GraphStore.Options) {
        store = openBenchStore(at: directory.url, options: options)
    }

    deinit {
        store.close()
    }
}

private func openBenchStore(at url: URL, options: GraphStore.Options) -> GraphStore {
    do {
        return try GraphStore.open(at: url, schema: benchSchema, options: options)
    } catch {
        preconditionFailure("the benchmark's store did not open: \(error)")
    }
}

/// Compacts `store` (untimed set-up).
private func compactBenchStore(_ store: GraphStore) {
    var untimed = Stopwatch()
    compactBenchStore(store, &untimed)
}

/// Compacts `store`, timed by `stopwatch` until `compact()` returns, then waits, untimed,
/// until the files it replaced are closed and freed on their background thread: the next
/// step, timed or not, does not pay for them.
private func compactBenchStore(_ store: GraphStore, _ stopwatch: inout Stopwatch) {
    do {
        try stopwatch.measure { try store.compact() }
    } catch {
        preconditionFailure("the benchmark's compaction failed: \(error)")
    }
    store.waitForReleasedFiles()
}

/// A plain file written with `write(2)` and synced with `fdatasync(2)`: the baseline's
/// physical limit.
private struct PlainFile {
    let path: String
    let descriptor: Int32

    init(path: String, truncate: Bool) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | (truncate ? O_TRUNC : 0), 0o644)
        precondition(descriptor >= 0, "cannot open \(path): errno \(errno)")
    }

    /// Appends `bytes` whole and syncs them.
    func writeAndSync(_ bytes: UnsafeRawBufferPointer) {
        var written = 0
        while written < bytes.count {
            let count = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            precondition(count > 0, "write to \(path) failed: errno \(errno)")
            written += count
        }
        precondition(fdatasync(descriptor) == 0, "fdatasync of \(path) failed: errno \(errno)")
    }

    func closeFile() {
        _ = close(descriptor)
    }
}

/// A file of zeros, written and synced at set-up, whose bytes are then overwritten with
/// `pwrite(2)` and synced: the physical limit of a write that does not change the file's size.
private struct ZeroFilledFile {
    let file: PlainFile
    let size: Int
    private(set) var offset = 0

    init(path: String, size: Int) {
        file = PlainFile(path: path, truncate: true)
        self.size = size
        [UInt8](repeating: 0, count: size).withUnsafeBytes { file.writeAndSync($0) }
    }

    /// Writes `bytes` over the zeros after the last write (from the start again when they
    /// run out) and syncs them.
    mutating func overwriteAndSync(_ bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count <= size, "\(bytes.count) bytes do not fit in \(size)")
        if offset + bytes.count > size { offset = 0 }
        var written = 0
        while written < bytes.count {
            let count = pwrite(file.descriptor, bytes.baseAddress! + written, bytes.count - written, off_t(offset + written))
            precondition(count > 0, "pwrite to \(file.path) failed: errno \(errno)")
            written += count
        }
        precondition(fdatasync(file.descriptor) == 0, "fdatasync of \(file.path) failed: errno \(errno)")
        offset += bytes.count
    }
}

/// Writes and syncs `count` bytes to a new file of `directory` (then removes it, untimed).
private func writeAndSyncNewFile(_ buffer: [UInt8], count: Int, in directory: TemporaryDirectory, _ stopwatch: inout Stopwatch) {
    let path = directory.url.path + "/baseline"
    stopwatch.measure {
        let file = PlainFile(path: path, truncate: true)
        buffer.withUnsafeBytes { file.writeAndSync(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        file.closeFile()
    }
    unlink(path)
}

/// Writes `buffer` to a new file `name` of `directory` and syncs it and the directory
/// (untimed set-up).
private func createSyncedFile(_ buffer: [UInt8], named name: String, in directory: TemporaryDirectory) {
    let file = PlainFile(path: directory.url.path + "/" + name, truncate: true)
    buffer.withUnsafeBytes { file.writeAndSync($0) }
    file.closeFile()
    syncDirectory(directory)
}

/// The sequence the issue mandates for a compaction, on plain bytes: `buffer` written to
/// `name.tmp` and synced, renamed over `name` (an existing file, so its blocks are freed),
/// and the directory synced. Timed whole.
private func replaceFileDurably(_ buffer: [UInt8], named name: String, in directory: TemporaryDirectory, _ stopwatch: inout Stopwatch) {
    let path = directory.url.path + "/" + name
    precondition(directory.size(of: name) == buffer.count, "the mandated sequence renames over a file of the same size")
    stopwatch.measure {
        let file = PlainFile(path: path + ".tmp", truncate: true)
        buffer.withUnsafeBytes { file.writeAndSync($0) }
        file.closeFile()
        precondition(rename(path + ".tmp", path) == 0, "rename to \(path) failed: errno \(errno)")
        syncDirectory(directory)
    }
}

/// Syncs a directory (`fsync`), so that the names and blocks it freed are committed.
private func syncDirectory(_ directory: TemporaryDirectory) {
    let descriptor = open(directory.url.path, O_RDONLY | O_DIRECTORY)
    precondition(descriptor >= 0, "cannot open \(directory.url.path): errno \(errno)")
    precondition(fsync(descriptor) == 0, "fsync of \(directory.url.path) failed: errno \(errno)")
    _ = close(descriptor)
}

/// Bytes that compress as little as a store's do (a fixed pseudo-random pattern).
private func filler(count: Int) -> [UInt8] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    return (0..<count).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 33)
    }
}

/// Makes `commits` durable commits of `shape` on `bench`'s store, each timed: the slowest, in
/// microseconds, and how many of them made the journal's file longer.
private func commitTail(_ shape: CommitShape, _ bench: BenchStore, commits: Int) -> (slowest: Int, extending: Int) {
    var slowest = Duration.zero
    var extending = 0
    for _ in 0..<commits {
        shape.write()
        let size = bench.directory.size(of: "journal")
        let start = BenchmarkClock.now
        precondition(shape.commit()?.deleted.count == 10)
        slowest = max(slowest, BenchmarkClock.now - start)
        if bench.directory.size(of: "journal") > size { extending += 1 }
    }
    let parts = slowest.components
    return (Int(parts.seconds) * 1_000_000 + Int(parts.attoseconds / 1_000_000_000_000), extending)
}

/// The commits of the open row's journal: each renames eight items, deletes one and inserts
/// one in a location (ten changes, a typical edit of a list).
private func writeJournal(_ graph: ObjectGraph, commits: Int) {
    var items = graph.objects(of: BenchItem.self)
    let locations = graph.objects(of: BenchLocation.self)
    var rng = SystemRandomNumberGenerator()
    for round in 0..<commits {
        for _ in 0..<8 { items.randomElement(using: &rng)!.name = "Renamed \(round)" }
        let index = Int.random(in: 0..<items.count, using: &rng)
        graph.delete(items[index])
        items.swapAt(index, items.count - 1)
        items.removeLast()
        let item = graph.insert(BenchItem())
        item.name = "Added \(round)"
        item.quantity = round
        item.location = locations[round % locations.count]
        items.append(item)
        do {
            try graph.commit()
        } catch {
            preconditionFailure("the benchmark's commit failed: \(error)")
        }
    }
}

/// The JSON baseline of the size row: the same objects as arrays of plain Codable structs
/// with the same fields (a location named by its position).
private struct JSONLocation: Codable {
    var name: String
}

private struct JSONItem: Codable {
    var name: String
    var quantity: Int
    var listed: Bool
    var location: Int?
}

private struct JSONGraph: Codable {
    var locations: [JSONLocation]
    var items: [JSONItem]
}

private func jsonGraph(_ graph: ObjectGraph) -> JSONGraph {
    let locations = graph.objects(of: BenchLocation.self)
    var positions: [ObjectID: Int] = [:]
    for (position, location) in locations.enumerated() { positions[location.objectID] = position }
    return graph.withoutObservation {
        JSONGraph(
            locations: locations.map { JSONLocation(name: $0.name) },
            items: graph.objects(of: BenchItem.self).map { item in
                JSONItem(name: item.name, quantity: item.quantity, listed: item.listed, location: item.location.map { positions[$0.objectID]! })
            })
    }
}

/// The process's resident memory now and at its peak since the last reset, in bytes
/// (`VmRSS`, `VmHWM` of /proc/self/status; 0 where unknown).
private func residentMemory() -> (current: Int, peak: Int) {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return (0, 0) }
    func field(_ name: String) -> Int {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
        return (Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0) * 1_024
    }
    return (field("VmRSS"), field("VmHWM"))
}

/// How far resident memory rose above its level at the start of `body` (freed heap pages
/// returned first, the peak counter reset), in MiB. `body` gets what `prepare` made, as its
/// owner, so it may let it go as it works.
private func peakMemoryRise<Input>(preparing prepare: () -> Input, _ body: (consuming Input) -> Void) -> Int {
    let input = prepare()
    releaseFreedMemory()
    if let file = FileHandle(forWritingAtPath: "/proc/self/clear_refs") {
        file.write(Data("5".utf8))
        try? file.close()
    }
    let start = residentMemory().current
    body(consume input)
    return max(0, residentMemory().peak - start) >> 20
}

/// The whole of an import as an app makes it, in MiB above the process's level before it:
/// the peak while the batch is built and imported into a new store, and the resident size
/// with the store still open afterwards (the store's own size).
private func importFootprint(count: Int) -> (peak: Int, after: Int) {
    releaseFreedMemory()
    if let file = FileHandle(forWritingAtPath: "/proc/self/clear_refs") {
        file.write(Data("5".utf8))
        try? file.close()
    }
    let start = residentMemory().current
    let directory = TemporaryDirectory()
    let store = openBenchStore(at: directory.url, options: benchOptions(synchronous: true))
    do {
        try store.graph.apply(importBatch(count: count)) { _ in }
    } catch {
        preconditionFailure("the benchmark's import failed: \(error)")
    }
    releaseFreedMemory()
    let (after, peak) = residentMemory()
    precondition(store.graph.count(of: BenchItem.self) == count)
    store.close()
    return (max(0, peak - start) >> 20, max(0, after - start) >> 20)
}

func storeBenchmarks() -> [Benchmark] {
    [
        Benchmark("store.commit.120.1m", baseline: "write + fdatasync of the record's bytes", runs: 15) {
            // The graph group's commit of 120 changes (100 renames, 10 deletes, 10 inserts),
            // durable when it returns, on a store of a million items; the baseline appends as
            // many bytes as the commit added to the journal to a plain file and syncs it. The
            // journal writes its records over zeros it wrote ahead (extending the file now and
            // then): the reference writes the same bytes over a synced file of zeros, and the
            // extra fields give the slowest of a thousand commits and how many of them
            // extended the file.
            let bench = BenchStore(options: benchOptions(synchronous: true))
            let shape = CommitShape(graph: bench.store.graph, count: storeObjects)
            compactBenchStore(bench.store)
            let tail = commitTail(shape, bench, commits: 1_000)
            compactBenchStore(bench.store)
            let plain = PlainFile(path: bench.directory.url.path + "/baseline", truncate: true)
            var zeros = ZeroFilledFile(path: bench.directory.url.path + "/zeros", size: 4 << 20)
            var recordBytes = 0
            let buffer = filler(count: 1 << 20)
            return .init(
                subject: { stopwatch in
                    shape.write()
                    // The journal's file keeps zeros ahead of its records: count the record's bytes.
                    let before = bench.store.journalEnd ?? 0
                    let changes = stopwatch.measure { shape.commit() }
                    precondition(changes?.deleted.count == 10)
                    recordBytes = Int((bench.store.journalEnd ?? 0) - before)
                    precondition(recordBytes > 0 && recordBytes <= buffer.count)
                },
                baseline: { stopwatch in
                    buffer.withUnsafeBytes { bytes in
                        stopwatch.measure { plain.writeAndSync(UnsafeRawBufferPointer(rebasing: bytes[0..<recordBytes])) }
                    }
                    withExtendedLifetime(bench) {}
                },
                extra: ["slowest of 1,000 commits µs": tail.slowest, "of which extended the file": tail.extending],
                reference: (name: "pwrite over zeros + fdatasync", body: { stopwatch in
                    buffer.withUnsafeBytes { bytes in
                        stopwatch.measure { zeros.overwriteAndSync(UnsafeRawBufferPointer(rebasing: bytes[0..<recordBytes])) }
                    }
                })
            )
        },
        Benchmark("store.open.1m", baseline: "graph.insert.1m's populate of the same objects", runs: 5) {
            // A snapshot of a million items plus a journal of 10,000 commits of ten changes;
            // the subject opens it (reads, checks and decodes both files) and the baseline
            // builds the same million objects in memory.
            let directory = TemporaryDirectory()
            do {
                let store = openBenchStore(at: directory.url, options: benchOptions(synchronous: false))
                _ = populate(store.graph, count: storeObjects)
                compactBenchStore(store)
                writeJournal(store.graph, commits: 10_000)
                store.close()
            }
            return .init(
                subject: { stopwatch in
                    releaseFreedMemory()
                    let store = stopwatch.measure { openBenchStore(at: directory.url, options: benchOptions(synchronous: true)) }
                    precondition(store.openReport.replayedCommits == 10_000 && store.graph.count(of: BenchItem.self) == storeObjects)
                    store.close()
                },
                baseline: { stopwatch in
                    releaseFreedMemory()
                    let graph = ObjectGraph()
                    let items = stopwatch.measure { populate(graph, count: storeObjects) }
                    precondition(items.count == storeObjects)
                    withExtendedLifetime(directory) {}
                }
            )
        },
        Benchmark("store.compact.1m", baseline: "write + fdatasync of the snapshot's bytes to a new file", runs: 9) {
            // A compaction of a million items: the snapshot written and synced, a new journal,
            // both renamed into place with the directory synced. Besides the baseline, the
            // row times "the mandated sequence": the steps the issue requires of a compaction
            // (write and sync a temporary file, rename it over the old one, sync the
            // directory) done on the same bytes with nothing to encode, the least a
            // compaction in that order can take on this disk.
            let bench = BenchStore(options: benchOptions(synchronous: true))
            _ = populate(bench.store.graph, count: storeObjects)
            compactBenchStore(bench.store)
            let buffer = filler(count: bench.directory.size(of: "snapshot"))
            createSyncedFile(buffer, named: "mandated", in: bench.directory)
            return .init(
                subject: { stopwatch in
                    compactBenchStore(bench.store, &stopwatch)
                    precondition(bench.directory.size(of: "snapshot") == buffer.count)
                },
                baseline: { stopwatch in
                    writeAndSyncNewFile(buffer, count: buffer.count, in: bench.directory, &stopwatch)
                    // Untimed: the removed file's blocks are freed for good now, so that the
                    // next compaction's syncs do not commit the baseline's clean-up (each
                    // compaction pays for freeing its own old snapshot).
                    syncDirectory(bench.directory)
                },
                reference: (name: "mandated sequence", body: { stopwatch in
                    replaceFileDurably(buffer, named: "mandated", in: bench.directory, &stopwatch)
                })
            )
        },
        Benchmark("store.import.1m", baseline: "graph.insert.1m's populate of the same objects", runs: 3) {
            // A GraphBatch of a million items (and their locations) applied to a new store
            // with progress reported: one record, streamed, durable when it returns. The
            // baseline builds the same objects in memory. The extra fields give how far the
            // process's resident memory rose above its level with the batch built, during
            // the store's import and during the same import into a graph without a store:
            // the record adds a chunk, not a copy of the data. The last two fields follow an
            // app's whole import, from before its batch is built: the peak, and the resident
            // size with the store open afterwards.
            func storeImport(_ batch: consuming GraphBatch, _ stopwatch: inout Stopwatch) {
                let directory = TemporaryDirectory()
                let store = openBenchStore(at: directory.url, options: benchOptions(synchronous: true))
                var reports = 0
                var owned = Optional(batch)
                stopwatch.measure {
                    do {
                        // The batch's last owner, so the import releases it as it goes.
                        try store.graph.apply(owned.take()!) { _ in reports += 1 }
                    } catch {
                        preconditionFailure("the benchmark's import failed: \(error)")
                    }
                }
                precondition(store.graph.count(of: BenchItem.self) == storeObjects && reports > 2)
                store.close()
            }
            func memoryImport(_ batch: consuming GraphBatch) {
                let graph = ObjectGraph()
                do {
                    try graph.apply(consume batch) { _ in }
                } catch {
                    preconditionFailure("the benchmark's import failed: \(error)")
                }
                precondition(graph.count(of: BenchItem.self) == storeObjects)
            }
            var unused = Stopwatch()
            let storePeak = peakMemoryRise(preparing: { importBatch(count: storeObjects) }) { storeImport($0, &unused) }
            let memoryPeak = peakMemoryRise(preparing: { importBatch(count: storeObjects) }) { memoryImport($0) }
            let footprint = importFootprint(count: storeObjects)
            return .init(
                subject: { stopwatch in
                    let batch = importBatch(count: storeObjects)
                    releaseFreedMemory()
                    storeImport(consume batch, &stopwatch)
                },
                baseline: { stopwatch in
                    releaseFreedMemory()
                    let graph = ObjectGraph()
                    let items = stopwatch.measure { populate(graph, count: storeObjects) }
                    precondition(items.count == storeObjects)
                },
                extra: [
                    "peak MiB store import": storePeak, "peak MiB memory import": memoryPeak,
                    "peak MiB batch built and imported": footprint.peak, "MiB store after import": footprint.after,
                ]
            )
        },
        Benchmark("store.bytes-per-object", baseline: "JSONEncoder of Codable structs, written and synced", runs: 1) {
            // Bytes on disk per object of a compacted store (snapshot and journal), against the
            // same objects as JSON; the times compare a compaction with saving that JSON.
            let bench = BenchStore(options: benchOptions(synchronous: true))
            _ = populate(bench.store.graph, count: storeObjects)
            compactBenchStore(bench.store)
            let objects = Double(storeObjects + locationCount)
            let plain = jsonGraph(bench.store.graph)
            var jsonBytes = 0
            return .init(
                subject: { stopwatch in
                    compactBenchStore(bench.store, &stopwatch)
                },
                baseline: { stopwatch in
                    let path = bench.directory.url.path + "/baseline.json"
                    stopwatch.measure {
                        do {
                            let data = try JSONEncoder().encode(plain)
                            let file = PlainFile(path: path, truncate: true)
                            data.withUnsafeBytes { file.writeAndSync($0) }
                            file.closeFile()
                            jsonBytes = data.count
                        } catch {
                            preconditionFailure("JSON encoding failed: \(error)")
                        }
                    }
                    unlink(path)
                },
                memory: {
                    let onDisk = bench.directory.size(of: "snapshot") + bench.directory.size(of: "journal")
                    return (Double(onDisk) / objects, Double(jsonBytes) / objects)
                }
            )
        },
    ]
}
