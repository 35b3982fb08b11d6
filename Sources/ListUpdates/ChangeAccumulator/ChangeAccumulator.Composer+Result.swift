import Foundation

extension ChangeAccumulator.Composer {
    /// A live token of a sequence, with what the result needs to know about its place.
    private struct Placed<Payload> {
        var payload: Payload
        /// The token's current position (after-position of the composed batch).
        var position: Int
        /// The original position of the last untouched element before it, or -1.
        var lowerBound: Int
        /// The original position of the first untouched element after it.
        var upperBound: Int
    }

    /// The live tokens of a sequence in order, and the original positions of its tombstones.
    private static func scan<Payload>(
        _ forest: ChangeAccumulator.TokenForest<Payload>, _ tree: Int32
    ) -> (live: [Placed<Payload>], tombstones: [Int]) {
        var live: [Placed<Payload>] = []
        var tombstones: [Int] = []
        var lastUntouched = -1
        var waiting = 0  // live tokens at the end of `live` still missing their upper bound
        forest.forEachNode(in: tree) { node, position in
            switch node.kind {
            case .run:
                for index in (live.count - waiting)..<live.count { live[index].upperBound = node.start }
                waiting = 0
                lastUntouched = node.start + node.width - 1
            case .tombstone:
                tombstones.append(node.start)
            case .live:
                live.append(Placed(payload: node.payload, position: position, lowerBound: lastUntouched, upperBound: Int.max))
                waiting += 1
            }
        }
        return (live, tombstones)
    }

    /// Which live tokens stay in place: those whose original position lies between the
    /// untouched neighbours around them and that keep their relative order (a longest
    /// increasing subsequence); every other token of original origin moves.
    private static func stationaryMask<Payload>(_ live: [Placed<Payload>], origin: (Payload) -> Int?) -> [Bool] {
        var candidates: [Int] = []
        var origins: [Int] = []
        for (index, token) in live.enumerated() {
            if let value = origin(token.payload), token.lowerBound < value, value < token.upperBound {
                candidates.append(index)
                origins.append(value)
            }
        }
        // Origins are distinct: each original element has at most one live token.
        var subsequence = LongestIncreasingSubsequence()
        subsequence.mark(origins)
        var mask = [Bool](repeating: false, count: live.count)
        for (index, keep) in zip(candidates, subsequence.keep) where keep { mask[index] = true }
        return mask
    }

    private static func key(_ section: Int, _ row: Int) -> Int { section << 32 | row }

    /// The composed batch: one general set of changes that turns the state at the last flush
    /// into the current state, exactly as applying every composed batch in turn would.
    ///
    /// Deletes, reloads and reconfigures name positions at the last flush; inserts name
    /// current positions; a row is a move only when its relative order changed or it changed
    /// section; a moved row whose content changed is a move source that is also reconfigured
    /// (or, when it was reloaded, a delete plus an insert). A section whose header a batch
    /// refreshed is a header refresh at its current position, unless the result inserts or
    /// reloads it.
    ///
    /// - Complexity: O(k log k) for k tokens, independent of the number of rows.
    func result() -> ListChanges {
        var changes = ListChanges()
        let (sectionTokens, sectionTombstones) = Self.scan(sections, sectionTree)
        let stationarySections = Self.stationaryMask(sectionTokens) { $0.origin >= 0 ? $0.origin : nil }
        var liveOrigins = Set<Int>()
        var alive: [Int: Int] = [:]  // origin → current position of original sections whose rows are tracked
        for (index, token) in sectionTokens.enumerated() {
            let section = token.payload
            if section.origin < 0 {
                changes.insertedSections.append(token.position)
                continue
            }
            liveOrigins.insert(section.origin)
            if section.isReloaded {
                if stationarySections[index] {
                    changes.reloadedSections.append(section.origin)
                } else {
                    changes.deletedSections.append(section.origin)
                    changes.insertedSections.append(token.position)
                }
                continue
            }
            alive[section.origin] = token.position
            if !stationarySections[index] {
                changes.movedSections.append(.init(from: section.origin, to: token.position))
            }
            if section.isHeaderRefreshed { changes.reconfiguredSections.append(token.position) }
        }
        for origin in sectionTombstones where !liveOrigins.contains(origin) {
            changes.deletedSections.append(origin)
        }

        var accounted = Set<Int>()  // original rows whose before-position the result already names
        var rowTombstones: [(section: Int, row: Int)] = []
        for token in sectionTokens where token.payload.origin >= 0 && token.payload.tracksRows {
            let section = token.payload.origin
            let (rowTokens, tombstones) = Self.scan(rows, token.payload.rows)
            for row in tombstones { rowTombstones.append((section, row)) }
            let stationary = Self.stationaryMask(rowTokens) { $0.originSection == section ? $0.originRow : nil }
            for (index, placed) in rowTokens.enumerated() {
                let row = placed.payload
                let after = IndexPath(row: placed.position, section: token.position)
                guard row.originSection >= 0, alive[row.originSection] != nil else {
                    // New since the last flush, or from a section deleted or reloaded since.
                    changes.insertedRows.append(after)
                    continue
                }
                let before = IndexPath(row: row.originRow, section: row.originSection)
                accounted.insert(Self.key(row.originSection, row.originRow))
                if stationary[index] {
                    switch row.refresh {
                    case .none: break
                    case .reconfigure: changes.reconfiguredRows.append(before)
                    case .reload: changes.reloadedRows.append(before)
                    }
                } else if row.refresh == .reload {
                    changes.deletedRows.append(before)
                    changes.insertedRows.append(after)
                } else {
                    changes.movedRows.append(.init(from: before, to: after))
                    if row.refresh == .reconfigure { changes.reconfiguredRows.append(before) }
                }
            }
        }
        for tombstone in rowTombstones where !accounted.contains(Self.key(tombstone.section, tombstone.row)) {
            changes.deletedRows.append(IndexPath(row: tombstone.row, section: tombstone.section))
        }
        return changes
    }
}
