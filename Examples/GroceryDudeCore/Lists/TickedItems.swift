import FetchedResultsKit

/// The items ticked off in the Shop view since it was last refreshed or left: they are off
/// the shopping list, but the Shop lists keep showing them (struck through) so that the rows
/// under the cursor do not shift while the shopper ticks.
///
/// One set is shared by the Shop list and its search results. The lists read it when their
/// controller evaluates an item, so an item must be added before the commit that unlists it;
/// removing items takes effect at the lists' next ``GroceryList/refetch()``.
public final class TickedItems {
    /// The ticked items.
    public private(set) var ids: Set<ObjectID> = []

    /// Makes an empty set.
    public init() {}

    /// Whether an item was ticked off.
    ///
    /// - Parameter id: The item.
    /// - Returns: Whether it is in the set.
    public func contains(_ id: ObjectID) -> Bool { ids.contains(id) }

    /// Adds an item that is being ticked off.
    ///
    /// - Parameter id: The item.
    public func insert(_ id: ObjectID) { ids.insert(id) }

    /// Forgets every ticked item.
    public func removeAll() { ids = [] }
}

@available(*, unavailable, message: "ticked items are confined to the isolation domain of their lists")
extension TickedItems: Sendable {}
