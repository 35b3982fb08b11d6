import FetchedResults
import Foundation
import GraphStore

/// The schema of the app rows' model, for the launch row's store.
private let appSchema: StoreSchema = {
    do {
        return try StoreSchema([AppItem.self, AppLocation.self])
    } catch {
        preconditionFailure("the app model cannot be stored: \(error)")
    }
}()

/// The time to an app's first screen: open a store of the app rows' million items, then fetch
/// the four controllers the app shows. Its baseline, in the same run, is creating the same
/// million objects in memory.
func appLaunchBenchmarks() -> [Benchmark] {
    [
        Benchmark("app.launch.1m", baseline: "creating the same million objects in memory", runs: 3) {
            // The store as a relaunched app finds it: a snapshot of every item, compacted.
            let directory = TemporaryDirectory()
            let options = GraphStore.Options(durability: .deferred(interval: .seconds(3_600)), compactionFactor: nil)
            do {
                let store = try GraphStore.open(at: directory.url, schema: appSchema, options: options)
                _ = AppGraph(graph: store.graph)
                try store.compact()
                store.waitForReleasedFiles()
                store.close()
            } catch {
                preconditionFailure("app.launch: the store could not be made: \(error)")
            }
            return .init(
                subject: { stopwatch in
                    releaseFreedMemory()
                    let (store, controllers) = stopwatch.measure { () -> (GraphStore, AppControllers) in
                        do {
                            let store = try GraphStore.open(at: directory.url, schema: appSchema, options: options)
                            return (store, AppControllers(on: AppGraph(holding: store.graph)))
                        } catch {
                            preconditionFailure("app.launch: the store did not open: \(error)")
                        }
                    }
                    precondition(controllers.all.numberOfObjects == AppGraph.itemCount, "app.launch: the list is not whole")
                    precondition(controllers.search.numberOfObjects > 0, "app.launch: the search found nothing")
                    blackHole(controllers)
                    store.close()
                },
                baseline: { stopwatch in
                    releaseFreedMemory()
                    let app = stopwatch.measure { AppGraph() }
                    precondition(app.graph.count(of: AppItem.self) == AppGraph.itemCount)
                    withExtendedLifetime(directory) {}
                }
            )
        },
    ]
}
