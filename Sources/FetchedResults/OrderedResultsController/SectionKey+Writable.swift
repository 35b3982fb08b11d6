/// How a row takes the section of another row: copies the section key's stored value, and
/// saves it so a failed commit can put it back.
struct SectionKeyWriter<Object: GraphObject> {
    /// Gives `moved` the section key value of `member` (`moved`, then `member`).
    let copy: (Object, Object) -> Void
    /// Saves an object's current value and returns what restores it.
    let save: (Object) -> () -> Void
}

extension SectionKey {
    /// Groups by a stored value that a drag into another section may write: the moved row
    /// takes the value of the rows of the section it is dropped into.
    ///
    /// Behaves as ``init(_:ascending:title:)`` for reading. An ``OrderedResultsController``
    /// accepts a user-driven move into another section only with a writable section key.
    ///
    /// ```swift
    /// SectionKey(writable: \GroceryItem.aisle)
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: A writable property of the object (not a chain through a relationship
    ///     whose target could be missing).
    ///   - ascending: Whether sections with smaller keys come first.
    ///   - title: Makes a section's name from its value; by default as for
    ///     ``init(_:ascending:title:)``.
    /// - Complexity: O(1).
    public init<Value: SortValueConvertible & Hashable>(
        writable keyPath: ReferenceWritableKeyPath<Object, Value>, ascending: Bool = true, title: ((Value) -> String)? = nil
    ) {
        self.init(keyPath, ascending: ascending, title: title)
        writer = SectionKeyWriter(
            copy: { moved, member in moved[keyPath: keyPath] = member[keyPath: keyPath] },
            save: { object in
                let value = object[keyPath: keyPath]
                return { object[keyPath: keyPath] = value }
            })
    }

    /// Whether a drag into another section can write the key (it was made with
    /// ``init(writable:ascending:title:)``).
    public var isWritable: Bool { writer != nil }
}
