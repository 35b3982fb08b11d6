import ObjectGraph

extension FoldedTextColumn {
    /// Asks the processor for the line of an object's entry (a hint that changes nothing),
    /// so that its cache miss overlaps other work before a look-up reads it.
    ///
    /// - Parameter id: An object of the column's entity.
    /// - Complexity: O(1).
    @inline(__always)
    func prefetchEntry(of id: ObjectID) {
        entries.prefetchElements(at: CollectionOfOne(id.entitySerial))
    }
}
