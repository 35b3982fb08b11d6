import Foundation

extension ValidatedStage {
    /// The section changes of a batch, sorted and unique, that passed the section rules
    /// (4, 6 to 10, and 13 for the section count): the first phase of validation. Header
    /// refreshes are checked against inserted and reloaded sections once the mapping is known
    /// (``checkHeaderRefreshes(_:)``).
    struct SectionChanges {
        /// The number of sections before the batch.
        let countBefore: Int
        /// The number of sections after the batch: as given, or derived.
        let countAfter: Int
        /// Sorted, unique deleted sections, as before-positions.
        let deleted: [Int]
        /// Sorted, unique inserted sections, as after-positions.
        let inserted: [Int]
        /// Sorted, unique reloaded sections, as before-positions.
        let reloaded: [Int]
        /// Sorted, unique section moves, before-position → after-position.
        let moves: [ListChanges.SectionMove]
        /// Sorted, unique header refreshes, as after-positions.
        let reconfigured: [Int]
        let deletedSet: Set<Int>
        let insertedSet: Set<Int>
        let reloadedSet: Set<Int>
        /// The moves by before-position.
        private(set) var moveBySource: [Int: ListChanges.SectionMove] = [:]
        /// The moves by after-position.
        private(set) var moveByDestination: [Int: ListChanges.SectionMove] = [:]

        /// Normalizes the section changes of `changes` and checks them, in rule order.
        ///
        /// - Parameters:
        ///   - changes: The batch.
        ///   - countBefore: The number of sections before the batch.
        ///   - givenCountAfter: The number of sections after the batch, when the caller knows it.
        /// - Throws: The first ``BatchUpdateError`` of a section rule.
        /// - Complexity: O(*s* log *s*) for *s* section changes.
        init(_ changes: ListChanges, countBefore: Int, givenCountAfter: Int?) throws(BatchUpdateError) {
            self.countBefore = countBefore
            deleted = sortedUnique(changes.deletedSections)
            inserted = sortedUnique(changes.insertedSections)
            reloaded = sortedUnique(changes.reloadedSections)
            moves = sortedUnique(changes.movedSections)
            reconfigured = sortedUnique(changes.reconfiguredSections)
            deletedSet = Set(deleted)
            insertedSet = Set(inserted)
            reloadedSet = Set(reloaded)
            countAfter = givenCountAfter ?? max(0, countBefore + inserted.count - deleted.count)

            try checkBounds()
            try checkConflicts()
            // Rule 9.
            for move in moves {
                if let other = moveBySource.updateValue(move, forKey: move.from) {
                    throw .conflictingSectionMoves(other, move)
                }
                if let other = moveByDestination.updateValue(move, forKey: move.to) {
                    throw .conflictingSectionMoves(other, move)
                }
            }
            // Rule 10.
            if let move = moves.first(where: { reloadedSet.contains($0.from) }) {
                throw .reloadedSectionMoved(move)
            }
            // Rule 13, sections.
            if countAfter != countBefore + inserted.count - deleted.count {
                throw .invalidSectionCount(after: countAfter, before: countBefore, inserted: inserted.count, deleted: deleted.count)
            }
        }

        /// Rule 4: before-positions exist before the batch, after-positions after it.
        private func checkBounds() throws(BatchUpdateError) {
            for section in deleted where !(0..<countBefore).contains(section) {
                throw .sectionOutOfBounds(.delete, section: section, sectionCount: countBefore)
            }
            for section in reloaded where !(0..<countBefore).contains(section) {
                throw .sectionOutOfBounds(.reload, section: section, sectionCount: countBefore)
            }
            for move in moves where !(0..<countBefore).contains(move.from) {
                throw .sectionOutOfBounds(.moveSource, section: move.from, sectionCount: countBefore)
            }
            for section in inserted where !(0..<countAfter).contains(section) {
                throw .sectionOutOfBounds(.insert, section: section, sectionCount: countAfter)
            }
            for move in moves where !(0..<countAfter).contains(move.to) {
                throw .sectionOutOfBounds(.moveDestination, section: move.to, sectionCount: countAfter)
            }
            for section in reconfigured where !(0..<countAfter).contains(section) {
                throw .sectionOutOfBounds(.reconfigure, section: section, sectionCount: countAfter)
            }
        }

        /// Rule 8 for header refreshes: a refreshed section is neither inserted nor reloaded by
        /// the batch (it would show a fresh header anyway). Runs once the mapping is known,
        /// since a reload's after-position comes from it.
        ///
        /// - Parameter sources: Where each section after the batch comes from (``mapping()``).
        /// - Throws: ``BatchUpdateError/reconfiguredSectionReplaced(section:_:)``.
        /// - Complexity: O(*r*) for *r* header refreshes.
        func checkHeaderRefreshes(_ sources: [SectionSource]) throws(BatchUpdateError) {
            for section in reconfigured {
                switch sources[section] {
                case .inserted: throw .reconfiguredSectionReplaced(section: section, .insert)
                case .reloaded: throw .reconfiguredSectionReplaced(section: section, .reload)
                case .moved, .kept: break
                }
            }
        }

        /// Rules 6 to 8: a section deleted and reloaded, a move from a deleted section or to an
        /// inserted one.
        private func checkConflicts() throws(BatchUpdateError) {
            // Rule 6.
            if let section = deleted.first(where: reloadedSet.contains) {
                throw .sectionDeletedAndReloaded(section: section)
            }
            // Rule 7.
            if let move = moves.first(where: { deletedSet.contains($0.from) }) {
                throw .sectionMoveFromDeleted(move)
            }
            // Rule 8.
            if let move = moves.first(where: { insertedSet.contains($0.to) }) {
                throw .sectionMoveToInserted(move)
            }
        }

        /// Whether the section at a before-position is deleted or reloaded, for each section
        /// before the batch: its row changes fold into the section change (rule 12).
        var replacedBefore: [Bool] {
            (0..<countBefore).map { deletedSet.contains($0) || reloadedSet.contains($0) }
        }

        /// The section mapping: inserted sections and move destinations claim their slots;
        /// the other surviving sections fill the remaining slots in their old order.
        ///
        /// - Returns: Where each section after the batch comes from, and where each section
        ///   before it goes (`nil` when deleted).
        /// - Complexity: O(*n*) for *n* sections.
        func mapping() -> (sources: [SectionSource], targets: [Int?]) {
            var sources = [SectionSource?](repeating: nil, count: countAfter)
            var targets = [Int?](repeating: nil, count: countBefore)
            for section in inserted { sources[section] = .inserted }
            for move in moves {
                sources[move.to] = .moved(before: move.from)
                targets[move.from] = move.to
            }
            var slot = 0
            for section in 0..<countBefore where !deletedSet.contains(section) && moveBySource[section] == nil {
                while sources[slot] != nil { slot += 1 }
                sources[slot] = reloadedSet.contains(section) ? .reloaded(before: section) : .kept(before: section)
                targets[section] = slot
                slot += 1
            }
            let sectionSources = sources.map { source in
                guard let source else { requirementFailure("internal inconsistency: an after-section has no source") }
                return source
            }
            return (sectionSources, targets)
        }
    }
}
