import Foundation

/// How the data of one stage of a difference that keeps sections is built from the old and
/// the new state, without looking at a section or row value: the generic front end builds it.
@usableFromInline
enum StageLayout {
    /// The new state, as it is.
    case new

    /// The new state, with some rows still showing their old values because a later stage
    /// refreshes them: for each, its position in the new state and the position of its old
    /// row in the old state, sorted by new position.
    case newWithOldRows([(new: IndexPath, old: IndexPath)])

    /// The sections in their new order before any row changes: a section that is in both
    /// states is its old value, rows and all; an inserted one is its new value, holding only
    /// the rows that come from no surviving section.
    ///
    /// - Parameters:
    ///   - oldSection: For each new section, its position in the old state, or -1 when inserted.
    ///   - partialRows: For the inserted sections that receive rows from surviving sections
    ///     later, ascending by section, the positions of the rows they hold in this stage.
    case sectionsFirst(oldSection: [Int], partialRows: [(section: Int, rows: [Int])])
}

extension SectionedDiff {
    /// The stages that turn the old state into the new one, each with the layout of the data
    /// the data source shows during it, keeping every section that is in both states.
    ///
    /// When every section that moves keeps its rows in order and its header (rows may change
    /// content), these are the stages of ``ListChanges/staged()`` (at most two: structural and
    /// refresh). Otherwise a first
    /// stage deletes, inserts and moves sections and touches no row, showing every surviving
    /// section with its old rows (an inserted section shows only the rows that come from
    /// nowhere); the row changes of the whole list follow in one or two more stages, with the
    /// sections in place, so no section is deleted and inserted again, and the rows that move
    /// into inserted sections keep their identity.
    ///
    /// - Complexity: O(n + m + c log c) for n old rows, m new rows and c changes.
    @usableFromInline
    func stagesKeepingSections() -> [(changes: ListChanges, layout: StageLayout)] {
        let general = changes()
        if general.movedSections.isEmpty || !movedSectionsChange(general) {
            return finishing(general.staged())
        }

        // Sections first. No row changes in this stage, so as few sections move as can.
        var survivors: [Int] = []
        var survivorPositions: [Int] = []
        for (new, old) in sectionNewToOld.enumerated() where old >= 0 {
            survivors.append(old)
            survivorPositions.append(new)
        }
        let keep = Self.heaviestIncreasingSubsequence(
            survivors, weights: Array(repeating: 1, count: survivors.count), bound: sectionOldToNew.count)
        var sectionStage = ListChanges(deletedSections: general.deletedSections, insertedSections: general.insertedSections)
        for index in survivors.indices where !keep[index] {
            sectionStage.movedSections.append(.init(from: survivors[index], to: survivorPositions[index]))
        }
        sectionStage.movedSections.sort()

        // Then rows, from the state the first stage leaves.
        let (rowDiff, partialRows) = rowsAfterSections()
        rowDiff._checkInvariants()
        let rowStages = finishing(rowDiff.changes().staged())
        return [(sectionStage, .sectionsFirst(oldSection: sectionNewToOld, partialRows: partialRows))] + rowStages
    }

    /// Whether a section that `general` moves gains, loses or reorders rows, or has its header
    /// changed: then no batch may move it. (Rows that only change content are refreshed
    /// after the move, as ``ListChanges/staged()`` does.)
    private func movedSectionsChange(_ general: PackedListChanges) -> Bool {
        let headerChanged = Set(changedSections)
        return general.movedSections.contains { move in
            if headerChanged.contains(move.from) { return true }
            let start = newStarts[move.to]
            guard oldStarts[move.from + 1] - oldStarts[move.from] == newStarts[move.to + 1] - start else { return true }
            for flat in start..<newStarts[move.to + 1]
            where rowSource[flat] != PackedListChanges.pack(section: move.from, row: flat - start) {
                return true
            }
            return false
        }
    }

    /// The layouts of stages from `staged()` whose last stage ends in the new state and in
    /// which only the last may follow a structural stage with a refresh: the new state for the
    /// last, and for the one before it the new state with the rows the last refreshes still
    /// showing their old values.
    private func finishing(_ stages: [ListChanges]) -> [(changes: ListChanges, layout: StageLayout)] {
        var result = stages.map { (changes: $0, layout: StageLayout.new) }
        guard result.count >= 2 else { return result }
        assert(result.count == 2, "internal inconsistency: \(result.count) stages without moved sections that change")
        let refresh = stages[1]
        let positions = (refresh.reconfiguredRows + refresh.reloadedRows).sorted()
        result[0].layout = .newWithOldRows(
            positions.map { path in
                let source = rowSource[newStarts[path[0]] + path[1]]
                require(source >= 0, "internal inconsistency: refreshed row \(path.listDescription) has no old row")
                return (new: path, old: PackedListChanges.indexPath(source))
            })
        return result
    }

    /// The diff from the state a sections-only first stage leaves to the new state: the new
    /// sections in order, each surviving one with its old rows, each inserted one with the rows
    /// that come from no surviving section (in new order); sections are matched in place.
    ///
    /// - Returns: The diff, and for each inserted section that holds only part of its rows in
    ///   that state, the positions (in the new state) of the rows it holds.
    private func rowsAfterSections() -> (diff: SectionedDiff, partialRows: [(section: Int, rows: [Int])]) {
        let sectionCount = sectionNewToOld.count
        var diff = SectionedDiff(oldSectionCount: sectionCount, newSectionCount: sectionCount)
        for section in 0..<sectionCount { diff.matchSection(old: section, new: section) }
        diff.newStarts = newStarts
        diff.rowChanged = rowChanged
        diff.rowSource = Array(repeating: -1, count: rowSource.count)
        diff.changedSections = changedSections.map { sectionOldToNew[$0] }.sorted()

        var partialRows: [(section: Int, rows: [Int])] = []
        var starts = [0]
        starts.reserveCapacity(sectionCount + 1)
        var matched: [Bool] = []
        matched.reserveCapacity(oldRowMatched.count)
        for (new, old) in sectionNewToOld.enumerated() {
            let start = newStarts[new]
            if old >= 0 {
                // A surviving section shows its old rows; a new row that comes from a surviving
                // section is found there, others are inserts.
                matched += oldRowMatched[oldStarts[old]..<oldStarts[old + 1]]
                for flat in start..<newStarts[new + 1] {
                    let source = rowSource[flat]
                    if source >= 0, case let target = sectionOldToNew[source >> 32], target >= 0 {
                        diff.rowSource[flat] = PackedListChanges.pack(section: target, row: source & 0xFFFF_FFFF)
                    }
                }
            } else {
                // An inserted section shows the rows that come from nowhere; those that come
                // from a surviving section move in later.
                var held: [Int] = []
                for flat in start..<newStarts[new + 1] {
                    let source = rowSource[flat]
                    if source >= 0, case let target = sectionOldToNew[source >> 32], target >= 0 {
                        diff.rowSource[flat] = PackedListChanges.pack(section: target, row: source & 0xFFFF_FFFF)
                    } else {
                        diff.rowSource[flat] = PackedListChanges.pack(section: new, row: held.count)
                        diff.rowChanged[flat] = false
                        held.append(flat - start)
                    }
                }
                matched += repeatElement(true, count: held.count)
                if held.count < newStarts[new + 1] - start { partialRows.append((new, held)) }
            }
            starts.append(matched.count)
        }
        diff.oldStarts = starts
        diff.oldRowMatched = matched
        diff.matchedRowCount = diff.rowSource.count(where: { $0 >= 0 })
        return (diff, partialRows)
    }
}
