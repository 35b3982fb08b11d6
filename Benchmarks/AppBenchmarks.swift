import FetchedResults
import Foundation

// The app group: a real app's load. One million items in 50 locations and four controllers
// on one graph, as an app keeps them: the whole list, a short top-200 list, a filtered list
// with a closure section key, and a search over the whole list.

/// A location of the app rows: 50 of them, each holding 20,000 items.
final class AppLocation: GraphObject {
    @Attribute var name = ""
    @Relationship var items: Set<AppItem>
}

/// An item of the app rows.
final class AppItem: GraphObject {
    @Attribute var name = ""
    @Attribute var quantity = 0
    @Attribute var price = 0.0
    @Attribute var listed = false
    @Relationship(inverse: \AppLocation.items) var location: AppLocation?
}

/// A delegate that keeps the last whole batch, as a list adapter would hand it on.
final class AppBatchListener: ResultsControllerDelegate {
    typealias Object = AppItem
    var lastBatch = ListChanges()
    /// Called after each batch: the end of the controller's own share of a commit, when a
    /// search over it hears of the commit next (see `ShareTimer`).
    var didDeliver: (() -> Void)?

    func controller(_ controller: ResultsController<AppItem>, didChangeContentWith changes: ListChanges) {
        lastBatch = changes
        didDeliver?()
    }
}

/// A reproducible generator (SplitMix64), so that every graph of a row holds the same items.
private struct AppRandom: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Grocery words: about one name in five contains "ap" (apples, grapes, papaya, …).
private let appWords = [
    "Apples", "Grapes", "Papaya", "Apricots", "Soap", "Bread", "Milk", "Butter", "Cheese", "Eggs", "Flour", "Sugar",
    "Salt", "Pepper", "Rice", "Pasta", "Beans", "Lentils", "Tea", "Coffee", "Juice", "Yogurt", "Honey", "Jam",
    "Oats", "Tomatoes", "Onions", "Garlic", "Carrots", "Spinach", "Lettuce", "Lemons", "Oranges", "Bananas",
    "Cherries", "Almonds", "Walnuts", "Crème", "Pâté", "Jalapeños",
]

/// A graph of the app rows: items in 50 locations, committed, made the same for a seed.
struct AppGraph {
    /// A million, or `FRK_APP_ITEMS` when set (a scaled-down run for a profiler).
    static let itemCount = ProcessInfo.processInfo.environment["FRK_APP_ITEMS"].flatMap { Int($0) } ?? 1_000_000
    static let locationCount = 50

    let graph: ObjectGraph
    let locations: [AppLocation]

    /// Populates `graph` (by default a new one) and commits.
    init(graph: ObjectGraph = ObjectGraph(), seed: UInt64 = 0xA11) {
        self.graph = graph
        var random = AppRandom(state: seed)
        locations = (0..<Self.locationCount).map { index in
            let location = graph.insert(AppLocation())
            location.name = "Location \(index)"
            return location
        }
        for index in 0..<Self.itemCount {
            let item = graph.insert(AppItem())
            item.name = Self.name(using: &random)
            item.quantity = Int.random(in: 0..<100, using: &random)
            item.price = Double(Int.random(in: 1..<100_000, using: &random)) / 100
            item.listed = Bool.random(using: &random)
            item.location = locations[index % Self.locationCount]
        }
        do { _ = try graph.commit() } catch { fatalError("app fixture failed to commit: \(error)") }
    }

    /// The app rows of a graph that holds them already (a store's, once opened).
    init(holding graph: ObjectGraph) {
        self.graph = graph
        locations = graph.objects(of: AppLocation.self).sorted {
            $0.name.localizedStandardCompare($1.name) == .orderedAscending
        }
    }

    /// A name of two words and a number, such as "Grapes Honey 412".
    static func name(using random: inout some RandomNumberGenerator) -> String {
        "\(appWords.randomElement(using: &random)!) \(appWords.randomElement(using: &random)!) \(Int.random(in: 0..<1000, using: &random))"
    }

    /// All items, sorted by name as a person reads it, sectioned by their location's name.
    static var allItems: FetchRequest<AppItem> {
        FetchRequest(AppItem.self, sortedBy: [SortKey(\.name, comparison: .localizedStandard)], sectionKey: SectionKey(\.location?.name))
    }

    /// The 200 cheapest items with more than 50 in stock.
    static var cheapest: FetchRequest<AppItem> {
        FetchRequest(AppItem.self, predicate: FetchPredicate { $0.quantity > 50 }, sortedBy: [SortKey(\.price)], fetchLimit: 200)
    }

    /// Listed items, sorted by quantity then name, sectioned by the name's first letter.
    static var listed: FetchRequest<AppItem> {
        FetchRequest(AppItem.self, predicate: FetchPredicate { $0.listed }, sortedBy: [SortKey(\.quantity), SortKey(\.name)],
                     sectionKey: SectionKey { $0.name.first.map(String.init) ?? "" })
    }

    /// The search text of the app's search controller.
    static let searchText = "ap"

    /// A fetched controller of `request`, with a whole-batch listener.
    func controller(_ request: FetchRequest<AppItem>) -> (ResultsController<AppItem>, AppBatchListener) {
        let controller = ResultsController(graph: graph, request: request)
        controller.performFetch()
        let listener = AppBatchListener()
        controller.delegate = listener
        return (controller, listener)
    }

    /// The search controller over `base`, with a whole-batch listener.
    func search(over base: ResultsController<AppItem>) -> (SearchController<AppItem>, AppBatchListener) {
        let search = SearchController(base: base, searching: \.name, searchText: Self.searchText)
        let listener = AppBatchListener()
        search.delegate = listener
        return (search, listener)
    }

    /// Renames one location (20,000 items change sections in two controllers) and commits.
    func rename(round: Int) {
        locations[21].name = round % 2 == 0 ? "Location 21" : "Location 99½"
        do { _ = try graph.commit() } catch { fatalError("app rename failed to commit: \(error)") }
    }
}

/// The four controllers of the app, fetched on one graph.
struct AppControllers {
    let all: ResultsController<AppItem>
    let cheapest: ResultsController<AppItem>
    let listed: ResultsController<AppItem>
    let search: SearchController<AppItem>
    let listeners: [AppBatchListener]

    init(on app: AppGraph) {
        let (all, allListener) = app.controller(AppGraph.allItems)
        let (cheapest, cheapestListener) = app.controller(AppGraph.cheapest)
        let (listed, listedListener) = app.controller(AppGraph.listed)
        let (search, searchListener) = app.search(over: all)
        self.all = all
        self.cheapest = cheapest
        self.listed = listed
        self.search = search
        listeners = [allListener, cheapestListener, listedListener, searchListener]
    }
}

/// Times one observer's delivery: an observer registered before it notes the start, one
/// registered after it the end. A search hears of each commit inside its base's observer,
/// right after the base's delivery: its share starts at the base delegate's last callback
/// (`startAfterDelivery(of:)`), which must come each commit (the rows that use it change the
/// base at every commit).
final class ShareTimer {
    var started: Duration?
    var last: Duration = .zero
    var observations: [GraphObservation] = []

    func start(on graph: ObjectGraph) {
        observations.append(graph.addObserver { [unowned self] _ in started = BenchmarkClock.now })
    }

    /// Starts at the end of each delivery of `listener`'s controller (after what it did before).
    func startAfterDelivery(of listener: AppBatchListener) {
        let previous = listener.didDeliver
        listener.didDeliver = { [unowned self] in
            previous?()
            started = BenchmarkClock.now
        }
    }

    /// Ends at the end of each delivery of `listener`'s controller.
    func stopAfterDelivery(of listener: AppBatchListener) {
        let previous = listener.didDeliver
        listener.didDeliver = { [unowned self] in
            if let started { last = BenchmarkClock.now - started }
            previous?()
        }
    }

    func stop(on graph: ObjectGraph) {
        observations.append(graph.addObserver { [unowned self] _ in
            if let started { last = BenchmarkClock.now - started }
        })
    }
}

/// Makes one small commit (1–3 writes, as an app's edits are) on the app's graph.
private final class SmallCommitWriter {
    let app: AppGraph
    var items: [AppItem]
    var random = AppRandom(state: 0x5EED)

    init(_ app: AppGraph) {
        self.app = app
        items = app.graph.objects(of: AppItem.self)
    }

    /// Writes 1–3 changes, uncommitted: attribute edits, a move to another location, and
    /// now and then an insert or a delete.
    func write() {
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let index = Int.random(in: 0..<items.count, using: &random)
            let item = items[index]
            switch Int.random(in: 0..<20, using: &random) {
            case 0..<6: item.name = AppGraph.name(using: &random)
            case 6..<10: item.quantity = Int.random(in: 0..<100, using: &random)
            case 10..<13: item.price = Double(Int.random(in: 1..<100_000, using: &random)) / 100
            case 13..<16: item.listed.toggle()
            case 16..<18: item.location = app.locations.randomElement(using: &random)
            case 18:
                let new = app.graph.insert(AppItem())
                new.name = AppGraph.name(using: &random)
                new.quantity = Int.random(in: 0..<100, using: &random)
                new.location = app.locations.randomElement(using: &random)
                items.append(new)
            default:
                app.graph.delete(item)
                items.swapAt(index, items.count - 1)
                items.removeLast()
            }
        }
    }
}

/// The app rows: four controllers on a million items, each row against its single-controller
/// figures (or, for the tail of small commits, their median) from the same run.
func appBenchmarks() -> [Benchmark] {
    [
        Benchmark("app.fetch.4controllers.1m", baseline: "the sum of the four controllers' single fetches", runs: 3) {
            let app = AppGraph()
            return .init(
                subject: { stopwatch in
                    let controllers = stopwatch.measure { AppControllers(on: app) }
                    precondition(controllers.search.numberOfObjects > 0, "app.fetch: the search found nothing")
                },
                baseline: { stopwatch in
                    // Each alone on the graph; the search over a base fetched outside the timing.
                    for request in [AppGraph.allItems, AppGraph.cheapest, AppGraph.listed] {
                        let controller = stopwatch.measure { app.controller(request) }
                        blackHole(controller)
                    }
                    let (base, listener) = app.controller(AppGraph.allItems)
                    let search = stopwatch.measure { app.search(over: base) }
                    blackHole(search)
                    blackHole(listener)
                }
            )
        },
        Benchmark("app.related-rename.1m", baseline: "the sum of the four single-controller renames", runs: 5) {
            // The subject's graph holds the four controllers; the baseline's four graphs (the
            // same items) one controller each, the search's with its base, whose share is
            // timed by observers around the search's.
            let app = AppGraph()
            let controllers = AppControllers(on: app)
            let singles = [AppGraph.allItems, AppGraph.cheapest, AppGraph.listed].map { request in
                let single = AppGraph()
                return (single, single.controller(request))
            }
            let searched = AppGraph()
            let searchBase = searched.controller(AppGraph.allItems)
            let timer = ShareTimer()
            timer.startAfterDelivery(of: searchBase.1)
            let search = searched.search(over: searchBase.0)
            timer.stop(on: searched.graph)
            var round = 0
            return .init(
                subject: { stopwatch in
                    round += 1
                    stopwatch.measure { app.rename(round: round) }
                    precondition(controllers.all.sections.count == AppGraph.locationCount, "app.related-rename: the rename was lost")
                },
                baseline: { stopwatch in
                    for (single, controller) in singles {
                        stopwatch.measure { single.rename(round: round) }
                        blackHole(controller)
                    }
                    searched.rename(round: round)
                    stopwatch.record(timer.last)
                    blackHole(search)
                    blackHole(searchBase)
                }
            )
        },
        Benchmark("app.commit.small.tail", baseline: "the median of the same commits", runs: 3) {
            // The subject is the 99.9th percentile of 10,000 small commits with the four
            // controllers attached, the baseline their median. Every 500 commits the search
            // text is cleared or set again (untimed), as a person types and clears it: the
            // first commit after each change is among the timed ones.
            let app = AppGraph()
            let controllers = AppControllers(on: app)
            let writer = SmallCommitWriter(app)
            var median: Duration = .zero
            var worst: Duration = .zero
            return .init(
                subject: { stopwatch in
                    var times: [Duration] = []
                    times.reserveCapacity(10_000)
                    for commit in 0..<10_000 {
                        if commit % 500 == 0 {
                            controllers.search.searchText = controllers.search.searchText.isEmpty ? AppGraph.searchText : ""
                        }
                        writer.write()
                        let start = BenchmarkClock.now
                        do { _ = try app.graph.commit() } catch { fatalError("app small commit failed: \(error)") }
                        times.append(BenchmarkClock.now - start)
                    }
                    times.sort()
                    median = times[times.count / 2]
                    worst = times[times.count - 1]
                    stopwatch.record(times[times.count * 999 / 1000])
                    blackHole(controllers)
                },
                baseline: { stopwatch in
                    printError("app.commit.small.tail: worst commit of the last run \(worst)")
                    stopwatch.record(median)
                }
            )
        },
    ]
}
