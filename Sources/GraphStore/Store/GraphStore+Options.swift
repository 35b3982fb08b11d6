import Foundation

extension GraphStore {
    /// What opening a store does with damage found before the end of a file. A torn last
    /// record of the journal (a crash in the middle of a commit's write) is always dropped
    /// and reported: that commit never returned. Records the store's last clean close
    /// proved acknowledged are never taken for one: their loss is damage.
    public enum Recovery: Sendable {
        /// Throw ``GraphStoreError/damaged(file:offset:afterSequence:reason:)`` naming the
        /// file, the byte offset and the last intact record; nothing is changed on disk.
        case refuse
        /// Keep everything before the first damage and drop what follows it.
        case stopAtDamage
        /// Keep every intact record and snapshot object; references to lost objects are cut
        /// and relationships repaired so every inverse agrees.
        case salvage
    }

    /// When a commit is synced to the disk.
    public enum Durability: Sendable, Equatable {
        /// Every commit is written and synced (`fdatasync`) before `commit()` returns and
        /// before anyone hears of it. A crash loses nothing that was committed.
        case synchronous
        /// Every commit is written before `commit()` returns, and synced when at least
        /// `interval` has passed since the last sync, on ``GraphStore/flush()`` and on
        /// ``GraphStore/close()``. A crash of the process loses nothing (the data is in the
        /// kernel); a crash of the machine or a power loss loses the commits since the last
        /// sync, never part of a commit and never a commit before a kept one.
        case deferred(interval: Duration)
    }

    /// Whether a store's directory is open in one store at a time or in many, across
    /// processes.
    public enum Sharing: Sendable, Equatable {
        /// One store at a time: another open throws ``GraphStoreError/locked(directory:)``.
        case exclusive
        /// Any number of stores opened `.shared`, in any processes, each with its own graph;
        /// an `.exclusive` open is refused while they are open, and they while it is.
        ///
        /// Commits are serialized by a write lock held while a commit is checked, written and
        /// synced. Each commit first applies what the others committed since this store last
        /// looked, as commits of their own (`GraphChanges.isExternal`), published before
        /// it; ``GraphStore/refresh()`` and ``GraphStore/followChanges(pollingInterval:isolation:)``
        /// apply them between commits. A commit made elsewhere that changes a property this
        /// graph also has pending refuses the local commit with
        /// ``GraphStoreError/conflict(_:)``: nothing committed is ever overwritten or dropped
        /// (see ``StoreConflict``). Every process must open the store with the same schema.
        case shared
    }

    /// How a store is opened and kept.
    public struct Options: Sendable {
        /// What to do with damage; `.refuse` by default.
        public var recovery: Recovery
        /// When commits are synced; `.synchronous` by default.
        public var durability: Durability
        /// Compact automatically when the journal grows past this many times the snapshot's
        /// size (and past ``minimumCompactionBytes``); `nil` compacts only on
        /// ``GraphStore/compact()``. 4 by default.
        public var compactionFactor: Double?
        /// The journal size below which no automatic compaction happens: 4 MiB by default.
        public var minimumCompactionBytes: Int
        /// Whether other processes may open the store too; ``Sharing/exclusive`` by default.
        public var sharing: Sharing
        /// How much history compactions keep (``GraphStore/history(after:)``); the journals of
        /// the last four compactions by default.
        public var historyRetention: HistoryRetention

        /// Options with the defaults above, or the values given.
        ///
        /// - Parameters:
        ///   - recovery: What to do with damage.
        ///   - durability: When commits are synced.
        ///   - compactionFactor: The journal-to-snapshot size ratio that triggers an automatic
        ///     compaction, or `nil` for none.
        ///   - minimumCompactionBytes: The journal size below which no automatic compaction
        ///     happens.
        ///   - sharing: Whether other processes may open the store too.
        ///   - historyRetention: How much history compactions keep.
        /// - Complexity: O(1).
        public init(
            recovery: Recovery = .refuse,
            durability: Durability = .synchronous,
            compactionFactor: Double? = 4,
            minimumCompactionBytes: Int = 4 << 20,
            sharing: Sharing = .exclusive,
            historyRetention: HistoryRetention = .compactions(4)
        ) {
            self.sharing = sharing
            self.historyRetention = historyRetention
            self.recovery = recovery
            self.durability = durability
            self.compactionFactor = compactionFactor
            self.minimumCompactionBytes = minimumCompactionBytes
        }
    }

    /// One damaged span found while opening.
    public struct Damage: Sendable, Equatable, CustomStringConvertible {
        /// The file's name in the store's directory.
        public var file: String
        /// Where the damage starts, in bytes from the start of the file.
        public var offset: UInt64
        /// How many bytes were skipped.
        public var length: UInt64
        /// The sequence number of the last intact record before the damage (`nil` for none).
        public var afterSequence: UInt64?
        /// The sequence number of the first intact record after the damage (`nil` for none).
        public var beforeSequence: UInt64?
        /// What was wrong.
        public var reason: String

        /// One line naming the file, the span, the reason and the intact records around it.
        public var description: String {
            "\(file): \(length) bytes at \(offset) (\(reason))"
                + (afterSequence.map { ", after record \($0)" } ?? "") + (beforeSequence.map { ", before record \($0)" } ?? "")
        }
    }

    /// What opening a store found: the commits replayed, and anything lost or repaired.
    public struct OpenReport: Sendable, CustomStringConvertible {
        /// Whether the store was created by this open (the directory held no store).
        public var created = false
        /// The number of journal commits replayed on top of the snapshot.
        public var replayedCommits = 0
        /// The bytes of a torn last record dropped from the journal (a crash during a
        /// commit's write; that commit never returned), or 0. The journal's preallocated
        /// zeros after them are not counted.
        public var tornTailBytes: UInt64 = 0
        /// With ``Durability/deferred(interval:)``: journal records written after the last sync
        /// the journal proves, dropped because a power loss kept only some of them (those
        /// commits were never synced, as that durability allows).
        public var unsyncedRecordsDropped = 0
        /// Damage found before the ends of the files.
        public var damage: [Damage] = []
        /// Journal records lost to damage (their sequence numbers).
        public var lostSequences: [ClosedRange<UInt64>] = []
        /// Objects whose saved values were lost (URIs), removed from the graph.
        public var lostObjects: [String] = []
        /// References to lost objects that were cut.
        public var cutReferences = 0
        /// Changes in intact journal records that were skipped because the objects they
        /// change were lost.
        public var skippedChanges = 0
        /// Relationship entries repaired so that both sides agree.
        public var repairedRelationships = 0
        /// A journal of an older generation, left by a compaction that crashed after its
        /// snapshot was in place (everything in it is in the snapshot), was discarded.
        public var discardedOldJournal = false
        /// Where the damaged files were kept (renamed), when the store was rewritten after a
        /// damaged open.
        public var preservedFiles: [String] = []

        /// Every commit the open dropped, in sequence order, whatever the reason: an
        /// unfinished last write (never acknowledged), commits not synced under deferred
        /// durability, and acknowledged commits lost to damage, a cut or a missing journal.
        /// Each says how many objects it inserted, updated and deleted when its bytes survive,
        /// and its action name when the record kept one.
        public var droppedCommits: [DroppedCommit] = []
        /// Files of the store that are missing although the format proves they existed
        /// (`"journal"`, `"snapshot"`).
        public var missingFiles: [String] = []
        /// Acknowledged commits after this sequence number were lost, and how many is not
        /// known (a missing journal with no record of its end): `nil` when every loss is
        /// listed in ``droppedCommits``.
        public var unknownCommitsLostAfter: UInt64?
        /// The snapshot was lost: what the journal says it held (its objects are not in the
        /// graph; commits after it that change them were skipped).
        public var lostSnapshot: LostSnapshot?
        /// The file's schema record was unreadable and its records were read with the schema
        /// the app passed (the file's header proves the app's schema wrote it).
        public var readWithAppSchema = false
        /// The live objects the opened graph holds, by entity name.
        public var keptObjectsByEntity: [String: Int] = [:]

        /// The live objects the opened graph holds.
        ///
        /// - Complexity: O(*e*) for *e* entities.
        public var keptObjects: Int { keptObjectsByEntity.values.reduce(0, +) }

        /// The commits whose `commit()` had returned and that the open dropped for damage, a
        /// cut or a missing file (not those dropped as unsynced under deferred durability).
        ///
        /// - Complexity: O(*d*) for *d* dropped commits.
        public var lostAcknowledgedCommits: [DroppedCommit] {
            droppedCommits.filter { $0.wasAcknowledged && $0.cause != .unsynced }
        }

        /// Whether nothing was lost or repaired (a torn tail is not a loss: its commit never
        /// returned; nor are unsynced commits under deferred durability).
        ///
        /// - Complexity: O(*d*) for *d* dropped commits.
        public var isClean: Bool {
            damage.isEmpty && lostObjects.isEmpty && cutReferences == 0 && skippedChanges == 0 && repairedRelationships == 0
                && missingFiles.isEmpty && unknownCommitsLostAfter == nil && lostSnapshot == nil && !readWithAppSchema
                && lostAcknowledgedCommits.isEmpty
        }

        /// One line when the open was clean; otherwise one line per finding. Either way it
        /// names what the open dropped without loss: a torn last record, records written after
        /// the last sync, an old journal left by a crashed compaction.
        ///
        /// - Complexity: O(*d* + *r*) for *d* damaged spans and *r* lost record ranges.
        public var description: String {
            var notes: [String] = []
            if tornTailBytes > 0 { notes.append("an unfinished last commit (\(tornTailBytes) bytes) was dropped") }
            if unsyncedRecordsDropped == 1 { notes.append("1 commit written after the last sync was dropped") }
            if unsyncedRecordsDropped > 1 { notes.append("\(unsyncedRecordsDropped) commits written after the last sync were dropped") }
            if discardedOldJournal { notes.append("an old journal already in the snapshot was discarded") }
            if isClean {
                let opening = created ? "created a new store" : "opened cleanly, \(replayedCommits) commits replayed"
                return ([opening] + notes).joined(separator: "; ")
            }
            var lines = ["opened with damage: \(replayedCommits) commits replayed, \(keptObjects) objects kept"]
            lines += missingFiles.map { "missing: the \($0) is missing" }
            if let lostSnapshot {
                let objects = lostSnapshot.objectCount.map { "\($0) objects" } ?? "an unknown number of objects"
                lines.append("lost: the snapshot of generation \(lostSnapshot.generation) with \(objects) and the commits through \(lostSnapshot.throughSequence)")
            }
            if let unknownCommitsLostAfter {
                lines.append("lost: every commit after record \(unknownCommitsLostAfter); how many is unknown")
            }
            if readWithAppSchema { lines.append("the file's schema record was unreadable: read with the app's schema") }
            let acknowledged = lostAcknowledgedCommits
            if !acknowledged.isEmpty {
                lines.append("lost acknowledged commits: \(acknowledged.count)")
                lines += acknowledged.prefix(5).map { "  \($0)" }
                if acknowledged.count > 5 { lines.append("  …") }
            }
            lines += damage.map { "damaged: \($0)" }
            if !lostSequences.isEmpty { lines.append("lost journal records: \(lostSequences.map { "\($0.lowerBound)…\($0.upperBound)" }.joined(separator: ", "))") }
            if !lostObjects.isEmpty { lines.append("lost objects: \(lostObjects.count) (\(lostObjects.prefix(5).joined(separator: ", "))\(lostObjects.count > 5 ? ", …" : ""))") }
            if cutReferences > 0 { lines.append("references to lost objects cut: \(cutReferences)") }
            if skippedChanges > 0 { lines.append("changes to lost objects skipped: \(skippedChanges)") }
            if repairedRelationships > 0 { lines.append("relationship entries repaired: \(repairedRelationships)") }
            lines += notes
            if !preservedFiles.isEmpty { lines.append("damaged files kept as: \(preservedFiles.joined(separator: ", "))") }
            return lines.joined(separator: "\n")
        }
    }
}
