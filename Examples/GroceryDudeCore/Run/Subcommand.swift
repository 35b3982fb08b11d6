/// A one-shot command that changes or prints the kept list and exits, while any number of
/// `grocery-dude` windows may have it open: `list`, `add NAME`, `tick NAME`, `delete NAME`.
public enum Subcommand: Sendable, Hashable {
    /// Prints every item, section by section, as the Prepare view shows them.
    case list
    /// Adds an item to the shopping list.
    case add(name: String)
    /// Puts an item on the shopping list, or ticks it off.
    case tick(name: String)
    /// Deletes an item.
    case delete(name: String)

    /// The word that names it on the command line.
    public var word: String {
        switch self {
        case .list: "list"
        case .add: "add"
        case .tick: "tick"
        case .delete: "delete"
        }
    }

    /// The author its commit carries, which other windows show: `grocery-dude add`.
    public var author: String { "\(GroceryStore.author) \(word)" }

    /// The words that start a subcommand, and whether each takes a NAME.
    static let words: [String: Bool] = ["list": false, "add": true, "tick": true, "delete": true]

    /// The subcommand a word names, with its NAME.
    ///
    /// - Parameters:
    ///   - word: `list`, `add`, `tick` or `delete`.
    ///   - name: The NAME, for those that take one.
    /// - Returns: The subcommand, or `nil` for another word.
    static func named(_ word: String, name: String) -> Subcommand? {
        switch word {
        case "list": .list
        case "add": .add(name: name)
        case "tick": .tick(name: name)
        case "delete": .delete(name: name)
        default: nil
        }
    }
}
