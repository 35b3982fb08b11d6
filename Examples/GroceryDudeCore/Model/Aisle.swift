import FetchedResultsKit

/// An aisle of the shop where items are found (produce, dairy…).
public final class Aisle: GraphObject {
    /// The aisle's name, the title of its section in the Shop view.
    @Attribute public var name = ""
    /// The items found here; the inverse of ``Item/aisle``.
    @Relationship public var items: Set<Item>

    /// Makes an aisle that is in no graph yet.
    public required init() {
        super.init()
    }
}
