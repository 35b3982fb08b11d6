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

extension ResultsEngine {
    /// Brings the engine up to date with a commit that writes only rows it does not show
    /// and cannot show (``ExcludedRowsShortcut``), and deletes only rows it does not show:
    /// their dependency entries are copied from the keys source, or dropped, and nothing
    /// else changes. Does nothing when the commit may have any other effect here (an
    /// inserted object, a write of a key some evaluation may have read through a
    /// relationship, a row shown or a row the commit may show): the caller brings the engine
    /// up to date instead.
    ///
    /// Such a commit (an edit in the main list of rows a search hides) costs a search
    /// a look at each written object of its entity, without the pending set, the
    /// evaluation passes and their copies of the index that a commit otherwise takes.
    ///
    /// - Parameters:
    ///   - changes: The commit.
    ///   - store: The search's foldings and text; its text is not empty and its searched
    ///     string reads no other object.
    ///   - source: The keys source, which heard of the commit first.
    /// - Returns: Whether the engine is up to date with the commit.
    /// - Complexity: O(w + k) for w written objects and k deleted ones; no hashing of
    ///   written keys.
    func commitLeavingExcludedRowsAlone(_ changes: GraphChanges, store: FoldedTextStore, source: ResultsEngine<Object>) -> Bool {
        assert(!store.searchReadsOthers && !store.needle.isEmpty, "internal inconsistency: no shortcut for this search")
        let entity = dependencies.entity
        if changes.insertedCount > 0 {
            for id in changes.insertedIDs where id.entity === entity { return false }
        }
        for id in changes.deleted where id.entity === entity && index.slots[id] != nil { return false }
        // Nothing changes until every written object is known to stay out. A base row the
        // search does not show is one whose folding lacks the text (a folding is current
        // while the base includes the row): the search's own rows need no look-up.
        let searched = store.searchedProperties
        let needle = store.needle
        var adopted = 0
        for id in changes.updated.keys where id.entity === entity { store.folded.prefetchEntry(of: id) }
        let taken = dependencies.leaveExcludedRows(writtenIn: changes, from: &source.dependencies) { id, properties in
            guard !ExcludedRowsShortcut.writes(properties, anyOf: searched), source.index.slots[id] != nil,
                  store.folded.contains(id, needle) == false
            else { return false }
            assert(index.slots[id] == nil, "internal inconsistency: \(id) lacks the text and is shown")
            adopted += 1
            return true
        }
        guard taken else { return false }
        adoptedEntryCount += adopted
        return true
    }
}

/// What lets a search by text leave alone, at a commit, a row it does not show and that the
/// commit cannot make it show (``ResultsEngine/excludedRowsShortcut``).
///
/// Such a row is a base row whose folded searched string lacks the text. A write that reads
/// nothing of its searched string leaves that folding as it is, so the row stays out; what
/// the search must still keep current is its dependency entry, and that is the base's: the
/// search evaluates a base row with the base's predicate and keys, plus the searched string,
/// which reads only the row's own properties. The base heard of the commit first and holds
/// the entry current with it, so the search copies it instead of folding the string again
/// and evaluating the keys.
struct ExcludedRowsShortcut {
    /// The search's foldings and text.
    let store: FoldedTextStore
    /// The own properties the searched string has read (``FoldedTextStore/searchedProperties``).
    let searchedProperties: UInt64
    /// The base's rows, current with the commit.
    let sourceIndex: ResultsIndex<ObjectID>
    /// The base's dependencies, current with the commit.
    let sourceDependencies: DependencyIndex

    /// Makes the shortcut of a folded-text search whose searched string reads no other
    /// object, and whose text is not empty; `nil` otherwise.
    ///
    /// - Parameters:
    ///   - store: The search's foldings and text.
    ///   - source: The base engine, which heard of the commit first.
    init?<Object>(store: FoldedTextStore, source: ResultsEngine<Object>) {
        guard !store.searchReadsOthers, !store.needle.isEmpty else { return nil }
        self.store = store
        searchedProperties = store.searchedProperties
        sourceIndex = source.index
        sourceDependencies = source.dependencies
    }

    /// Whether a write of `properties` of an object may change its searched string.
    ///
    /// - Complexity: O(c) for c written properties.
    func writesSearched(_ properties: ChangedProperties) -> Bool {
        Self.writes(properties, anyOf: searchedProperties)
    }

    /// Whether a write of `properties` writes a property of `bits` (bit `min(i, 63)` for
    /// property `i`).
    ///
    /// - Complexity: O(c) for c written properties.
    static func writes(_ properties: ChangedProperties, anyOf bits: UInt64) -> Bool {
        var written: UInt64 = 0
        properties.forEachIndex { written |= 1 << min(UInt64($0.rawValue), lastPropertyBit) }
        return written & bits != 0
    }

    /// The highest property index with a bit of its own in ``searchedProperties``; higher
    /// ones share it.
    private static var lastPropertyBit: UInt64 { UInt64(UInt64.bitWidth - 1) }

    /// Whether the search does not show `id` after the commit, whose writes to it read
    /// nothing of its searched string: the base shows it, with a folding (kept only while
    /// the base includes it, so current) that lacks the text.
    ///
    /// - Parameters:
    ///   - id: A row the search does not show.
    ///   - folded: The store's foldings, read once by the caller (and let go before anything
    ///     folds again: a copy held then would be copied whole).
    ///   - needle: The store's folded text.
    /// - Complexity: O(1) look-ups, and a search of the folding for the text.
    func staysExcluded(_ id: ObjectID, folded: FoldedTextColumn, needle: FoldedText) -> Bool {
        sourceIndex.slots[id] != nil && folded.contains(id, needle) == false
    }
}
