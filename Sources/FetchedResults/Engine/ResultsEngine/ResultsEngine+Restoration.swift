import Foundation

extension ResultsEngine {
    /// A stable string that names the object at an index path, for state restoration: the
    /// object ID's URI form, valid for the graph's whole life.
    ///
    /// - Parameter indexPath: A section and row.
    /// - Returns: The identifier, or `nil` when no row is there.
    /// - Complexity: O(log n).
    func restorationIdentifier(forObjectAt indexPath: IndexPath) -> String? {
        index.id(at: indexPath)?.uriRepresentation
    }

    /// The index path of the object a restoration identifier names.
    ///
    /// - Parameter identifier: A string from ``restorationIdentifier(forObjectAt:)``.
    /// - Returns: The object's index path now, or `nil` when the identifier is malformed or
    ///   from another graph, or the object is gone, filtered out or outside the window.
    /// - Complexity: O(log n) plus the identifier's length.
    func indexPath(forRestorationIdentifier identifier: String) -> IndexPath? {
        graph.objectID(forURIRepresentation: identifier).flatMap(index.indexPath(of:))
    }
}
