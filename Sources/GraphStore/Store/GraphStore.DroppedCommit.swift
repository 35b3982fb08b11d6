extension GraphStore {
    /// How many objects a commit inserted, updated and deleted.
    public struct ChangeCounts: Sendable, Equatable, CustomStringConvertible {
        /// Objects the commit inserted (an object brought back by undo or redo counts here).
        public var inserted = 0
        /// Objects the commit changed (not inserted or deleted by it).
        public var updated = 0
        /// Objects the commit deleted.
        public var deleted = 0

        /// Counts of objects.
        ///
        /// - Parameters:
        ///   - inserted: Objects inserted.
        ///   - updated: Objects changed.
        ///   - deleted: Objects deleted.
        /// - Complexity: O(1).
        public init(inserted: Int = 0, updated: Int = 0, deleted: Int = 0) {
            self.inserted = inserted
            self.updated = updated
            self.deleted = deleted
        }

        /// Every object the commit touched: `inserted + updated + deleted`.
        public var total: Int { inserted + updated + deleted }

        /// "3 inserted, 1 updated, 0 deleted".
        public var description: String { "\(inserted) inserted, \(updated) updated, \(deleted) deleted" }
    }

    /// One commit that opening dropped: what it was, why it was dropped, and whether its
    /// `commit()` had returned.
    ///
    /// A UI can say "the import of 5,000 items was lost" from ``changes`` and
    /// ``changesByEntity``, or "your last change (Delete Milk) was lost" from ``actionName``.
    public struct DroppedCommit: Sendable, Equatable, CustomStringConvertible {
        /// Why a commit was dropped.
        public enum Cause: Sendable, Equatable, CustomStringConvertible {
            /// A crash came while its record was being written: its `commit()` never
            /// returned, nothing was acknowledged. Not damage.
            case unfinishedWrite
            /// With ``Durability/deferred(interval:)``: written after the last sync the
            /// journal proves, and a power loss kept only part of what followed. Not damage:
            /// that durability allows it.
            case unsynced
            /// Its bytes are damaged (a checksum fails, or they were overwritten).
            case damaged
            /// Its checksum holds but its contents cannot be read.
            case unreadable
            /// The journal ends before it: the file was cut, or the end was zeroed, after the
            /// commit was acknowledged (the store's close had recorded it).
            case cutOff
            /// The journal file is missing.
            case journalMissing
            /// It is intact, but follows damage and ``Recovery/stopAtDamage`` keeps only what
            /// precedes the first damage.
            case followsDamage

            /// A few words for a log.
            public var description: String {
                switch self {
                case .unfinishedWrite: "unfinished write"
                case .unsynced: "not synced"
                case .damaged: "damaged"
                case .unreadable: "unreadable"
                case .cutOff: "cut off the end of the journal"
                case .journalMissing: "journal missing"
                case .followsDamage: "after damage"
                }
            }
        }

        /// The commit's journal sequence number (commits are numbered from 1, one per
        /// record, the journal's schema records included).
        public var sequence: UInt64
        /// Why it was dropped.
        public var cause: Cause
        /// Whether its `commit()` had returned to the app: `false` only for
        /// ``Cause/unfinishedWrite``. (For ``Cause/unsynced`` it returned, but the durability
        /// chosen did not promise it would survive a power loss.)
        public var wasAcknowledged: Bool
        /// How many objects it inserted, updated and deleted; `nil` when its bytes are lost.
        public var changes: ChangeCounts?
        /// The same counts by entity name; empty when its bytes are lost.
        public var changesByEntity: [String: ChangeCounts]
        /// When ``changes`` is unknown but the start of the record survived (a large commit,
        /// such as an import, cut short or torn after its first fragments): how many objects
        /// it inserted, as its record says at its start. `nil` otherwise.
        public var insertedFromSurvivingStart: Int?
        /// The action name given to `commit(actionName:)`, when the record kept one.
        public var actionName: String?
        /// The commit's author tag (undo and redo commit as `GraphUndoManager.undoAuthor` and
        /// `redoAuthor`), when the record kept one.
        public var author: String?

        /// A dropped commit.
        ///
        /// - Parameters:
        ///   - sequence: Its journal sequence number.
        ///   - cause: Why it was dropped.
        ///   - wasAcknowledged: Whether its `commit()` had returned.
        ///   - changes: Its object counts, or `nil` when unknown.
        ///   - changesByEntity: The counts by entity name.
        ///   - actionName: Its action name, if kept.
        ///   - author: Its author, if kept.
        /// - Complexity: O(1).
        public init(
            sequence: UInt64, cause: Cause, wasAcknowledged: Bool, changes: ChangeCounts? = nil,
            changesByEntity: [String: ChangeCounts] = [:], actionName: String? = nil, author: String? = nil
        ) {
            self.sequence = sequence
            self.cause = cause
            self.wasAcknowledged = wasAcknowledged
            self.changes = changes
            self.changesByEntity = changesByEntity
            self.actionName = actionName
            self.author = author
        }

        /// "commit 41 (damaged, acknowledged): 5000 inserted, 0 updated, 0 deleted, "Import"".
        public var description: String {
            "commit \(sequence) (\(cause), \(wasAcknowledged ? "acknowledged" : "never acknowledged"))"
                + (changes.map { ": \($0)" } ?? insertedFromSurvivingStart.map { ": \($0) inserted, the rest unknown" } ?? ": contents unknown")
                + (actionName.map { ", \"\($0)\"" } ?? "")
        }
    }

    /// The snapshot, lost: what the journal says it held.
    public struct LostSnapshot: Sendable, Equatable {
        /// The compaction generation the snapshot belonged to.
        public var generation: UInt64
        /// The commits it held: those numbered up to this one.
        public var throughSequence: UInt64
        /// How many live objects it held, by entity name; `nil` when the journal was written
        /// before journals recorded it (FetchedResultsKit 0.1).
        public var objectsByEntity: [String: Int]?

        /// The total of ``objectsByEntity``, or `nil` when unknown.
        public var objectCount: Int? { objectsByEntity.map { $0.values.reduce(0, +) } }
    }
}
