import Foundation
import ObjectGraph

extension GraphStore {
    /// What reading a store's files produced.
    struct Loaded {
        var graph: ObjectGraph
        var report: OpenReport
        /// The snapshot's generation (0 when there is none yet).
        var generation: UInt64
        var snapshotBytes: UInt64
        /// The journal scanned, to append to; `nil` when a new one must be written.
        var journal: RecordScan?
        /// The sequence number the next journal record takes.
        var nextSequence: UInt64
        /// Damage was found: the store is rewritten from what was read (the damaged files
        /// are kept under other names).
        var needsRewrite: Bool
        /// The files were written with another schema: the store is rewritten in the
        /// current one before anything is appended.
        var schemaChanged = false
    }

    /// The last record a ``GraphRecordType/synced`` record before `offset` proves durable, or
    /// `nil` when there is none (a store with synchronous durability writes none: there only
    /// the last record can be unsynced).
    static func lastSynced(in records: [RecordReader.Record], before offset: UInt64) -> UInt64? {
        var synced: UInt64?
        for record in records where record.offset < offset && record.payload.first == GraphRecordType.synced.rawValue {
            var reader = ByteReader(record.payload.dropFirst())
            if let sequence = try? reader.varint() { synced = max(synced ?? 0, sequence) }
        }
        return synced
    }

    /// Reads the snapshot and replays the journal, treating damage as `mode` says.
    ///
    /// In phases, each a method of ``OpenPhases``: decide from the files present whether this
    /// is a new store or one whose files were lost; read the snapshot (or note it lost); read
    /// and replay the journal, telling its end (a commit that never finished, unsynced
    /// commits, acknowledged commits lost) by what the journal and its end marker prove, or
    /// decide whether its absence is proven harmless; repair relationships after damage.
    static func load(path: String, schema: StoreSchema, mode: Recovery, fileSystem: any StoreFileSystem) throws(GraphStoreError) -> Loaded {
        var phases = OpenPhases(path: path, schema: schema, mode: mode, fileSystem: fileSystem)
        let hasSnapshot = fileSystem.fileExists(phases.snapshotPath)
        let hasJournal = fileSystem.fileExists(phases.journalPath)
        guard hasSnapshot || hasJournal else { return try phases.emptyDirectory() }
        let graph = hasSnapshot ? try phases.readSnapshot() : try phases.journalWithoutSnapshot()
        phases.nextSequence = phases.includedSequence + 1
        if hasJournal {
            try phases.readJournal(into: graph, hasSnapshot: hasSnapshot)
        } else {
            try phases.checkMissingJournal(of: graph)
        }
        return phases.finish(graph)
    }

    /// One open's findings as it goes through the phases of
    /// ``load(path:schema:mode:fileSystem:)``, in the order that function calls them.
    struct OpenPhases {
        let path: String
        let schema: StoreSchema
        let mode: Recovery
        let fileSystem: any StoreFileSystem
        let snapshotPath: String
        let journalPath: String
        /// `mode` as the record reader takes it.
        let recordMode: RecordRecoveryMode
        /// What the store's last clean close proved about its journal, if it can be read.
        let marker: JournalEndMarker?
        var report = OpenReport()
        /// The snapshot's generation (0 when there is none).
        var generation: UInt64 = 0
        /// The last journal sequence the snapshot holds.
        var includedSequence: UInt64 = 0
        var snapshotBytes: UInt64 = 0
        /// Damage was found: the store is rewritten from what was read.
        var damaged = false
        /// The files were written with another schema.
        var schemaChanged = false
        /// The journal scanned, to append to.
        var journal: RecordScan?
        /// The sequence number the next journal record takes.
        var nextSequence: UInt64 = 1

        init(path: String, schema: StoreSchema, mode: Recovery, fileSystem: any StoreFileSystem) {
            self.path = path
            self.schema = schema
            self.mode = mode
            self.fileSystem = fileSystem
            snapshotPath = path + "/snapshot"
            journalPath = path + "/journal"
            recordMode = switch mode {
            case .refuse: .refuse
            case .stopAtDamage: .stopAtDamage
            case .salvage: .salvage
            }
            marker = JournalEndMarker.read(directory: path, fileSystem: fileSystem)
        }

        /// Adds a span the record reader found damaged to the report.
        mutating func note(_ damage: RecordReader.Damage, in file: String) {
            report.damage.append(Damage(
                file: file, offset: damage.offset, length: damage.length, afterSequence: damage.afterSequence,
                beforeSequence: damage.beforeSequence, reason: damage.reason.description))
        }

        /// Neither file: a new store, or, when a clean close was recorded, a store whose
        /// files were both removed.
        mutating func emptyDirectory() throws(GraphStoreError) -> Loaded {
            if let marker {
                // The store closed with records in its journal: both files were removed.
                guard mode != .refuse else {
                    throw .damaged(
                        file: journalPath, offset: 0, afterSequence: nil,
                        reason: "the snapshot and the journal are missing, although the store was closed with \(marker.lastSequence) records")
                }
                report.missingFiles = ["snapshot", "journal"]
                report.damage.append(Damage(file: "snapshot", offset: 0, length: 0, reason: "the snapshot and the journal are missing"))
                report.unknownCommitsLostAfter = 0
            } else {
                report.created = true
            }
            let graph = ObjectGraph()
            for entity in schema.entities { graph.register(entity.description.objectType) }
            return Loaded(graph: graph, report: report, generation: 0, snapshotBytes: 0, journal: nil, nextSequence: 1, needsRewrite: false)
        }

        /// Reads the snapshot into a new graph: its damage noted or refused, its objects
        /// restored, what it lost counted.
        mutating func readSnapshot() throws(GraphStoreError) -> ObjectGraph {
            let bytes = try io { try fileSystem.readFile(snapshotPath) }
            snapshotBytes = UInt64(bytes.count)
            let scan = try io { try RecordScan(bytes: bytes, path: snapshotPath, kind: .snapshot, mode: recordMode) }
            for damage in scan.damages { note(damage, in: "snapshot") }
            // A snapshot is complete before it is renamed into place: a torn end is damage.
            if let tail = scan.tail {
                if mode == .refuse {
                    throw .damaged(file: snapshotPath, offset: tail.offset, afterSequence: tail.afterSequence, reason: "the snapshot ends early (\(tail.reason))")
                }
                note(tail, in: "snapshot")
            }
            generation = scan.header.generation
            let graph = ObjectGraph(identifier: scan.header.graphID)
            for entity in schema.entities { graph.register(entity.description.objectType) }
            let loaded = try Snapshot.load(
                scan.records, into: graph, schema: schema, path: snapshotPath, mode: recordMode,
                fileFingerprint: scan.header.schemaFingerprint)
            if loaded.readWithAppSchema {
                report.readWithAppSchema = true
                report.damage.append(Damage(
                    file: "snapshot", offset: UInt64(RecordFormat.fileHeaderSize), length: 0,
                    reason: "the schema record is unreadable; read with the app's schema, which the header's fingerprint names"))
            }
            for (record, reason) in loaded.unreadable {
                // The records around it are intact: only this one could not be read.
                let position = scan.records.firstIndex { $0.offset == record.offset }
                report.damage.append(Damage(
                    file: "snapshot", offset: record.offset, length: record.endOffset - record.offset,
                    afterSequence: position.flatMap { $0 > 0 ? scan.records[$0 - 1].sequence : nil },
                    beforeSequence: position.flatMap { $0 + 1 < scan.records.count ? scan.records[$0 + 1].sequence : nil },
                    reason: "record \(record.sequence) cannot be read: \(reason)"))
            }
            if !loaded.hasTrailer {
                if mode == .refuse {
                    throw .damaged(file: snapshotPath, offset: scan.validEnd, afterSequence: scan.records.last?.sequence, reason: "the snapshot has no trailer")
                }
                // (Stopping at an unreadable record cut the trailer off: that is the damage.)
                if scan.damages.isEmpty && scan.tail == nil && loaded.unreadable.isEmpty {
                    report.damage.append(Damage(file: "snapshot", offset: scan.validEnd, length: 0, reason: "the snapshot has no trailer"))
                }
            }
            includedSequence = loaded.includedSequence
            schemaChanged = !loaded.schemaIsCurrent
            report.lostObjects += loaded.losses.lostObjects
            report.cutReferences += loaded.losses.cutReferences
            damaged = !report.damage.isEmpty || !loaded.hasTrailer
            return graph
        }

        /// A journal with no snapshot: the snapshot was lost (every generation writes both,
        /// the snapshot renamed into place first). Only salvage goes on, from an empty graph.
        mutating func journalWithoutSnapshot() throws(GraphStoreError) -> ObjectGraph {
            guard mode == .salvage else {
                throw .damaged(
                    file: snapshotPath, offset: 0, afterSequence: nil,
                    reason: "the snapshot is missing while a journal exists; the objects it held are lost")
            }
            let header = try io { try RecordFileHeader.decode(try fileSystem.readFile(journalPath).prefix(RecordFormat.fileHeaderSize), path: journalPath) }
            let graph = ObjectGraph(identifier: header.graphID)
            for entity in schema.entities { graph.register(entity.description.objectType) }
            generation = header.generation
            report.missingFiles.append("snapshot")
            report.damage.append(Damage(file: "snapshot", offset: 0, length: 0, reason: "the snapshot is missing"))
            damaged = true
            return graph
        }

        /// No journal: harmless only when a compaction's temporary journal proves a crash
        /// between its two renames; otherwise every commit since the snapshot is lost.
        mutating func checkMissingJournal(of graph: ObjectGraph) throws(GraphStoreError) {
            if !missingJournalIsProvenSafe(path: path, generation: generation, graphID: graph.identifier, fileSystem: fileSystem) {
                // Every generation writes its journal next to its snapshot: without a
                // compaction's temporary journal to prove a crash between the two renames,
                // the journal was removed, and every commit since the snapshot with it.
                let known = marker.flatMap { $0.generation == generation && $0.lastSequence > includedSequence + 1 ? $0.lastSequence : nil }
                let lost = known.map { "\($0 - includedSequence - 1) commits made since the snapshot (records \(includedSequence + 2)…\($0)) are lost" }
                    ?? "every commit made since the snapshot (after record \(includedSequence)) is lost"
                guard mode != .refuse else {
                    throw .damaged(file: journalPath, offset: 0, afterSequence: includedSequence, reason: "the journal is missing: \(lost)")
                }
                report.missingFiles.append("journal")
                report.damage.append(Damage(file: "journal", offset: 0, length: 0, afterSequence: includedSequence, reason: "the journal is missing: \(lost)"))
                if let known {
                    report.droppedCommits += (includedSequence + 2...known).map {
                        DroppedCommit(sequence: $0, cause: .journalMissing, wasAcknowledged: true)
                    }
                } else {
                    report.unknownCommitsLostAfter = includedSequence
                }
                damaged = true
            }
        }

        /// Reads the journal and replays what follows the snapshot: unsynced commits under
        /// deferred durability, damage as `mode` says, the end of the journal against its end
        /// marker, and every commit dropped, for the report. Without a snapshot, the journal's
        /// schema record says what the lost snapshot held.
        mutating func readJournal(into graph: ObjectGraph, hasSnapshot: Bool) throws(GraphStoreError) {
            let bytes = try io { try fileSystem.readFile(journalPath) }
            let header = try journalHeader(of: bytes, graph: graph)
            if header.generation < generation {
                // A compaction put its snapshot in place and stopped before its journal:
                // everything this journal holds is in the snapshot.
                report.discardedOldJournal = true
                return
            }
            guard header.generation == generation else {
                throw .damaged(
                    file: snapshotPath, offset: 0, afterSequence: nil,
                    reason: "the snapshot (generation \(generation)) is older than the journal (generation \(header.generation))")
            }
            var reading = try scanJournal(bytes, header: header, graph: graph)
            try settleFirstDamage(of: &reading)
            for damage in reading.scan.damages { noteJournalDamage(damage) }
            let missingEnd = try checkJournalEnd(of: &reading)
            try replayJournal(&reading, into: graph, hasSnapshot: hasSnapshot)
            reportDroppedCommits(of: &reading, missingEnd: missingEnd)
            damaged = damaged || !report.damage.isEmpty
            journal = reading.scan
        }

        /// Acknowledged records the journal no longer holds, as ``acknowledgedEnd(closedThrough:lastInFile:scan:bytes:marker:path:refuse:)`` finds them.
        typealias MissingEnd = (sequences: ClosedRange<UInt64>, reason: String, cause: DroppedCommit.Cause)

        /// A journal being read: its bytes and scan, and what each phase of
        /// ``readJournal(into:hasSnapshot:)`` found for the phases after it.
        struct JournalReading {
            let bytes: [UInt8]
            let header: RecordFileHeader
            var scan: RecordScan
            /// Every record the scan found intact, before any was set aside.
            let intact: [RecordReader.Record]
            /// The last record the store's last clean close proved acknowledged, when the
            /// marker is this journal's.
            let closedThrough: UInt64?
            /// The records written after the last sync the file proves (deferred durability).
            var unsynced: [RecordReader.Record] = []
            /// The intact records after the damage an open that stops at damage stopped at.
            var followingDamage: [RecordReader.Record] = []
            /// The records that could not be applied.
            var unreadable: Set<UInt64> = []
            /// The last record sequence the file holds (the snapshot's when it holds none).
            var lastInFile: UInt64 = 0
            /// The decoder that replayed the records, which reads the dropped ones' summaries.
            var decoder: GraphRecordDecoder?
        }

        /// The journal's header, which must name the graph the snapshot holds.
        private func journalHeader(of bytes: [UInt8], graph: ObjectGraph) throws(GraphStoreError) -> RecordFileHeader {
            let header = try io { try RecordFileHeader.decode(bytes.prefix(RecordFormat.fileHeaderSize), path: journalPath) }
            guard header.graphID == graph.identifier else {
                throw .foreignFile(file: journalPath, reason: "it belongs to the graph \(header.graphID), not \(graph.identifier)")
            }
            return header
        }

        /// Every record of the journal and every damaged span, read as salvage reads them
        /// (``settleFirstDamage(of:)`` applies the open's mode).
        private func scanJournal(_ bytes: [UInt8], header: RecordFileHeader, graph: ObjectGraph) throws(GraphStoreError) -> JournalReading {
            let scan = try io { try RecordScan(bytes: bytes, path: journalPath, kind: .journal, graphID: graph.identifier, generation: generation, mode: .salvage) }
            return JournalReading(
                bytes: bytes, header: header, scan: scan, intact: scan.records,
                closedThrough: marker.flatMap { $0.describes(header) ? $0.lastSequence : nil })
        }

        /// Decides what the first damage is: with deferred durability, after the last sync the
        /// file proves and not before what a clean close proved, the end of the journal (the
        /// records after it are unsynced); otherwise damage, which `mode` refuses, stops at,
        /// or salvages around.
        private mutating func settleFirstDamage(of reading: inout JournalReading) throws(GraphStoreError) {
            guard let first = reading.scan.damages.first else { return }
            let provenByClose = reading.closedThrough.map { $0 > (first.afterSequence ?? 0) } ?? false
            if !provenByClose, let synced = lastSynced(in: reading.scan.records, before: first.offset), first.afterSequence.map({ $0 >= synced }) ?? false {
                // Deferred durability: everything from here on was written after the
                // last sync the file proves, and a power loss may keep any part of it.
                // Those commits never were durable: the end of the journal, not damage.
                reading.unsynced = reading.scan.records.filter { $0.offset > first.offset }
                report.unsyncedRecordsDropped = reading.unsynced.count
                report.tornTailBytes = UInt64(max(RecordReader.dataEnd(of: reading.bytes), Int(first.offset))) - first.offset
                reading.scan.records.removeAll { $0.offset > first.offset }
                reading.scan.damages = []
                reading.scan.tail = nil
                reading.scan.validEnd = first.offset
                return
            }
            switch recordMode {
            case .refuse: throw GraphStore.mapped(first.error(path: journalPath))
            case .stopAtDamage:
                reading.followingDamage = reading.scan.records.filter { $0.offset > first.offset }
                reading.scan.records.removeAll { $0.offset > first.offset }
                reading.scan.damages = [first]
                reading.scan.validEnd = first.offset
            case .salvage: break
            }
        }

        /// Reports a damaged span of the journal and the sequences it took.
        private mutating func noteJournalDamage(_ damage: RecordReader.Damage) {
            note(damage, in: "journal")
            if let after = damage.afterSequence, let before = damage.beforeSequence, before > after + 1 {
                report.lostSequences.append((after + 1)...(before - 1))
            }
        }

        /// The end of the journal: acknowledged records the close proved and the file no
        /// longer holds (returned, and reported as damage), or an unfinished last write.
        private mutating func checkJournalEnd(of reading: inout JournalReading) throws(GraphStoreError) -> MissingEnd? {
            // (With no intact record, not even the schema record, the journal holds nothing
            // past the snapshot.)
            reading.lastInFile = reading.intact.last?.sequence ?? includedSequence
            let scan = reading.scan
            let missingEnd = try acknowledgedEnd(
                closedThrough: reading.closedThrough, lastInFile: reading.lastInFile, scan: scan, bytes: reading.bytes, marker: marker,
                path: journalPath, refuse: mode == .refuse)
            if let missingEnd {
                report.damage.append(Damage(
                    file: "journal", offset: scan.validEnd, length: UInt64(max(RecordReader.dataEnd(of: reading.bytes), Int(scan.validEnd))) - scan.validEnd,
                    afterSequence: reading.lastInFile, reason: missingEnd.reason))
                report.lostSequences.append(missingEnd.sequences)
            } else if let tail = scan.tail, reading.unsynced.isEmpty {
                // Ambiguous without a marker: the write of a commit that never returned
                // (or, on a disk that broke its promise, the last acknowledged one).
                report.tornTailBytes = tail.length
            }
            return missingEnd
        }

        /// Replays the records past the snapshot's sequence, in the schema the journal's first
        /// record names; without a snapshot, reports what that record says the lost snapshot
        /// held.
        private mutating func replayJournal(_ reading: inout JournalReading, into graph: ObjectGraph, hasSnapshot: Bool) throws(GraphStoreError) {
            guard let first = reading.scan.records.first else {
                if mode == .refuse {
                    throw .damaged(file: journalPath, offset: reading.scan.validEnd, afterSequence: nil, reason: "the journal has no schema record")
                }
                return
            }
            // The journal's first record is its schema. If damage took it, the header's
            // fingerprint still says whether the current schema wrote the journal.
            let startsWithSchema = first.payload.first == GraphRecordType.schema.rawValue
            if !startsWithSchema && reading.header.schemaFingerprint != schema.fingerprint {
                throw .damaged(
                    file: journalPath, offset: UInt64(RecordFormat.fileHeaderSize),
                    afterSequence: nil, reason: "the journal's schema record is lost and the journal was written with another schema")
            }
            let file = startsWithSchema
                ? try GraphRecordDecoder.schema(of: first.payload, current: schema, path: journalPath, sequence: first.sequence)
                : try FileSchema(text: schema.text, current: schema)
            schemaChanged = schemaChanged || !file.isCurrent
            var replay = GraphRecordDecoder(graph: graph, file: file, path: journalPath)
            if !hasSnapshot {
                report.lostSnapshot = LostSnapshot(
                    generation: generation, throughSequence: first.sequence - 1,
                    objectsByEntity: startsWithSchema ? replay.snapshotCounts(in: first.payload) : nil)
            }
            try applyCommits(of: &reading, after: startsWithSchema ? 1 : 0, with: &replay)
            reading.decoder = replay
            report.cutReferences += replay.losses.cutReferences
            report.skippedChanges += replay.losses.skippedChanges
            nextSequence = max(nextSequence, (reading.scan.records.last?.sequence ?? 0) + 1)
        }

        /// Applies each commit record past the snapshot's sequence (after the first `skipped`
        /// records); one that cannot be applied is refused, stopped at, or skipped, as `mode`
        /// says.
        private mutating func applyCommits(of reading: inout JournalReading, after skipped: Int, with replay: inout GraphRecordDecoder) throws(GraphStoreError) {
            for record in reading.scan.records.dropFirst(skipped) where record.sequence > includedSequence {
                if record.payload.first == GraphRecordType.synced.rawValue { continue }
                do {
                    // A mode that goes on after an unreadable record needs it applied
                    // whole or not at all.
                    try replay.applyCommit(record.payload, sequence: record.sequence, checkFirst: mode != .refuse)
                    report.replayedCommits += 1
                } catch {
                    if case .incompatibleSchema = error { throw error }
                    if case .omittedFromSchema = error { throw error }
                    guard mode == .salvage else {
                        if mode == .refuse { throw error }
                        report.damage.append(Damage(file: "journal", offset: record.offset, length: record.endOffset - record.offset, reason: "\(error)"))
                        reading.followingDamage = reading.intact.filter { $0.sequence > record.sequence }
                        reading.unreadable.insert(record.sequence)
                        break
                    }
                    report.damage.append(Damage(file: "journal", offset: record.offset, length: record.endOffset - record.offset, reason: "\(error)"))
                    report.lostSequences.append(record.sequence...record.sequence)
                    reading.unreadable.insert(record.sequence)
                }
            }
        }

        /// Lists every commit the open dropped, with the objects each held, for
        /// ``OpenReport/droppedCommits``.
        private mutating func reportDroppedCommits(of reading: inout JournalReading, missingEnd: MissingEnd?) {
            report.droppedCommits = droppedCommits(
                report: report, unsynced: reading.unsynced, followingDamage: reading.followingDamage, unreadable: reading.unreadable,
                missingEnd: missingEnd, tornAfter: report.tornTailBytes > 0 && reading.unsynced.isEmpty ? reading.lastInFile : nil,
                schemaSequence: includedSequence + 1, decoder: &reading.decoder)
            if reading.unsynced.isEmpty, let partial = reading.scan.tailPartialPayload, let count = insertCount(inPartialRecord: partial),
               let index = report.droppedCommits.firstIndex(where: { $0.sequence == count.sequence && $0.changes == nil }) {
                report.droppedCommits[index].insertedFromSurvivingStart = count.inserted
            }
        }

        /// Repairs relationships after damage, checks the restored graph, and counts what it
        /// kept.
        mutating func finish(_ graph: ObjectGraph) -> Loaded {
            if damaged {
                // Whatever damage took (salvage skips records, stopping cuts the history short),
                // references to lost objects are cut and both sides of every relationship agree.
                report.repairedRelationships = RelationshipRepair.repair(graph, schema: schema)
            }
            graph.checkRestoredInvariants()
            for entity in schema.entities {
                report.keptObjectsByEntity[entity.description.name] = graph.count(of: entity.description.objectType)
            }
            return Loaded(
                graph: graph, report: report, generation: generation, snapshotBytes: snapshotBytes,
                journal: damaged || schemaChanged ? nil : journal, nextSequence: nextSequence, needsRewrite: damaged,
                schemaChanged: schemaChanged)
        }
    }

    /// Whether a missing journal is one the format proves harmless: a compaction (or the
    /// store's creation) crashed after renaming its snapshot into place and before renaming
    /// its journal, whose temporary file, synced before that rename, is still there with the
    /// snapshot's generation. Its journal then holds nothing but its schema record.
    static func missingJournalIsProvenSafe(path: String, generation: UInt64, graphID: UUID, fileSystem: any StoreFileSystem) -> Bool {
        let temporary = path + "/journal.tmp"
        guard fileSystem.fileExists(temporary), let bytes = try? fileSystem.readFile(temporary),
              let header = try? RecordFileHeader.decode(bytes.prefix(RecordFormat.fileHeaderSize), path: temporary) else { return false }
        return header.kind == .journal && header.generation == generation && header.graphID == graphID
    }

    /// Acknowledged records that the journal's end marker proves and the journal no longer
    /// holds whole: the sequences lost and why; `nil` when there are none (an unfinished
    /// last write, or no marker of this journal).
    ///
    /// - Throws: ``GraphStoreError/damaged(file:offset:afterSequence:reason:)`` when `refuse`.
    static func acknowledgedEnd(
        closedThrough: UInt64?, lastInFile: UInt64?, scan: RecordScan, bytes: [UInt8], marker: JournalEndMarker?,
        path: String, refuse: Bool
    ) throws(GraphStoreError) -> (sequences: ClosedRange<UInt64>, reason: String, cause: DroppedCommit.Cause)? {
        guard let closedThrough, let lastInFile, lastInFile < closedThrough else { return nil }
        let count = closedThrough - lastInFile
        let commits = count == 1 ? "1 acknowledged record (\(closedThrough))" : "\(count) acknowledged records (\(lastInFile + 1)…\(closedThrough))"
        let dataEnd = UInt64(RecordReader.dataEnd(of: bytes))
        let reason: String
        var cause = DroppedCommit.Cause.damaged
        if UInt64(bytes.count) < (marker?.endOffset ?? 0) {
            reason = "the journal was cut to \(bytes.count) bytes, before the end of its records at byte \(marker?.endOffset ?? 0): \(commits) lost"
            cause = .cutOff
        } else if let tail = scan.tail {
            switch tail.reason {
            case .checksumMismatch, .badLength, .unknownFragmentType:
                reason = "the last \(commits) fail their checksums: damage, not an unfinished write (the store was closed after them)"
            default:
                reason = "the last \(commits) are damaged (\(tail.reason)): the store was closed after them"
            }
        } else {
            reason = "the journal's records end at byte \(dataEnd), zeros after them, although the store was closed after \(commits): they are lost"
            cause = .cutOff
        }
        if refuse {
            throw .damaged(file: path, offset: scan.validEnd, afterSequence: lastInFile, reason: reason)
        }
        return ((lastInFile + 1)...closedThrough, reason, cause)
    }

    /// The sequence number and insert count at the start of a commit record of which only the
    /// first fragments survive; `nil` when they do not hold that much.
    static func insertCount(inPartialRecord payload: [UInt8]) -> (sequence: UInt64, inserted: Int)? {
        guard payload.count > RecordFormat.sequenceSize else { return nil }
        let sequence = loadLittleEndian(UInt64.self, payload, 0)
        var reader = ByteReader(payload[RecordFormat.sequenceSize...])
        guard (try? reader.byte()) == GraphRecordType.commit.rawValue, let inserted = try? reader.count() else { return nil }
        return (sequence, inserted)
    }

    /// Every commit the open dropped, in sequence order, each with its counts and action name
    /// when its record survives.
    static func droppedCommits(
        report: OpenReport, unsynced: [RecordReader.Record], followingDamage: [RecordReader.Record], unreadable: Set<UInt64>,
        missingEnd: (sequences: ClosedRange<UInt64>, reason: String, cause: DroppedCommit.Cause)?, tornAfter: UInt64?,
        schemaSequence: UInt64, decoder: inout GraphRecordDecoder?
    ) -> [DroppedCommit] {
        var dropped: [UInt64: DroppedCommit] = [:]
        func add(_ record: RecordReader.Record, _ cause: DroppedCommit.Cause, acknowledged: Bool = true) {
            guard record.payload.first == GraphRecordType.commit.rawValue else { return }
            let summary = decoder?.summary(of: record.payload, sequence: record.sequence)
            dropped[record.sequence] = DroppedCommit(
                sequence: record.sequence, cause: cause, wasAcknowledged: acknowledged, changes: summary?.changes,
                changesByEntity: summary?.changesByEntity ?? [:], actionName: summary?.actionName, author: summary?.author)
        }
        for range in report.lostSequences {
            // (The journal's schema record, lost too, is no commit.)
            for sequence in range where dropped[sequence] == nil && sequence != schemaSequence {
                let cause: DroppedCommit.Cause = unreadable.contains(sequence) ? .unreadable
                    : missingEnd.flatMap { $0.sequences.contains(sequence) ? $0.cause : nil } ?? .damaged
                dropped[sequence] = DroppedCommit(sequence: sequence, cause: cause, wasAcknowledged: true)
            }
        }
        for record in unsynced { add(record, .unsynced) }
        for record in followingDamage where !unreadable.contains(record.sequence) { add(record, .followsDamage) }
        for sequence in unreadable where dropped[sequence] == nil {
            dropped[sequence] = DroppedCommit(sequence: sequence, cause: .unreadable, wasAcknowledged: true)
        }
        if let tornAfter {
            dropped[tornAfter + 1] = DroppedCommit(sequence: tornAfter + 1, cause: .unfinishedWrite, wasAcknowledged: false)
        }
        return dropped.values.sorted { $0.sequence < $1.sequence }
    }
}
