import Foundation

// UIKit and AppKit add `section`, `row` and `item` to Foundation's `IndexPath`. Linux's
// Foundation has none of them, so view-model code written against UIKit would not compile
// there. These accessors fill the gap with the same names and meaning, and only where the
// platform lacks them, so the same source compiles unchanged on every platform.

#if !canImport(UIKit) && !canImport(AppKit)
extension IndexPath {
    /// Creates an index path for a row in a section, as UIKit's `init(row:section:)` does.
    ///
    /// - Parameters:
    ///   - row: The row's position inside its section.
    ///   - section: The section's position in the list.
    /// - Complexity: O(1).
    @inlinable
    public init(row: Int, section: Int) {
        self.init(indexes: [section, row])
    }

    /// Creates an index path for an item in a section, as UIKit's `init(item:section:)` does.
    ///
    /// - Parameters:
    ///   - item: The item's position inside its section.
    ///   - section: The section's position in the list.
    /// - Complexity: O(1).
    @inlinable
    public init(item: Int, section: Int) {
        self.init(indexes: [section, item])
    }

    /// The section's position: the first index. Traps when the path has fewer than two indexes.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var section: Int {
        get {
            require(count == 2, "IndexPath.section requires an index path with exactly two indexes, got \(count)")
            return self[0]
        }
        set {
            require(count == 2, "IndexPath.section requires an index path with exactly two indexes, got \(count)")
            self[0] = newValue
        }
    }

    /// The row's position inside its section: the second index. Traps when the path has
    /// fewer than two indexes.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var row: Int {
        get {
            require(count == 2, "IndexPath.row requires an index path with exactly two indexes, got \(count)")
            return self[1]
        }
        set {
            require(count == 2, "IndexPath.row requires an index path with exactly two indexes, got \(count)")
            self[1] = newValue
        }
    }

    /// The item's position inside its section: the same index as ``row``, as collection
    /// views name it.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var item: Int {
        get { row }
        set { row = newValue }
    }
}
#elseif !canImport(UIKit)
extension IndexPath {
    /// Creates an index path for a row in a section, as UIKit's `init(row:section:)` does.
    ///
    /// - Complexity: O(1).
    @inlinable
    public init(row: Int, section: Int) {
        self.init(item: row, section: section)
    }

    /// The row's position inside its section, the same index as AppKit's `item`.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var row: Int {
        get { item }
        set { item = newValue }
    }
}
#endif
