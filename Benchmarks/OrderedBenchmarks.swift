import FetchedResults
import Foundation

/// The commits a benchmark captured, to hand to a controller that does not observe the graph.
final class CommitLog {
    var changes: [GraphChanges] = []
}

/// The hand-ordered list of the ordered benchmarks.
final class OrderedBenchList: GraphObject {
    @Relationship var entries: [OrderedBenchEntry]
}

/// One member of the list, in one of ten aisles (the section key).
final class OrderedBenchEntry: GraphObject {
    @Attribute var name = ""
    @Attribute var aisle = ""
    @Relationship(inverse: \OrderedBenchList.entries) var list: OrderedBenchList?
}

/// A sectioned list of rows, as the baseline re-fetches it.
private typealias Rows = [(section: SortValue, ids: [ObjectID])]

/// A committed list of `count` members in ten aisles.
private struct OrderedFixture {
    let graph = ObjectGraph()
    let list: OrderedBenchList

    init(count: Int) {
        list = graph.insert(OrderedBenchList())
        list.entries = (0..<count).map { index in
            let entry = graph.insert(OrderedBenchEntry())
            entry.name = "Entry \(index)"
            entry.aisle = "Aisle \(index % 10)"
            return entry
        }
        do { _ = try graph.commit() } catch { fatalError("benchmark fixture failed to commit: \(error)") }
    }

    /// Moves one random member of the relationship to a random place and commits.
    func moveOneMember(using rng: inout some RandomNumberGenerator) -> OrderedBenchEntry {
        var entries = list.entries
        let moved = entries.remove(at: Int.random(in: 0..<entries.count, using: &rng))
        entries.insert(moved, at: Int.random(in: 0...entries.count, using: &rng))
        list.entries = entries
        do { _ = try graph.commit() } catch { fatalError("benchmark commit failed: \(error)") }
        return moved
    }

    /// The baseline: read the relationship again, group it by aisle in relationship order
    /// (aisles sorted), and diff the old rows with the new ones.
    func refetchAndDiff(from old: Rows) -> (ListChanges, Rows) {
        let keyed = graph.withoutObservation { list.entries.map { ($0.aisle, $0.objectID) } }
        var bySection: [String: [ObjectID]] = [:]
        for (aisle, id) in keyed { bySection[aisle, default: []].append(id) }
        let new: Rows = bySection.sorted { $0.key < $1.key }.map { (SortValue.string($0.key), $0.value) }
        let changes = try? ListChanges.difference(
            from: old, to: new, sectionID: \.section, rows: \.ids, rowID: { $0 }, rowContentEqual: { _, _ in true })
        return (changes ?? ListChanges(), new)
    }
}

/// The ordered-list rows: a reorder of a long relationship, against the re-fetch it replaces.
func orderedBenchmarks() -> [Benchmark] {
    [
        Benchmark(
            "ordered.reorder.100k",
            baseline: "re-read the relationship, group it, ListChanges.difference (both sides exclude the graph's write and commit)"
        ) {
            let fixture = OrderedFixture(count: 100_000)
            let controller = OrderedResultsController(
                graph: fixture.graph, owner: fixture.list, relationship: \.entries, sectionKey: SectionKey { $0.aisle })
            controller.performFetch()
            // The controller stops observing the graph; the benchmark hands it each commit
            // itself, so only the controller's update is timed, not the graph's commit.
            controller.observation?.cancel()
            controller.observation = nil
            let commits = CommitLog()
            let capture = fixture.graph.addObserver { commits.changes.append($0) }
            var rng = SystemRandomNumberGenerator()
            return .init(
                subject: { stopwatch in
                    // The baseline's commits first, untimed, so only this move's is timed.
                    for changes in commits.changes { controller.apply(changes) }
                    commits.changes = []
                    let moved = fixture.moveOneMember(using: &rng)
                    let waiting = commits.changes
                    commits.changes = []
                    stopwatch.measure { for changes in waiting { controller.apply(changes) } }
                    withExtendedLifetime(capture) {}
                    precondition(controller.indexPath(for: moved) != nil && controller.numberOfObjects == 100_000,
                                 "the move did not reach the controller")
                },
                baseline: { stopwatch in
                    // The rows before the move, as the view shows them (not timed).
                    let old: Rows = controller.snapshot.sections.map { ($0.identifier, $0.objectIDs) }
                    _ = fixture.moveOneMember(using: &rng)
                    let (changes, new) = stopwatch.measure { fixture.refetchAndDiff(from: old) }
                    precondition(changes.movedRows.count <= 1 && changes.insertedRows.isEmpty, "the baseline diff is not one move")
                    blackHole((changes, new))
                }
            )
        },
    ]
}
