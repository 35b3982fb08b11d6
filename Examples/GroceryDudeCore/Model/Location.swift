import FetchedResultsKit

/// A place at home where items are kept (the fridge, the pantry…).
public final class Location: GraphObject {
    /// The location's name, the title of its section in the Prepare view.
    @Attribute public var name = ""
    /// The items kept here; the inverse of ``Item/location``.
    @Relationship public var items: Set<Item>

    /// Makes a location that is in no graph yet.
    public required init() {
        super.init()
    }
}
