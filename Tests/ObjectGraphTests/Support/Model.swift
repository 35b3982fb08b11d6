import ObjectGraph

/// The test model: locations hold items (to-many ↔ to-one), playlists hold songs in order
/// (ordered to-many ↔ to-one), tags and items are many-to-many, a person has one passport
/// (one-to-one), and a folder cascades to its files and is denied deletion while it holds
/// notes.
final class Location: GraphObject {
    @Attribute var name = ""
    @Relationship var items: Set<Item>
}

final class Item: GraphObject {
    @Attribute var name = ""
    @Attribute var quantity = 0
    @Attribute var listed = false
    @Attribute var note: String? = nil
    @Relationship(inverse: \Location.items) var location: Location?
    @Relationship(inverse: \Tag.items) var tags: Set<Tag>
}

final class Tag: GraphObject {
    @Attribute(unique: true) var label = ""
    @Relationship var items: Set<Item>
}

final class Playlist: GraphObject {
    @Attribute var title = ""
    @Relationship(inverse: \Song.playlist) var songs: [Song]
}

final class Song: GraphObject {
    @Attribute var title = ""
    @Relationship var playlist: Playlist?
}

final class Person: GraphObject {
    @Attribute var name = ""
    @Relationship(inverse: \Passport.holder) var passport: Passport?
}

final class Passport: GraphObject {
    @Attribute var number = 0
    @Relationship var holder: Person?
}

final class Folder: GraphObject {
    @Attribute var name = ""
    @Relationship(inverse: \File.folder, deleteRule: .cascade) var files: Set<File>
    @Relationship(inverse: \Note.folder, deleteRule: .deny) var notes: [Note]
}

final class File: GraphObject {
    @Attribute var name = ""
    @Relationship var folder: Folder?
}

final class Note: GraphObject {
    @Attribute var text = ""
    @Relationship var folder: Folder?
}

/// An error a validation throws.
struct InvalidQuantity: Error, Equatable {}

/// An entity whose validation refuses negative quantities, with a renamed entity and property.
final class Stock: GraphObject {
    override class var entityName: String { "StockEntry" }
    @Attribute(name: "count") var quantity = 0
    @Attribute var values: [Int] = []

    override func validateForCommit() throws {
        if quantity < 0 { throw InvalidQuantity() }
    }
}

/// Builds a small grocery graph: two locations, three items.
func groceryGraph() throws -> (ObjectGraph, home: Location, shop: Location, milk: Item, eggs: Item, bread: Item) {
    let graph = ObjectGraph()
    let home = graph.insert(Location())
    home.name = "Home"
    let shop = graph.insert(Location())
    shop.name = "Shop"
    let milk = graph.insert(Item())
    milk.name = "Milk"
    milk.location = home
    let eggs = graph.insert(Item())
    eggs.name = "Eggs"
    eggs.location = home
    let bread = graph.insert(Item())
    bread.name = "Bread"
    bread.location = shop
    try graph.commit()
    return (graph, home, shop, milk, eggs, bread)
}
