import Foundation

extension ResultsIndex {
    /// The directory range of the sections that have rows in the window.
    var visibleDirectoryRange: Range<Int> {
        let window = window
        guard !window.isEmpty else { return 0..<0 }
        return directoryIndex(containing: window.lowerBound)..<(directoryIndex(containing: window.upperBound - 1) + 1)
    }

    /// The directory position of the section that holds the row at `rank`.
    ///
    /// - Complexity: O(log s) for s sections.
    func directoryIndex(containing rank: Int) -> Int {
        var low = 0
        var high = directoryStarts.count
        while low < high {
            let mid = (low + high) / 2
            if directoryStarts[mid] <= rank { low = mid + 1 } else { high = mid }
        }
        return low - 1
    }

    /// The sections of the window, in order, with their visible row counts.
    ///
    /// - Complexity: O(v) for v visible sections.
    var visibleSections: [Section] {
        let window = window
        return visibleDirectoryRange.map { position in
            let handle = directory[position]
            let start = directoryStarts[position]
            let end = start + sectionCounts[Int(handle)]
            return Section(
                value: keys.sectionValues[Int(handle)],
                count: min(end, window.upperBound) - max(start, window.lowerBound)
            )
        }
    }

    /// The index path of the row at `rank`, or `nil` when the rank is outside the window.
    ///
    /// - Complexity: O(log s).
    func indexPath(forRank rank: Int) -> IndexPath? {
        let window = window
        guard window.contains(rank) else { return nil }
        let position = directoryIndex(containing: rank)
        let first = directoryIndex(containing: window.lowerBound)
        return IndexPath(indexes: [position - first, rank - max(directoryStarts[position], window.lowerBound)])
    }

    /// The rank of the row at `indexPath`, or `nil` when no visible row is there.
    ///
    /// - Complexity: O(log s).
    func rank(at indexPath: IndexPath) -> Int? {
        guard indexPath.count == 2 else { return nil }
        let window = window
        let range = visibleDirectoryRange
        let section = indexPath[0]
        let row = indexPath[1]
        guard section >= 0, section < range.count, row >= 0 else { return nil }
        let position = range.lowerBound + section
        let start = directoryStarts[position]
        let low = max(start, window.lowerBound)
        let high = min(start + sectionCounts[Int(directory[position])], window.upperBound)
        // `row < high - low`, not `low + row < high`: any row, up to `Int.max`, is asked safely.
        return row < high - low ? low + row : nil
    }

    /// The identifier of the row at `indexPath`, or `nil` when no visible row is there.
    ///
    /// - Complexity: O(log n).
    func id(at indexPath: IndexPath) -> ID? {
        rank(at: indexPath).map { keys.ids[Int(tree.select($0))] }
    }

    /// The rank of a fetched row, or `nil` when it is not fetched.
    ///
    /// - Complexity: O(log n).
    func rank(of id: ID) -> Int? {
        slots[id].map { tree.rank(of: $0, keys) }
    }

    /// The index path of a row, or `nil` when it is not fetched or outside the window.
    ///
    /// - Complexity: O(log n).
    func indexPath(of id: ID) -> IndexPath? {
        rank(of: id).flatMap(indexPath(forRank:))
    }

    /// The identifiers of the window's rows, in order.
    ///
    /// - Complexity: O(v + log n) for v visible rows.
    var visibleIDs: [ID] {
        var result: [ID] = []
        result.reserveCapacity(visibleCount)
        tree.forEach(in: window) { result.append(keys.ids[Int($0)]) }
        return result
    }

    /// The identifiers of the window's rows, section by section.
    ///
    /// - Complexity: O(v + log n).
    var visibleRows: [(section: SortValue, ids: [ID])] {
        var result: [(section: SortValue, ids: [ID])] = []
        var ids = visibleIDs[...]
        for section in visibleSections {
            result.append((section.value, Array(ids.prefix(section.count))))
            ids = ids.dropFirst(section.count)
        }
        return result
    }

    // MARK: - Directory maintenance

    /// Returns the handle of a section value, creating the section when it is new and
    /// placing it in the directory at once (its cumulative counts wait for
    /// ``rebuildDirectory()``).
    ///
    /// - Parameter placing: Whether to place a new section in the directory now; a bulk load
    ///   passes `false` and sorts the directory once at the end.
    /// - Complexity: O(1) for an existing section, O(s) for a new one that is placed.
    mutating func internSection(_ value: SortValue, placing: Bool = true) -> Int32 {
        if let handle = sectionHandleByValue[value] { return handle }
        let handle: Int32
        if let reused = freeHandles.popLast() {
            handle = reused
            keys.sectionValues[Int(handle)] = value
            sectionCounts[Int(handle)] = 0
        } else {
            handle = Int32(keys.sectionValues.count)
            keys.sectionValues.append(value)
            sectionCounts.append(0)
            keys.sectionRank.append(Self.freeHandleMark)
        }
        sectionHandleByValue[value] = handle
        guard placing else {
            directory.append(handle)
            return handle
        }
        var low = 0
        var high = directory.count
        while low < high {
            let mid = (low + high) / 2
            if (keys.sectionValues[Int(directory[mid])] < value) == keys.sectionsAscending {
                low = mid + 1
            } else {
                high = mid
            }
        }
        directory.insert(handle, at: low)
        for position in low..<directory.count { keys.sectionRank[Int(directory[position])] = Int32(position) }
        return handle
    }

    /// The handle of an existing section value, or `nil`.
    func existingHandle(of value: SortValue) -> Int32? {
        sectionHandleByValue[value]
    }

    /// Frees the handles of empty sections, renumbers the directory and recomputes the
    /// cumulative counts.
    ///
    /// - Complexity: O(s) for s sections.
    mutating func rebuildDirectory() {
        var emptied = false
        for handle in directory where sectionCounts[Int(handle)] == 0 {
            emptied = true
            freeHandle(handle)
        }
        if emptied {
            directory.removeAll { keys.sectionRank[Int($0)] == Self.freeHandleMark }
        }
        directoryStarts.removeAll(keepingCapacity: true)
        var start = 0
        for (position, handle) in directory.enumerated() {
            directoryStarts.append(start)
            keys.sectionRank[Int(handle)] = Int32(position)
            start += sectionCounts[Int(handle)]
        }
    }

    /// The directory position of a handle that is free.
    static var freeHandleMark: Int32 { -2 }

    private mutating func freeHandle(_ handle: Int32) {
        sectionHandleByValue[keys.sectionValues[Int(handle)]] = nil
        keys.sectionValues[Int(handle)] = .null
        keys.sectionRank[Int(handle)] = Self.freeHandleMark
        freeHandles.append(handle)
    }
}

extension ResultsIndex {
    /// The keys of a fetched row, or `nil` when it is not fetched.
    ///
    /// - Complexity: O(number of sort keys).
    func keys(of id: ID) -> RowKeys? {
        slots[id].map { keys.keys(of: $0) }
    }

    /// Whether a row is fetched with keys other than `keys` (`false` when it is not
    /// fetched), without copying its keys.
    ///
    /// - Complexity: O(number of sort keys).
    func hasKeys(_ id: ID, differentFrom keys: RowKeys) -> Bool {
        slots[id].map { !self.keys.keys(of: $0, equal: keys) } ?? false
    }

    /// The identifiers of the rows at ranks `range`, in order.
    ///
    /// - Complexity: O(m + log n) for m ranks.
    func ids(inRanks range: Range<Int>) -> [ID] {
        var result: [ID] = []
        result.reserveCapacity(range.count)
        tree.forEach(in: range) { result.append(keys.ids[Int($0)]) }
        return result
    }

    /// The identifiers of the rows of the section with key `value` (inside the window or
    /// not), in order; empty when there is no such section.
    ///
    /// - Complexity: O(m + log n) for m rows.
    func ids(inSection value: SortValue) -> [ID] {
        guard let handle = existingHandle(of: value) else { return [] }
        let start = directoryStarts[Int(directoryPosition[Int(handle)])]
        return ids(inRanks: start..<start + sectionCounts[Int(handle)])
    }

    /// The value of every section (inside the window or not) with the identifier of its
    /// first row.
    ///
    /// - Complexity: O(s log n) for s sections.
    func firstIDOfEachSection() -> [(value: SortValue, id: ID)] {
        directory.indices.map { position in
            let handle = directory[position]
            return (keys.sectionValues[Int(handle)], keys.ids[Int(tree.select(directoryStarts[position]))])
        }
    }

    /// The rank range of each visible section's rows.
    ///
    /// - Complexity: O(v) for v visible sections.
    var visibleSectionRanks: [Range<Int>] {
        let window = window
        return visibleDirectoryRange.map { position in
            let start = directoryStarts[position]
            let end = start + sectionCounts[Int(directory[position])]
            return max(start, window.lowerBound)..<min(end, window.upperBound)
        }
    }
}
