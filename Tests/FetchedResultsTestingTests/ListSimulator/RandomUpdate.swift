import FetchedResultsTesting
import Foundation
import TestSupport

/// A random update built by construction: a random old state, a random fate for every
/// section and row (kept, deleted, moved, reloaded, reconfigured, changed), the new state that
/// those fates produce, and the batch positions read off the two states by identity.
///
/// Nothing here uses the simulator's own algorithm: positions come from looking rows up in
/// the old state (before-positions) and the new state (after-positions).
struct RandomUpdate {
    var old: [Table.Section]
    var new: [Table.Section]
    /// The structural stage.
    var changes: ListChanges
    /// Reconfigures, at after-positions, of rows that moved and changed content, and (strict
    /// flavour) of reconfigured rows whose position the structural stage changes: a
    /// reconfigure there would be ambiguous (rule 16).
    var refreshes: [IndexPath]
    /// The same rows' before-positions: where a general set of changes names their refresh.
    var refreshSources: [IndexPath]
    /// Whether some refresh is of a row that moved (itself or with its section), so that
    /// leaving it out breaks rule 16 rather than only leaving a stale row in place.
    var refreshesMovedRows: Bool
    /// The deletes, inserts and moves that matter (not the rule 9 and 12 noise).
    var realDeletes: [IndexPath]
    var realInserts: [IndexPath]
    var realMoves: [ListChanges.RowMove]

    /// The update as a general set of changes: moved rows that changed are reconfigured at
    /// their before-positions, which one batch may not do but `staged()` resolves.
    var general: ListChanges {
        var general = changes
        general.reconfiguredRows += refreshSources
        return general
    }

    /// The stages of the update: the structural one, then the refreshes if any.
    var stages: [ListChanges] {
        refreshes.isEmpty ? [changes] : [changes, ListChanges(reconfiguredRows: refreshes)]
    }

    private enum Fate { case deleted, kept, moved, reloaded }
    private enum Slot { case old(Int), inserted(String) }

    // Generation is one long piece of bookkeeping; splitting it would only scatter it.
    init(_ rng: inout SeededGenerator, strict: Bool) {
        var nextRow = 0
        func freshRow() -> Table.Row {
            nextRow += 1
            return Table.Row(id: nextRow, content: "r\(nextRow)")
        }
        func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &rng) < percent }
        func freshRows() -> [Table.Row] { (0..<Int.random(in: 0...4, using: &rng)).map { _ in freshRow() } }

        var nextSection = 0
        let old: [Table.Section] = (0..<Int.random(in: 0...4, using: &rng)).map { _ in
            nextSection += 1
            return Table.Section(id: "S\(nextSection)", rows: (0..<Int.random(in: 0...6, using: &rng)).map { _ in freshRow() })
        }

        // Sections: fates and the new order. Kept and reloaded sections keep their relative
        // order; moved and inserted ones go anywhere.
        let fates: [Fate] = old.map { _ in
            let roll = Int.random(in: 0..<100, using: &rng)
            return roll < 15 ? .deleted : roll < 35 ? .moved : roll < 45 ? .reloaded : .kept
        }
        var order: [Slot] = fates.indices.filter { fates[$0] == .kept || fates[$0] == .reloaded }.map { .old($0) }
        for s in fates.indices where fates[s] == .moved {
            order.insert(.old(s), at: Int.random(in: 0...order.count, using: &rng))
        }
        for _ in 0..<Int.random(in: 0...2, using: &rng) {
            nextSection += 1
            order.insert(.inserted("S\(nextSection)"), at: Int.random(in: 0...order.count, using: &rng))
        }

        // Rows of surviving, non-reloaded sections.
        let eligible = fates.indices.filter { fates[$0] == .kept || (!strict && fates[$0] == .moved) }
        var rows: [Int: [Table.Row]] = [:]
        var deletes: [IndexPath] = []
        var reloads: [IndexPath] = []
        var reconfigures: [IndexPath] = []
        var needsRefresh: Set<Int> = []
        var beforePath: [Int: IndexPath] = [:]
        var moving: [(row: Table.Row, from: IndexPath, to: Int)] = []
        var insertedIDs: [Int] = []
        for s in old.indices where fates[s] == .kept || fates[s] == .moved {
            var staying: [Table.Row] = []
            for (r, row) in old[s].rows.enumerated() {
                let path = IndexPath(row: r, section: s)
                beforePath[row.id] = path
                let roll = Int.random(in: 0..<100, using: &rng)
                if eligible.contains(s), roll < 20 {
                    deletes.append(path)
                } else if eligible.contains(s), roll < 40 {
                    var moved = row
                    if chance(30) {
                        moved.content += "*"
                        needsRefresh.insert(row.id)
                    }
                    moving.append((moved, path, eligible[Int.random(in: 0..<eligible.count, using: &rng)]))
                } else if roll < 50, eligible.contains(s) || !strict {
                    reloads.append(path)
                    staying.append(Table.Row(id: row.id, content: row.content + "*"))
                } else if roll < 60 {
                    reconfigures.append(path)
                    staying.append(Table.Row(id: row.id, content: row.content + "*"))
                } else if roll < 70, fates[s] == .moved {
                    // A row of a moved section moves with it; changed, it needs a refresh.
                    needsRefresh.insert(row.id)
                    staying.append(Table.Row(id: row.id, content: row.content + "*"))
                } else {
                    staying.append(row)
                }
            }
            rows[s] = staying
        }
        for (row, _, to) in moving {
            rows[to, default: []].insert(row, at: Int.random(in: 0...rows[to, default: []].count, using: &rng))
        }
        for s in eligible {
            for _ in 0..<Int.random(in: 0...2, using: &rng) {
                let row = freshRow()
                insertedIDs.append(row.id)
                rows[s, default: []].insert(row, at: Int.random(in: 0...rows[s, default: []].count, using: &rng))
            }
        }

        // The new state, and after-positions by identity.
        let new: [Table.Section] = order.map { slot in
            switch slot {
            case let .old(s): Table.Section(id: old[s].id, rows: fates[s] == .reloaded ? freshRows() : rows[s] ?? [])
            case let .inserted(id): Table.Section(id: id, rows: freshRows())
            }
        }
        var afterPath: [Int: IndexPath] = [:]
        for (t, section) in new.enumerated() {
            for (r, row) in section.rows.enumerated() { afterPath[row.id] = IndexPath(row: r, section: t) }
        }
        var sectionAfter: [Int: Int] = [:]
        var insertedSections: [Int] = []
        for (t, slot) in order.enumerated() {
            switch slot {
            case let .old(s): sectionAfter[s] = t
            case .inserted: insertedSections.append(t)
            }
        }

        // Strict: a reconfigured row that the structural stage shifts is refreshed later.
        var refreshed = needsRefresh
        if strict {
            reconfigures.removeAll { path in
                let id = old[path[0]].rows[path[1]].id
                guard afterPath[id] != path else { return false }
                refreshed.insert(id)
                return true
            }
        }
        let moves = moving.map { ListChanges.RowMove(from: $0.from, to: afterPath[$0.row.id]!) }
        let inserts = insertedIDs.map { afterPath[$0]! }
        var changes = ListChanges(
            deletedSections: fates.indices.filter { fates[$0] == .deleted },
            insertedSections: insertedSections,
            movedSections: fates.indices.filter { fates[$0] == .moved }.map { .init(from: $0, to: sectionAfter[$0]!) },
            reloadedSections: fates.indices.filter { fates[$0] == .reloaded },
            deletedRows: deletes,
            insertedRows: inserts,
            movedRows: moves,
            reloadedRows: reloads,
            reconfiguredRows: reconfigures
        )
        // Noise the rules say to drop: row changes inside replaced sections (rule 12) and
        // exact duplicate moves (rule 9); duplicate deletes where they are allowed (rule 14).
        for s in old.indices where fates[s] == .deleted && !old[s].rows.isEmpty && chance(50) {
            changes.deletedRows.append(IndexPath(row: Int.random(in: 0..<old[s].rows.count, using: &rng), section: s))
        }
        for (t, slot) in order.enumerated() where !new[t].rows.isEmpty && chance(50) {
            if case .inserted = slot {
                changes.insertedRows.append(IndexPath(row: Int.random(in: 0..<new[t].rows.count, using: &rng), section: t))
            }
        }
        if let move = moves.first, chance(30) { changes.movedRows.append(move) }
        if !strict, let delete = deletes.first, chance(30) { changes.deletedRows.append(delete) }
        changes.deletedRows.shuffle(using: &rng)
        changes.insertedRows.shuffle(using: &rng)
        changes.movedRows.shuffle(using: &rng)

        self.old = old
        self.new = new
        self.changes = changes
        self.refreshes = refreshed.compactMap { afterPath[$0] }.sorted()
        self.refreshSources = refreshed.compactMap { beforePath[$0] }.sorted()
        self.refreshesMovedRows = !needsRefresh.isEmpty
        self.realDeletes = deletes
        self.realInserts = inserts
        self.realMoves = moves
    }
}
