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

extension Item {
    /// A section name for the search suites: the location's name, or, with `readsItems`, a
    /// closure's that reads how many items the location holds too while it is called
    /// "attic" (several keys, so a rename can change what the key reads).
    func locationSectionName(readsItems: Bool) -> String {
        guard let location else { return "" }
        if readsItems && location.name == "attic" { return "attic \(location.items.count)" }
        return location.name
    }
}
