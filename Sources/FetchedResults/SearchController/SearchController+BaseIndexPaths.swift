import Foundation

extension SearchController {
    /// Where a row of the search results is in the base controller's results: a row
    /// selected in the search results maps to the same object in the main list.
    ///
    /// - Parameter indexPath: A section and row of the search results.
    /// - Returns: The object's index path in the base controller, or `nil` when no row is at
    ///   `indexPath` or the object is outside the base controller's window.
    /// - Complexity: O(log n).
    public func baseIndexPath(forObjectAt indexPath: IndexPath) -> IndexPath? {
        settled.index.id(at: indexPath).flatMap(base.engine.indexPath(forObjectID:))
    }

    /// Where a row of the base controller's results is in the search results.
    ///
    /// - Parameter baseIndexPath: A section and row of the base controller's results.
    /// - Returns: The object's index path in the search results, or `nil` when no row is at
    ///   `baseIndexPath` or the search does not show the object.
    /// - Complexity: O(log n).
    public func indexPath(forBaseIndexPath baseIndexPath: IndexPath) -> IndexPath? {
        base.engine.index.id(at: baseIndexPath).flatMap(settled.index.indexPath(of:))
    }
}
