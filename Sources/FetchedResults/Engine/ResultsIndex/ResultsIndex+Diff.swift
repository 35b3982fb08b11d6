import Foundation
import ListUpdates

extension ResultsIndex {
    /// The changes from one sectioned list of rows to another, by identity: what a live
    /// request change reports.
    ///
    /// Sections are matched by key value; surviving sections whose relative order changed
    /// (a reversed section key) are deleted and inserted rather than moved, as a list view
    /// needs when rows change inside them. Inside the sections that stay, a longest
    /// increasing subsequence of the surviving rows stays put and the other rows move.
    ///
    /// - Parameters:
    ///   - old: The rows before, section by section.
    ///   - new: The rows after, section by section.
    /// - Returns: The changes; no row is reported updated (only the order changed).
    /// - Complexity: O(n log n) for n rows.
    static func diff(from old: [(section: SortValue, ids: [ID])], to new: [(section: SortValue, ids: [ID])]) -> IndexDiff<ID> {
        var diff = IndexDiff<ID>()
        let oldSectionIndex = Dictionary(old.enumerated().map { ($1.section, $0) }, uniquingKeysWith: { a, _ in a })
        // Surviving sections in new order; those outside a longest run of increasing old
        // positions are replaced.
        let surviving = new.indices.filter { oldSectionIndex[new[$0].section] != nil }
        var subsequence = LongestIncreasingSubsequence()
        subsequence.mark(surviving.map { oldSectionIndex[new[$0].section]! })
        var stayingSections: Set<SortValue> = []
        for (position, newIndex) in surviving.enumerated() where subsequence.keep[position] {
            stayingSections.insert(new[newIndex].section)
        }
        for (index, section) in old.enumerated() where !stayingSections.contains(section.section) {
            diff.deletedSections.append((index, section.section))
        }
        for (index, section) in new.enumerated() where !stayingSections.contains(section.section) {
            diff.insertedSections.append((index, section.section))
        }
        diff.changes.deletedSections = diff.deletedSections.map(\.index)
        diff.changes.insertedSections = diff.insertedSections.map(\.index)

        var oldPosition: [ID: (path: IndexPath, order: Int)] = [:]
        var order = 0
        for (section, rows) in old.enumerated() {
            for (row, id) in rows.ids.enumerated() {
                oldPosition[id] = (IndexPath(indexes: [section, row]), order)
                order += 1
            }
        }
        var newIDs: Set<ID> = []
        var candidates: [(id: ID, from: IndexPath, to: IndexPath, oldOrder: Int)] = []
        for (section, rows) in new.enumerated() {
            let sectionStays = stayingSections.contains(rows.section)
            for (row, id) in rows.ids.enumerated() {
                newIDs.insert(id)
                let to = IndexPath(indexes: [section, row])
                guard let (from, oldOrder) = oldPosition[id] else {
                    diff.rows.append(.insert(id, at: to))
                    if sectionStays { diff.changes.insertedRows.append(to) }
                    continue
                }
                let fromSection = old[from[0]].section
                let fromStays = stayingSections.contains(fromSection)
                if sectionStays && fromSection == rows.section {
                    candidates.append((id, from, to, oldOrder))
                } else {
                    diff.rows.append(.move(id, from: from, to: to, changed: false))
                    if sectionStays && fromStays {
                        diff.changes.movedRows.append(.init(from: from, to: to))
                    } else {
                        if fromStays { diff.changes.deletedRows.append(from) }
                        if sectionStays { diff.changes.insertedRows.append(to) }
                    }
                }
            }
        }
        subsequence.mark(candidates.map(\.oldOrder))
        for (position, candidate) in candidates.enumerated() where !subsequence.keep[position] {
            diff.rows.append(.move(candidate.id, from: candidate.from, to: candidate.to, changed: false))
            diff.changes.movedRows.append(.init(from: candidate.from, to: candidate.to))
        }
        for (section, rows) in old.enumerated() {
            let sectionStays = stayingSections.contains(rows.section)
            for (row, id) in rows.ids.enumerated() where !newIDs.contains(id) {
                let from = IndexPath(indexes: [section, row])
                diff.rows.append(.delete(id, at: from))
                if sectionStays { diff.changes.deletedRows.append(from) }
            }
        }
        return diff
    }
}

