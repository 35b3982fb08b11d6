/// An item built by an import, as a plain value that can cross isolation domains; the store
/// turns a whole array of them into items in one commit.
public struct ImportedItem: Sendable, Hashable {
    /// The item's name.
    public var name: String
    /// The name of its home location.
    public var location: String
    /// The name of its shop aisle.
    public var aisle: String
    /// Whether it goes on the shopping list.
    public var listed: Bool

    /// Makes an imported item.
    ///
    /// - Parameters:
    ///   - name: The item's name.
    ///   - location: The name of its home location.
    ///   - aisle: The name of its shop aisle.
    ///   - listed: Whether it goes on the shopping list.
    public init(name: String, location: String, aisle: String, listed: Bool) {
        self.name = name
        self.location = location
        self.aisle = aisle
        self.listed = listed
    }
}

/// How far an import's build has got.
public struct ImportProgress: Sendable, Hashable, CustomStringConvertible {
    /// The number of items built so far.
    public var built: Int
    /// The number of items the import builds in all.
    public var total: Int

    /// Makes a progress value.
    ///
    /// - Parameters:
    ///   - built: Items built so far.
    ///   - total: Items to build in all.
    public init(built: Int, total: Int) {
        self.built = built
        self.total = total
    }

    /// `importing: built 1250 of 5000 items (25%)`.
    public var description: String {
        let percent = total == 0 ? 100 : built * 100 / total
        return "importing: built \(built) of \(total) items (\(percent)%)"
    }
}
