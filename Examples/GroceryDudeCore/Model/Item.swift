import FetchedResultsKit

/// A grocery item: something kept at home in one location and bought in one aisle.
///
/// An item is *listed* when it is on the shopping list; the Shop view shows listed items
/// only. Items are confined to their graph (the main actor in the app).
public final class Item: GraphObject {
    /// The item's name, as the lists show it and search matches it.
    @Attribute public var name = ""
    /// Whether the item is on the shopping list.
    @Attribute public var listed = false
    /// How much of it to get ("2", "500 g"); empty for none. Added after the first stores
    /// were written: items of an older store open with an empty quantity.
    @Attribute public var quantity = ""
    /// A note for the shopper ("the organic one"); empty for none. Added with ``quantity``.
    @Attribute public var note = ""
    /// Where the item is kept at home; the Prepare view's section.
    @Relationship(inverse: \Location.items) public var location: Location?
    /// Where the item is found in the shop; the Shop view's section.
    @Relationship(inverse: \Aisle.items) public var aisle: Aisle?

    /// Makes an item that is in no graph yet.
    public required init() {
        super.init()
    }

    /// Refuses an item whose name is empty or only white space.
    ///
    /// - Throws: ``GroceryError/emptyName`` when the name has no visible character.
    public override func validateForCommit() throws {
        if name.allSatisfy(\.isWhitespace) { throw GroceryError.emptyName }
    }
}
