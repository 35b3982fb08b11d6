import Foundation

/// Why a list view would reject a batch update, or why the batch is unsafe on a real device.
///
/// Each case is one rule of the project's batch rules (see ``rule``). Tier A rules
/// (1–13) are the ones UIKit itself enforces by raising an exception; tier B rules
/// (14–17) describe batches UIKit accepts but then shows stale cells or corrupts its state.
/// A checker in strict mode rejects both tiers (``isStrictOnly`` tells them apart).
///
/// Positions in a case are in the index space the rule names: deletes, reloads, reconfigures
/// and move sources are positions **before** the batch; inserts and move destinations are
/// positions **after** it.
public enum BatchUpdateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A kind of section change, as a position names it in an error.
    public enum SectionChange: String, Sendable, Hashable {
        /// A deleted section (a position before the batch).
        case delete
        /// An inserted section (a position after the batch).
        case insert
        /// A reloaded section (a position before the batch).
        case reload
        /// The source of a section move (a position before the batch).
        case moveSource = "move from"
        /// The destination of a section move (a position after the batch).
        case moveDestination = "move to"
        /// A section whose header or footer is refreshed in place (a position after the batch).
        case reconfigure
    }

    /// A kind of row change, as a position names it in an error.
    public enum RowChange: String, Sendable, Hashable {
        /// A deleted row (an index path before the batch).
        case delete
        /// An inserted row (an index path after the batch).
        case insert
        /// A reloaded row (an index path before the batch).
        case reload
        /// A reconfigured row (an index path before the batch).
        case reconfigure
        /// The source of a row move (an index path before the batch).
        case moveSource = "move from"
        /// The destination of a row move (an index path after the batch).
        case moveDestination = "move to"
    }

    /// Rule 4: a section change names a section that does not exist in its index space.
    ///
    /// `section` is a position before the batch for deletes, reloads and move sources, and a
    /// position after it for inserts, move destinations and header refreshes; `sectionCount`
    /// is the number of sections in that same state.
    case sectionOutOfBounds(SectionChange, section: Int, sectionCount: Int)

    /// Rule 5: a row change names a row that does not exist in its index space.
    ///
    /// `indexPath` is before the batch for deletes, reloads, reconfigures and move sources, and
    /// after it for inserts and move destinations. `rowCount` is the number of rows of that
    /// section in that state, or `nil` when the section itself does not exist (then
    /// `sectionCount` is the number of sections in that state).
    case rowOutOfBounds(RowChange, indexPath: IndexPath, sectionCount: Int, rowCount: Int?)

    /// Rule 6: one section position before the batch is both deleted and reloaded.
    case sectionDeletedAndReloaded(section: Int)

    /// Rule 6: one row position before the batch gets two of delete, reload and reconfigure.
    case rowChangedTwice(indexPath: IndexPath, RowChange, RowChange)

    /// Rule 7: a section that is deleted is also the source of a move.
    case sectionMoveFromDeleted(ListChanges.SectionMove)

    /// Rule 7: a row that is deleted, reloaded or reconfigured is also the source of a move.
    case rowMoveFromChanged(ListChanges.RowMove, RowChange)

    /// Rule 8: a section position after the batch is both inserted and a move destination.
    case sectionMoveToInserted(ListChanges.SectionMove)

    /// Rule 8: a row position after the batch is both inserted and a move destination.
    case rowMoveToInserted(ListChanges.RowMove)

    /// Rule 8: a section whose header the batch refreshes (``ListChanges/reconfiguredSections``)
    /// is also inserted or reloaded by it. `section` is a position after the batch and `change`
    /// is `.insert` or `.reload`: such a section shows a fresh header anyway, so the refresh
    /// names a header that was never on display.
    case reconfiguredSectionReplaced(section: Int, SectionChange)

    /// Rule 9: two different section moves share a source or a destination.
    case conflictingSectionMoves(ListChanges.SectionMove, ListChanges.SectionMove)

    /// Rule 9: two different row moves share a source or a destination.
    case conflictingRowMoves(ListChanges.RowMove, ListChanges.RowMove)

    /// Rule 10: a reloaded section is also the source of a move.
    case reloadedSectionMoved(ListChanges.SectionMove)

    /// Rule 11: a row moves out of a section that is deleted or reloaded; `section` is a
    /// position before the batch and `change` is `.delete` or `.reload`.
    case rowMoveOutOfReplacedSection(ListChanges.RowMove, section: Int, SectionChange)

    /// Rule 11: a row moves into a section that is inserted or reloaded; `section` is a
    /// position after the batch and `change` is `.insert` or `.reload`.
    case rowMoveIntoReplacedSection(ListChanges.RowMove, section: Int, SectionChange)

    /// Rule 13: the number of sections after the batch is not the number before it plus the
    /// inserted ones minus the deleted ones.
    case invalidSectionCount(after: Int, before: Int, inserted: Int, deleted: Int)

    /// Rule 13: the number of rows of a surviving section after the batch is not the number
    /// before it, plus inserted, minus deleted, plus moved in, minus moved out.
    ///
    /// `section` is the section's position after the batch and `sectionBefore` its position
    /// before. Moves inside the section count in neither `movedIn` nor `movedOut`.
    case invalidRowCount(
        section: Int,
        sectionBefore: Int,
        after: Int,
        before: Int,
        inserted: Int,
        deleted: Int,
        movedIn: Int,
        movedOut: Int
    )

    /// Rule 14 (strict): a row position before the batch is deleted more than once.
    case duplicateRowDelete(indexPath: IndexPath, count: Int)

    /// Rule 15 (strict): a row change happens inside a section that the same batch moves.
    ///
    /// `indexPath` is in the index space of `change` (before the batch for deletes, reloads
    /// and move sources, after it for inserts and move destinations).
    case rowChangeInMovedSection(ListChanges.SectionMove, RowChange, indexPath: IndexPath)

    /// Rule 16 (strict): a row moved in an update shows content that is no longer current, and
    /// no later stage of the update refreshes it.
    ///
    /// `from` is the row's index path before the update and `to` its index path after it;
    /// `shown` and `current` describe the content the moved cell keeps and the content the
    /// data source now has.
    case movedRowNotRefreshed(from: IndexPath, to: IndexPath, shown: String, current: String)

    /// Rule 16 (strict): a row is reconfigured in a batch that also changes its position (rows
    /// or sections inserted, deleted or moved before it, or its section moved).
    ///
    /// Apple does not document whether `reconfigureRows(at:)` reads positions before or after
    /// the other changes of its batch, so the reconfigure may refresh the wrong row. `from` is
    /// the row's index path before the batch (where the reconfigure names it) and `to` its index
    /// path after it; reconfigure it at `to` in a later stage, or reload it.
    case reconfiguredRowShifts(from: IndexPath, to: IndexPath)

    /// Rule 17 (strict): a batch update is applied to a list that is not visible.
    case batchWhileNotVisible

    /// The number of the rule this error breaks, as numbered in the batch rules (4–17).
    public var rule: Int {
        switch self {
        case .sectionOutOfBounds: 4
        case .rowOutOfBounds: 5
        case .sectionDeletedAndReloaded, .rowChangedTwice: 6
        case .sectionMoveFromDeleted, .rowMoveFromChanged: 7
        case .sectionMoveToInserted, .rowMoveToInserted, .reconfiguredSectionReplaced: 8
        case .conflictingSectionMoves, .conflictingRowMoves: 9
        case .reloadedSectionMoved: 10
        case .rowMoveOutOfReplacedSection, .rowMoveIntoReplacedSection: 11
        case .invalidSectionCount, .invalidRowCount: 13
        case .duplicateRowDelete: 14
        case .rowChangeInMovedSection: 15
        case .movedRowNotRefreshed, .reconfiguredRowShifts: 16
        case .batchWhileNotVisible: 17
        }
    }

    /// Whether only strict mode rejects this batch: UIKit accepts it, but it corrupts the
    /// list's state or shows stale cells (tier B, rules 14–17).
    public var isStrictOnly: Bool { rule >= 14 }

    /// A message in the spirit of UIKit's own, naming the rule, the positions and, for count
    /// mismatches, every number that went into the count.
    public var description: String {
        let prefix = isStrictOnly
            ? "Unsafe update (strict rule \(rule))"
            : "Invalid update (rule \(rule))"
        return "\(prefix): \(detail)"
    }

    private var detail: String {
        switch self {
        case let .sectionOutOfBounds(change, section, sectionCount):
            let when = change.isAfter ? "after" : "before"
            return "attempt to \(change.verb) section \(section), but there are only \(sectionCount) "
                + "section\(sectionCount == 1 ? "" : "s") \(when) the update"
        case let .rowOutOfBounds(change, indexPath, sectionCount, rowCount):
            let when = change.isAfter ? "after" : "before"
            let lead = "attempt to \(change.rowPhrase(indexPath))"
            guard let rowCount else {
                return lead + ", but there are only \(sectionCount) section\(sectionCount == 1 ? "" : "s") "
                    + "\(when) the update"
            }
            return lead + ", but section \(indexPath[0]) contains only \(rowCount) row\(rowCount == 1 ? "" : "s") "
                + "\(when) the update"
        case let .sectionDeletedAndReloaded(section):
            return "attempt to delete and reload the same section (\(section))"
        case let .rowChangedTwice(indexPath, first, second):
            return "attempt to \(first.verb) and \(second.verb) the same index path (\(indexPath.listDescription))"
        case let .sectionMoveFromDeleted(move):
            return "attempt to perform a delete and a move from the same section (\(move.from)); move \(move)"
        case let .rowMoveFromChanged(move, change):
            return "attempt to perform a \(change.verb) and a move from the same index path "
                + "(\(move.from.listDescription)); move \(move). A moved row is refreshed at its new position "
                + "in a later batch, never in the one that moves it"
        case let .sectionMoveToInserted(move):
            return "attempt to perform an insert and a move to the same section (\(move.to)); move \(move)"
        case let .rowMoveToInserted(move):
            return "attempt to perform an insert and a move to the same index path "
                + "(\(move.to.listDescription)); move \(move)"
        case let .reconfiguredSectionReplaced(section, change):
            let replaced = change == .reload ? "reloads; a reloaded" : "inserts; an inserted"
            return "attempt to reconfigure section \(section), which the same update \(replaced) "
                + "section shows its new header already"
        case let .conflictingSectionMoves(a, b):
            return a.from == b.from
                ? "attempt to move section \(a.from) to both \(a.to) and \(b.to)"
                : "attempt to move both section \(a.from) and section \(b.from) to section \(a.to)"
        case let .conflictingRowMoves(a, b):
            return a.from == b.from
                ? "attempt to move index path \(a.from.listDescription) to both \(a.to.listDescription) "
                    + "and \(b.to.listDescription)"
                : "attempt to move both \(a.from.listDescription) and \(b.from.listDescription) to the same "
                    + "index path \(a.to.listDescription)"
        case let .reloadedSectionMoved(move):
            return "attempt to perform a reload and a move of the same section (\(move.from)); move \(move)"
        case let .rowMoveOutOfReplacedSection(move, section, change):
            return "attempt to move a row out of \(change == .reload ? "reloaded" : "deleted") section "
                + "\(section) (move \(move)); a row may not leave a section that is deleted or reloaded"
        case let .rowMoveIntoReplacedSection(move, section, change):
            return "attempt to move a row into \(change == .reload ? "reloaded" : "inserted") section "
                + "\(section) (move \(move)); a row may not enter a section that is inserted or reloaded"
        case let .invalidSectionCount(after, before, inserted, deleted):
            return "invalid number of sections. The number of sections contained in the list after the "
                + "update (\(after)) must be equal to the number of sections contained in the list before "
                + "the update (\(before)), plus or minus the number of sections inserted or deleted "
                + "(\(inserted) inserted, \(deleted) deleted)."
        case let .invalidRowCount(section, sectionBefore, after, before, inserted, deleted, movedIn, movedOut):
            let moved = section == sectionBefore ? "" : " (section \(sectionBefore) before the update)"
            return "invalid number of rows in section \(section)\(moved). The number of rows contained in an "
                + "existing section after the update (\(after)) must be equal to the number of rows "
                + "contained in that section before the update (\(before)), plus or minus the number of rows "
                + "inserted or deleted from that section (\(inserted) inserted, \(deleted) deleted) and plus "
                + "or minus the number of rows moved into or out of that section (\(movedIn) moved in, "
                + "\(movedOut) moved out)."
        case let .duplicateRowDelete(indexPath, count):
            return "row \(indexPath.listDescription) is deleted \(count) times in one batch; a collection view "
                + "corrupts its state. Delete each row once."
        case let .rowChangeInMovedSection(move, change, indexPath):
            return "\(change.label) at \(indexPath.listDescription) inside section move \(move) of the same "
                + "batch; delete and insert the section instead of moving it"
        case let .movedRowNotRefreshed(from, to, shown, current):
            return "row moved \(from.listDescription)→\(to.listDescription) changed content but is never "
                + "refreshed: the moved cell still shows \(shown), the data source has \(current). Delete and "
                + "insert it, or reconfigure it at \(to.listDescription) in a later stage"
        case let .reconfiguredRowShifts(from, to):
            return "row \(from.listDescription) is reconfigured in a batch that moves it to \(to.listDescription); "
                + "which of the two positions a reconfigure names inside a batch is not specified. Reconfigure it at "
                + "\(to.listDescription) in a later stage, or reload it"
        case .batchWhileNotVisible:
            return "batch update on a list that is not visible; reload it instead"
        }
    }
}

extension BatchUpdateError.SectionChange {
    /// Whether positions of this kind are in the state after the batch.
    var isAfter: Bool { self == .insert || self == .moveDestination || self == .reconfigure }

    var verb: String {
        switch self {
        case .delete: "delete"
        case .insert: "insert"
        case .reload: "reload"
        case .moveSource: "move"
        case .moveDestination: "move a section to"
        case .reconfigure: "reconfigure"
        }
    }
}

extension BatchUpdateError.RowChange {
    /// Whether positions of this kind are in the state after the batch.
    var isAfter: Bool { self == .insert || self == .moveDestination }

    var verb: String {
        switch self {
        case .delete: "delete"
        case .insert: "insert"
        case .reload: "reload"
        case .reconfigure: "reconfigure"
        case .moveSource: "move"
        case .moveDestination: "move a row to"
        }
    }

    /// "row delete", "row move out", …: the change as a noun.
    var label: String {
        switch self {
        case .delete: "row delete"
        case .insert: "row insert"
        case .reload: "row reload"
        case .reconfigure: "row reconfigure"
        case .moveSource: "row move out"
        case .moveDestination: "row move in"
        }
    }

    /// "delete row 3 from section 0", "move a row to row 2 of section 1", …
    func rowPhrase(_ indexPath: IndexPath) -> String {
        let row = indexPath[1]
        let section = indexPath[0]
        return switch self {
        case .delete: "delete row \(row) from section \(section)"
        case .insert: "insert row \(row) into section \(section)"
        case .reload: "reload row \(row) of section \(section)"
        case .reconfigure: "reconfigure row \(row) of section \(section)"
        case .moveSource: "move row \(row) out of section \(section)"
        case .moveDestination: "move a row to row \(row) of section \(section)"
        }
    }
}
