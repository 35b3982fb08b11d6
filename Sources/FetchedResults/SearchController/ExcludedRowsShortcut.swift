import ObjectGraph

/// What lets a search by text leave alone, at a commit, a row it does not show and that the
/// commit cannot make it show (``DerivedCommit/shortcut``).
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
    /// The base's rows' slots, current with the commit.
    let sourceSlots: SlotMap<ObjectID>

    /// Makes the shortcut of a folded-text search whose searched string reads no other
    /// object, and whose text is not empty; `nil` otherwise.
    ///
    /// - Parameters:
    ///   - store: The search's foldings and text.
    ///   - source: The base's rows, current with the commit.
    init?(store: FoldedTextStore, source: SourceRows) {
        guard !store.searchReadsOthers, !store.needle.isEmpty else { return nil }
        self.store = store
        searchedProperties = store.searchedProperties
        sourceSlots = source.index.slots
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
        sourceSlots[id] != nil && folded.contains(id, needle) == false
    }
}
