import Foundation

extension ChangeAccumulator {
    /// The kind of a section change reported by a controller's delegate.
    public enum SectionChange: Sendable, Hashable {
        /// A section was inserted; its index is a position **after** the change.
        case insert
        /// A section was deleted; its index is a position **before** the change.
        case delete
        /// A section's header or footer content changed (its totals, for example) and is
        /// refreshed in place; its index is a position **after** the change. It becomes a
        /// ``ListChanges/reconfiguredSections`` entry, and is ignored for a section inserted
        /// since the last flush, whose header is new anyway.
        case reconfigure
    }

    /// The kind of an object change reported by a controller's delegate, as Core Data's
    /// `NSFetchedResultsChangeType` names them.
    public enum ObjectChange: Sendable, Hashable {
        /// The object was inserted at `newIndexPath` (after the change).
        case insert
        /// The object was deleted from `indexPath` (before the change).
        case delete
        /// The object moved from `indexPath` (before) to `newIndexPath` (after).
        case move
        /// The object's content changed; it was at `indexPath` (before) and, when a controller
        /// says so, is at `newIndexPath` (after).
        case update
    }

    /// How the accumulator reads the positions of controller events.
    ///
    /// Core Data's controller is known to report an object that only changed as a move to the
    /// index path it already had, or as a delete and an insert at one index path; the
    /// accumulator's default reading cleans these up into updates. A controller that keeps
    /// unchanged rows still, such as `ResultsController`, can instead move a row to an equal
    /// index path because rows around it moved; such a move must stay a move.
    public enum EventInterpretation: Sendable, Hashable {
        /// Core Data's quirks are cleaned up: a move to an equal index path, and a delete and
        /// an insert of one object at one index path, are updates. Use it for
        /// `NSFetchedResultsController` and any controller that reports updates that way.
        case coreData
        /// Positions are taken literally: a move to an equal index path is a move (refreshed
        /// when an update of the object is reported too), and a delete and an insert of one
        /// object at one index path are a refreshed move. Use it for `ResultsController`'s
        /// per-object events.
        case exact
    }

    /// The object and section events between one `willChangeContent()` and its
    /// `didChangeContent()`, cleaned up into one general ``ListChanges``.
    ///
    /// Real controllers deliver quirks that a list view must not see; the batch removes them:
    ///
    /// - a move whose before and after positions are equal is an update (``EventInterpretation/coreData``
    ///   only; ``EventInterpretation/exact`` keeps it a move);
    /// - an update and a move of the same object are one move whose row also changed (a
    ///   reconfigured move source, refreshed in a later stage);
    /// - an update whose new position differs from its old one is a move;
    /// - an insert and then a delete of the same object is nothing; a delete and then an insert
    ///   of the same object is a move, or (``EventInterpretation/coreData`` only) an update when
    ///   the positions are equal (the move is also refreshed: the controller removed and re-added
    ///   the object, so its content may have changed);
    /// - row changes inside inserted or deleted sections are folded into the section change
    ///   (the composition drops them), and so is a header refresh of an inserted section.
    struct EventBatch {
        /// What the batch knows about one object.
        private struct Record {
            /// Where the object was, before the change (a delete, or a move's source).
            var before: IndexPath?
            /// Where the object is, after the change (an insert, or a move's destination).
            var after: IndexPath?
            /// Where an update said the object was, before the change.
            var updatedAt: IndexPath?
            /// Whether the object was inserted before any delete was seen.
            var insertedFirst = false
            /// Whether the object was deleted and then inserted again.
            var reinserted = false
        }

        /// Whether positions are taken literally (``EventInterpretation/exact``).
        private let isExact: Bool
        private var insertedSections: [Int] = []
        private var deletedSections: [Int] = []
        private var reconfiguredSections: [Int] = []
        private var records: [AnyHashable: Record] = [:]
        private var order: [AnyHashable] = []
        /// The number of events recorded.
        private(set) var eventCount = 0

        /// Whether the batch has no event.
        var isEmpty: Bool { eventCount == 0 }

        init(_ interpretation: EventInterpretation) {
            isExact = interpretation == .exact
        }

        mutating func section(at index: Int, _ change: SectionChange) {
            require(index >= 0, "a section index must not be negative, got \(index)")
            eventCount += 1
            switch change {
            case .insert: insertedSections.append(index)
            case .delete: deletedSections.append(index)
            case .reconfigure: reconfiguredSections.append(index)
            }
        }

        mutating func object(_ object: AnyHashable, at indexPath: IndexPath?, _ change: ObjectChange, newIndexPath: IndexPath?) {
            eventCount += 1
            var record = records[object] ?? {
                order.append(object)
                return Record()
            }()
            switch change {
            case .insert:
                let path = Self.required(newIndexPath, "an insert needs newIndexPath")
                if record.before == nil && record.after == nil { record.insertedFirst = true }
                if record.before != nil && record.after == nil { record.reinserted = true }
                record.after = path
            case .delete:
                let path = Self.required(indexPath, "a delete needs indexPath")
                if record.insertedFirst && record.before == nil {
                    // Inserted and deleted within one batch: the object was never shown.
                    records[object] = Record()
                    return
                }
                record.before = path
                record.after = nil
            case .move:
                let from = Self.required(indexPath, "a move needs indexPath")
                let to = Self.required(newIndexPath, "a move needs newIndexPath")
                if from == to && !isExact {
                    record.updatedAt = from
                } else {
                    record.before = from
                    record.after = to
                }
            case .update:
                let from = Self.required(indexPath, "an update needs indexPath")
                record.updatedAt = from
                if let to = newIndexPath, to != from {
                    record.before = from
                    record.after = to
                }
            }
            records[object] = record
        }

        private static func required(_ path: IndexPath?, _ message: String) -> IndexPath {
            guard let path else { requirementFailure("ChangeAccumulator: \(message)") }
            require(path.count == 2 && path[0] >= 0 && path[1] >= 0, "ChangeAccumulator: invalid index path \(path)")
            return path
        }

        /// The batch as one general set of changes.
        ///
        /// - Complexity: O(e) for e events.
        func changes() -> ListChanges {
            var changes = ListChanges(
                deletedSections: deletedSections, insertedSections: insertedSections,
                reconfiguredSections: reconfiguredSections)
            for object in order {
                guard let record = records[object] else { continue }
                switch (record.before, record.after) {
                case (let before?, let after?) where before == after && !isExact:
                    // A delete and an insert at the same place: the object stayed and changed.
                    changes.reconfiguredRows.append(before)
                case (let before?, let after?):
                    changes.movedRows.append(.init(from: before, to: after))
                    if record.updatedAt != nil || record.reinserted { changes.reconfiguredRows.append(before) }
                case (let before?, nil):
                    changes.deletedRows.append(before)
                case (nil, let after?):
                    changes.insertedRows.append(after)
                case (nil, nil):
                    if let updated = record.updatedAt { changes.reconfiguredRows.append(updated) }
                }
            }
            return changes
        }
    }
}
