extension GroceryStore {
    /// One item of the seed data.
    public struct SeedItem: Sendable, Hashable {
        /// The item's name.
        public var name: String
        /// The name of its home location.
        public var location: String
        /// The name of its shop aisle.
        public var aisle: String
        /// Whether it starts on the shopping list.
        public var listed: Bool
    }

    /// The home locations of the seed data.
    public static let seedLocations = ["Bathroom", "Freezer", "Fridge", "Fruit bowl", "Laundry", "Pantry"]

    /// The shop aisles of the seed data.
    public static let seedAisles = [
        "Bakery", "Breakfast", "Canned & dry", "Cleaning", "Dairy", "Frozen", "Produce", "Toiletries",
    ]

    /// The groceries a new store starts with: a few dozen items in every location and aisle,
    /// some already on the shopping list.
    public static let seed: [SeedItem] = [
        SeedItem(name: "Shampoo", location: "Bathroom", aisle: "Toiletries", listed: false),
        SeedItem(name: "Toothpaste", location: "Bathroom", aisle: "Toiletries", listed: true),
        SeedItem(name: "Dental floss", location: "Bathroom", aisle: "Toiletries", listed: false),
        SeedItem(name: "Hand soap", location: "Bathroom", aisle: "Toiletries", listed: false),
        SeedItem(name: "Toilet paper", location: "Bathroom", aisle: "Toiletries", listed: true),
        SeedItem(name: "Frozen peas", location: "Freezer", aisle: "Frozen", listed: false),
        SeedItem(name: "Vanilla ice cream", location: "Freezer", aisle: "Frozen", listed: false),
        SeedItem(name: "Fish fingers", location: "Freezer", aisle: "Frozen", listed: true),
        SeedItem(name: "Frozen berries", location: "Freezer", aisle: "Frozen", listed: false),
        SeedItem(name: "Pizza", location: "Freezer", aisle: "Frozen", listed: false),
        SeedItem(name: "Milk", location: "Fridge", aisle: "Dairy", listed: true),
        SeedItem(name: "Butter", location: "Fridge", aisle: "Dairy", listed: false),
        SeedItem(name: "Cheddar", location: "Fridge", aisle: "Dairy", listed: false),
        SeedItem(name: "Greek yoghurt", location: "Fridge", aisle: "Dairy", listed: false),
        SeedItem(name: "Eggs", location: "Fridge", aisle: "Dairy", listed: true),
        SeedItem(name: "Crème fraîche", location: "Fridge", aisle: "Dairy", listed: false),
        SeedItem(name: "Carrots", location: "Fridge", aisle: "Produce", listed: false),
        SeedItem(name: "Lettuce", location: "Fridge", aisle: "Produce", listed: false),
        SeedItem(name: "Strawberry jam", location: "Fridge", aisle: "Breakfast", listed: false),
        SeedItem(name: "Apples", location: "Fruit bowl", aisle: "Produce", listed: false),
        SeedItem(name: "Bananas", location: "Fruit bowl", aisle: "Produce", listed: true),
        SeedItem(name: "Lemons", location: "Fruit bowl", aisle: "Produce", listed: false),
        SeedItem(name: "Avocados", location: "Fruit bowl", aisle: "Produce", listed: false),
        SeedItem(name: "Laundry detergent", location: "Laundry", aisle: "Cleaning", listed: false),
        SeedItem(name: "Fabric softener", location: "Laundry", aisle: "Cleaning", listed: false),
        SeedItem(name: "Bleach", location: "Laundry", aisle: "Cleaning", listed: false),
        SeedItem(name: "Sponges", location: "Laundry", aisle: "Cleaning", listed: true),
        SeedItem(name: "Bread", location: "Pantry", aisle: "Bakery", listed: true),
        SeedItem(name: "Bagels", location: "Pantry", aisle: "Bakery", listed: false),
        SeedItem(name: "Croissants", location: "Pantry", aisle: "Bakery", listed: false),
        SeedItem(name: "Porridge oats", location: "Pantry", aisle: "Breakfast", listed: false),
        SeedItem(name: "Cornflakes", location: "Pantry", aisle: "Breakfast", listed: false),
        SeedItem(name: "Honey", location: "Pantry", aisle: "Breakfast", listed: false),
        SeedItem(name: "Peanut butter", location: "Pantry", aisle: "Breakfast", listed: false),
        SeedItem(name: "Apricot jam", location: "Pantry", aisle: "Breakfast", listed: false),
        SeedItem(name: "Coffee", location: "Pantry", aisle: "Breakfast", listed: true),
        SeedItem(name: "Rice", location: "Pantry", aisle: "Canned & dry", listed: false),
        SeedItem(name: "Spaghetti", location: "Pantry", aisle: "Canned & dry", listed: false),
        SeedItem(name: "Chopped tomatoes", location: "Pantry", aisle: "Canned & dry", listed: false),
        SeedItem(name: "Chickpeas", location: "Pantry", aisle: "Canned & dry", listed: false),
        SeedItem(name: "Olive oil", location: "Pantry", aisle: "Canned & dry", listed: false),
        SeedItem(name: "Flour", location: "Pantry", aisle: "Canned & dry", listed: false),
    ]
}
