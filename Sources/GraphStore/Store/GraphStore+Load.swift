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
    static func load(path: String, schema: StoreSchema, mode: Recovery, fileSystem: any StoreFileSystem) throws(GraphStoreError) -> Loaded {
        let snapshotPath = path + "/snapshot"
        let journalPath = path + "/journal"
        var report = OpenReport()
        let recordMode: RecordRecoveryMode = switch mode {
        case .refuse: .refuse
        case .stopAtDamage: .stopAtDamage
        case .salvage: .salvage
        }
        func note(_ damage: RecordReader.Damage, in file: String) {
            report.damage.append(Damage(
                file: file, offset: damage.offset, length: damage.length, afterSequence: damage.afterSequence,
                beforeSequence: damage.beforeSequence, reason: damage.reason.description))
        }

        let hasSnapshot = fileSystem.fileExists(snapshotPath)
        let hasJournal = fileSystem.fileExists(journalPath)
        guard hasSnapshot || hasJournal else {
            report.created = true
            let graph = ObjectGraph()
            for entity in schema.entities { graph.register(entity.description.objectType) }
            return Loaded(graph: graph, report: report, generation: 0, snapshotBytes: 0, journal: nil, nextSequence: 1, needsRewrite: false)
        }

        // The snapshot.
        let graph: ObjectGraph
        var generation: UInt64 = 0
        var includedSequence: UInt64 = 0
        var snapshotBytes: UInt64 = 0
        var damaged = false
        var schemaChanged = false
        if hasSnapshot {
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
            graph = ObjectGraph(identifier: scan.header.graphID)
            for entity in schema.entities { graph.register(entity.description.objectType) }
            let loaded = try Snapshot.load(scan.records, into: graph, schema: schema, path: snapshotPath, mode: recordMode)
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
        } else {
            // A journal with no snapshot: the snapshot was lost.
            guard mode == .salvage else {
                throw .damaged(file: snapshotPath, offset: 0, afterSequence: nil, reason: "the snapshot is missing while a journal exists")
            }
            let header = try io { try RecordFileHeader.decode(try fileSystem.readFile(journalPath).prefix(RecordFormat.fileHeaderSize), path: journalPath) }
            graph = ObjectGraph(identifier: header.graphID)
            for entity in schema.entities { graph.register(entity.description.objectType) }
            generation = header.generation
            report.damage.append(Damage(file: "snapshot", offset: 0, length: 0, reason: "the snapshot is missing"))
            damaged = true
        }

        // The journal.
        var journal: RecordScan?
        var nextSequence = includedSequence + 1
        if hasJournal {
            let bytes = try io { try fileSystem.readFile(journalPath) }
            let header = try io { try RecordFileHeader.decode(bytes.prefix(RecordFormat.fileHeaderSize), path: journalPath) }
            guard header.graphID == graph.identifier else {
                throw .foreignFile(file: journalPath, reason: "it belongs to the graph \(header.graphID), not \(graph.identifier)")
            }
            if header.generation < generation {
                // A compaction put its snapshot in place and stopped before its journal:
                // everything this journal holds is in the snapshot.
                report.discardedOldJournal = true
            } else if header.generation > generation {
                throw .damaged(
                    file: snapshotPath, offset: 0, afterSequence: nil,
                    reason: "the snapshot (generation \(generation)) is older than the journal (generation \(header.generation))")
            } else {
                var scan = try io { try RecordScan(bytes: bytes, path: journalPath, kind: .journal, graphID: graph.identifier, generation: generation, mode: .salvage) }
                if let first = scan.damages.first {
                    if let synced = lastSynced(in: scan.records, before: first.offset), first.afterSequence.map({ $0 >= synced }) ?? false {
                        // Deferred durability: everything from here on was written after the
                        // last sync the file proves, and a power loss may keep any part of it.
                        // Those commits never were durable: the end of the journal, not damage.
                        let dropped = scan.records.filter { $0.offset > first.offset }
                        report.unsyncedRecordsDropped = dropped.count
                        report.tornTailBytes = UInt64(max(RecordReader.dataEnd(of: bytes), Int(first.offset))) - first.offset
                        scan.records.removeAll { $0.offset > first.offset }
                        scan.damages = []
                        scan.tail = nil
                        scan.validEnd = first.offset
                    } else {
                        switch recordMode {
                        case .refuse: throw GraphStore.mapped(first.error(path: journalPath))
                        case .stopAtDamage:
                            scan.records.removeAll { $0.offset > first.offset }
                            scan.damages = [first]
                            scan.validEnd = first.offset
                        case .salvage: break
                        }
                    }
                }
                for damage in scan.damages {
                    note(damage, in: "journal")
                    if let after = damage.afterSequence, let before = damage.beforeSequence, before > after + 1 {
                        report.lostSequences.append((after + 1)...(before - 1))
                    }
                }
                if let tail = scan.tail { report.tornTailBytes = tail.length }
                if let first = scan.records.first {
                    // The journal's first record is its schema. If damage took it, the header's
                    // fingerprint still says whether the current schema wrote the journal.
                    let startsWithSchema = first.payload.first == GraphRecordType.schema.rawValue
                    if !startsWithSchema && header.schemaFingerprint != schema.fingerprint {
                        throw .damaged(
                            file: journalPath, offset: UInt64(RecordFormat.fileHeaderSize),
                            afterSequence: nil, reason: "the journal's schema record is lost and the journal was written with another schema")
                    }
                    let file = startsWithSchema
                        ? try GraphRecordDecoder.schema(of: first.payload, current: schema, path: journalPath, sequence: first.sequence)
                        : try FileSchema(text: schema.text, current: schema)
                    schemaChanged = schemaChanged || !file.isCurrent
                    var decoder = GraphRecordDecoder(graph: graph, file: file, path: journalPath)
                    for record in scan.records.dropFirst(startsWithSchema ? 1 : 0) where record.sequence > includedSequence {
                        if record.payload.first == GraphRecordType.synced.rawValue { continue }
                        do {
                            // A mode that goes on after an unreadable record needs it applied
                            // whole or not at all.
                            try decoder.applyCommit(record.payload, sequence: record.sequence, checkFirst: mode != .refuse)
                            report.replayedCommits += 1
                        } catch {
                            if case .incompatibleSchema = error { throw error }
                            guard mode == .salvage else {
                                if mode == .refuse { throw error }
                                report.damage.append(Damage(file: "journal", offset: record.offset, length: record.endOffset - record.offset, reason: "\(error)"))
                                break
                            }
                            report.damage.append(Damage(file: "journal", offset: record.offset, length: record.endOffset - record.offset, reason: "\(error)"))
                            report.lostSequences.append(record.sequence...record.sequence)
                        }
                    }
                    report.cutReferences += decoder.losses.cutReferences
                    report.skippedChanges += decoder.losses.skippedChanges
                    nextSequence = max(nextSequence, (scan.records.last?.sequence ?? 0) + 1)
                } else if mode == .refuse {
                    throw .damaged(file: journalPath, offset: scan.validEnd, afterSequence: nil, reason: "the journal has no schema record")
                }
                damaged = damaged || !report.damage.isEmpty
                journal = scan
            }
        }
        if damaged {
            // Whatever damage took (salvage skips records, stopping cuts the history short),
            // references to lost objects are cut and both sides of every relationship agree.
            report.repairedRelationships = RelationshipRepair.repair(graph, schema: schema)
        }
        graph.checkRestoredInvariants()
        return Loaded(
            graph: graph, report: report, generation: generation, snapshotBytes: snapshotBytes,
            journal: damaged || schemaChanged ? nil : journal, nextSequence: nextSequence, needsRewrite: damaged,
            schemaChanged: schemaChanged)
    }
}
