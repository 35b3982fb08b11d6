import Foundation

extension ChangeAccumulator {
    /// A row of the current state that is not an untouched original row.
    struct RowToken: CompositionPayload {
        /// The row's section at the last flush, or -1 for a row inserted since then.
        var originSection = -1
        /// The row's position in `originSection` at the last flush (unused for an inserted row).
        var originRow = -1
        /// Whether the row's content changed since the last flush, and how it was refreshed.
        var refresh = Refresh.none

        init() {}

        init(originSection: Int, originRow: Int) {
            self.originSection = originSection
            self.originRow = originRow
        }
    }

    /// How a row's content changed since the last flush; a later change keeps the stronger.
    enum Refresh: UInt8, Comparable {
        case none
        /// Refresh the cell in place.
        case reconfigure
        /// Recreate the cell.
        case reload

        static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// A section of the current state that is not an untouched original section.
    struct SectionToken: CompositionPayload {
        /// The section's position at the last flush, or -1 for a section inserted since then.
        var origin = -1
        /// Whether the section was reloaded since the last flush: its rows are all new.
        var isReloaded = false
        /// The row sequence of an original section that was not reloaded, or -1 when the
        /// section's rows are all new (an inserted or reloaded section).
        var rows: Int32 = -1
        /// Whether the header of this original section changed since the last flush (a batch
        /// listed it in ``ListChanges/reconfiguredSections``). Never set on a section inserted
        /// or reloaded since then, whose header is new anyway.
        var isHeaderRefreshed = false

        init() {}

        init(origin: Int, isReloaded: Bool, rows: Int32) {
            self.origin = origin
            self.isReloaded = isReloaded
            self.rows = rows
        }

        /// Whether the section's rows are tracked one by one (an original section that was
        /// not reloaded); otherwise they are all new and changes to them need no record.
        var tracksRows: Bool { rows >= 0 }
    }

    /// Composes batches of changes into one batch relative to the state at the last flush.
    ///
    /// The current state is kept as a sequence of sections, and each original section that
    /// was touched keeps a sequence of rows, both as `TokenForest` trees: untouched
    /// original elements are runs, touched ones are tombstones at their original place plus
    /// live tokens where they are now. Rows of sections inserted or reloaded since the last
    /// flush are not tracked at all: every one of them is new, so the section change covers
    /// them. A batch of `c` changes costs O(c log c + c log k) for k tokens, whatever the
    /// number of rows; `result()` costs O(k log k).
    struct Composer {
        private(set) var sections = TokenForest<SectionToken>()
        private(set) var sectionTree: Int32
        private(set) var rows = TokenForest<RowToken>()
        /// The number of batches composed since the last flush.
        private(set) var batchCount = 0
        /// Set when an input batch contradicted itself (for example one row deleted twice);
        /// the composition then still holds a well-formed state, but it may not match the
        /// data, so the accumulator reloads.
        private(set) var inconsistency: String?

        /// Creates a composition of no change.
        init() {
            sectionTree = sections.makeOriginalTree()
        }

        /// Whether no batch was composed since the composition was created.
        var isEmpty: Bool { batchCount == 0 }

        // MARK: Access to sections

        /// The live node of the section at current position `position`, making an untouched
        /// original section a live token with an untouched row sequence.
        private mutating func liveSection(at position: Int) -> Int32 {
            let location = sections.locate(position, in: sectionTree)
            if sections.nodes[Int(location.node)].kind == .live { return location.node }
            let tree = rows.makeOriginalTree()
            return sections.touch(at: position, in: &sectionTree) { original in
                SectionToken(origin: original, isReloaded: false, rows: tree)
            }
        }

        // MARK: Composing one batch

        /// Composes one batch, whose positions are relative to the current state.
        ///
        /// - Parameter batch: A general set of changes (before-positions relative to the state
        ///   after every batch composed so far).
        /// - Complexity: O(c log c + c log k) for c changes and k tokens.
        mutating func compose(_ batch: ListChanges) {
            batchCount += 1
            guard !batch.isEmpty else { return }
            var held = composeRowsBefore(batch)
            composeSections(batch)
            composeRowsAfter(batch, held: &held)
            composeHeaderRefreshes(batch)
        }

        private func note(_ problem: @autoclosure () -> String) -> String? {
            inconsistency ?? problem()
        }

        /// Phase 1: row changes in the before space (marks, deletes, move sources), section by
        /// section, while the sections still have their before-positions.
        private mutating func composeRowsBefore(_ batch: ListChanges) -> [Int32] {
            enum Kind: Int { case reload, reconfigure, delete, moveSource }
            struct Op { var section: Int; var row: Int; var kind: Kind; var move: Int }
            var gone = Set(batch.deletedSections)
            gone.formUnion(batch.reloadedSections)
            var ops: [Op] = []
            ops.reserveCapacity(batch.deletedRows.count + batch.movedRows.count + batch.reloadedRows.count
                + batch.reconfiguredRows.count)
            // Row changes inside a section deleted or reloaded by the same batch are folded
            // into the section change; a move out of one still takes its row along, with the
            // refresh it carries: the row may come back to where it was at the last flush,
            // where only that refresh tells the view that its content changed.
            var leaving = Set<IndexPath>()
            if !gone.isEmpty {
                for move in batch.movedRows where gone.contains(move.from.section) { leaving.insert(move.from) }
            }
            for path in batch.reloadedRows where !gone.contains(path.section) || leaving.contains(path) {
                ops.append(Op(section: path.section, row: path.row, kind: .reload, move: -1))
            }
            for path in batch.reconfiguredRows where !gone.contains(path.section) || leaving.contains(path) {
                ops.append(Op(section: path.section, row: path.row, kind: .reconfigure, move: -1))
            }
            for path in batch.deletedRows where !gone.contains(path.section) {
                ops.append(Op(section: path.section, row: path.row, kind: .delete, move: -1))
            }
            for (index, move) in batch.movedRows.enumerated() {
                ops.append(Op(section: move.from.section, row: move.from.row, kind: .moveSource, move: index))
            }
            // Marks first (they shift nothing), then removals from the highest position down.
            ops.sort { a, b in
                let aMark = a.kind.rawValue <= Kind.reconfigure.rawValue
                let bMark = b.kind.rawValue <= Kind.reconfigure.rawValue
                if aMark != bMark { return aMark }
                if a.section != b.section { return a.section > b.section }
                if a.row != b.row { return a.row > b.row }
                return a.kind.rawValue < b.kind.rawValue
            }
            var held = [Int32](repeating: -1, count: batch.movedRows.count)
            var sectionNodes: [Int: Int32] = [:]
            var previous: (section: Int, row: Int, removal: Bool)?
            for op in ops {
                require(op.section >= 0 && op.row >= 0, "ListChanges holds a negative position: \(op.section).\(op.row)")
                let removal = op.kind.rawValue >= Kind.delete.rawValue
                if let p = previous, p.section == op.section, p.row == op.row, p.removal, removal {
                    inconsistency = note("the row \(op.section).\(op.row) is removed twice in one batch")
                    if op.kind == .moveSource { held[op.move] = rows.makeLive(RowToken()) }
                    continue
                }
                previous = (op.section, op.row, removal)
                let sectionNode: Int32
                if let known = sectionNodes[op.section] {
                    sectionNode = known
                } else {
                    sectionNode = liveSection(at: op.section)
                    sectionNodes[op.section] = sectionNode
                }
                var token = sections.payload(sectionNode)
                guard token.tracksRows else {
                    // Every row of a new or reloaded section is new.
                    if op.kind == .moveSource { held[op.move] = rows.makeLive(RowToken()) }
                    continue
                }
                let origin = token.origin
                switch op.kind {
                case .reload, .reconfigure:
                    let node = rows.touch(at: op.row, in: &token.rows) { original in
                        RowToken(originSection: origin, originRow: original)
                    }
                    var row = rows.payload(node)
                    if row.originSection >= 0 {
                        row.refresh = max(row.refresh, op.kind == .reload ? .reload : .reconfigure)
                        rows.setPayload(row, of: node)
                    }
                case .delete:
                    _ = rows.remove(at: op.row, in: &token.rows)
                case .moveSource:
                    switch rows.remove(at: op.row, in: &token.rows) {
                    case .original(let original):
                        held[op.move] = rows.makeLive(RowToken(originSection: origin, originRow: original))
                    case .live(let node):
                        held[op.move] = node
                    }
                }
                sections.setPayload(token, of: sectionNode)
            }
            return held
        }

        /// Phase 2: section reloads, deletes and moves (before space), then section inserts and
        /// move destinations (after space).
        private mutating func composeSections(_ batch: ListChanges) {
            for position in batch.reloadedSections {
                require(position >= 0, "ListChanges holds a negative section: \(position)")
                let location = sections.locate(position, in: sectionTree)
                if sections.nodes[Int(location.node)].kind == .live {
                    var token = sections.payload(location.node)
                    if token.origin >= 0 {
                        // A reload recreates the header too: a refresh noted earlier is moot.
                        token.isReloaded = true
                        token.rows = -1
                        token.isHeaderRefreshed = false
                        sections.setPayload(token, of: location.node)
                    }
                } else {
                    _ = sections.touch(at: position, in: &sectionTree) { original in
                        SectionToken(origin: original, isReloaded: true, rows: -1)
                    }
                }
            }
            var removals: [(position: Int, move: Int)] = batch.deletedSections.map { ($0, -1) }
            for (index, move) in batch.movedSections.enumerated() { removals.append((move.from, index)) }
            removals.sort { $0.position != $1.position ? $0.position > $1.position : $0.move < $1.move }
            var held = [Int32](repeating: -1, count: batch.movedSections.count)
            var previous = -1
            for removal in removals {
                require(removal.position >= 0, "ListChanges holds a negative section: \(removal.position)")
                if removal.position == previous {
                    inconsistency = note("the section \(removal.position) is removed twice in one batch")
                    if removal.move >= 0 { held[removal.move] = sections.makeLive(SectionToken()) }
                    continue
                }
                previous = removal.position
                let removed = sections.remove(at: removal.position, in: &sectionTree)
                guard removal.move >= 0 else { continue }
                switch removed {
                case .original(let original):
                    held[removal.move] = sections.makeLive(
                        SectionToken(origin: original, isReloaded: false, rows: rows.makeOriginalTree()))
                case .live(let node):
                    held[removal.move] = node
                }
            }
            var insertions: [(position: Int, move: Int)] = batch.insertedSections.map { ($0, -1) }
            for (index, move) in batch.movedSections.enumerated() { insertions.append((move.to, index)) }
            insertions.sort { $0.position != $1.position ? $0.position < $1.position : $0.move < $1.move }
            previous = -1
            for insertion in insertions {
                require(insertion.position >= 0, "ListChanges holds a negative section: \(insertion.position)")
                if insertion.position == previous {
                    inconsistency = note("two sections are placed at \(insertion.position) in one batch")
                }
                previous = insertion.position
                let node = insertion.move >= 0 ? held[insertion.move] : sections.makeLive(SectionToken())
                sections.insert(node, at: insertion.position, in: &sectionTree)
            }
        }

        /// Phase 3: row inserts and move destinations, in the after space, ascending.
        private mutating func composeRowsAfter(_ batch: ListChanges, held: inout [Int32]) {
            var placements: [(path: IndexPath, move: Int)] = batch.insertedRows.map { ($0, -1) }
            for (index, move) in batch.movedRows.enumerated() { placements.append((move.to, index)) }
            placements.sort { $0.path != $1.path ? $0.path < $1.path : $0.move < $1.move }
            var sectionNodes: [Int: Int32] = [:]
            var previous: IndexPath?
            for placement in placements {
                let section = placement.path.section
                let row = placement.path.row
                require(section >= 0 && row >= 0, "ListChanges holds a negative position: \(section).\(row)")
                if placement.path == previous {
                    inconsistency = note("two rows are placed at \(section).\(row) in one batch")
                }
                previous = placement.path
                let sectionNode: Int32
                if let known = sectionNodes[section] {
                    sectionNode = known
                } else {
                    sectionNode = liveSection(at: section)
                    sectionNodes[section] = sectionNode
                }
                var token = sections.payload(sectionNode)
                // Rows placed in a new or reloaded section are part of that section change; a
                // row moved there from an original section leaves a tombstone: a delete.
                guard token.tracksRows else { continue }
                let node = placement.move >= 0 ? held[placement.move] : rows.makeLive(RowToken())
                rows.insert(node, at: row, in: &token.rows)
                sections.setPayload(token, of: sectionNode)
            }
        }

        /// Phase 4: header refreshes, in the after space. An original section remembers that
        /// its header changed, and carries that through later moves until the flush (a later
        /// delete drops it with the section); a section inserted or reloaded since the last
        /// flush shows a new header anyway and remembers nothing.
        private mutating func composeHeaderRefreshes(_ batch: ListChanges) {
            for position in batch.reconfiguredSections {
                require(position >= 0, "ListChanges holds a negative section: \(position)")
                let node = liveSection(at: position)
                var token = sections.payload(node)
                let isNew = token.origin < 0 || token.isReloaded
                guard !isNew, !token.isHeaderRefreshed else { continue }
                token.isHeaderRefreshed = true
                sections.setPayload(token, of: node)
            }
        }
    }
}
