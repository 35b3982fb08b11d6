import FetchedResultsKit

/// What a list row displays for one item.
public struct GroceryRow: Sendable, Hashable {
    /// The item's identity.
    public var id: ObjectID
    /// The item's name.
    public var name: String
    /// Whether the item is on the shopping list.
    public var listed: Bool
    /// How much of it to get ("2", "500 g"), or empty.
    public var quantity: String
    /// A note ("the organic one"), or empty.
    public var note: String

    /// The quantity and the note, joined by ` · `, for the row's text.
    public var detail: String {
        [quantity, note].filter { !$0.isEmpty }.joined(separator: " · ")
    }

    /// Makes a row.
    ///
    /// - Parameters:
    ///   - id: The item's identity.
    ///   - name: The item's name.
    ///   - listed: Whether it is listed.
    ///   - quantity: How much to get; empty for none.
    ///   - note: A note; empty for none.
    public init(id: ObjectID, name: String, listed: Bool, quantity: String = "", note: String = "") {
        self.id = id
        self.name = name
        self.listed = listed
        self.quantity = quantity
        self.note = note
    }
}
