import FetchedResults

/// Where items are kept; renaming one re-sections the items that show its name.
final class Location: GraphObject {
    @Attribute var name = ""
    @Relationship var items: Set<Item>
}

/// A shopping-list item.
final class Item: GraphObject {
    @Attribute var name = ""
    @Attribute var quantity = 0
    @Attribute var listed = false
    @Attribute var note = ""
    @Relationship(inverse: \Location.items) var location: Location?

    /// What a cell shows for the item: every own property, and the location's identity.
    var rendering: String {
        "\(name)|\(quantity)|\(listed)|\(note)|\(location.map { "\($0.objectID)" } ?? "-")"
    }
}
