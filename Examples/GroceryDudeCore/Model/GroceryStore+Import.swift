import FetchedResultsKit

extension GroceryStore {
    /// Inserts the items of an import in one transaction, applied as one `GraphBatch`
    /// tagged ``importAuthor``: all of them, or — when the graph refuses the commit — none.
    ///
    /// An import is not an undo step (undo reverses user actions; see ``undo()``).
    /// An item whose location or aisle name the store does not know is kept without it.
    ///
    /// - Parameter imported: The items built by an ``ImportJob``.
    /// - Returns: The number of items inserted.
    /// - Throws: The ``GroceryError`` of the refused commit; nothing is inserted.
    /// - Complexity: O(n + l + a) for n items, l locations and a aisles.
    @discardableResult
    public func commitImport(_ imported: [ImportedItem]) throws(GroceryError) -> Int {
        precondition(!graph.hasChanges, "GroceryStore.commitImport: changes were pending before the import")
        let locationsByName = Dictionary(locations.map { ($0.name, $0.objectID) }, uniquingKeysWith: { first, _ in first })
        let aislesByName = Dictionary(aisles.map { ($0.name, $0.objectID) }, uniquingKeysWith: { first, _ in first })
        var batch = GraphBatch()
        for value in imported {
            var relationships: GraphBatch.Relationships = [:]
            if let location = locationsByName[value.location] { relationships["location"] = [.existing(location)] }
            if let aisle = aislesByName[value.aisle] { relationships["aisle"] = [.existing(aisle)] }
            batch.insert(Item.self, values: ["name": value.name, "listed": value.listed], relationships: relationships)
        }
        do {
            try graph.apply(batch, author: Self.importAuthor)
        } catch {
            throw refused(error)
        }
        return imported.count
    }
}
