extension GroceryStore {
    /// Inserts the items of an import in one transaction: all of them, or — when the graph
    /// refuses the commit — none.
    ///
    /// An item whose location or aisle name the store does not know is kept without it.
    ///
    /// - Parameter imported: The items built by an ``ImportJob``.
    /// - Returns: The number of items inserted.
    /// - Throws: The ``GroceryError`` of the refused commit; everything is rolled back.
    /// - Complexity: O(n + l + a) for n items, l locations and a aisles.
    @discardableResult
    public func commitImport(_ imported: [ImportedItem]) throws(GroceryError) -> Int {
        let locationsByName = Dictionary(locations.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let aislesByName = Dictionary(aisles.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        try commit {
            for value in imported {
                let item = graph.insert(Item())
                item.name = value.name
                item.listed = value.listed
                item.location = locationsByName[value.location]
                item.aisle = aislesByName[value.aisle]
            }
        }
        return imported.count
    }
}
