import FetchedResults
import Foundation
import ObjectGraph

/// Rows for format-predicate search over folded text.
func searchBenchmarks() -> [Benchmark] {
    [
        Benchmark(
            "search.contains-cd.1m",
            baseline: "range(of:options: [.caseInsensitive, .diacriticInsensitive]) per name",
            runs: 5
        ) {
            let items = SearchItem.generate(count: 1_000_000)
            let entity = PredicateEntity<SearchItem>("Item").attribute("name", { $0.name }, folded: { $0.foldedName })
            let predicate = try! FormatPredicate.bind("name CONTAINS[cd] %@", to: entity, "j")
            // Every name is folded once, when it is set.
            let expected = items.reduce(0) { $0 + (predicate.evaluate($1) ? 1 : 0) }
            return .init(
                subject: { stopwatch in
                    let count = stopwatch.measure { items.reduce(0) { $0 + (predicate.evaluate($1) ? 1 : 0) } }
                    precondition(count == expected, "search.contains-cd.1m: the subject's count changed")
                },
                baseline: { stopwatch in
                    let count = stopwatch.measure {
                        items.reduce(0) { count, item in
                            count + (item.name.range(of: "j", options: [.caseInsensitive, .diacriticInsensitive]) != nil ? 1 : 0)
                        }
                    }
                    precondition(count == expected, "search.contains-cd.1m: subject and baseline disagree (\(count) vs \(expected))")
                })
        },
        Benchmark(
            "search.create.1m",
            baseline: "one [cd] scan of the base rows' names, folded beforehand",
            runs: 3
        ) {
            // A search for one letter created over the app's fetched all-items controller,
            // against the floor of what it must do: look at every base row's folded name once.
            let app = AppGraph()
            let (base, listener) = app.controller(AppGraph.allItems)
            let options: TextComparisonOptions = [.caseInsensitive, .diacriticInsensitive]
            let names = app.graph.withoutObservation { base.fetchedObjects.map { FoldedText($0.name, options: options) } }
            let needle = FoldedText("a", options: options)
            let expected = names.reduce(0) { $0 + ($1.contains(needle) ? 1 : 0) }
            return .init(
                subject: { stopwatch in
                    let search = stopwatch.measure { SearchController(base: base, searching: \.name, searchText: "a") }
                    precondition(search.numberOfObjects == expected, "search.create.1m: the search found \(search.numberOfObjects), not \(expected)")
                    blackHole(listener)
                },
                baseline: { stopwatch in
                    let count = stopwatch.measure { names.reduce(0) { $0 + ($1.contains(needle) ? 1 : 0) } }
                    precondition(count == expected, "search.create.1m: the scan's count changed")
                })
        },
        Benchmark(
            "search.base-rename.1m",
            baseline: "the base controller's own share of the same commit",
            runs: 5
        ) {
            // One graph, the all-items controller and the search "ap" over it. A location is
            // renamed: its 20,000 rows change sections in the base, about a fifth of them are
            // in the search's result. Observers around each controller's own ones time their
            // shares of the commit.
            let app = AppGraph()
            let (_, baseListener, baseTimer, search, searchListener, searchTimer) = timedBaseAndSearch(in: app)
            var round = 0
            return .init(
                subject: { stopwatch in
                    round += 1
                    app.rename(round: round)
                    stopwatch.record(searchTimer.last)
                    precondition(search.sections.count == AppGraph.locationCount, "search.base-rename: sections lost")
                    blackHole(searchListener)
                },
                baseline: { stopwatch in
                    stopwatch.record(baseTimer.last)
                    blackHole(baseListener)
                })
        },
        Benchmark(
            "search.base-excluded.1m",
            baseline: "the base controller's own share of the same commits",
            runs: 5
        ) {
            // The same graph and controllers; 1,000 commits, each writing the quantity and the
            // location of one item the search's text excludes. Each side is the sum of its
            // controller's shares.
            let app = AppGraph()
            let (_, baseListener, baseTimer, search, searchListener, searchTimer) = timedBaseAndSearch(in: app)
            let excluded = app.graph.objects(of: AppItem.self).filter { $0.name.range(of: AppGraph.searchText, options: [.caseInsensitive, .diacriticInsensitive]) == nil }
            var round = 0
            var baseTotal: Duration = .zero
            return .init(
                subject: { stopwatch in
                    var total: Duration = .zero
                    baseTotal = .zero
                    for commit in 0..<1_000 {
                        round += 1
                        let item = excluded[(round &* 7_919) % excluded.count]
                        item.quantity = round % 100
                        item.location = app.locations[(round + commit) % AppGraph.locationCount]
                        do { _ = try app.graph.commit() } catch { fatalError("search.base-excluded: commit failed: \(error)") }
                        total += searchTimer.last
                        baseTotal += baseTimer.last
                    }
                    stopwatch.record(total)
                    blackHole(search)
                    blackHole(searchListener)
                },
                baseline: { stopwatch in
                    stopwatch.record(baseTotal)
                    blackHole(baseListener)
                })
        },
        Benchmark(
            "search.fold-maintenance.10k",
            baseline: "the same 10k renames and commit without folded-text maintenance",
            runs: 7
        ) {
            func makeGraph() -> (ObjectGraph, [SearchProduct]) {
                let graph = ObjectGraph()
                let products = SearchItem.generate(count: 100_000).map { item in
                    let product = graph.insert(SearchProduct())
                    product.name = item.name
                    return product
                }
                _ = try! graph.commit()
                return (graph, products)
            }
            let (graph, products) = makeGraph()
            let (plainGraph, plainProducts) = makeGraph()
            let schema = GraphPredicateSchema(SearchProduct.self)
            let observation = schema.maintainFoldedText(in: graph)
            let search = try! FormatPredicate.bind("name CONTAINS[cd] %@", to: schema.entity(for: SearchProduct.self), "j")
            _ = products.filter(search.evaluate)  // fold every name once
            var round = 0
            func rename(_ products: [SearchProduct], in graph: ObjectGraph, round: Int) {
                for index in stride(from: round % 10, to: products.count, by: 10) {
                    products[index].name = "Jägermeister \(round) \(index)"
                }
                _ = try! graph.commit()
            }
            return .init(
                subject: { stopwatch in
                    round += 1
                    stopwatch.measure { rename(products, in: graph, round: round) }
                    withExtendedLifetime(observation) {}
                    precondition(schema.foldedTextCount == products.count, "search.fold-maintenance.10k: foldings lost")
                },
                baseline: { stopwatch in
                    stopwatch.measure { rename(plainProducts, in: plainGraph, round: round) }
                })
        },
    ]
}

/// The all-items controller of `app` and the search "ap" over it, each with a whole-batch
/// listener and a timer of its own share of every commit (observers around its own).
private func timedBaseAndSearch(in app: AppGraph) -> (
    base: ResultsController<AppItem>, baseListener: AppBatchListener, baseTimer: ShareTimer,
    search: SearchController<AppItem>, searchListener: AppBatchListener, searchTimer: ShareTimer
) {
    // The base's share ends, and the search's starts, with the base's delivery (the search
    // hears of the commit inside the base's observer, right after it).
    let baseTimer = ShareTimer()
    baseTimer.start(on: app.graph)
    let (base, baseListener) = app.controller(AppGraph.allItems)
    baseTimer.stopAfterDelivery(of: baseListener)
    let searchTimer = ShareTimer()
    searchTimer.startAfterDelivery(of: baseListener)
    let (search, searchListener) = app.search(over: base)
    searchTimer.stop(on: app.graph)
    return (base, baseListener, baseTimer, search, searchListener, searchTimer)
}

/// An object with a name, for search rows.
final class SearchItem {
    /// The name; every write refreshes `foldedName`.
    var name: String {
        didSet { foldedName = FoldedText(name, options: SearchItem.searchOptions) }
    }
    /// `name` folded for `[cd]` search, kept current by `name`'s `didSet`.
    private(set) var foldedName: FoldedText

    static let searchOptions: TextComparisonOptions = [.caseInsensitive, .diacriticInsensitive]

    init(name: String) {
        self.name = name
        self.foldedName = FoldedText(name, options: SearchItem.searchOptions)
    }

    /// `count` names of two or three words with accents and mixed case, reproducibly.
    static func generate(count: Int) -> [SearchItem] {
        let words = [
            "Jamón", "jalapeño", "Crème", "brûlée", "Äpfel", "ÖL", "Smörgås", "São", "Paulo", "Café", "naïve", "Jägermeister",
            "Ñandú", "Über", "Piñata", "Łódź", "Mañana", "Zoë", "Noël", "Façade", "Ångström", "Dvořák", "Škoda", "Øresund",
            "milk", "BREAD", "Eggs", "butter", "Cheese", "apples", "Tea", "coffee", "Rice", "beans", "Juice", "yogurt",
        ]
        var state: UInt64 = 0x5EED
        func next() -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int(truncatingIfNeeded: (z ^ (z >> 31)) >> 1)
        }
        return (0..<count).map { _ in
            let length = 2 + next() % 2
            let name = (0..<length).map { _ in words[next() % words.count] }.joined(separator: " ")
            return SearchItem(name: "\(name) \(next() % 1000)")
        }
    }
}

/// A graph object with a name, for the fold-maintenance row.
final class SearchProduct: GraphObject {
    @Attribute var name = ""
}
