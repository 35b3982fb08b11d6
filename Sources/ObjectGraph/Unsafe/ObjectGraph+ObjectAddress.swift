extension ObjectGraph {
    /// The address of the object with an ID, for a cache hint only: reading it retains
    /// nothing (a retain is an atomic write, which waits for the object's line and holds
    /// back every later read), so a loop over many objects can ask for all their lines at
    /// once (`frk_prefetch_lines` of MemoryHints), then read them through ``object(with:)``.
    ///
    /// **Invariant (upheld by the caller):** the address is only handed to a prefetch,
    /// which never faults; it is never dereferenced, so it may be stale without harm.
    ///
    /// - Parameter id: An ID.
    /// - Returns: Where the object is, or `nil` when ``object(with:)`` is `nil`.
    /// - Complexity: O(1).
    package func objectAddress(with id: ObjectID) -> UnsafeRawPointer? {
        guard id.graphTag == tag, let entity = _Unretained.element(at: id._entity.number, of: _entities) else { return nil }
        return entity.borrow { entity in
            let serial = id.serial
            guard serial < entity.objects.count else { return nil }
            return entity.objects.address(at: serial)
        }
    }
}
