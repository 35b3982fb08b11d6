// swift-tools-version: 6.2
import PackageDescription

// Invariant checks (`_checkInvariants()` on every core structure) are compiled in only
// when `FRK_INVARIANT_CHECKS=1` is set in the environment of the build. They are off by
// default, so a package that depends on FetchedResultsKit never pays for them; `.ci/run`
// turns them on for the test suite, and the benchmarks warn when they are on.
let invariantChecks = Context.environment["FRK_INVARIANT_CHECKS"].map { !$0.isEmpty && $0 != "0" } ?? false
let settings: [SwiftSetting] = invariantChecks ? [.define("FRK_INVARIANT_CHECKS")] : []

let package = Package(
    name: "FetchedResultsKit",
    // `Synchronization` (`Atomic`) needs these releases; Observation and Foundation's
    // `Predicate` need older ones. Tools 6.2: a `@MainActor` view adapter conforms to
    // `ListUpdateTarget` or `ResultsControllerDelegate` through an isolated conformance
    // (`extension MyViewController: @MainActor ListUpdateTarget`), new in Swift 6.2.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "FetchedResultsKit", targets: ["FetchedResultsKit"]),
        .library(name: "ObjectGraph", targets: ["ObjectGraph"]),
        .library(name: "ListUpdates", targets: ["ListUpdates"]),
        .library(name: "FetchedResults", targets: ["FetchedResults"]),
        .library(name: "FetchedResultsTesting", targets: ["FetchedResultsTesting"]),
        .library(name: "GraphStore", targets: ["GraphStore"]),
        .executable(name: "grocery-dude", targets: ["GroceryDude"]),
    ],
    targets: [
        .target(name: "ObjectGraph", swiftSettings: settings),
        .target(name: "ListUpdates", swiftSettings: settings),
        // Cache prefetch hints (one inline C function) for the order tree's searches.
        .target(name: "MemoryHints"),
        // CRC-32C with the processor's instruction (SSE 4.2, ARMv8 CRC) for the store's
        // record checksums; the store keeps a portable Swift version for other processors.
        .target(name: "Checksum"),
        .target(
            name: "FetchedResults",
            dependencies: ["ObjectGraph", "ListUpdates", "MemoryHints"],
            swiftSettings: settings
        ),
        .target(name: "FetchedResultsTesting", dependencies: ["ListUpdates"], swiftSettings: settings),
        .target(name: "GraphStore", dependencies: ["ObjectGraph", "Checksum"], swiftSettings: settings),
        .target(
            name: "FetchedResultsKit",
            dependencies: ["ObjectGraph", "ListUpdates", "FetchedResults", "GraphStore"],
            swiftSettings: settings
        ),
        .executableTarget(
            name: "Benchmarks",
            dependencies: ["ObjectGraph", "ListUpdates", "FetchedResults", "GraphStore", "HeapStats", "GroceryDudeCore"],
            path: "Benchmarks",
            exclude: ["HeapStats", "README.md"],
            swiftSettings: settings
        ),
        .target(name: "HeapStats", path: "Benchmarks/HeapStats"),
        .target(
            name: "GroceryDudeCore",
            dependencies: ["FetchedResultsKit"],
            path: "Examples/GroceryDudeCore",
            swiftSettings: settings
        ),
        .executableTarget(
            name: "GroceryDude",
            dependencies: ["GroceryDudeCore"],
            path: "Examples/GroceryDude",
            swiftSettings: settings
        ),
        .target(
            name: "TestSupport",
            dependencies: ["ListUpdates", "FetchedResultsTesting"],
            path: "Tests/TestSupport",
            swiftSettings: settings
        ),
        .testTarget(name: "ObjectGraphTests", dependencies: ["ObjectGraph", "TestSupport"], swiftSettings: settings),
        .testTarget(
            name: "GraphStoreTests",
            dependencies: ["GraphStore", "Checksum", "ObjectGraph", "TestSupport"],
            swiftSettings: settings
        ),
        .testTarget(
            name: "ListUpdatesTests",
            dependencies: ["ListUpdates", "FetchedResultsTesting", "TestSupport"],
            swiftSettings: settings
        ),
        .testTarget(
            name: "FetchedResultsTests",
            dependencies: ["ObjectGraph", "ListUpdates", "FetchedResults", "FetchedResultsTesting", "TestSupport"],
            swiftSettings: settings
        ),
        .testTarget(
            name: "FetchedResultsTestingTests",
            dependencies: ["ListUpdates", "FetchedResultsTesting", "TestSupport"],
            swiftSettings: settings
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["FetchedResultsKit", "FetchedResultsTesting", "TestSupport"],
            swiftSettings: settings
        ),
        .testTarget(
            name: "DocumentationTests",
            dependencies: ["FetchedResultsKit", "FetchedResultsTesting"],
            swiftSettings: settings
        ),
        .testTarget(
            name: "GroceryDudeTests",
            dependencies: ["GroceryDudeCore", "GroceryDude", "FetchedResultsTesting", "TestSupport"],
            swiftSettings: settings
        ),
    ],
    swiftLanguageModes: [.v6]
)
