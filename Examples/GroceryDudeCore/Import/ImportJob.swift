/// Builds the items of a background import away from the main actor.
///
/// The build only makes ``ImportedItem`` values; it never touches the graph, which belongs to
/// the main actor. The app commits the finished array in one transaction
/// (``GroceryStore/commitImport(_:)``), so a build that fails commits nothing.
public enum ImportJob {
    /// What a running import reports.
    public enum Event: Sendable {
        /// The build got this far.
        case progress(ImportProgress)
        /// The build ended with the items, or with the error that stopped it.
        case finished(Result<[ImportedItem], GroceryError>)
    }

    /// Starts building `count` items on a task detached from the caller's isolation.
    ///
    /// The stream yields the progress four times over the build, then one `.finished` event
    /// with the items or the error, then ends. Ending the iteration early cancels the build.
    ///
    /// - Parameters:
    ///   - count: The number of items to build.
    ///   - failingAt: When not `nil`, the build fails, as a broken source would, once it has
    ///     built this many items.
    ///   - locations: The names of the home locations to spread items over (not empty).
    ///   - aisles: The names of the shop aisles to spread items over (not empty).
    /// - Returns: The build's events, in order.
    /// - Complexity: O(count) on the building task.
    public static func start(
        count: Int, failingAt: Int? = nil, locations: [String], aisles: [String]
    ) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self)
        let task = Task.detached(priority: .userInitiated) {
            let result = Result { () throws(GroceryError) -> [ImportedItem] in
                try build(count: count, failingAt: failingAt, locations: locations, aisles: aisles) { progress in
                    continuation.yield(.progress(progress))
                }
            }
            continuation.yield(.finished(result))
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Builds `count` items in the calling context: the body of ``start(count:failingAt:locations:aisles:)``.
    ///
    /// - Parameters:
    ///   - count: The number of items to build.
    ///   - failingAt: When not `nil`, fail once this many items are built.
    ///   - locations: Home location names to spread items over (not empty).
    ///   - aisles: Shop aisle names to spread items over (not empty).
    ///   - report: Called with the progress four times over the build and at its end.
    /// - Returns: The items.
    /// - Throws: ``GroceryError/importFailed(built:total:)``.
    /// - Complexity: O(count).
    public static func build(
        count: Int, failingAt: Int? = nil, locations: [String], aisles: [String],
        report: (ImportProgress) -> Void
    ) throws(GroceryError) -> [ImportedItem] {
        precondition(count >= 0, "ImportJob.build: count must not be negative")
        precondition(!locations.isEmpty && !aisles.isEmpty, "ImportJob.build: needs locations and aisles")
        let step = max(1, (count + 3) / 4)
        let width = String(count).count
        var items: [ImportedItem] = []
        items.reserveCapacity(count)
        for index in 0..<count {
            if index == failingAt || Task.isCancelled { throw .importFailed(built: index, total: count) }
            if index > 0 && index % step == 0 { report(ImportProgress(built: index, total: count)) }
            items.append(
                ImportedItem(
                    name: name(at: index, width: width),
                    location: locations[index % locations.count],
                    aisle: aisles[index % aisles.count],
                    listed: index % 10 == 0))
        }
        report(ImportProgress(built: count, total: count))
        return items
    }

    private static let varieties = ["Organic", "Value", "Family-size", "Fresh", "Classic", "Mini", "Wholesale"]
    private static let products = [
        "apples", "beans", "biscuits", "cereal", "crisps", "lentils", "noodles", "oat milk", "pasta",
        "rice cakes", "soup", "tea", "tissues",
    ]

    /// A readable, deterministic name for the item at `index`, numbered so names sort in order.
    private static func name(at index: Int, width: Int) -> String {
        let number = String(index + 1)
        let padded = String(repeating: "0", count: max(0, width - number.count)) + number
        return "\(varieties[index % varieties.count]) \(products[index % products.count]) \(padded)"
    }
}
