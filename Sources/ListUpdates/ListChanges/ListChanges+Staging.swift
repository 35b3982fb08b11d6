import Foundation

extension ListChanges {
    /// Splits a general set of changes into the fewest batches a list view accepts under every
    /// rule of the simulator's strict mode (tier A and tier B of the batch rules), with the data
    /// source showing the final state for all of them.
    ///
    /// Most changes need one or two stages:
    ///
    /// 1. The **structural stage**: every section and row delete, insert and move, section
    ///    reloads, the reloads of rows that do not move, and the reconfigures of rows whose
    ///    position stage 1 leaves as it is.
    /// 2. Only when needed, a **refresh stage** that holds nothing but reconfigures (or reloads)
    ///    of rows that moved in stage 1 and changed content, and the reconfigures of rows that
    ///    stage 1 shifts (rows or sections inserted, deleted or moved before them), named by
    ///    their positions after stage 1. A refresh stage changes no position, so it reads the
    ///    same whichever index space a list view applies its reconfigures in.
    ///
    /// A section that moves keeps its identity, its scroll position and its header, even when
    /// rows change inside it, as long as its row count is the same before and after: then the
    /// structural stage moves it with its rows untouched, and a **row stage** right after it
    /// holds the row changes inside such sections (and the refreshes the structural stage
    /// needs); a refresh stage may follow. That is three stages at most. A row that moves
    /// between such a section and another becomes an insert in one stage and a delete in the
    /// other.
    ///
    /// To get there, the general set is rewritten as follows; the state the stages produce,
    /// applied in order, is the state the general set describes.
    ///
    /// - Exact duplicates in any field are removed.
    /// - A row that is both deleted and reloaded (or reconfigured) is only deleted; a row that
    ///   is both reloaded and reconfigured is only reloaded. A section that is both deleted and
    ///   reloaded is only deleted.
    /// - A reconfigured or reloaded move source keeps its move and is refreshed at the move's
    ///   destination in a later stage, the same way (reconfigure or reload).
    /// - A reconfigured row that does not move but whose position its stage changes is
    ///   reconfigured at its new position in a later stage: Apple does not document whether
    ///   `reconfigureRows(at:)` reads positions before or after the other changes of its batch.
    ///   (A reload is a delete plus an insert, well defined in one batch, and stays.)
    /// - A moved section whose row changes alter its row count (row inserts, deletes and moves
    ///   in and out that do not balance), or a moved section that is also reloaded, becomes a
    ///   section delete plus a section insert: a batch must end with the data source's row
    ///   counts, and no batch may both move a section and change rows inside it.
    /// - Row changes inside a section that is deleted, inserted or reloaded are folded into
    ///   the section change: row deletes, reloads and reconfigures at its before-position and
    ///   row inserts at its after-position are dropped, a row that moves out of it becomes an
    ///   insert at its destination, a row that moves into it becomes a delete at its source,
    ///   and a row moving between two such sections disappears.
    /// - Header refreshes (``reconfiguredSections``, positions after the whole change) all go
    ///   in the last stage, whose after-positions are those of the whole change; there they
    ///   name sections that exist after it, whatever the earlier stages did. A header refresh
    ///   of a section that a stage inserts or reloads (inserted or reloaded by the change, or a
    ///   moved section rebuilt as above) is dropped: that section shows a fresh header anyway.
    ///   A change of header refreshes alone is one stage.
    ///
    /// Every field of every stage is sorted ascending.
    ///
    /// - Precondition: The changes are consistent: every index path has exactly two
    ///   non-negative indexes, every section index (header refreshes included) is
    ///   non-negative, no position is both
    ///   deleted and a move source, none is both inserted and a move destination, and no
    ///   source (or destination) belongs to two different moves — for rows and sections alike.
    ///   Breaking this is a programming error and traps with a message naming the conflict.
    ///   Row counts are not known here, so bounds and count rules are not checked; a list view
    ///   (or `ListSimulator`) checks them when the stages are applied.
    /// - Returns: The stages, in the order to apply them (at most three); `[]` when the value is
    ///   empty.
    /// - Complexity: O(c log c) for c changes.
    public func staged() -> [ListChanges] {
        guard !isEmpty else { return [] }
        return PackedListChanges(self).staged()
    }
}

extension PackedListChanges {
    /// The stages of these changes, as ``ListChanges/staged()`` describes them.
    ///
    /// - Complexity: O(c log c) for c changes.
    @usableFromInline
    func staged() -> [ListChanges] {
        var stager = Stager(self)
        let stages = stager.stages()
        for stage in stages { stage._checkIsStage() }
        return stages
    }
}

/// A row position packed into one integer, `section << 32 | row` (see `PackedListChanges`).
private typealias PackedPosition = Int

extension PackedPosition {
    /// The section of a packed position.
    @inline(__always)
    fileprivate var sectionIndex: Int { self >> 32 }

    /// The index path of a packed position.
    @inline(__always)
    fileprivate var indexPath: IndexPath { PackedListChanges.indexPath(self) }
}

/// The rewriting `staged()` performs, over sorted arrays of packed positions.
private struct Stager {
    // Sections, sorted and unique.
    var deletedSections: [Int]
    var insertedSections: [Int]
    var reloadedSections: [Int]
    var sectionMoves: [ListChanges.SectionMove]
    /// Header refreshes, positions after the whole change.
    var reconfiguredSections: [Int]

    // Rows, sorted and unique.
    var deletedRows: [PackedPosition]
    var insertedRows: [PackedPosition]
    var reloadedRows: [PackedPosition]
    var reconfiguredRows: [PackedPosition]
    /// Sorted by source, then destination.
    var rowMoves: [(from: PackedPosition, to: PackedPosition)]

    init(_ changes: PackedListChanges) {
        for section in changes.deletedSections + changes.insertedSections + changes.reloadedSections
            + changes.reconfiguredSections
        {
            require(section >= 0, "ListChanges.staged(): section index \(section) is negative")
        }
        for move in changes.movedSections {
            require(move.from >= 0 && move.to >= 0, "ListChanges.staged(): section move \(move) is negative")
        }
        deletedSections = sortedUnique(changes.deletedSections)
        insertedSections = sortedUnique(changes.insertedSections)
        reloadedSections = subtracting(sortedUnique(changes.reloadedSections), deletedSections)
        sectionMoves = sortedUnique(changes.movedSections)
        reconfiguredSections = sortedUnique(changes.reconfiguredSections)

        deletedRows = sortedUnique(changes.deletedRows)
        insertedRows = sortedUnique(changes.insertedRows)
        reloadedRows = subtracting(sortedUnique(changes.reloadedRows), deletedRows)
        reconfiguredRows = subtracting(subtracting(sortedUnique(changes.reconfiguredRows), deletedRows), reloadedRows)
        var moves = changes.movedRows
        moves.sort { $0.from != $1.from ? $0.from < $1.from : $0.to < $1.to }
        var write = 0
        for read in moves.indices where read == 0 || moves[read] != moves[write - 1] {
            moves[write] = moves[read]
            write += 1
        }
        moves.removeLast(moves.count - write)
        rowMoves = moves
        checkConsistency()
    }

    /// Traps on the conflicts that make a set of changes meaningless.
    private func checkConsistency() {
        for (a, b) in zip(sectionMoves, sectionMoves.dropFirst()) where a.from == b.from {
            requirementFailure("ListChanges.staged(): section \(a.from) is moved twice (\(a), \(b))")
        }
        let sectionDestinations = sectionMoves.map { $0.to }.sorted()
        for (a, b) in zip(sectionDestinations, sectionDestinations.dropFirst()) where a == b {
            requirementFailure("ListChanges.staged(): two sections are moved to section \(a)")
        }
        if let section = firstCommon(deletedSections, sectionMoves.map { $0.from }) {
            requirementFailure("ListChanges.staged(): section \(section) is both deleted and moved")
        }
        if let section = firstCommon(insertedSections, sectionDestinations) {
            requirementFailure("ListChanges.staged(): section \(section) is both inserted and a move destination")
        }
        for (a, b) in zip(rowMoves, rowMoves.dropFirst()) where a.from == b.from {
            requirementFailure(
                "ListChanges.staged(): row \(a.from.indexPath.listDescription) is moved twice "
                    + "(to \(a.to.indexPath.listDescription) and \(b.to.indexPath.listDescription))"
            )
        }
        let rowDestinations = rowMoves.map { $0.to }.sorted()
        for (a, b) in zip(rowDestinations, rowDestinations.dropFirst()) where a == b {
            requirementFailure("ListChanges.staged(): two rows are moved to \(a.indexPath.listDescription)")
        }
        if let row = firstCommon(deletedRows, rowMoves.map { $0.from }) {
            requirementFailure("ListChanges.staged(): row \(row.indexPath.listDescription) is both deleted and moved")
        }
        if let row = firstCommon(insertedRows, rowDestinations) {
            requirementFailure(
                "ListChanges.staged(): row \(row.indexPath.listDescription) is both inserted and a move destination"
            )
        }
    }

    /// The stages of these changes: the batches of their section and row changes, with every
    /// header refresh that is still needed in the last one.
    ///
    /// - Returns: The non-empty stages, in order.
    mutating func stages() -> [ListChanges] {
        var stages = batches()
        let refreshes = headerRefreshes()
        guard !refreshes.isEmpty else { return stages }
        if stages.isEmpty { stages.append(ListChanges()) }
        stages[stages.count - 1].reconfiguredSections = refreshes
        return stages
    }

    /// The header refreshes the stages still need, once `batches()` has rebuilt the moved
    /// sections it must: those of sections that no stage inserts or reloads, positions after
    /// the whole change.
    private func headerRefreshes() -> [Int] {
        guard !reconfiguredSections.isEmpty else { return [] }
        let reloaded = afterPositions(ofSurvivingSections: reloadedSections)
        let recreated = sortedUnique(insertedSections + reloaded)
        return subtracting(reconfiguredSections, recreated)
    }

    /// Rebuilds the moved sections that must be rebuilt, defers the row changes of the moved
    /// sections that are kept, folds row changes into rebuilt sections, and splits the result
    /// into batches. Header refreshes are not part of them.
    ///
    /// - Returns: The non-empty batches, in order.
    private mutating func batches() -> [ListChanges] {
        let kept = rebuildMovedSectionsThatChange()
        guard !kept.isEmpty else {
            let (structural, refreshReloads, refreshReconfigures) = structuralStage()
            let refresh = ListChanges(
                reloadedRows: refreshReloads.sorted().map { $0.indexPath },
                reconfiguredRows: refreshReconfigures.sorted().map { $0.indexPath })
            return [structural, refresh].filter { !$0.isEmpty }
        }
        // Moved sections with row changes inside that keep their row count: the section moves
        // in the first stage with its rows untouched, and its row changes follow in the next.
        var later = deferRowChanges(inside: kept)
        let (first, refreshReloads, refreshReconfigures) = structuralStage()
        // The first stage's refreshes name rows of sections the later stages do not touch, at
        // positions the later stages keep: they join the next stage.
        later.reloadedRows += refreshReloads
        later.reconfiguredRows += refreshReconfigures
        var next = Stager(later)
        return [first] + next.batches()
    }

    /// The structural stage of these changes, in which no moved section has a row change, and
    /// the refreshes that must follow it: packed positions after it.
    private func structuralStage() -> (
        stage: ListChanges, refreshReloads: [PackedPosition], refreshReconfigures: [PackedPosition]
    ) {
        // Sections rebuilt as a whole: positions before and after the change.
        let rebuiltBefore = sortedUnique(deletedSections + reloadedSections)
        let rebuiltAfter = sortedUnique(insertedSections + afterPositions(ofSurvivingSections: reloadedSections))

        var structural = ListChanges(
            deletedSections: deletedSections,
            insertedSections: insertedSections,
            movedSections: sectionMoves,
            reloadedSections: reloadedSections
        )

        var deletes = deletedRows.filter { !binaryContains(rebuiltBefore, $0.sectionIndex) }
        var inserts = insertedRows.filter { !binaryContains(rebuiltAfter, $0.sectionIndex) }
        var keptMoves: [(from: PackedPosition, to: PackedPosition)] = []
        keptMoves.reserveCapacity(rowMoves.count)
        var refreshReloads: [PackedPosition] = []
        var refreshReconfigures: [PackedPosition] = []
        for move in rowMoves {
            let sourceRebuilt = binaryContains(rebuiltBefore, move.from.sectionIndex)
            let destinationRebuilt = binaryContains(rebuiltAfter, move.to.sectionIndex)
            switch (sourceRebuilt, destinationRebuilt) {
            case (true, true): continue
            case (true, false): inserts.append(move.to)
            case (false, true): deletes.append(move.from)
            case (false, false):
                keptMoves.append(move)
                if binaryContains(reloadedRows, move.from) {
                    refreshReloads.append(move.to)
                } else if binaryContains(reconfiguredRows, move.from) {
                    refreshReconfigures.append(move.to)
                }
            }
        }
        deletes.sort()
        inserts.sort()
        // A refreshed move source is refreshed at its destination in stage 2 when its move is
        // kept, and re-rendered by its insert when the move became a delete plus an insert.
        let sources = rowMoves.map { $0.from }  // sorted: rowMoves is sorted by source
        let reloads = subtracting(reloadedRows.filter { !binaryContains(rebuiltBefore, $0.sectionIndex) }, sources)
        let reconfigures = subtracting(
            reconfiguredRows.filter { !binaryContains(rebuiltBefore, $0.sectionIndex) },
            sources
        )
        // A reconfigure stays in stage 1 only where stage 1 keeps the row's position.
        var reconfiguresInPlace: [PackedPosition] = []
        if !reconfigures.isEmpty {
            // Their sections survive without moving: a moved section with a row change was
            // rebuilt, or its row changes were deferred to a later stage.
            let sections = sortedUnique(reconfigures.map { $0.sectionIndex })
            let sectionAfter = Dictionary(uniqueKeysWithValues: zip(sections, afterPositions(ofSurvivingSections: sections)))
            let afters = keptRowPositionsAfter(
                reconfigures,
                removed: sortedUnique(deletes + keptMoves.map { $0.from }),
                placed: sortedUnique(inserts + keptMoves.map { $0.to })
            ) { section in
                guard let after = sectionAfter[section] else {
                    requirementFailure("internal inconsistency: no after-position for section \(section)")
                }
                return after
            }
            for (before, after) in zip(reconfigures, afters) {
                if before == after {
                    reconfiguresInPlace.append(before)
                } else {
                    refreshReconfigures.append(after)
                }
            }
        }

        structural.deletedRows = deletes.map { $0.indexPath }
        structural.insertedRows = inserts.map { $0.indexPath }
        structural.movedRows = keptMoves.map { ListChanges.RowMove(from: $0.from.indexPath, to: $0.to.indexPath) }
        structural.reloadedRows = reloads.map { $0.indexPath }
        structural.reconfiguredRows = reconfiguresInPlace.map { $0.indexPath }
        return (structural, refreshReloads, refreshReconfigures)
    }

    /// Turns every moved section that is reloaded, or whose row count its row changes alter,
    /// into a section delete plus a section insert; such a section cannot move in one batch
    /// (rule 15 forbids row changes inside a moved section) and change its count in another
    /// (every batch ends with the data source's final counts).
    ///
    /// - Returns: The moves kept whose sections have row changes inside, which must be
    ///   deferred to a later stage.
    private mutating func rebuildMovedSectionsThatChange() -> [ListChanges.SectionMove] {
        guard !sectionMoves.isEmpty else { return [] }
        var moveBySource: [Int: Int] = [:]
        var moveByDestination: [Int: Int] = [:]
        for (index, move) in sectionMoves.enumerated() {
            moveBySource[move.from] = index
            moveByDestination[move.to] = index
        }
        var touched = [Bool](repeating: false, count: sectionMoves.count)
        var rebuild = [Bool](repeating: false, count: sectionMoves.count)
        var netRows = [Int](repeating: 0, count: sectionMoves.count)
        for section in reloadedSections {
            if let index = moveBySource[section] { rebuild[index] = true }
        }
        func touchBefore(_ section: Int, rows: Int) {
            guard let index = moveBySource[section] else { return }
            touched[index] = true
            netRows[index] += rows
        }
        func touchAfter(_ section: Int, rows: Int) {
            guard let index = moveByDestination[section] else { return }
            touched[index] = true
            netRows[index] += rows
        }
        for row in deletedRows { touchBefore(row.sectionIndex, rows: -1) }
        for row in reloadedRows { touchBefore(row.sectionIndex, rows: 0) }
        for row in reconfiguredRows { touchBefore(row.sectionIndex, rows: 0) }
        for row in insertedRows { touchAfter(row.sectionIndex, rows: 1) }
        for move in rowMoves {
            // A move within one section counts zero; between two sections, one out and one in.
            let source = move.from.sectionIndex
            let destination = move.to.sectionIndex
            if let index = moveBySource[source] {
                touched[index] = true
                if sectionMoves[index].to != destination { netRows[index] -= 1 }
            }
            if let index = moveByDestination[destination] {
                touched[index] = true
                if sectionMoves[index].from != source { netRows[index] += 1 }
            }
        }
        var deferred: [ListChanges.SectionMove] = []
        for index in sectionMoves.indices where touched[index] && netRows[index] != 0 { rebuild[index] = true }
        var kept: [ListChanges.SectionMove] = []
        var rebuiltSources: [Int] = []
        for (index, move) in sectionMoves.enumerated() {
            if rebuild[index] {
                deletedSections.append(move.from)
                insertedSections.append(move.to)
                rebuiltSources.append(move.from)
            } else {
                kept.append(move)
                if touched[index] { deferred.append(move) }
            }
        }
        if !rebuiltSources.isEmpty {
            sectionMoves = kept
            deletedSections.sort()
            insertedSections.sort()
            reloadedSections = subtracting(reloadedSections, rebuiltSources)
        }
        return deferred
    }

    /// Takes out of these changes every row change inside the moved sections `moves`, which
    /// keep their row counts, and returns them as the changes of the next stage: positions
    /// before it are positions after this stage, in which those sections have moved and hold
    /// their old rows. A row moving between such a section and another becomes an insert (or
    /// a delete) here and a delete (or an insert) there.
    ///
    /// - Parameter moves: Section moves of these changes, sorted, none of them rebuilt.
    /// - Returns: The row changes of the next stage, in packed form.
    private mutating func deferRowChanges(inside moves: [ListChanges.SectionMove]) -> PackedListChanges {
        var destinationOf: [Int: Int] = [:]
        var isDestination = Set<Int>()
        for move in moves {
            destinationOf[move.from] = move.to
            isDestination.insert(move.to)
        }
        /// A position before this stage, inside a deferred section, as a position before the next.
        func carried(_ position: PackedPosition) -> PackedPosition? {
            destinationOf[position.sectionIndex].map { $0 << 32 | position & 0xFFFF_FFFF }
        }
        var later = PackedListChanges()
        func split(_ rows: inout [PackedPosition], into target: inout [PackedPosition]) {
            rows.removeAll { row in
                guard let next = carried(row) else { return false }
                target.append(next)
                return true
            }
        }
        split(&deletedRows, into: &later.deletedRows)
        split(&reloadedRows, into: &later.reloadedRows)
        split(&reconfiguredRows, into: &later.reconfiguredRows)
        insertedRows.removeAll { row in
            guard isDestination.contains(row.sectionIndex) else { return false }
            later.insertedRows.append(row)
            return true
        }
        var stay: [(from: PackedPosition, to: PackedPosition)] = []
        for move in rowMoves {
            let source = carried(move.from)
            let intoDeferred = isDestination.contains(move.to.sectionIndex)
            switch (source, intoDeferred) {
            case (nil, false):
                stay.append(move)
            case let (source?, true):
                later.movedRows.append((from: source, to: move.to))
            case let (source?, false):
                // Out of a deferred section: shown at its destination now, removed there later.
                insertedRows.append(move.to)
                later.deletedRows.append(source)
            case (nil, true):
                // Into a deferred section: removed from its source now, shown there later.
                deletedRows.append(move.from)
                later.insertedRows.append(move.to)
            }
        }
        rowMoves = stay
        deletedRows.sort()
        insertedRows.sort()
        // A move source that was reloaded or reconfigured and is deleted here instead needs no
        // refresh; a refreshed source that moves in the next stage keeps its refresh there.
        reloadedRows = subtracting(reloadedRows, deletedRows)
        reconfiguredRows = subtracting(reconfiguredRows, deletedRows)
        return later
    }

    /// The positions after the change of sections that survive without moving, given by
    /// their positions before the change: each keeps its rank among the sections that neither
    /// go nor move, and takes the slot of that rank among the positions no insert or move fills.
    ///
    /// - Parameter sections: Before-positions of sections that are neither deleted nor moved,
    ///   sorted ascending.
    private func afterPositions(ofSurvivingSections sections: [Int]) -> [Int] {
        guard !sections.isEmpty else { return [] }
        let gone = sortedUnique(deletedSections + sectionMoves.map { $0.from })
        let taken = sortedUnique(insertedSections + sectionMoves.map { $0.to })
        return keptPositionsAfter(sections, removed: gone, placed: taken)
    }
}

// MARK: - Sorted-array helpers

/// The elements of sorted `a` that are not in sorted `b`.
private func subtracting(_ a: [Int], _ b: [Int]) -> [Int] {
    guard !a.isEmpty, !b.isEmpty else { return a }
    var result: [Int] = []
    result.reserveCapacity(a.count)
    var j = 0
    for x in a {
        while j < b.count && b[j] < x { j += 1 }
        if j < b.count && b[j] == x { continue }
        result.append(x)
    }
    return result
}

/// The smallest element two sorted arrays share, if any.
private func firstCommon(_ a: [Int], _ b: [Int]) -> Int? {
    var i = 0
    var j = 0
    while i < a.count && j < b.count {
        if a[i] == b[j] { return a[i] }
        if a[i] < b[j] { i += 1 } else { j += 1 }
    }
    return nil
}

/// Whether sorted `a` contains `x`.
@inline(__always)
private func binaryContains(_ a: [Int], _ x: Int) -> Bool {
    var low = 0
    var high = a.count
    while low < high {
        let mid = (low + high) / 2
        if a[mid] < x { low = mid + 1 } else { high = mid }
    }
    return low < a.count && a[low] == x
}
