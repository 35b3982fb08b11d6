import Foundation
import ListUpdates
import TestSupport

/// Makes random states of a sectioned list and random batches between them, for the
/// accumulator's randomized tests.
struct RandomBatches {
    private(set) var nextID = 1

    /// How often (in percent) a row of a section that a step deletes or reloads survives it,
    /// moved into another section (and updated, some of the time). The batch then names it as
    /// a move out of the gone section or as an insert, at random.
    var rescuePercent = 0
    /// How often (in percent) a step deletes a section, and how often it reloads one.
    var sectionDeletePercent = 15
    var sectionReloadPercent = 8

    init(rescuePercent: Int = 0) {
        self.rescuePercent = rescuePercent
    }

    mutating func newID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    /// A random state: `sections` sections of up to `maxRows` rows.
    mutating func state(sections: Int, maxRows: Int, using rng: inout SeededGenerator) -> [ReferenceSection] {
        (0..<sections).map { _ in
            ReferenceSection(id: newID(), rows: (0..<Int.random(in: 0...maxRows, using: &rng)).map { _ in
                ReferenceRow(id: newID(), version: 0)
            })
        }
    }

    /// A random next state and a general batch that turns `state` into it.
    ///
    /// - Parameter rowChanges: The most row-level edits in one batch.
    mutating func step(from state: [ReferenceSection], rowChanges: Int = 6, using rng: inout SeededGenerator)
        -> (next: [ReferenceSection], changes: ListChanges)
    {
        var next = state
        var reloadedIDs = Set<Int>()
        var sectionsMoved = false
        if !next.isEmpty && Int.random(in: 0..<100, using: &rng) < sectionDeletePercent {
            let gone = next.remove(at: Int.random(in: 0..<next.count, using: &rng))
            rescue(gone.rows, into: &next, using: &rng)
        }
        if Int.random(in: 0..<100, using: &rng) < 20 || next.isEmpty {
            let rows = (0..<Int.random(in: 0...4, using: &rng)).map { _ in ReferenceRow(id: newID(), version: 0) }
            next.insert(ReferenceSection(id: newID(), rows: rows), at: Int.random(in: 0...next.count, using: &rng))
        }
        if next.count > 1 && Int.random(in: 0..<100, using: &rng) < 15 {
            let section = next.remove(at: Int.random(in: 0..<next.count, using: &rng))
            next.insert(section, at: Int.random(in: 0...next.count, using: &rng))
            sectionsMoved = true
        } else if !next.isEmpty && Int.random(in: 0..<100, using: &rng) < sectionReloadPercent {
            let index = Int.random(in: 0..<next.count, using: &rng)
            if state.contains(where: { $0.id == next[index].id }) {
                reloadedIDs.insert(next[index].id)
                let old = next[index].rows
                next[index].rows = (0..<Int.random(in: 0...4, using: &rng)).map { _ in ReferenceRow(id: newID(), version: 0) }
                rescue(old, into: &next, avoiding: index, using: &rng)
            }
        }
        for _ in 0..<Int.random(in: 0...rowChanges, using: &rng) {
            let nonEmpty = next.indices.filter { !next[$0].rows.isEmpty }
            switch Int.random(in: 0..<4, using: &rng) {
            case 0 where !nonEmpty.isEmpty:
                let s = nonEmpty.randomElement(using: &rng)!
                next[s].rows.remove(at: Int.random(in: 0..<next[s].rows.count, using: &rng))
            case 1 where !next.isEmpty:
                let s = Int.random(in: 0..<next.count, using: &rng)
                next[s].rows.insert(ReferenceRow(id: newID(), version: 0), at: Int.random(in: 0...next[s].rows.count, using: &rng))
            case 2 where !nonEmpty.isEmpty:
                let s = nonEmpty.randomElement(using: &rng)!
                let row = next[s].rows.remove(at: Int.random(in: 0..<next[s].rows.count, using: &rng))
                let t = Int.random(in: 0..<100, using: &rng) < 60 ? s : Int.random(in: 0..<next.count, using: &rng)
                next[t].rows.insert(row, at: Int.random(in: 0...next[t].rows.count, using: &rng))
            case 3 where !nonEmpty.isEmpty:
                let s = nonEmpty.randomElement(using: &rng)!
                next[s].rows[Int.random(in: 0..<next[s].rows.count, using: &rng)].version += 1
            default:
                break
            }
        }
        let changes = derive(from: state, to: next, reloaded: reloadedIDs, allowSectionMoves: sectionsMoved || reloadedIDs.isEmpty, using: &rng)
        return (next, changes)
    }

    /// Moves some of `rows` (rows of a section that is going) into the other sections of
    /// `next`, at random places, some of them updated.
    private func rescue(
        _ rows: [ReferenceRow], into next: inout [ReferenceSection], avoiding avoided: Int? = nil,
        using rng: inout SeededGenerator
    ) {
        let targets = next.indices.filter { $0 != avoided }
        guard rescuePercent > 0, !targets.isEmpty else { return }
        for var row in rows where Int.random(in: 0..<100, using: &rng) < rescuePercent {
            if Bool.random(using: &rng) { row.version += 1 }
            let t = targets.randomElement(using: &rng)!
            next[t].rows.insert(row, at: Int.random(in: 0...next[t].rows.count, using: &rng))
        }
    }

    /// Indices (into `values`) of a longest increasing subsequence.
    private func increasing(_ values: [Int]) -> Set<Int> {
        var tails: [Int] = []
        var parent = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let mid = (low + high) / 2
                if values[tails[mid]] < value { low = mid + 1 } else { high = mid }
            }
            if low > 0 { parent[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var result = Set<Int>()
        var index = tails.last ?? -1
        while index >= 0 {
            result.insert(index)
            index = parent[index]
        }
        return result
    }

    /// A general batch from `before` to `after`, worked out from identities: moves only where
    /// needed (plus a few that change nothing), updated rows reconfigured or reloaded, a moved
    /// and updated row a reconfigured move source. A row that leaves a deleted or reloaded
    /// section for a surviving one is an insert, or a move out of the gone section (refreshed
    /// at its source when it changed), as a general batch may say.
    func derive(
        from before: [ReferenceSection], to after: [ReferenceSection], reloaded: Set<Int>, allowSectionMoves: Bool,
        using rng: inout SeededGenerator
    ) -> ListChanges {
        var changes = ListChanges()
        let beforeIndex = Dictionary(uniqueKeysWithValues: before.enumerated().map { ($1.id, $0) })
        let afterIndex = Dictionary(uniqueKeysWithValues: after.enumerated().map { ($1.id, $0) })
        for (index, section) in before.enumerated() where afterIndex[section.id] == nil {
            changes.deletedSections.append(index)
        }
        var surviving: [(after: Int, before: Int)] = []
        for (index, section) in after.enumerated() {
            if let old = beforeIndex[section.id] {
                surviving.append((index, old))
                if reloaded.contains(section.id) { changes.reloadedSections.append(old) }
            } else {
                changes.insertedSections.append(index)
            }
        }
        let keep = increasing(surviving.map(\.before))
        for (position, pair) in surviving.enumerated()
        where !keep.contains(position) || (allowSectionMoves && reloaded.isEmpty && Int.random(in: 0..<100, using: &rng) < 3) {
            changes.movedSections.append(.init(from: pair.before, to: pair.after))
        }
        // Rows of sections that survive and are not reloaded.
        let alive = { (id: Int) in beforeIndex[id] != nil && afterIndex[id] != nil && !reloaded.contains(id) }
        var beforeRows: [Int: (path: IndexPath, row: ReferenceRow)] = [:]
        for (s, section) in before.enumerated() where alive(section.id) {
            for (r, row) in section.rows.enumerated() { beforeRows[row.id] = (IndexPath(row: r, section: s), row) }
        }
        // Rows of sections deleted or reloaded, which may survive elsewhere.
        var goneRows: [Int: (path: IndexPath, row: ReferenceRow)] = [:]
        for (s, section) in before.enumerated() where !alive(section.id) {
            for (r, row) in section.rows.enumerated() { goneRows[row.id] = (IndexPath(row: r, section: s), row) }
        }
        var afterIDs = Set<Int>()
        for (s, section) in after.enumerated() where alive(section.id) {
            let old = beforeIndex[section.id]!
            var candidates: [(position: Int, beforeRow: Int)] = []
            for (r, row) in section.rows.enumerated() {
                afterIDs.insert(row.id)
                if let source = beforeRows[row.id], source.path.section == old { candidates.append((r, source.path.row)) }
            }
            let stay = Set(increasing(candidates.map(\.beforeRow)).map { candidates[$0].position })
            for (r, row) in section.rows.enumerated() {
                let to = IndexPath(row: r, section: s)
                guard let source = beforeRows[row.id] else {
                    if let gone = goneRows[row.id], Bool.random(using: &rng) {
                        changes.movedRows.append(.init(from: gone.path, to: to))
                        if gone.row.version != row.version {
                            if Int.random(in: 0..<100, using: &rng) < 25 {
                                changes.reloadedRows.append(gone.path)
                            } else {
                                changes.reconfiguredRows.append(gone.path)
                            }
                        }
                    } else {
                        changes.insertedRows.append(to)
                    }
                    continue
                }
                let updated = source.row.version != row.version
                let stays = stay.contains(r) && Int.random(in: 0..<100, using: &rng) >= 3
                if stays {
                    if updated {
                        if Int.random(in: 0..<100, using: &rng) < 25 {
                            changes.reloadedRows.append(source.path)
                        } else {
                            changes.reconfiguredRows.append(source.path)
                        }
                    }
                } else if updated && Int.random(in: 0..<100, using: &rng) < 25 {
                    changes.deletedRows.append(source.path)
                    changes.insertedRows.append(to)
                } else {
                    changes.movedRows.append(.init(from: source.path, to: to))
                    if updated { changes.reconfiguredRows.append(source.path) }
                }
            }
        }
        for (id, source) in beforeRows where !afterIDs.contains(id) { changes.deletedRows.append(source.path) }
        return changes
    }
}
