import ObjectGraph

extension ResultsEngine {
    /// The section-only dependents of a commit (objects whose section key read a written
    /// key, and nothing else of theirs changed) less those a search may leave alone: rows it
    /// does not show, whose keys come from its ``keysSource``, and whose reads that source,
    /// current with this commit, proves unchanged.
    ///
    /// A search's row that its text excludes keeps no keys of its own: a later text that
    /// shows it takes the keys the base holds then. What the search keeps of such a row is
    /// its dependency entry, and that stands when the base, which has evaluated the object
    /// for this commit, finds it read exactly the one key of other objects that the search
    /// recorded for it. Then re-reading its section key would change nothing, and the
    /// commit's cost follows the rows the search shows, not every base row the write
    /// re-sectioned. A row with another reason to be evaluated (already in `pending`) is
    /// kept.
    ///
    /// - Parameters:
    ///   - serials: The section-only dependents, by entity serial.
    ///   - evaluated: The dependents the commit evaluates whole, by entity serial.
    ///   - pending: The objects the commit re-evaluates for other reasons so far.
    /// - Returns: `serials` for an engine without a keys source; otherwise the serials of
    ///   the dependents that still need their section key read again.
    /// - Complexity: O(d + e) for d section-only dependents and e evaluated ones: a few
    ///   column reads each.
    func sectionRereadsNeeded(_ serials: [UInt32], besides evaluated: [UInt32], _ pending: [ObjectID: UInt8]) -> [UInt32] {
        guard let source = keysSource, !serials.isEmpty else { return serials }
        // Locals: a call on a class's stored structure may copy it per call.
        let index = index
        let dependencies = dependencies
        let sourceIndex = source.index
        let sourceDependencies = source.dependencies
        let entity = Object.entity
        let evaluated = Set(evaluated)
        var needed: [UInt32] = []
        for serial in serials {
            let id = graph.objectID(of: entity, entitySerial: Int(serial))
            guard index.slots[id] == nil, sourceIndex.slots[id] != nil,
                  let key = dependencies.onlyKey(of: id), sourceDependencies.onlyKey(of: id) == key,
                  evaluated.isEmpty || !evaluated.contains(serial), pending.isEmpty || pending[id] == nil
            else {
                needed.append(serial)
                continue
            }
        }
        return needed
    }
}
