/// The two lists of the app: what each shows and how it is sectioned.
public enum ListKind: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Every item, sectioned by home location: what to check before shopping.
    case prepare
    /// Listed items only, sectioned by shop aisle: the shopping list.
    case shop

    /// The tab title.
    public var description: String {
        switch self {
        case .prepare: "Prepare"
        case .shop: "Shop"
        }
    }

    /// The section name of items with no location (Prepare) or aisle (Shop).
    public var unsectionedName: String {
        switch self {
        case .prepare: "No location"
        case .shop: "No aisle"
        }
    }
}
