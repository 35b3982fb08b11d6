import FetchedResults
import Foundation

/// A location of the controller benchmarks: 100 of them, each holding 10,000 items.
final class ControllerBenchLocation: GraphObject {
    @Attribute var name = ""
    @Relationship var items: Set<ControllerBenchItem>
}

/// An item of the controller benchmarks, sectioned by its location's name and sorted by name.
final class ControllerBenchItem: GraphObject {
    @Attribute var name = ""
    @Attribute var quantity = 0
    @Relationship(inverse: \ControllerBenchLocation.items) var location: ControllerBenchLocation?
}

/// A delegate that keeps the last whole batch, as a list adapter would hand it on: with it,
/// a commit's timing includes the controller's delivery.
final class ControllerBatchListener: ResultsControllerDelegate {
    typealias Object = ControllerBenchItem
    var lastBatch = ListChanges()

    func controller(_ controller: any SectionedResults<ControllerBenchItem>, didChangeContentWith changes: ListChanges) {
        lastBatch = changes
    }
}

/// The keys a baseline reads from each item.
private typealias ItemKeys = (quantity: Int, section: String, name: String, id: ObjectID)

/// The controller's order: section, then name, then identity.
private func keysLess(_ a: ItemKeys, _ b: ItemKeys) -> Bool {
    if a.section != b.section { return a.section < b.section }
    if a.name != b.name { return a.name < b.name }
    return a.id < b.id
}

/// The totals of the totals rows: a sum, a minimum and a count per section, and the
/// controller request that keeps them. Closures read the inputs, as the request's keys do.
private struct FixtureTotals {
    let quantity = Total.sum { (item: ControllerBenchItem) in item.quantity }
    let smallest = Total.minimum { (item: ControllerBenchItem) in item.quantity }
    let count = Total<ControllerBenchItem, Int>.count()

    var request: FetchRequest<ControllerBenchItem> {
        var request = ControllerFixture.request
        request.totals = [AnyTotal(quantity), AnyTotal(smallest), AnyTotal(count)]
        return request
    }
}

/// One million items in 100 locations, committed.
private struct ControllerFixture {
    /// A million, or `FRK_CONTROLLER_ITEMS` when set (a scaled-down run for a profiler).
    static let itemCount = ProcessInfo.processInfo.environment["FRK_CONTROLLER_ITEMS"].flatMap { Int($0) } ?? 1_000_000
    static let locationCount = 100

    let graph = ObjectGraph()
    var locations: [ControllerBenchLocation] = []

    init() {
        var rng = SystemRandomNumberGenerator()
        locations = (0..<Self.locationCount).map { index in
            let location = graph.insert(ControllerBenchLocation())
            location.name = "Location \(index)"
            return location
        }
        for index in 0..<Self.itemCount {
            let item = graph.insert(ControllerBenchItem())
            item.name = "Item \(UInt32.random(in: 0..<UInt32.max, using: &rng))"
            item.quantity = index % 7
            item.location = locations[index % Self.locationCount]
        }
        do { _ = try graph.commit() } catch { fatalError("benchmark fixture failed to commit: \(error)") }
    }

    static var request: FetchRequest<ControllerBenchItem> {
        // Closures read the keys through direct getters; key paths would be projected at run time.
        FetchRequest(ControllerBenchItem.self, predicate: FetchPredicate { $0.quantity >= 0 }, sortedBy: [SortKey { $0.name }],
                     sectionKey: SectionKey { $0.location?.name })
    }

    /// The keys of every item, read once, as a baseline's input.
    func extractedKeys() -> [ItemKeys] {
        graph.withoutObservation {
            graph.objects(of: ControllerBenchItem.self).map { ($0.quantity, $0.location?.name ?? "", $0.name, $0.objectID) }
        }
    }

    /// The baseline of the commit rows: fetch everything again (read keys, filter, sort,
    /// group) and diff the old rows with the new ones.
    func refetchAndDiff(from old: [(section: SortValue, ids: [ObjectID])]) -> (ListChanges, [(section: SortValue, ids: [ObjectID])]) {
        let keys = extractedKeys().filter { (key: ItemKeys) -> Bool in key.quantity >= 0 }.sorted(by: keysLess)
        var new: [(section: SortValue, ids: [ObjectID])] = []
        for key in keys {
            if case .string(key.section)? = new.last?.section {
                new[new.count - 1].ids.append(key.id)
            } else {
                new.append((.string(key.section), [key.id]))
            }
        }
        let changes = try? ListChanges.difference(
            from: old, to: new, sectionID: \.section, rows: \.ids, rowID: { $0 }, rowContentEqual: { _, _ in true })
        return (changes ?? ListChanges(), new)
    }
}

/// Heap bytes in use, or, where the C library's heap statistics are unavailable, the resident
/// set size after returning freed memory to the system (`malloc_trim`), so that transient
/// allocations of a fetch are not counted.
private func retainedBytes() -> Int {
    let heap = allocatedBytes()
    if heap > 0 { return heap }
    typealias Trim = @convention(c) (Int) -> Int32
    if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
          let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
    return kilobytes * 1024
}

/// Times the controller's share of each commit: an observer registered before the
/// controller notes the start of delivery, one registered after it the end, and the median
/// is printed once every run (the warm-up included) has been timed.
private final class DeliveryTimer {
    let row: String
    let expected: Int
    var started: ContinuousClock.Instant?
    var durations: [Duration] = []
    var observations: [GraphObservation] = []

    init(row: String, runs: Int) {
        self.row = row
        expected = runs + 1
    }

    func start(on graph: ObjectGraph) {
        observations.append(graph.addObserver { [unowned self] _ in started = .now })
    }

    func stop(on graph: ObjectGraph) {
        observations.append(graph.addObserver { [unowned self] _ in
            guard let started else { return }
            durations.append(.now - started)
            if durations.count == expected {
                let median = durations.sorted()[durations.count / 2]
                printError("\(row): the controller's share of a commit (delivery to it): median \(median)")
            }
        })
    }
}

/// Writes the changes of one benchmark commit, uncommitted: 100 sort-key updates, 10
/// inserts and 10 deletes.
private final class CommitWriter {
    let fixture: ControllerFixture
    var items: [ControllerBenchItem]
    var rng = SystemRandomNumberGenerator()

    init(_ fixture: ControllerFixture) {
        self.fixture = fixture
        items = fixture.graph.objects(of: ControllerBenchItem.self)
    }

    /// - Parameter quantities: Whether each updated item's quantity changes too (a total
    ///   reads it).
    /// - Returns: The names of the locations of the items it wrote, inserted and deleted.
    @discardableResult
    func write(quantities: Bool = false) -> Set<String> {
        var touched: Set<String> = []
        for _ in 0..<100 {
            let item = items.randomElement(using: &rng)!
            item.name = "Item \(UInt32.random(in: 0..<UInt32.max, using: &rng))"
            if quantities { item.quantity = Int.random(in: 0..<7, using: &rng) }
            touched.insert(item.location?.name ?? "")
        }
        for index in 0..<10 {
            let item = fixture.graph.insert(ControllerBenchItem())
            item.name = "Item \(UInt32.random(in: 0..<UInt32.max, using: &rng))"
            item.location = fixture.locations[index * 7]
            items.append(item)
            touched.insert(item.location?.name ?? "")
        }
        for _ in 0..<10 {
            let index = Int.random(in: 0..<items.count, using: &rng)
            touched.insert(items[index].location?.name ?? "")
            fixture.graph.delete(items[index])
            items.swapAt(index, items.count - 1)
            items.removeLast()
        }
        return touched
    }
}

private func rows(_ controller: some SectionedResults<ControllerBenchItem>) -> [(section: SortValue, ids: [ObjectID])] {
    controller.snapshot.sections.map { ($0.identifier, $0.objectIDs) }
}

/// A controller for `request` on `graph`, its fetch timed by `stopwatch`.
private func measuredFetch(
    _ graph: ObjectGraph, _ request: FetchRequest<ControllerBenchItem>, stopwatch: inout Stopwatch
) -> ResultsController<ControllerBenchItem> {
    let controller = ResultsController(graph: graph, request: request)
    stopwatch.measure { controller.performFetch() }
    return controller
}

/// The controller rows: fetch, commits, a related rename and memory, each against the
/// re-fetch it replaces.
func controllerBenchmarks() -> [Benchmark] {
    [
        Benchmark("controller.fetch.1m", baseline: "filter + sort of pre-extracted keys", runs: 3) {
            let fixture = ControllerFixture()
            let keys = fixture.extractedKeys()
            return .init(
                subject: { stopwatch in blackHole(measuredFetch(fixture.graph, ControllerFixture.request, stopwatch: &stopwatch)) },
                baseline: { stopwatch in
                    stopwatch.measure { () -> [ItemKeys] in
                        keys.filter { (key: ItemKeys) -> Bool in key.quantity >= 0 }.sorted(by: keysLess)
                    }
                }
            )
        },
        // Nine runs a side: the median of five moved by ±15% between invocations on a
        // machine whose speed drifts, more than the changes it was meant to show.
        Benchmark("controller.commit.120.1m", baseline: "re-fetch + diff of the whole list", runs: 9) {
            let fixture = ControllerFixture()
            let timer = DeliveryTimer(row: "controller.commit.120.1m", runs: 9)
            timer.start(on: fixture.graph)
            let controller = ResultsController(graph: fixture.graph, request: ControllerFixture.request)
            controller.performFetch()
            timer.stop(on: fixture.graph)
            let listener = ControllerBatchListener()
            controller.delegate = listener
            var old = rows(controller)
            let writer = CommitWriter(fixture)
            return .init(
                subject: { stopwatch in
                    blackHole(timer)
                    blackHole(listener)
                    writer.write()
                    stopwatch.measure { try? fixture.graph.commit() }
                    precondition(controller.numberOfObjects == ControllerFixture.itemCount, "the commit did not reach the controller")
                },
                baseline: { stopwatch in
                    let (changes, new) = stopwatch.measure { fixture.refetchAndDiff(from: old) }
                    old = new
                    blackHole(changes)
                }
            )
        },
        Benchmark("controller.commit.120.1m.cold", baseline: "a 64 MB cache sweep", runs: 150) {
            // Diagnostic: the commit row's workload with cold caches from a plain sweep
            // instead of a re-fetch, so a profiler sees many cold commits in a short run.
            let fixture = ControllerFixture()
            let controller = ResultsController(graph: fixture.graph, request: ControllerFixture.request)
            controller.performFetch()
            let listener = ControllerBatchListener()
            controller.delegate = listener
            let writer = CommitWriter(fixture)
            var sweep = [Int](repeating: 1, count: 8 << 20)
            return .init(
                subject: { stopwatch in
                    blackHole(listener)
                    writer.write()
                    stopwatch.measure { try? fixture.graph.commit() }
                    precondition(controller.numberOfObjects == ControllerFixture.itemCount, "the commit did not reach the controller")
                },
                baseline: { stopwatch in
                    stopwatch.measure { () -> Int in
                        var sum = 0
                        for index in stride(from: 0, to: sweep.count, by: 8) {
                            sweep[index] &+= 1
                            sum &+= sweep[index]
                        }
                        return sum
                    }
                }
            )
        },
        Benchmark("controller.commit.120.1m.controller-share", baseline: "the same commit, no controller", runs: 15) {
            // Two identical graphs: the subject's has a fetched controller, the baseline's
            // none, so subject − baseline is the controller's share of a commit (the time
            // its delivery takes, which the graph's own commit time does not blur). The
            // direct measurement of that share is printed too.
            let observed = ControllerFixture()
            let plain = ControllerFixture()
            let timer = DeliveryTimer(row: "controller.commit.120.1m.controller-share", runs: 15)
            timer.start(on: observed.graph)
            let controller = ResultsController(graph: observed.graph, request: ControllerFixture.request)
            controller.performFetch()
            timer.stop(on: observed.graph)
            let listener = ControllerBatchListener()
            controller.delegate = listener
            let observedWriter = CommitWriter(observed)
            let plainWriter = CommitWriter(plain)
            return .init(
                subject: { stopwatch in
                    blackHole(timer)
                    blackHole(listener)
                    observedWriter.write()
                    stopwatch.measure { try? observed.graph.commit() }
                    precondition(controller.numberOfObjects == ControllerFixture.itemCount, "the commit did not reach the controller")
                },
                baseline: { stopwatch in
                    plainWriter.write()
                    stopwatch.measure { try? plain.graph.commit() }
                }
            )
        },
        Benchmark("controller.fetch.1m.floor", baseline: "qsort and strcmp of the same keys as bytes", runs: 3) {
            // The fetch against the floor of its sort: each item's section and name, encoded
            // once as one C string that orders as the two strings do (a 0x01 byte between
            // them), sorted by the C library's qsort with strcmp.
            let fixture = ControllerFixture()
            var bytes: [CChar] = []
            var starts: [Int] = []
            for key in fixture.extractedKeys() where key.quantity >= 0 {
                starts.append(bytes.count)
                bytes.append(contentsOf: key.section.utf8.map { CChar(bitPattern: $0) })
                bytes.append(1)
                bytes.append(contentsOf: key.name.utf8.map { CChar(bitPattern: $0) })
                bytes.append(0)
            }
            let count = starts.count
            return .init(
                subject: { stopwatch in
                    let controller = measuredFetch(fixture.graph, ControllerFixture.request, stopwatch: &stopwatch)
                    precondition(controller.numberOfObjects == count, "controller.fetch.1m.floor: the fetch lost rows")
                },
                baseline: { stopwatch in
                    bytes.withUnsafeBufferPointer { storage in
                        var order = starts.map { storage.baseAddress! + $0 }
                        stopwatch.measure {
                            order.withUnsafeMutableBufferPointer { buffer in
                                qsort(buffer.baseAddress!, buffer.count, MemoryLayout<UnsafePointer<CChar>>.stride) { a, b in
                                    strcmp(a!.load(as: UnsafePointer<CChar>.self), b!.load(as: UnsafePointer<CChar>.self))
                                }
                            }
                        }
                        precondition(strcmp(order[0], order[count - 1]) <= 0, "controller.fetch.1m.floor: the keys are not sorted")
                    }
                }
            )
        },
        Benchmark("controller.aggregates.120.1m", baseline: "the changed sections' totals recomputed", runs: 9) {
            // The commit row's commit on a controller that keeps a sum, a minimum and a
            // count per section, against recomputing those of the sections the commit
            // changed from their rows (about every section: 120 changes over 100 of them).
            let fixture = ControllerFixture()
            let totals = FixtureTotals()
            let controller = ResultsController(graph: fixture.graph, request: totals.request)
            controller.performFetch()
            let listener = ControllerBatchListener()
            controller.delegate = listener
            let writer = CommitWriter(fixture)
            return .init(
                subject: { stopwatch in
                    blackHole(listener)
                    writer.write(quantities: true)
                    stopwatch.measure { try? fixture.graph.commit() }
                    precondition(controller.total(totals.count) == ControllerFixture.itemCount, "the commit did not reach the totals")
                },
                baseline: { stopwatch in
                    let touched = writer.write(quantities: true)
                    _ = try? fixture.graph.commit()
                    stopwatch.measure { () -> Int in
                        var check = 0
                        for section in controller.sections where touched.contains(section.name) {
                            var sum = 0
                            var smallest = Int.max
                            var count = 0
                            for item in section.objects {
                                sum &+= item.quantity
                                smallest = min(smallest, item.quantity)
                                count += 1
                            }
                            check &+= sum &+ smallest &+ count
                        }
                        return check
                    }
                }
            )
        },
        Benchmark("controller.aggregates.120.1m.overhead", baseline: "the same commit without totals", runs: 9) {
            // Two identical graphs, each with a controller; the subject's keeps the totals.
            let totalled = ControllerFixture()
            let plain = ControllerFixture()
            let totals = FixtureTotals()
            let withTotals = ResultsController(graph: totalled.graph, request: totals.request)
            withTotals.performFetch()
            let without = ResultsController(graph: plain.graph, request: ControllerFixture.request)
            without.performFetch()
            let (totalledWriter, plainWriter) = (CommitWriter(totalled), CommitWriter(plain))
            return .init(
                subject: { stopwatch in
                    totalledWriter.write(quantities: true)
                    stopwatch.measure { try? totalled.graph.commit() }
                    precondition(withTotals.total(totals.count) == ControllerFixture.itemCount, "the commit did not reach the totals")
                },
                baseline: { stopwatch in
                    plainWriter.write(quantities: true)
                    stopwatch.measure { try? plain.graph.commit() }
                    precondition(without.numberOfObjects == ControllerFixture.itemCount, "the commit did not reach the controller")
                }
            )
        },
        Benchmark("controller.fetch.1m.aggregates", baseline: "the same fetch without totals", runs: 3) {
            let fixture = ControllerFixture()
            let totals = FixtureTotals()
            return .init(
                subject: { stopwatch in blackHole(measuredFetch(fixture.graph, totals.request, stopwatch: &stopwatch)) },
                baseline: { stopwatch in blackHole(measuredFetch(fixture.graph, ControllerFixture.request, stopwatch: &stopwatch)) }
            )
        },
        Benchmark("controller.related-rename.1m", baseline: "re-fetch + diff of the whole list", runs: 5) {
            let fixture = ControllerFixture()
            let timer = DeliveryTimer(row: "controller.related-rename.1m", runs: 5)
            timer.start(on: fixture.graph)
            let controller = ResultsController(graph: fixture.graph, request: ControllerFixture.request)
            controller.performFetch()
            timer.stop(on: fixture.graph)
            let listener = ControllerBatchListener()
            controller.delegate = listener
            var old = rows(controller)
            var renames = 0
            return .init(
                subject: { stopwatch in
                    blackHole(timer)
                    blackHole(listener)
                    // Renaming one location re-sections its 10,000 items.
                    renames += 1
                    fixture.locations[42].name = renames % 2 == 0 ? "Location 42" : "Location 99½"
                    stopwatch.measure { try? fixture.graph.commit() }
                    precondition(controller.sections.count == 100, "the rename did not reach the controller")
                },
                baseline: { stopwatch in
                    let (changes, new) = stopwatch.measure { fixture.refetchAndDiff(from: old) }
                    old = new
                    blackHole(changes)
                }
            )
        },
        Benchmark("controller.memory", baseline: "object(at:) vs. an array of the objects", runs: 3) {
            let fixture = ControllerFixture()
            let controller = ResultsController(graph: fixture.graph, request: ControllerFixture.request)
            controller.performFetch()
            let objects = controller.fetchedObjects
            let paths = controller.sections.enumerated().flatMap { section, info in
                stride(from: 0, to: info.numberOfObjects, by: 997).map { IndexPath(row: $0, section: section) }
            }
            var starts: [Int] = [0]
            for section in controller.sections { starts.append(starts[starts.count - 1] + section.numberOfObjects) }
            let flat = paths.map { starts[$0.section] + $0.row }
            return .init(
                subject: { stopwatch in
                    stopwatch.measure { () -> Int in paths.reduce(0) { $0 &+ controller.object(at: $1).quantity } }
                },
                baseline: { stopwatch in
                    stopwatch.measure { () -> Int in flat.reduce(0) { $0 &+ objects[$1].quantity } }
                },
                memory: {
                    // Bytes the controller holds beyond the graph and its objects, per fetched
                    // object; the baseline is an array of the fetched objects.
                    let arrayStart = retainedBytes()
                    let array = fixture.graph.objects(of: ControllerBenchItem.self)
                    let arrayBytes = retainedBytes() - arrayStart
                    let start = retainedBytes()
                    let fresh = ResultsController(graph: fixture.graph, request: ControllerFixture.request)
                    fresh.performFetch()
                    let controllerBytes = retainedBytes() - start
                    blackHole(fresh)
                    blackHole(array)
                    let count = Double(objects.count)
                    return (Double(controllerBytes) / count, Double(arrayBytes) / count)
                }
            )
        },
    ]
}
