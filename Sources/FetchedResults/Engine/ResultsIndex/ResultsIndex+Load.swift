import Foundation

// Loading: the rows of a fetch replace every row of the index.

extension ResultsIndex {
    /// The rows of a fetch in columns, as ``load(_:)-(LoadColumns)`` takes them: no key array
    /// per row.
    struct LoadColumns {
        /// The identifier of each row; unique.
        var ids: [ID] = []
        /// The section key of each row.
        var sections: [SortValue] = []
        /// One column per sort key, each with one value per row.
        var columns: [[SortValue]]

        /// Makes empty columns with room for `capacity` rows.
        init(sortKeyCount: Int, capacity: Int) {
            ids.reserveCapacity(capacity)
            sections.reserveCapacity(capacity)
            columns = Array(repeating: [], count: sortKeyCount)
            for column in columns.indices { columns[column].reserveCapacity(capacity) }
        }
    }

    /// Replaces every row, as a fetch does.
    ///
    /// - Parameter rows: The fetched rows with their keys, in any order; identifiers must be
    ///   unique.
    /// - Complexity: O(n log n).
    mutating func load(_ rows: [(id: ID, keys: RowKeys)]) {
        var columns = LoadColumns(sortKeyCount: keys.columns.count, capacity: rows.count)
        for row in rows {
            columns.ids.append(row.id)
            columns.sections.append(row.keys.section)
            for column in columns.columns.indices { columns.columns[column].append(row.keys.sort[column]) }
        }
        load(columns)
    }

    /// Replaces every row, as a fetch does, from columns of keys.
    ///
    /// - Parameter rows: The fetched rows; row `i` is `rows.ids[i]` with section key
    ///   `rows.sections[i]` and sort keys `rows.columns[k][i]`.
    /// - Complexity: O(n log n).
    mutating func load(_ rows: LoadColumns) {
        require(rows.columns.count == keys.columns.count && rows.sections.count == rows.ids.count,
                     "internal inconsistency: load columns of different lengths")
        self = ResultsIndex(ascending: keys.ascending, sectionsAscending: keys.sectionsAscending, offset: offset, limit: limit)
        let count = rows.ids.count
        keys.ids = rows.ids
        keys.columns = rows.columns
        keys.sectionOf.reserveCapacity(count)
        // A direct-mapped cache of section values in front of the dictionary: rows of a few
        // sections arrive interleaved, and a cheap hash and one comparison beat hashing
        // every row's value for the dictionary.
        var cachedValues = [SortValue?](repeating: nil, count: Self.sectionCacheSize)
        var cachedHandles = [Int32](repeating: 0, count: Self.sectionCacheSize)
        for index in 0..<count {
            let value = rows.sections[index]
            let line = Self.cheapHash(value) & (Self.sectionCacheSize - 1)
            let handle: Int32
            if let cached = cachedValues[line], cached == value {
                handle = cachedHandles[line]
            } else {
                handle = internSection(value, placing: false)
                cachedValues[line] = value
                cachedHandles[line] = handle
            }
            sectionCounts[Int(handle)] += 1
            keys.sectionOf.append(handle)
        }
        let values = keys.sectionValues
        let ascending = keys.sectionsAscending
        directory.sort { (values[Int($0)] < values[Int($1)]) == ascending }
        rebuildDirectory()
        renumberSlots(inOrder: loadOrder())
        // With digests and fences, so the first commits find them (about 2.4 bytes a row).
        tree = OrderTree(sorted: Array(0..<Int32(count)), keys)
        _checkInvariants()
    }

    /// Moves the rows of a load so that slot `i` holds the `i`-th row in order, and maps
    /// each identifier to its slot.
    ///
    /// A commit's search reads the keys of a few neighbouring rows in a leaf (a fence gap):
    /// numbered in order, those keys are neighbours in their columns too — a few adjacent
    /// lines on one page instead of a cache miss and a page walk each. Rows that commits
    /// add or move later take other slots; the order of the others stays.
    ///
    /// - Parameter order: Every slot, in the index's order (``loadOrder()``).
    /// - Complexity: O(n), moving each value once, without copying (or counting references
    ///   to) its storage.
    private mutating func renumberSlots(inOrder order: [Int32]) {
        guard let anyID = keys.ids.first else { return }
        keys.ids = Self.permuted(&keys.ids, by: order, leaving: anyID)
        // In order, the rows of each section are one run, the sections in directory order.
        var sectionOf: [Int32] = []
        sectionOf.reserveCapacity(order.count)
        for handle in directory { sectionOf.append(contentsOf: repeatElement(handle, count: sectionCounts[Int(handle)])) }
        require(sectionOf.count == order.count, "internal inconsistency: section counts do not add up to the rows")
        keys.sectionOf = sectionOf
        for column in keys.columns.indices {
            keys.columns[column] = Self.permuted(&keys.columns[column], by: order, leaving: .null)
        }
        slots.reserveCapacity(order.count)
        for (slot, id) in keys.ids.enumerated() {
            let previous = slots.updateValue(Int32(slot), forKey: id)
            require(previous == nil, "internal inconsistency: row \(id) loaded twice")
        }
    }

    /// The number of lines of the section cache of a load; a power of two.
    private static var sectionCacheSize: Int { 256 }

    /// A hash of a section value that costs a few instructions for short strings: their
    /// length and bytes, mixed.
    @inline(__always)
    private static func cheapHash(_ value: SortValue) -> Int {
        switch value {
        case .string(let text):
            // The bytes in place (a short string's are copied to the stack), not an iterator.
            let hash = text.utf8.withContiguousStorageIfAvailable { bytes in
                var hash = bytes.count
                for index in 0..<min(bytes.count, 24) { hash = hash &* 31 &+ Int(bytes[index]) }
                return hash
            } ?? text.utf8.count
            return hash ^ hash >> 7
        case .int(let number):
            return Int(truncatingIfNeeded: number ^ number >> 8)
        case .double(let number):
            // Equal values hash alike: every NaN, and -0.0 with 0.0.
            let bits = SortValue.canonical(number).bitPattern
            return Int(truncatingIfNeeded: bits ^ bits >> 29)
        case .bool(let flag):
            return flag ? 1 : 2
        case .null, .opaque:
            return 0
        }
    }
}
