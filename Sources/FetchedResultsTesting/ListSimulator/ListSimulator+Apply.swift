import Foundation

extension ListSimulator {
    /// Applies one batch update, as UIKit's `performBatchUpdates(_:)` would, with the data
    /// source already at `newState`.
    ///
    /// - Parameters:
    ///   - changes: The batch, in the index spaces of the batch rules.
    ///   - newState: The data after the update; inserted, reloaded and reconfigured rows are
    ///     rendered from it, and the result must equal it.
    /// - Throws: ``ListSimulatorError``: `.rejected` naming the broken rule, or
    ///   `.doesNotProduceNewState` with the element-level difference. The state is unchanged.
    /// - Complexity: O(n + c log c) for n rows and c changes.
    public func apply(_ changes: ListChanges, newState: [Section]) throws(ListSimulatorError) {
        try apply(stages: [changes], newState: newState)
    }

    /// Applies an update made of several batches, one after another, with the data source
    /// already at `newState` for all of them (as a view adapter performs a staged update).
    ///
    /// Every stage is validated against the state the previous one left and the new state's
    /// counts. In strict mode a row moved by an earlier stage whose content changed must be
    /// refreshed (reloaded or reconfigured at its after-position) by a later stage, no stage
    /// may reconfigure a row whose position that stage changes (rule 16), and no stage may be
    /// applied while the list is not visible (rule 17).
    ///
    /// A header refresh (`ListChanges.reconfiguredSections`) names a section after its stage:
    /// it must exist then (rule 4) and not be inserted or reloaded by that stage (rule 8). It
    /// changes nothing on display but is logged as ``ListOperation/reconfigureSection(_:id:)``,
    /// so a test can tell which headers an update refreshed.
    ///
    /// - Parameters:
    ///   - stages: The batches, in order.
    ///   - newState: The data after the update.
    /// - Throws: ``ListSimulatorError``; the state is unchanged.
    /// - Complexity: O(s·n + c log c) for s stages, n rows and c changes.
    public func apply(stages: [ListChanges], newState: [Section]) throws(ListSimulatorError) {
        var applied: [ListOperation] = []
        let result = try Self.result(
            of: stages, from: sections, to: newState, strict: isStrict, visible: isVisible,
            checkContent: verifiesContent, operations: &applied
        )
        commit(result, operations: applied, stageCount: stages.count)
    }

    /// Applies what an accumulator decided: a reload, or the stages of an animated update.
    ///
    /// - Parameters:
    ///   - update: `.reload` reloads from `newState`; `.animate(stages)` applies the stages.
    ///   - newState: The data after the update.
    /// - Throws: ``ListSimulatorError`` when an animated update is refused; the state is
    ///   unchanged. A reload never throws.
    /// - Complexity: O(s·n + c log c) for s stages, n rows and c changes.
    public func apply(_ update: ListUpdate, newState: [Section]) throws(ListSimulatorError) {
        switch update {
        case .reload: reloadData(newState)
        case let .animate(stages): try apply(stages: stages, newState: newState)
        }
    }

    /// Checks that applying `stages` to `old` yields `new`, without a simulator instance.
    ///
    /// - Parameters:
    ///   - stages: The batches of one update, in order.
    ///   - old: The state before the update.
    ///   - new: The state the update must produce, identifiers and contents.
    ///   - strict: Whether tier B rules are enforced too.
    /// - Returns: `nil` when the update is accepted and produces `new`; otherwise the error.
    /// - Complexity: O(s·n + c log c) for s stages, n rows and c changes.
    public static func check(
        applying stages: [ListChanges],
        from old: [Section],
        to new: [Section],
        strict: Bool = true
    ) -> ListSimulatorError? {
        var operations: [ListOperation] = []
        return check(applying: stages, from: old, to: new, strict: strict, operations: &operations)
    }

    /// ``check(applying:from:to:strict:)`` that also hands back the operations applied
    /// before the update was refused or finished, for failure reports.
    static func check(
        applying stages: [ListChanges],
        from old: [Section],
        to new: [Section],
        strict: Bool,
        operations: inout [ListOperation]
    ) -> ListSimulatorError? {
        do {
            _ = try result(
                of: stages, from: old, to: new, strict: strict, visible: true, checkContent: true, operations: &operations
            )
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Machinery

    /// A row on its way through an update.
    private struct WorkingRow {
        var row: Row
        /// The row's position before the update and the stage (counted from 0) that moved it,
        /// once one did: its cell keeps stale content until a refresh.
        var moved: (from: IndexPath, stage: Int)?
        /// The refresh this stage asks for, with the row's before-position in the stage.
        var refresh: Refresh = .none

        enum Refresh {
            case none
            case reload(IndexPath)
            case reconfigure(IndexPath)
        }

        init(_ row: Row) {
            self.row = row
        }
    }

    private struct WorkingSection {
        var id: SectionID
        var rows: [WorkingRow]
    }

    private static func result(
        of stages: [ListChanges],
        from old: [Section],
        to new: [Section],
        strict: Bool,
        visible: Bool,
        checkContent: Bool,
        operations: inout [ListOperation]
    ) throws(ListSimulatorError) -> [Section] {
        if strict, !visible, let first = stages.first {
            throw .rejected(.batchWhileNotVisible, stage: 1, stageCount: stages.count, changes: first)
        }
        var working = old.map { WorkingSection(id: $0.id, rows: $0.rows.map { WorkingRow($0) }) }
        let afterCounts = new.map(\.rows.count)
        for (index, changes) in stages.enumerated() {
            let stage: ValidatedStage
            do {
                stage = try ValidatedStage(
                    changes, beforeRowCounts: working.map(\.rows.count), afterRowCounts: afterCounts, strict: strict
                )
            } catch {
                throw .rejected(error, stage: index + 1, stageCount: stages.count, changes: changes)
            }
            operations.append(.beginBatch(stage: index + 1, stageCount: stages.count))
            apply(stage, index: index, to: &working, newState: new, operations: &operations)
        }
        let sections = working.map { Section(id: $0.id, rows: $0.rows.map(\.row)) }
        let identity = difference(between: sections, and: new, comparingContent: false)
        if !identity.isEmpty { throw .doesNotProduceNewState(identity) }
        if strict {
            for (s, section) in working.enumerated() {
                for (r, row) in section.rows.enumerated() {
                    guard let (from, stage) = row.moved else { continue }
                    let current = new[s].rows[r].content
                    if row.row.content != current {
                        throw .rejected(
                            .movedRowNotRefreshed(
                                from: from,
                                to: IndexPath(row: r, section: s),
                                shown: String(describing: row.row.content),
                                current: String(describing: current)
                            ),
                            stage: stage + 1,
                            stageCount: stages.count,
                            changes: stages[stage]
                        )
                    }
                }
            }
        }
        if checkContent {
            let content = difference(between: sections, and: new, comparingContent: true)
            if !content.isEmpty { throw .doesNotProduceNewState(content) }
        }
        return sections
    }

    /// Applies one validated stage: deletes and move sources leave their before-sections,
    /// sections are rebuilt in after-order, and every surviving section is filled slot by
    /// slot with its inserts and move destinations at their after-positions and its remaining
    /// rows in their old order (the result of deleting descending, then inserting ascending).
    private static func apply(
        _ stage: ValidatedStage,
        index: Int,
        to working: inout [WorkingSection],
        newState: [Section],
        operations: inout [ListOperation]
    ) {
        let before = working
        let deleted = Set(stage.deletedRows)
        let inserted = Set(stage.insertedRows)
        let reloaded = Set(stage.reloadedRows)
        let reconfigured = Set(stage.reconfiguredRows)
        var destinationBySource: [Int: Int] = [:]
        for move in stage.movedRows { destinationBySource[move.from] = move.to }

        // Removals, in before-space.
        var stash: [Int: WorkingRow] = [:]
        var survivors: [[WorkingRow]] = Array(repeating: [], count: before.count)
        for (s, section) in before.enumerated() {
            guard let target = stage.sectionTargets[s] else {
                operations.append(.deleteSection(s, id: text(section.id)))
                continue
            }
            guard !stage.sectionSources[target].isNew else { continue }
            let sectionMoves = if case .moved = stage.sectionSources[target] { true } else { false }
            for (r, row) in section.rows.enumerated() {
                let key = ValidatedStage.key(section: s, row: r)
                var row = row
                if deleted.contains(key) {
                    operations.append(.deleteRow(IndexPath(row: r, section: s), id: text(row.row.id)))
                    continue
                }
                if let destination = destinationBySource[key] {
                    if row.moved == nil { row.moved = (IndexPath(row: r, section: s), index) }
                    stash[destination] = row
                    continue
                }
                if sectionMoves, row.moved == nil { row.moved = (IndexPath(row: r, section: s), index) }
                if reloaded.contains(key) {
                    row.refresh = .reload(IndexPath(row: r, section: s))
                } else if reconfigured.contains(key) {
                    row.refresh = .reconfigure(IndexPath(row: r, section: s))
                }
                survivors[s].append(row)
            }
        }
        for move in stage.movedSections {
            operations.append(.moveSection(move, id: text(before[move.from].id)))
        }
        for move in stage.movedRows {
            guard let row = stash[move.to] else { requirementFailure("internal inconsistency: a moved row is lost") }
            let rowMove = ListChanges.RowMove(from: ValidatedStage.indexPath(move.from), to: ValidatedStage.indexPath(move.to))
            operations.append(.moveRow(rowMove, id: text(row.row.id)))
        }

        // Rebuild in after-space.
        var result: [WorkingSection] = []
        result.reserveCapacity(stage.sectionSources.count)
        for (t, source) in stage.sectionSources.enumerated() {
            let fresh = newState[t]
            switch source {
            case .inserted:
                operations.append(.insertSection(t, id: text(fresh.id), rowCount: fresh.rows.count))
                result.append(WorkingSection(id: fresh.id, rows: fresh.rows.map { WorkingRow($0) }))
            case let .reloaded(s):
                // The same section, every row recreated from the data source.
                operations.append(.reloadSection(from: s, to: t, id: text(before[s].id), rowCount: fresh.rows.count))
                result.append(WorkingSection(id: before[s].id, rows: fresh.rows.map { WorkingRow($0) }))
            case let .moved(s), let .kept(s):
                var kept = survivors[s].makeIterator()
                var rows: [WorkingRow] = []
                rows.reserveCapacity(fresh.rows.count)
                // The rows the batch inserts here, in order, named lazily at the first insert.
                var implied: IndexingIterator<[RowID]>?
                for r in fresh.rows.indices {
                    let key = ValidatedStage.key(section: t, row: r)
                    if inserted.contains(key) {
                        if implied == nil {
                            implied = impliedInserts(fresh, survivors: survivors[s], section: t, stash: stash).makeIterator()
                        }
                        let shown = text(fresh.rows[r].id)
                        var inserts: String?
                        if let next = implied?.next() { inserts = text(next) }
                        operations.append(.insertRow(
                            IndexPath(row: r, section: t), id: shown, implied: inserts == shown ? nil : inserts))
                        rows.append(WorkingRow(fresh.rows[r]))
                    } else if let moved = stash[key] {
                        rows.append(moved)
                    } else if var row = kept.next() {
                        switch row.refresh {
                        case .none:
                            break
                        case let .reload(from):
                            // A reload recreates the same row's cell: the identity stays, the
                            // content is rendered anew. A position that now shows another row
                            // needs a delete and an insert, and the identity check says so.
                            operations.append(.reloadRow(from: from, to: IndexPath(row: r, section: t), id: text(row.row.id)))
                            row = WorkingRow(Row(id: row.row.id, content: fresh.rows[r].content))
                        case let .reconfigure(from):
                            operations.append(
                                .reconfigureRow(from: from, to: IndexPath(row: r, section: t), id: text(row.row.id))
                            )
                            row.row.content = fresh.rows[r].content
                            row.moved = nil
                            row.refresh = .none
                        }
                        rows.append(row)
                    } else {
                        requirementFailure("internal inconsistency: section \(t) runs out of rows at \(r)")
                    }
                }
                assert(kept.next() == nil, "internal inconsistency: section \(t) has rows left over")
                result.append(WorkingSection(id: before[s].id, rows: rows))
            }
        }
        // Header refreshes: after the batch, in sections it kept or moved (validation saw to
        // that); a refresh only, which leaves the rows as the batch made them.
        for section in stage.reconfiguredSections {
            operations.append(.reconfigureSection(section, id: text(result[section].id)))
        }
        working = result
    }

    /// The identifiers a stage implies it inserts into after-section `t` (`fresh` in the new
    /// state), in order: its rows that are neither survivors of its before-section nor moved
    /// into it. A correct stage inserts exactly these at its insert positions; a wrong one
    /// shows, at an insert position, a row the view already had.
    ///
    /// - Complexity: O(n) for n rows of the section.
    private static func impliedInserts(
        _ fresh: Section, survivors: [WorkingRow], section t: Int, stash: [Int: WorkingRow]
    ) -> [RowID] {
        var accounted: [RowID: Int] = [:]
        for row in survivors { accounted[row.row.id, default: 0] += 1 }
        for r in fresh.rows.indices {
            if let moved = stash[ValidatedStage.key(section: t, row: r)] { accounted[moved.row.id, default: 0] += 1 }
        }
        var result: [RowID] = []
        for row in fresh.rows {
            if let count = accounted[row.id], count > 0 {
                accounted[row.id] = count - 1
            } else {
                result.append(row.id)
            }
        }
        return result
    }

    private static func text(_ value: some Any) -> String { String(describing: value) }
}
