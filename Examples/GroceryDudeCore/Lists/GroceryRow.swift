import FetchedResultsKit

/// What a list row displays for one item.
public struct GroceryRow: Sendable, Hashable {
    /// The item's identity.
    public var id: ObjectID
    /// The item's name.
    public var name: String
    /// Whether the item is on the shopping list.
    public var listed: Bool

    /// Makes a row.
    ///
    /// - Parameters:
    ///   - id: The item's identity.
    ///   - name: The item's name.
    ///   - listed: Whether it is listed.
    public init(id: ObjectID, name: String, listed: Bool) {
        self.id = id
        self.name = name
        self.listed = listed
    }
}
