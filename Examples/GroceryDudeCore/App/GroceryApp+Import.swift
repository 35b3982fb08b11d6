extension GroceryApp {
    /// Starts a background import of `count` items: built off the main actor, committed in one
    /// transaction when the build ends.
    ///
    /// Feed every event of the returned stream to ``apply(_:)``, in order.
    ///
    /// - Parameters:
    ///   - count: The number of items to import.
    ///   - failingAt: When not `nil`, the source fails once this many items are built, and
    ///     nothing is committed.
    /// - Returns: The import's events, or `nil` (with the reason on the status line) when an
    ///   import is already running.
    public func beginImport(count: Int, failingAt: Int? = nil) -> AsyncStream<ImportJob.Event>? {
        guard importProgress == nil else {
            status = "error: \(GroceryError.importInProgress)"
            return nil
        }
        importProgress = ImportProgress(built: 0, total: count)
        return ImportJob.start(
            count: count, failingAt: failingAt, locations: store.locations.map(\.name),
            aisles: store.aisles.map(\.name))
    }

    /// Applies one event of a running import: shows its progress, or commits its items in
    /// one transaction (or reports its failure, with nothing committed).
    ///
    /// - Parameter event: The next event of the stream ``beginImport(count:failingAt:)`` returned.
    public func apply(_ event: ImportJob.Event) {
        switch event {
        case .progress(let progress):
            importProgress = progress
        case .finished(let result):
            importProgress = nil
            command { () throws(GroceryError) in
                let items = try result.get()
                let count = try store.commitImport(items)
                return "imported \(count) items, 1 commit"
            }
        }
    }
}
