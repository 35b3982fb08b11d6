import Foundation

extension IndexPath {
    /// Creates the index path of a row in a section without allocating.
    ///
    /// `IndexPath(indexes: [section, row])` allocates an array for its argument, about ten times
    /// the cost of this form, which builds on Foundation's inline storage for one and two
    /// indexes. The diff and staging create an index path per changed row, so they use this.
    ///
    /// - Parameters:
    ///   - section: The section's position.
    ///   - row: The row's position inside the section.
    /// - Complexity: O(1), no allocation.
    @inlinable
    init(listSection section: Int, row: Int) {
        self.init(index: section)
        append(row)
    }
}
