import ObjectGraph

// The graph group: inserting, committing, reading and the memory of objects, each against a
// plain Swift class with the same stored properties.

/// A location of the benchmark model.
final class BenchLocation: GraphObject {
    @Attribute var name = ""
    @Relationship var items: Set<BenchItem>
}

/// An item: three attributes and a to-one relationship whose inverse is a to-many.
final class BenchItem: GraphObject {
    @Attribute var name = ""
    @Attribute var quantity = 0
    @Attribute var listed = false
    @Relationship(inverse: \BenchLocation.items) var location: BenchLocation?
}

/// An item whose to-one relationship has no inverse: inserting it maintains no set.
private final class BenchNote: GraphObject {
    @Attribute var name = ""
    @Attribute var quantity = 0
    @Attribute var listed = false
    @Relationship var location: BenchLocation?
}

/// The baseline: the same stored properties in a plain class.
private final class PlainLocation {
    var name = ""
}

/// The baseline item.
private final class PlainItem {
    var name: String
    var quantity: Int
    var listed: Bool
    var location: PlainLocation?

    init(name: String, quantity: Int, listed: Bool, location: PlainLocation?) {
        self.name = name
        self.quantity = quantity
        self.listed = listed
        self.location = location
    }
}

let million = 1_000_000
let locationCount = 100

/// Inserts `count` items spread over `locationCount` locations and commits them.
func populate(_ graph: ObjectGraph, count: Int) -> [BenchItem] {
    let locations = (0..<locationCount).map { index in
        let location = graph.insert(BenchLocation())
        location.name = "Location \(index)"
        return location
    }
    var items: [BenchItem] = []
    items.reserveCapacity(count)
    for index in 0..<count {
        let item = BenchItem()
        item.name = "Item"
        item.quantity = index
        item.listed = index & 1 == 0
        graph.insert(item)
        item.location = locations[index % locationCount]
        items.append(item)
    }
    do {
        try graph.commit()
    } catch {
        preconditionFailure("the benchmark's commit failed: \(error)")
    }
    return items
}

/// The import rows' batch: `count` items spread over `locationCount` locations, with the
/// values `populate` gives them, the locations inserted by the same batch.
func importBatch(count: Int) -> GraphBatch {
    var batch = GraphBatch()
    let locations = (0..<locationCount).map { index in
        batch.insert(BenchLocation.self, values: ["name": "Location \(index)"])
    }
    for index in 0..<count {
        batch.insert(
            BenchItem.self, values: ["name": "Item", "quantity": index, "listed": index & 1 == 0],
            relationships: ["location": [locations[index % locationCount]]])
    }
    return batch
}

/// Applies an import batch of `count` items to a new graph, timing the apply (with a
/// progress handler, as an import has); the batch is given as its last use.
private func importIntoGraph(_ batch: consuming GraphBatch, _ stopwatch: inout Stopwatch, count: Int) {
    let graph = ObjectGraph()
    var owned = Optional(batch)
    var reports = 0
    stopwatch.measure {
        do {
            try graph.apply(owned.take()!) { _ in reports += 1 }
        } catch {
            preconditionFailure("the benchmark's import failed: \(error)")
        }
    }
    precondition(graph.count(of: BenchItem.self) == count && reports > 2)
}

/// Inserts `count` notes (a to-one relationship without inverse) and commits them.
private func populateNotes(_ graph: ObjectGraph, count: Int) -> [BenchNote] {
    let locations = (0..<locationCount).map { _ in graph.insert(BenchLocation()) }
    var notes: [BenchNote] = []
    notes.reserveCapacity(count)
    for index in 0..<count {
        let note = BenchNote()
        note.name = "Note"
        note.quantity = index
        note.listed = index & 1 == 0
        graph.insert(note)
        note.location = locations[index % locationCount]
        notes.append(note)
    }
    do {
        try graph.commit()
    } catch {
        preconditionFailure("the benchmark's commit failed: \(error)")
    }
    return notes
}

/// A graph of `count` items in `locationCount` locations (committed) and the writes of one
/// controller-style commit on it: 100 name updates, 10 deletes (each removing an item from
/// its location's 1/100 share of the items) and 10 inserts related to a location.
final class CommitShape {
    let graph: ObjectGraph
    var items: [BenchItem]
    let locations: [BenchLocation]
    var rng = SystemRandomNumberGenerator()
    var round = 0

    convenience init(count: Int) {
        self.init(graph: ObjectGraph(), count: count)
    }

    /// Populates `graph` (an empty one, possibly a store's) with `count` items.
    init(graph: ObjectGraph, count: Int) {
        self.graph = graph
        items = populate(graph, count: count)
        locations = graph.objects(of: BenchLocation.self)
    }

    /// A shape over a graph that holds its items already.
    init(graph: ObjectGraph, items: [BenchItem], locations: [BenchLocation]) {
        self.graph = graph
        self.items = items
        self.locations = locations
    }

    /// The items the last ``write()`` deleted.
    var lastDeleted: [BenchItem] = []

    /// Makes the 120 writes; they stay pending.
    func write() {
        round += 1
        lastDeleted = []
        for _ in 0..<100 { items.randomElement(using: &rng)!.name = "Item \(round) \(UInt32.random(in: 0..<UInt32.max, using: &rng))" }
        for _ in 0..<10 {
            // Committed items only: an item inserted and deleted in one transaction is no change.
            let index = Int.random(in: 0..<items.count, using: &rng)
            lastDeleted.append(items[index])
            graph.delete(items[index])
            items.swapAt(index, items.count - 1)
            items.removeLast()
        }
        for index in 0..<10 {
            let item = graph.insert(BenchItem())
            item.name = "New \(round)"
            item.location = locations[index * 7]
            items.append(item)
        }
    }

    /// Takes the last ``write()``'s inserts and deletes back out of `items`, after an undo of
    /// its commit.
    func undidLastWrite() {
        items.removeLast(10)
        items.append(contentsOf: lastDeleted)
    }

    /// Commits the writes.
    func commit() -> GraphChanges? {
        do {
            return try graph.commit()
        } catch {
            preconditionFailure("the benchmark's commit failed: \(error)")
        }
    }
}

/// Makes `count` plain items spread over `locationCount` plain locations.
private func plainItems(count: Int) -> [PlainItem] {
    let locations = (0..<locationCount).map { _ in PlainLocation() }
    var items: [PlainItem] = []
    items.reserveCapacity(count)
    for index in 0..<count {
        items.append(PlainItem(name: "Item", quantity: index, listed: index & 1 == 0, location: locations[index % locationCount]))
    }
    return items
}

/// Bytes retained per object by `make`, which returns what keeps `count` objects alive.
private func bytesPerObject<Kept>(count: Int, _ make: () -> Kept) -> Double {
    let before = allocatedBytes()
    let kept = make()
    let after = allocatedBytes()
    withExtendedLifetime(kept) {}
    return Double(after - before) / Double(count)
}

// The read loops are separate functions that the optimizer cannot move out of the timed region.

@inline(never)
private func sumPlain(_ items: [PlainItem]) -> Int {
    var sum = 0
    for item in items { sum &+= item.quantity }
    return sum
}

@inline(never)
private func sumGetter(_ items: [BenchItem]) -> Int {
    var sum = 0
    for item in items { sum &+= item.quantity }
    return sum
}

@inline(never)
private func sumWithReader(_ items: [BenchItem], _ quantity: PropertyReader<BenchItem, Int>) -> Int {
    var sum = 0
    for item in items { sum &+= quantity(item) }
    return sum
}

func graphBenchmarks() -> [Benchmark] {
    [
        Benchmark("graph.insert.1m", baseline: "1M plain-class instances", runs: 5) {
            // Each side starts from a trimmed heap (as do the other insert rows): the pages
            // the other side freed do not count for or against it (glibc keeps or returns them
            // depending on what sits on top of the heap, which moved the baseline between 45
            // and 108 ms).
            .init(
                subject: { stopwatch in
                    releaseFreedMemory()
                    let graph = ObjectGraph()
                    let items = stopwatch.measure { populate(graph, count: million) }
                    precondition(items.count == million && graph.count(of: BenchItem.self) == million)
                },
                baseline: { stopwatch in
                    releaseFreedMemory()
                    _ = stopwatch.measure { plainItems(count: million) }
                }
            )
        },
        Benchmark("graph.insert.100k", baseline: "100k plain-class instances", runs: 1) {
            // A small size of graph.insert.1m, for profiling under callgrind.
            .init(
                subject: { stopwatch in
                    releaseFreedMemory()
                    let graph = ObjectGraph()
                    let items = stopwatch.measure { populate(graph, count: 100_000) }
                    precondition(items.count == 100_000)
                },
                baseline: { stopwatch in
                    releaseFreedMemory()
                    _ = stopwatch.measure { plainItems(count: 100_000) }
                }
            )
        },
        Benchmark("graph.import.1m", baseline: "graph.insert.1m's populate of the same objects", runs: 5) {
            // store.import.1m without a store: the cost of applying a GraphBatch (built
            // untimed) to a graph, against the populate of the same objects by their properties.
            .init(
                subject: { stopwatch in
                    let batch = importBatch(count: million)
                    releaseFreedMemory()
                    importIntoGraph(batch, &stopwatch, count: million)
                },
                baseline: { stopwatch in
                    releaseFreedMemory()
                    let graph = ObjectGraph()
                    let items = stopwatch.measure { populate(graph, count: million) }
                    precondition(items.count == million)
                }
            )
        },
        Benchmark("graph.import.100k", baseline: "graph.insert.100k's populate of the same objects", runs: 1) {
            // A small size of graph.import.1m, for profiling under callgrind.
            .init(
                subject: { stopwatch in
                    let batch = importBatch(count: 100_000)
                    releaseFreedMemory()
                    importIntoGraph(batch, &stopwatch, count: 100_000)
                },
                baseline: { stopwatch in
                    releaseFreedMemory()
                    let graph = ObjectGraph()
                    let items = stopwatch.measure { populate(graph, count: 100_000) }
                    precondition(items.count == 100_000)
                }
            )
        },
        Benchmark("graph.insert.noinverse.1m", baseline: "1M plain-class instances", runs: 5) {
            .init(
                subject: { stopwatch in
                    releaseFreedMemory()
                    let graph = ObjectGraph()
                    let notes = stopwatch.measure { populateNotes(graph, count: million) }
                    precondition(notes.count == million)
                },
                baseline: { stopwatch in
                    releaseFreedMemory()
                    _ = stopwatch.measure { plainItems(count: million) }
                }
            )
        },
        Benchmark("graph.commit.updates.10k", baseline: "plain writes + a dictionary change log") {
            let graph = ObjectGraph()
            let items = populate(graph, count: 10_000)
            let plain = plainItems(count: 10_000)
            var round = 0
            return .init(
                subject: { stopwatch in
                    round += 1
                    let value = -round  // differs from every quantity set so far
                    let changes = stopwatch.measure { () -> GraphChanges? in
                        for item in items { item.quantity = value }
                        return try? graph.commit()
                    }
                    precondition(changes?.updated.count == items.count)
                },
                baseline: { stopwatch in
                    round += 1
                    let value = round
                    _ = stopwatch.measure { () -> [ObjectIdentifier: Set<String>] in
                        var log: [ObjectIdentifier: Set<String>] = [:]
                        for item in plain {
                            item.quantity = value
                            log[ObjectIdentifier(item), default: []].insert("quantity")
                        }
                        return log
                    }
                }
            )
        },
        Benchmark("graph.commit.120.1m", baseline: "the same commit on a graph of 10k objects", runs: 9) {
            // The commit alone (the writes are made before the timed region); a ratio near 1
            // means its cost depends on the number of changes, not on the graph's size.
            let large = CommitShape(count: million)
            let small = CommitShape(count: 10_000)
            return .init(
                subject: { stopwatch in
                    large.write()
                    let changes = stopwatch.measure { large.commit() }
                    precondition(changes?.deleted.count == 10)
                },
                baseline: { stopwatch in
                    small.write()
                    let changes = stopwatch.measure { small.commit() }
                    precondition(changes?.deleted.count == 10)
                }
            )
        },
        Benchmark("graph.undo.120.1m", baseline: "the original commit of the same 120 changes", runs: 9) {
            // Each subject run commits a fresh 120-change commit (untimed) and times its undo:
            // one commit that brings 10 deleted items back with their IDs and relationships,
            // deletes the 10 inserted ones and restores 100 names.
            let shape = CommitShape(count: million)
            let undo = GraphUndoManager(levelsOfUndo: 32)
            shape.graph.undoManager = undo
            return .init(
                subject: { stopwatch in
                    shape.write()
                    _ = shape.commit()
                    let changes = stopwatch.measure { () -> Bool in
                        do {
                            try undo.undo()
                            return true
                        } catch {
                            preconditionFailure("the benchmark's undo failed: \(error)")
                        }
                    }
                    precondition(changes && shape.graph.count(of: BenchItem.self) == shape.items.count)
                    shape.undidLastWrite()
                },
                baseline: { stopwatch in
                    shape.write()
                    let changes = stopwatch.measure { shape.commit() }
                    precondition(changes?.deleted.count == 10)
                },
                memory: {
                    // The heap one recorded commit adds, per change, with and without the
                    // undo manager: what the undo stack keeps per change, and the commit's own.
                    func growth(recording: Bool) -> Double {
                        shape.graph.undoManager = recording ? undo : nil
                        defer { shape.graph.undoManager = undo }
                        shape.write()
                        let before = allocatedBytes()
                        _ = shape.commit()
                        return Double(allocatedBytes() - before) / 120
                    }
                    return (growth(recording: true), growth(recording: false))
                }
            )
        },
        Benchmark("graph.transaction.120.1m", baseline: "the same transaction on a graph of 10k objects", runs: 9) {
            // The same shape, writes included (a first write to a committed relationship
            // keeps what it needs to roll back).
            let large = CommitShape(count: million)
            let small = CommitShape(count: 10_000)
            return .init(
                subject: { stopwatch in
                    let changes = stopwatch.measure { () -> GraphChanges? in
                        large.write()
                        return large.commit()
                    }
                    precondition(changes?.deleted.count == 10)
                },
                baseline: { stopwatch in
                    let changes = stopwatch.measure { () -> GraphChanges? in
                        small.write()
                        return small.commit()
                    }
                    precondition(changes?.deleted.count == 10)
                }
            )
        },
        Benchmark("graph.read.1m", baseline: "a plain stored property") {
            let graph = ObjectGraph()
            let items = populate(graph, count: million)
            let plain = plainItems(count: million)
            guard let quantity = PropertyReader(\BenchItem.quantity) else { preconditionFailure("no reader") }
            return .init(
                subject: { stopwatch in _ = stopwatch.measure { sumWithReader(items, quantity) } },
                baseline: { stopwatch in _ = stopwatch.measure { sumPlain(plain) } }
            )
        },
        Benchmark("graph.read.untracked.1m", baseline: "a plain stored property") {
            let graph = ObjectGraph()
            let items = populate(graph, count: million)
            let plain = plainItems(count: million)
            return .init(
                subject: { stopwatch in _ = stopwatch.measure { graph.withoutObservation { sumGetter(items) } } },
                baseline: { stopwatch in _ = stopwatch.measure { sumPlain(plain) } }
            )
        },
        Benchmark("graph.read.observable.1m", baseline: "a plain stored property") {
            let graph = ObjectGraph()
            let items = populate(graph, count: million)
            let plain = plainItems(count: million)
            return .init(
                subject: { stopwatch in _ = stopwatch.measure { sumGetter(items) } },
                baseline: { stopwatch in _ = stopwatch.measure { sumPlain(plain) } }
            )
        },
        Benchmark("graph.memory", baseline: "a plain class with the same stored properties", runs: 3) {
            let count = 200_000
            return .init(
                subject: { stopwatch in
                    let graph = ObjectGraph()
                    _ = stopwatch.measure { populate(graph, count: count) }
                },
                baseline: { stopwatch in
                    _ = stopwatch.measure { plainItems(count: count) }
                },
                memory: {
                    let subject = bytesPerObject(count: million) { () -> (ObjectGraph, [BenchItem]) in
                        let graph = ObjectGraph()
                        return (graph, populate(graph, count: million))
                    }
                    let baseline = bytesPerObject(count: million) { plainItems(count: million) }
                    return (subject, baseline)
                }
            )
        },
    ]
}
