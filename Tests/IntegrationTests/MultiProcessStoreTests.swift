import FetchedResultsKit
import FetchedResultsTesting
import Foundation
import Testing
import TestSupport

// Stores shared by several processes (`GraphStore.Options(sharing: .shared)`), as an app
// with several windows in several processes uses them: writers commit, readers follow with
// a sectioned list and a search on screen, writers die, the store is compacted under them.

/// How many commits one writer process made: each writer has its own, so no other commit
/// conflicts with it, and a fresh open proves that no commit the writer saw return was lost.
final class WriterMark: GraphObject {
    @Attribute var writer = ""
    @Attribute var commits = 0
}

private let sharedSchema = try! StoreSchema([Good.self, Shelf.self, WriterMark.self])

private func sharedOptions(compactionFactor: Double? = 2, minimumCompactionBytes: Int = 48 << 10) -> GraphStore.Options {
    GraphStore.Options(compactionFactor: compactionFactor, minimumCompactionBytes: minimumCompactionBytes, sharing: .shared)
}

private let goodNames = ["Milk", "milk", "Eggs", "Bread", "apple", "Apricot", "Sugar", "Rice", "Jam"]
private let shelfNames = ["Fridge", "Pantry", "Shed", "Cellar", "Attic"]
private let searchTexts = ["", "a", "mi", "e", "Ap", "r"]

// MARK: The workload

/// One random edit of the kinds an app makes: inserts, renames, deletes, a good moved to
/// another shelf (or to none), a shelf renamed (which moves every row of its section).
private func randomEdit(_ graph: ObjectGraph, using rng: inout SeededGenerator) {
    let goods = graph.objects(of: Good.self)
    let shelves = graph.objects(of: Shelf.self)
    switch Int.random(in: 0..<12, using: &rng) {
    case 0, 1:
        guard goods.count < 60 else {
            if let good = goods.randomElement(using: &rng) { graph.delete(good) }
            return
        }
        let good = graph.insert(Good())
        good.name = goodNames.randomElement(using: &rng)!
        good.quantity = Int.random(in: 0..<4, using: &rng)
        good.shelf = Bool.random(using: &rng) ? shelves.randomElement(using: &rng) : nil
    case 2: if let good = goods.randomElement(using: &rng) { graph.delete(good) }
    case 3, 4: goods.randomElement(using: &rng)?.name = goodNames.randomElement(using: &rng)!
    case 5: goods.randomElement(using: &rng)?.quantity = Int.random(in: 0..<4, using: &rng)
    case 6: goods.randomElement(using: &rng)?.note = Bool.random(using: &rng) ? nil : "note"
    case 7, 8:
        goods.randomElement(using: &rng)?.shelf = Int.random(in: 0..<4, using: &rng) == 0 ? nil : shelves.randomElement(using: &rng)
    case 9:
        shelves.randomElement(using: &rng)?.name = shelfNames.randomElement(using: &rng)!
    case 10:
        if shelves.count < 5 { graph.insert(Shelf()).name = shelfNames.randomElement(using: &rng)! }
    default:
        if shelves.count > 1, let shelf = shelves.randomElement(using: &rng) { graph.delete(shelf) }
    }
}

/// Whether a commit failed because another store committed a conflicting change first.
private func isConflict(_ error: CommitError) -> Bool {
    guard case .persistenceFailed(let cause) = error, let storeError = cause as? GraphStoreError, case .conflict = storeError else {
        return false
    }
    return true
}

/// Everything a graph holds, named so that two graphs of one store (in two processes)
/// compare equal: objects by `uriRepresentation`, never by `ObjectID`.
private func canonicalDump(_ graph: ObjectGraph) -> [String] {
    let goods = graph.objects(of: Good.self).map { good in
        "good \(good.objectID.uriRepresentation) \(good.name)|\(good.quantity)|\(good.note ?? "-")|\(good.shelf?.objectID.uriRepresentation ?? "-")"
    }
    let shelves = graph.objects(of: Shelf.self).map { shelf in
        "shelf \(shelf.objectID.uriRepresentation) \(shelf.name) [\(shelf.goods.map(\.objectID.uriRepresentation).sorted().joined(separator: ","))]"
    }
    let marks = graph.objects(of: WriterMark.self).map { mark in
        "mark \(mark.objectID.uriRepresentation) \(mark.writer) \(mark.commits)"
    }
    return (goods + shelves + marks).sorted()
}

// MARK: The screen

private typealias Shown = [ListSimulator<String, ObjectID, String>.Section]

private func shown(_ results: some SectionedResults<Good>) -> Shown {
    results.sections.map { section in
        .init(id: section.name, rows: section.objects.map { .init(id: $0.objectID, content: "\($0.name)|\($0.quantity)|\($0.note ?? "-")") })
    }
}

/// Passes a controller's changes to an accumulator, as a view adapter does.
private final class AccumulatorForwarder: ResultsControllerDelegate {
    typealias Object = Good
    let accumulator: ChangeAccumulator
    init(_ accumulator: ChangeAccumulator) { self.accumulator = accumulator }
    func controller(_ controller: any SectionedResults<Good>, didChangeContentWith changes: ListChanges) {
        accumulator.add(changes)
    }
}

/// A window on a shared store: a sectioned controller and a search over it, each shown by
/// a strict simulated list view through an accumulator.
@MainActor
private final class SharedScreen {
    /// The totals both lists keep, and the request that keeps them.
    let totals = GoodTotals()

    let base: ResultsController<Good>
    let search: SearchController<Good>
    let views: [(simulator: ListSimulator<String, ObjectID, String>, accumulator: ChangeAccumulator, forwarder: AccumulatorForwarder)]

    init(graph: ObjectGraph, text: String) {
        let base = ResultsController(graph: graph, request: totals.request)
        base.performFetch()
        let search = SearchController(base: base, searching: \.name)
        search.searchText = text
        self.base = base
        self.search = search
        func view(_ results: some SectionedResults<Good>) -> (ListSimulator<String, ObjectID, String>, ChangeAccumulator, AccumulatorForwarder) {
            let simulator = ListSimulator<String, ObjectID, String>(strict: true) { shown(results) }
            simulator.reloadData()
            let accumulator = ChangeAccumulator(target: simulator, policy: DefaultReloadPolicy(maximumChangeCount: .max, maximumShare: 2))
            return (simulator, accumulator, AccumulatorForwarder(accumulator))
        }
        views = [view(base), view(search)]
        base.delegate = views[0].forwarder
        search.delegate = views[1].forwarder
    }

    /// Flushes both views; returns how each differs from a fresh fetch and a fresh search,
    /// or how a batch it was given was invalid (nothing when all is right).
    func problems(_ graph: ObjectGraph) -> [String] {
        for view in views { view.accumulator.flush() }
        let fresh = ResultsController(graph: graph, request: totals.request)
        fresh.performFetch()
        let freshSearch = SearchController(base: fresh, searching: \.name)
        freshSearch.searchText = search.searchText
        let expected = [shown(fresh), shown(freshSearch)]
        var problems: [String] = []
        for (index, view) in views.enumerated() {
            if !view.simulator.failures.isEmpty { problems.append("view \(index) was given invalid batches: \(view.simulator.failures)") }
            if view.simulator.sections != expected[index] {
                problems.append("view \(index) shows \(view.simulator.sections.map { "\($0.id): \($0.rows.count)" }), a fresh fetch \(expected[index].map { "\($0.id): \($0.rows.count)" })")
            }
        }
        problems += totals.mismatches([base, search], [fresh, freshSearch])
        return problems
    }
}

// MARK: Child processes

private enum ChildEnvironment {
    static let role = "FRK_MP_ROLE"
    static let directory = "FRK_MP_DIRECTORY"
    static let name = "FRK_MP_NAME"
    static let seed = "FRK_MP_SEED"
    static let stopFile = "FRK_MP_STOP"

    static var values: [String: String] { ProcessInfo.processInfo.environment }
    static var isChild: Bool { values[role] != nil }
}

/// Writes a line to standard output at once (the parent reads it from a file, even after a
/// SIGKILL).
private func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// A child process: this test binary run again with one child test selected.
private struct Child {
    let name: String
    let role: String
    let process: Process
    let output: URL
    /// The child's standard error: a crash's message lands here.
    let errors: URL

    @MainActor
    init(name: String, role: String, test: String, directory: URL, stopFile: URL, seed: UInt64, outputs: URL) throws {
        let executable = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        self.name = name
        self.role = role
        output = outputs.appendingPathComponent("\(name).out")
        errors = outputs.appendingPathComponent("\(name).err")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process = Process()
        process.executableURL = executable
        process.arguments = ["--testing-library", "swift-testing", "--filter", test]
        var environment = ProcessInfo.processInfo.environment
        environment[ChildEnvironment.role] = role
        environment[ChildEnvironment.directory] = directory.path
        environment[ChildEnvironment.name] = name
        environment[ChildEnvironment.seed] = "\(seed)"
        environment[ChildEnvironment.stopFile] = stopFile.path
        environment["FRK_SEED"] = nil
        // A crashing child must exit at once: the runtime's backtracer can keep a crashed
        // process alive for minutes on a loaded machine, holding the store's write lock
        // while every other process waits for it. Its message still reaches `errors`.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
    }

    var text: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

    var lines: [Substring] { text.split(separator: "\n") }

    /// The last lines the child wrote to standard error.
    var errorTail: String {
        let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(12).joined(separator: "\n")
    }

    /// Waits for the process to exit, at most `seconds`; kills it after that.
    func wait(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        guard process.isRunning else { return true }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return false
    }
}

/// The last count each writer printed after its commit returned, by writer name.
private func acknowledgedCommits(of writers: [Child]) -> [String: Int] {
    var acknowledged: [String: Int] = [:]
    for writer in writers {
        for line in writer.lines where line.hasPrefix("durable ") {
            let parts = line.split(separator: " ")
            if parts.count == 3, let count = Int(parts[2]) { acknowledged[String(parts[1])] = count }
        }
    }
    return acknowledged
}

/// Kills every child still running once a deadline passes, so that a child that stops
/// making progress while it holds the store's write lock fails the test instead of hanging
/// it: the parent, waiting for the lock, then gets it and finds the child's failure.
///
/// `@unchecked Sendable`: `processes`, `fired` and `cancelled` are read and written only
/// while `lock` is held (the test's thread and the deadline's queue share them); `lock` is
/// itself thread-safe.
private final class Watchdog: @unchecked Sendable {
    /// The children's process identifiers, whether the deadline passed, and whether the test
    /// stopped watching: guarded by `lock`.
    private var processes: [Int32] = []
    private var fired = false
    private var cancelled = false
    private let lock = NSLock()

    init(seconds: Double) {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
            let victims: [Int32] = lock.withLock {
                guard !cancelled else { return [] }
                fired = true
                return processes
            }
            for process in victims { kill(process, SIGKILL) }
        }
    }

    /// Watches a child process.
    func watch(_ process: Int32) { lock.withLock { processes.append(process) } }

    /// Whether the deadline passed and the children were killed.
    var hasFired: Bool { lock.withLock { fired } }

    /// Stops watching: the test is done with its children.
    func cancel() { lock.withLock { cancelled = true } }
}

@Suite("Stores shared by processes: writers, readers with lists on screen, kills and compactions")
@MainActor
struct MultiProcessStoreTests {
    // MARK: The writer child

    /// A writer process: random commits until the stop file appears (or it is killed). A
    /// conflict is rolled back and the store refreshed, as an app does. After each commit
    /// returns, prints `durable <name> <commits>`.
    @Test(.enabled(if: ChildEnvironment.values[ChildEnvironment.role] == "writer"))
    func multiProcessWriterChild() throws {
        let environment = ChildEnvironment.values
        let directory = URL(fileURLWithPath: try #require(environment[ChildEnvironment.directory]))
        let name = try #require(environment[ChildEnvironment.name])
        let stopFile = try #require(environment[ChildEnvironment.stopFile])
        var rng = SeededGenerator(seed: UInt64(environment[ChildEnvironment.seed] ?? "") ?? 1)
        // Writers compact often, so that readers follow compactions.
        let store = try GraphStore.open(at: directory, schema: sharedSchema, options: sharedOptions(minimumCompactionBytes: 32 << 10))
        let graph = store.graph
        let mark = graph.insert(WriterMark())
        mark.writer = name
        try graph.commit(author: name)
        say("durable \(name) \(mark.commits)")
        var conflicts = 0
        while !FileManager.default.fileExists(atPath: stopFile) {
            for _ in 0..<Int.random(in: 1...3, using: &rng) { randomEdit(graph, using: &rng) }
            mark.commits += 1
            // The changes stay pending a moment, as a user's do: others commit meanwhile.
            usleep(UInt32.random(in: 0...3_000, using: &rng))
            do {
                try graph.commit(author: name)
                say("durable \(name) \(mark.commits)")
            } catch let error {
                guard isConflict(error) else {
                    say("ERROR \(name): commit: \(error)")
                    exit(5)
                }
                conflicts += 1
                say("conflict \(name)")
                graph.rollback()
                do {
                    try store.refresh()
                } catch let error {
                    say("ERROR \(name): refresh after a conflict: \(error)")
                    exit(5)
                }
            }
            usleep(UInt32.random(in: 2_000...8_000, using: &rng))
        }
        store.close()
        say("stopped \(name) commits \(mark.commits) conflicts \(conflicts)")
    }

    // MARK: The reader child

    /// A reader process: follows the others with `refresh()` until the stop file appears,
    /// with a sectioned list and a search on screen; after every external commit delivered,
    /// both views must equal a fresh fetch (otherwise it prints `MISMATCH` and exits with
    /// status 2). At the end it prints its graph (`STATE` lines) after a last refresh.
    @Test(.enabled(if: ChildEnvironment.values[ChildEnvironment.role] == "reader"))
    func multiProcessReaderChild() throws {
        let environment = ChildEnvironment.values
        let directory = URL(fileURLWithPath: try #require(environment[ChildEnvironment.directory]))
        let name = try #require(environment[ChildEnvironment.name])
        let stopFile = try #require(environment[ChildEnvironment.stopFile])
        var rng = SeededGenerator(seed: UInt64(environment[ChildEnvironment.seed] ?? "") ?? 1)
        var store = try GraphStore.open(at: directory, schema: sharedSchema, options: sharedOptions())
        var external = 0
        var checks = 0
        var reopens = 0
        var screen = SharedScreen(graph: store.graph, text: "a")
        func check(_ context: String, _ changes: GraphChanges? = nil) {
            checks += 1
            let problems = screen.problems(store.graph)
            guard problems.isEmpty else {
                for problem in problems { say("MISMATCH \(name) \(context): \(problem.split(separator: "\n").joined(separator: " / "))") }
                if let changes {
                    let names = { (ids: [ObjectID]) in ids.map(\.uriRepresentation).map { $0.split(separator: "/").suffix(2).joined(separator: "/") } }
                    say("MISMATCH \(name) the commit: inserted \(names(Array(changes.inserted))), deleted \(names(Array(changes.deleted))), updated \(changes.updated.map { "\(names([$0.key])[0]) \($0.value)" })")
                }
                exit(2)
            }
        }
        func observe(_ graph: ObjectGraph) -> GraphObservation {
            // Registered after the screen's controllers: they have heard of the commit.
            graph.addObserver { changes in
                guard changes.isExternal else { return }
                external += 1
                check("after external commit \(external) by \(changes.author ?? "?")", changes)
            }
        }
        var observation = observe(store.graph)
        say("ready \(name)")
        var loops = 0
        while !FileManager.default.fileExists(atPath: stopFile) {
            do {
                try store.refresh()
            } catch let error {
                guard case .mustReopen = error else {
                    say("ERROR \(name): refresh: \(error)")
                    exit(4)
                }
                // Too many compactions behind: an app reopens.
                observation.cancel()
                let text = screen.search.searchText
                store.close()
                store = try GraphStore.open(at: directory, schema: sharedSchema, options: sharedOptions())
                screen = SharedScreen(graph: store.graph, text: text)
                observation = observe(store.graph)
                reopens += 1
                check("after reopening")
            }
            loops += 1
            if loops % 40 == 0 {
                screen.search.searchText = searchTexts.randomElement(using: &rng)!
                check("after searching for \(screen.search.searchText)")
            }
            usleep(UInt32.random(in: 1_000...5_000, using: &rng))
        }
        // The writers have stopped: everything whole is in the journal.
        try store.refresh()
        check("after the last refresh")
        for line in canonicalDump(store.graph) { say("STATE \(line)") }
        say("reader \(name) external \(external) checks \(checks) reopens \(reopens)")
        observation.cancel()
        store.close()
    }

    // MARK: The parent

    /// Three writer processes and three reader processes on one store directory, for a few
    /// seconds; writers are SIGKILLed at random moments (some restarted), the parent
    /// compacts in the middle. Then: no reader saw its lists differ from a fresh fetch,
    /// every reader's graph equals a fresh open, the open lost nothing (at most a torn tail of
    /// a killed writer), and no writer's acknowledged commit is missing.
    ///
    /// `FRK_MULTI_PROCESS_TESTS=0` skips it. A child that crashes exits at once (no
    /// backtracer), and a watchdog kills every child after 300 s, so a run cannot hang. It
    /// found a writer whose pending insert, moved out of the way of another writer's serial,
    /// took the objects restored past it along (seed 223008869: a good kept pointing to a
    /// deleted shelf, and a fresh open reported damage); that is fixed and has a
    /// deterministic test in `GraphStoreSharingTests`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["FRK_MULTI_PROCESS_TESTS"] != "0"))
    func writersReadersKillsAndCompactions() throws {
        guard !ChildEnvironment.isChild else { return }
        let seed = testSeeds(count: 1)[0]
        var rng = SeededGenerator(seed: seed)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("frk-multiprocess-\(seed)-\(UUID())")
        // Kept when the test fails: the children's outputs and the store are there.
        var passed = false
        defer {
            if passed { try? FileManager.default.removeItem(at: root) } else { print("MultiProcessStoreTests: kept \(root.path)") }
        }
        let directory = root.appendingPathComponent("store")
        let writersStop = root.appendingPathComponent("stop-writers")
        let readersStop = root.appendingPathComponent("stop-readers")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let started = Date()

        // The parent's own store: seeds the shelves, compacts in the middle.
        let parent = try GraphStore.open(at: directory, schema: sharedSchema, options: sharedOptions(compactionFactor: nil))
        for name in shelfNames.prefix(3) { parent.graph.insert(Shelf()).name = name }
        try parent.graph.commit(author: "parent")

        // Far beyond a normal run (15 s on a quiet machine, at most about 150 s on a loaded one).
        let watchdog = Watchdog(seconds: 300)
        defer { watchdog.cancel() }
        func start(_ name: String, _ role: String) throws -> Child {
            let child = try Child(
                name: name, role: role, test: role == "writer" ? "multiProcessWriterChild" : "multiProcessReaderChild",
                directory: directory, stopFile: role == "writer" ? writersStop : readersStop, seed: rng.next() % 1_000_000_007,
                outputs: root)
            watchdog.watch(child.process.processIdentifier)
            return child
        }
        let readers = try (0..<3).map { try start("reader\($0)", "reader") }
        var writers = try (0..<3).map { try start("writer\($0)", "writer") }
        var killed: [Child] = []
        var writerCount = 3
        var compactions = 0

        // At least ten seconds of commits, a kill every second or so (a writer process
        // takes a few hundred milliseconds to start), and on a loaded machine longer: until
        // the writers have made 100 commits and 5 were killed, for at most two minutes.
        let runFor = 10.0
        let running = Date()
        var nextKill = Date().addingTimeInterval(Double.random(in: 1.0...1.5, using: &rng))
        var compacted = false
        var lastCount = Date.distantPast
        func enoughWork() -> Bool {
            guard Date().timeIntervalSince(running) >= runFor else { return false }
            guard Date().timeIntervalSince(running) < 12 * runFor else { return true }
            guard killed.count >= 5, Date().timeIntervalSince(lastCount) >= 0.5 else { return false }
            lastCount = Date()
            return acknowledgedCommits(of: writers + killed).values.reduce(0, +) >= 100
        }
        while !enoughWork() {
            usleep(20_000)
            try parent.refresh()
            if !compacted && Date().timeIntervalSince(running) > runFor / 2 {
                try parent.compact()
                compactions += 1
                compacted = true
            }
            guard Date() >= nextKill else { continue }
            // A writer that has committed: it is in the middle of its work.
            let working = writers.indices.filter { writers[$0].text.contains("durable") }
            guard let chosen = working.randomElement(using: &rng) else { continue }
            nextKill = Date().addingTimeInterval(Double.random(in: 0.3...1.2, using: &rng))
            let victim = writers.remove(at: chosen)
            kill(victim.process.processIdentifier, SIGKILL)
            victim.process.waitUntilExit()
            killed.append(victim)
            if writers.isEmpty || Int.random(in: 0..<3, using: &rng) > 0 {
                writers.append(try start("writer\(writerCount)", "writer"))
                writerCount += 1
            }
        }
        // A second compaction by the parent, with the writers still going.
        try parent.refresh()
        try parent.compact()
        compactions += 1

        // Stop the writers that live (they close their stores), then the readers.
        _ = FileManager.default.createFile(atPath: writersStop.path, contents: nil)
        for writer in writers {
            #expect(writer.wait(seconds: 20), "\(writer.name) did not stop")
        }
        _ = FileManager.default.createFile(atPath: readersStop.path, contents: nil)
        for reader in readers {
            #expect(reader.wait(seconds: 40), "\(reader.name) did not stop")
        }
        try parent.refresh()
        let parentDump = canonicalDump(parent.graph)
        parent.close()

        #expect(!watchdog.hasFired, "seed \(seed): the run passed 300 s; every child was killed")
        // What everyone printed.
        let everyone = readers + writers + killed
        for child in everyone {
            for line in child.lines where line.hasPrefix("MISMATCH") || line.hasPrefix("ERROR") {
                Issue.record("seed \(seed): \(child.name): \(line)")
            }
        }
        for child in readers + writers {
            #expect(
                child.process.terminationReason == .exit && child.process.terminationStatus == 0,
                "seed \(seed): \(child.name) ended with \(child.process.terminationReason == .exit ? "status" : "signal") \(child.process.terminationStatus): \(child.errorTail)")
        }
        for child in killed {
            #expect(child.process.terminationReason == .uncaughtSignal, "seed \(seed): \(child.name) ended before it was killed: \(child.errorTail)")
        }
        let acknowledged = acknowledgedCommits(of: writers + killed)

        // A fresh open: clean, or a torn tail a killed writer left; nothing acknowledged lost.
        let reopened = try GraphStore.open(at: directory, schema: sharedSchema, options: sharedOptions())
        let report = reopened.openReport
        let expected = canonicalDump(reopened.graph)
        #expect(report.isClean && report.damage.isEmpty && report.lostAcknowledgedCommits.isEmpty, "seed \(seed): \(report)")
        let marks = Dictionary(reopened.graph.objects(of: WriterMark.self).map { ($0.writer, $0.commits) }, uniquingKeysWith: max)
        reopened.close()
        for (writer, count) in acknowledged.sorted(by: { $0.key < $1.key }) {
            // A writer killed after its commit returned and before it printed has one more.
            let stored = marks[writer] ?? -1
            #expect(stored == count || stored == count + 1, "seed \(seed): \(writer) reported \(count) durable commits, the store holds \(stored)")
        }
        #expect(parentDump == expected, "seed \(seed): the parent's graph differs from a fresh open")
        var deliveries: [String] = []
        for reader in readers {
            let state = reader.lines.filter { $0.hasPrefix("STATE ") }.map { String($0.dropFirst("STATE ".count)) }
            #expect(state == expected, "seed \(seed): \(reader.name)'s graph differs from a fresh open (\(state.count) against \(expected.count) lines)")
            let summary = reader.lines.last { $0.hasPrefix("reader ") }.map(String.init) ?? "\(reader.name): no summary"
            deliveries.append(summary)
            let parts = summary.split(separator: " ")
            let external = parts.count > 3 ? Int(parts[3]) ?? 0 : 0
            #expect(external >= 20, "seed \(seed): \(reader.name) heard of only \(external) external commits")
        }
        let commits = acknowledged.values.reduce(0, +)
        let conflicts = (writers + killed).map { writer in writer.lines.count { $0.hasPrefix("conflict ") } }.reduce(0, +)
        print("""
            MultiProcessStoreTests (seed \(seed)): \(commits) acknowledged commits by \(acknowledged.count) writer processes, \
            \(killed.count) SIGKILLed, \(compactions) compactions by the parent, \(conflicts) conflicts rolled back, \
            \(expected.count) objects; \(String(format: "%.1f", Date().timeIntervalSince(started))) s
            \(deliveries.joined(separator: "\n"))
            open: \(report)
            """)
        // The run waits for 100 commits, for at most two minutes; a machine too loaded to
        // make 40 in that time does not test much.
        #expect(killed.count >= 5, "seed \(seed): only \(killed.count) kills")
        #expect(commits >= 40, "seed \(seed): only \(commits) commits")
        passed = everyone.allSatisfy { !$0.text.contains("MISMATCH") && !$0.text.contains("ERROR") } && report.isClean
            && (readers + writers).allSatisfy { $0.process.terminationReason == .exit && $0.process.terminationStatus == 0 }
            && readers.allSatisfy { reader in reader.lines.filter { $0.hasPrefix("STATE ") }.map { String($0.dropFirst("STATE ".count)) } == expected }
    }
}

// MARK: In one process

/// Undo's reference: the graph before and after each step, when no other store's commit
/// arrived in between (otherwise `nil`: the step's exact effect is not predicted).
private struct UndoReference {
    var undo: [(before: [String], after: [String])?] = []
    var redo: [(before: [String], after: [String])?] = []
}

@Suite("Stores shared in one process: undo, compaction, reopening and lists on screen")
@MainActor
struct SharedStoresInOneProcessTests {
    /// An external commit that touches a step makes its undo a conflict, and changes nothing.
    @Test func anotherStoresCommitMakesTheUndoOfTheStepItTouchesAConflict() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frk-shared-undo-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let a = try GraphStore.open(at: directory, schema: sharedSchema, options: sharedOptions())
        let b = try GraphStore.open(at: directory, schema: sharedSchema, options: sharedOptions())
        let undo = GraphUndoManager()
        a.graph.undoManager = undo
        let screen = SharedScreen(graph: a.graph, text: "mi")
        let milk = a.graph.insert(Good())
        milk.name = "Milk"
        try a.graph.commit(actionName: "Add")
        milk.name = "milk"
        try a.graph.commit(actionName: "Rename")
        try b.refresh()
        let milkInB = try #require(b.graph.objectID(forURIRepresentation: milk.objectID.uriRepresentation).flatMap { b.graph.object(with: $0) } as? Good)
        milkInB.name = "Oat milk"
        try b.graph.commit(author: "b")
        try a.refresh()
        #expect(screen.problems(a.graph) == [])
        #expect(milk.name == "Oat milk")
        let before = canonicalDump(a.graph)
        do {
            try undo.undo()
            Issue.record("the undo of a step another store touched succeeded")
        } catch let error {
            guard case .conflict(let ids) = error else {
                Issue.record("expected UndoError.conflict, got \(error)")
                return
            }
            #expect(ids == [milk.objectID])
        }
        #expect(canonicalDump(a.graph) == before)
        #expect(!a.graph.hasChanges)
        #expect(screen.problems(a.graph) == [])
        a.close()
        b.close()
    }

    /// Three stores shared in one process; the first has an undo manager and a sectioned
    /// list with a search on screen. Random commits (conflicts rolled back and refreshed),
    /// refreshes, undo and redo (exact when nothing arrived from elsewhere since the step;
    /// a conflict when something touched it, and then nothing changes), compactions, closes
    /// and reopens. After every step the lists equal a fresh fetch; at the end every store,
    /// and a fresh open, hold the same graph.
    @Test(arguments: testSeeds(count: 4))
    func randomCommitsUndoCompactionsAndReopens(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frk-shared-\(seed)-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let options = sharedOptions(compactionFactor: 2, minimumCompactionBytes: 16 << 10)
        var stores = try (0..<3).map { _ in try GraphStore.open(at: directory, schema: sharedSchema, options: options) }
        defer { for store in stores { store.close() } }
        var undo = GraphUndoManager()
        var reference = UndoReference()
        var external = 0
        var screen = SharedScreen(graph: stores[0].graph, text: "a")
        func observe(_ graph: ObjectGraph) -> GraphObservation {
            graph.addObserver { changes in if changes.isExternal { external += 1 } }
        }
        var observation = observe(stores[0].graph)
        stores[0].graph.undoManager = undo
        for name in shelfNames.prefix(2) { stores[1].graph.insert(Shelf()).name = name }
        try stores[1].graph.commit(author: "store 1")
        // Store 0 commits while it has not read the others' commits (its commit applies
        // them first), unless this is set.
        let commitsBehindOthers = ProcessInfo.processInfo.environment["FRK_MP_COMMIT_CAUGHT_UP"] == nil
        var counts = (commits: 0, conflicts: 0, undos: 0, redos: 0, undoConflicts: 0, compactions: 0, reopens: 0)

        func expectScreen(_ context: @autoclosure () -> String) {
            let problems = screen.problems(stores[0].graph)
            #expect(problems.isEmpty, "seed \(seed), \(context()): \(problems)")
        }
        /// Edits and commits store `which`; a conflict is rolled back and refreshed.
        /// Returns whether the commit went through and changed something (an undo step).
        func commitEdits(_ which: Int) throws -> Bool {
            let graph = stores[which].graph
            // Store 0 (with the lists on screen) catches up first, so that its commit applies
            // no other store's commits: with two or more, a commit's deletion reaches the
            // controllers before the first external commit is delivered, see
            // `commitAfterTwoExternalCommitsDeletingAShownRow` below.
            if which == 0 && !commitsBehindOthers { try stores[0].refresh() }
            for _ in 0..<Int.random(in: 1...3, using: &rng) { randomEdit(graph, using: &rng) }
            do {
                let changes = try graph.commit(author: "store \(which)")
                counts.commits += 1
                return changes != nil
            } catch let error {
                guard isConflict(error) else { throw error }
                counts.conflicts += 1
                graph.rollback()
                try stores[which].refresh()
                return false
            }
        }
        /// Store 0's recorded commits: one step, or a group of two or three.
        func recordedStep() throws {
            let graph = stores[0].graph
            let before = canonicalDump(graph)
            let heard = external
            let grouped = Int.random(in: 0..<4, using: &rng) == 0
            if grouped { undo.beginUndoGrouping() }
            var recorded = false
            for _ in 0..<(grouped ? Int.random(in: 2...3, using: &rng) : 1) {
                if try commitEdits(0) { recorded = true }
            }
            if grouped { undo.endUndoGrouping() }
            guard recorded else { return }
            reference.undo.append(external == heard ? (before, canonicalDump(graph)) : nil)
            reference.redo.removeAll()
        }
        /// Undoes (or redoes) the last step of store 0, checking it against the reference.
        func replay(undoing: Bool) throws {
            let graph = stores[0].graph
            guard undoing ? undo.canUndo : undo.canRedo else { return }
            if !commitsBehindOthers { try stores[0].refresh() }
            let before = canonicalDump(graph)
            let heard = external
            do {
                if undoing { try undo.undo() } else { try undo.redo() }
            } catch let error {
                #expect(!graph.hasChanges, "seed \(seed): a failed \(undoing ? "undo" : "redo") left changes pending")
                switch error {
                case .conflict:
                    counts.undoConflicts += 1
                    #expect(canonicalDump(graph) == before, "seed \(seed): an undo refused for a conflict changed the graph")
                    // The step cannot be undone: forget it, as an app does.
                    undo.removeAllActions()
                    reference = UndoReference()
                case .commitFailed(let cause) where isConflict(cause):
                    // Another store's commit arrived with the undo's: refresh and try later.
                    counts.undoConflicts += 1
                    try stores[0].refresh()
                default:
                    throw error
                }
                return
            }
            if undoing { counts.undos += 1 } else { counts.redos += 1 }
            let after = canonicalDump(graph)
            let expectedStep = undoing ? reference.undo.popLast() : reference.redo.popLast()
            if let step = expectedStep ?? nil, external == heard, step.after == before {
                #expect(after == step.before, "seed \(seed): \(undoing ? "undo" : "redo") did not give back the graph before the step")
            }
            let reversed: ([String], [String])? = external == heard ? (before, after) : nil
            if undoing { reference.redo.append(reversed) } else { reference.undo.append(reversed) }
        }

        for step in 0..<260 {
            let context = "step \(step)"
            let which = Int.random(in: 0..<3, using: &rng)
            switch Int.random(in: 0..<24, using: &rng) {
            case 0...7:
                if which == 0 { try recordedStep() } else { _ = try commitEdits(which) }
            case 8...10:
                try stores[which].refresh()
            case 11, 12:
                try replay(undoing: true)
            case 13:
                try replay(undoing: false)
            case 14:
                try stores[which].compact()
                counts.compactions += 1
            case 15:
                screen.search.searchText = searchTexts.randomElement(using: &rng)!
            case 16:
                // A relaunch of one window: it opens what the others committed.
                let text = screen.search.searchText
                stores[which].close()
                stores[which] = try GraphStore.open(at: directory, schema: sharedSchema, options: options)
                #expect(stores[which].openReport.isClean, "seed \(seed), \(context): \(stores[which].openReport)")
                counts.reopens += 1
                if which == 0 {
                    observation.cancel()
                    undo = GraphUndoManager()
                    reference = UndoReference()
                    stores[0].graph.undoManager = undo
                    screen = SharedScreen(graph: stores[0].graph, text: text)
                    observation = observe(stores[0].graph)
                }
            default:
                _ = try commitEdits(which)
            }
            expectScreen(context)
        }
        for store in stores { try store.refresh() }
        expectScreen("at the end")
        let expected = canonicalDump(stores[0].graph)
        for (index, store) in stores.enumerated() {
            #expect(canonicalDump(store.graph) == expected, "seed \(seed): store \(index) differs from store 0")
        }
        let fresh = try GraphStore.open(at: directory, schema: sharedSchema, options: options)
        #expect(fresh.openReport.isClean, "seed \(seed): \(fresh.openReport)")
        #expect(canonicalDump(fresh.graph) == expected, "seed \(seed): a fresh open differs")
        fresh.close()
        print("SharedStoresInOneProcessTests seed \(seed): \(counts), \(external) external commits heard by store 0")
        #expect(counts.conflicts > 0 && counts.undos > 0, "seed \(seed): \(counts)")
        observation.cancel()
    }
}

// MARK: A compaction that dies between its renames

/// A shared store's compaction renames three files: `snapshot.tmp` to `snapshot`, `journal`
/// to `history/journal-<g>`, `journal.tmp` to `journal`. A process killed between the first
/// and the last leaves the store with the new snapshot and no new journal; another process
/// that has the store open keeps appending its commits to the old journal, and they are
/// acknowledged. These tests put the files as such a kill leaves them (a real kill hits
/// this window too rarely to test) and check that the next open keeps those commits.
@Suite("Stores shared by processes: a compaction killed between its renames")
@MainActor
struct SharedCompactionKilledBetweenRenamesTests {
    /// Where the kill happened.
    enum Moment: String, CaseIterable, Sendable {
        /// After the snapshot's rename: `snapshot` (g+1), `journal` (g), `journal.tmp` (g+1).
        case afterSnapshotRename
        /// After the old journal went to `history/`: `snapshot` (g+1), no `journal`,
        /// `journal.tmp` (g+1).
        case afterJournalWentToHistory
    }

    @Test(arguments: Moment.allCases)
    func commitsOfAnotherStoreAfterTheKillAreKept(moment: Moment) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frk-shared-killed-compaction-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = FileManager.default
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        // The compaction's process (never closed: it was killed) and another one.
        let dying = try GraphStore.open(at: directory, schema: sharedSchema, options: sharedOptions(compactionFactor: nil))
        let other = try GraphStore.open(at: directory, schema: sharedSchema, options: sharedOptions(compactionFactor: nil))
        let milk = dying.graph.insert(Good())
        milk.name = "Milk"
        try dying.graph.commit()
        try other.refresh()
        try dying.compact()
        let generation = try #require(try files.contentsOfDirectory(atPath: path("history")).first)
        // Undo the renames the kill did not let happen.
        try files.moveItem(atPath: path("journal"), toPath: path("journal.tmp"))
        if moment == .afterSnapshotRename {
            try files.moveItem(atPath: path("history/" + generation), toPath: path("journal"))
        }

        // The other process goes on: its commit returns, so it is acknowledged.
        let milkInOther = try #require(other.graph.objects(of: Good.self).first)
        milkInOther.name = "Oat milk"
        let bread = other.graph.insert(Good())
        bread.name = "Bread"
        try other.graph.commit(author: "other")
        let acknowledged = canonicalDump(other.graph)
        other.close()

        let reopened = try GraphStore.open(at: directory, schema: sharedSchema, options: sharedOptions(compactionFactor: nil))
        defer { reopened.close() }
        let report = reopened.openReport
        // Either the commit is there, or the open says it lost it.
        let kept = canonicalDump(reopened.graph) == acknowledged
        #expect(kept || !report.isClean, "\(moment): an acknowledged commit is missing after a clean open: \(report); the graph holds \(canonicalDump(reopened.graph)), the other process acknowledged \(acknowledged)")
        #expect(kept, "\(moment): the acknowledged commit of the other process is lost: \(report)")
    }
}

// MARK: Two external commits applied by a commit

/// A commit of a graph with a controller first applies the commits other stores made; when
/// there are two or more and the commit deletes a row the controller shows, the controller
/// hears of the first external commit while the deletion is already in the graph. It once
/// stopped the process ("fetched Good/p0 is not a registered Good", with
/// `FRK_INVARIANT_CHECKS`); the external commits and the commit are now delivered as one.
/// The test runs in a child process, so that such a stop fails it instead of the run.
private let twoExternalChildVariable = "FRK_MP_TWO_EXTERNAL_CHILD"

@Suite("Stores shared by processes: a commit that applies two external commits")
@MainActor
struct SharedCommitAppliesTwoExternalCommitsTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment[twoExternalChildVariable] != nil))
    func commitAfterTwoExternalCommitsDeletingAShownRowChild() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frk-two-external-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let a = try GraphStore.open(at: directory, schema: sharedSchema, options: sharedOptions())
        let b = try GraphStore.open(at: directory, schema: sharedSchema, options: sharedOptions())
        let screen = SharedScreen(graph: a.graph, text: "")
        let apple = a.graph.insert(Good())
        apple.name = "Apple"
        try a.graph.commit()
        b.graph.insert(Good()).name = "Bread"
        try b.graph.commit()
        b.graph.insert(Good()).name = "Jam"
        try b.graph.commit()
        // a has not read b's two commits: its commit applies them, then deletes Apple.
        a.graph.delete(apple)
        try a.graph.commit()
        #expect(screen.problems(a.graph) == [])
        a.close()
        b.close()
    }

    @Test func commitAfterTwoExternalCommitsDeletingAShownRow() throws {
        guard ProcessInfo.processInfo.environment[twoExternalChildVariable] == nil, !ChildEnvironment.isChild else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = ["--testing-library", "swift-testing", "--filter", "commitAfterTwoExternalCommitsDeletingAShownRowChild"]
        var environment = ProcessInfo.processInfo.environment
        environment[twoExternalChildVariable] = "1"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(
            process.terminationReason == .exit && process.terminationStatus == 0,
            "the child ended with \(process.terminationReason == .exit ? "status" : "signal") \(process.terminationStatus)")
    }
}

// MARK: Shelves that share a name

/// Commits that rename shelves which share a name (one section for both) while goods move
/// between them, as a writer of the multi-process test once made: the lists must follow,
/// whether the commit is made in the graph or applied from another store.
@Suite("Stores shared by processes: shelves that share a name, renamed while goods move")
@MainActor
struct SharedNameShelvesTests {
    /// A few edits per commit, most of them shelf renames among two names and moves.
    private static func edit(_ graph: ObjectGraph, using rng: inout SeededGenerator) {
        let shelves = graph.objects(of: Shelf.self)
        for _ in 0..<Int.random(in: 1...6, using: &rng) {
            let goods = graph.objects(of: Good.self)
            switch Int.random(in: 0..<6, using: &rng) {
            case 0, 1: shelves.randomElement(using: &rng)?.name = ["Attic", "Attic", "Cellar", "Shed"].randomElement(using: &rng)!
            case 2, 3:
                goods.randomElement(using: &rng)?.shelf = Int.random(in: 0..<5, using: &rng) == 0 ? nil : shelves.randomElement(using: &rng)
            case 4:
                let good = graph.insert(Good())
                good.name = goodNames.randomElement(using: &rng)!
                good.shelf = shelves.randomElement(using: &rng)
            default:
                if let good = goods.randomElement(using: &rng) { graph.delete(good) }
            }
        }
    }

    @Test(arguments: testSeeds(count: 4), [false, true])
    func listsFollow(seed: UInt64, external: Bool) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frk-same-name-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = try GraphStore.open(at: directory, schema: sharedSchema, options: sharedOptions(compactionFactor: nil))
        let reader = try GraphStore.open(at: directory, schema: sharedSchema, options: sharedOptions(compactionFactor: nil))
        defer {
            writer.close()
            reader.close()
        }
        var rng = SeededGenerator(seed: seed)
        for name in ["Attic", "Attic", "Cellar"] { writer.graph.insert(Shelf()).name = name }
        let shelves = writer.graph.objects(of: Shelf.self)
        for index in 0..<12 {
            let good = writer.graph.insert(Good())
            good.name = goodNames[index % goodNames.count]
            good.shelf = shelves[index % shelves.count]
        }
        try writer.graph.commit()
        try reader.refresh()
        let shown = external ? reader.graph : writer.graph
        let screen = SharedScreen(graph: shown, text: "")
        for step in 0..<120 {
            Self.edit(writer.graph, using: &rng)
            try writer.graph.commit()
            if external { try reader.refresh() }
            let problems = screen.problems(shown)
            #expect(problems.isEmpty, "seed \(seed), external \(external), step \(step): \(problems)")
            if !problems.isEmpty { break }
        }
    }
}
