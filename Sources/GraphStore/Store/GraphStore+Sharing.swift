import Foundation
import ObjectGraph

/// The lock file of a shared store's writers (``GraphStore/Sharing/shared``).
let writeLockName = "WRITE"

extension GraphStore {
    // MARK: The write lock

    /// Runs `body` holding the write lock of a shared store (nothing to take for an exclusive
    /// one, whose `LOCK` already excludes every other writer). Nests.
    func withWriteLock<Result>(_ body: () throws(GraphStoreError) -> Result) throws(GraphStoreError) -> Result {
        try lockForWriting()
        defer { unlockForWriting() }
        return try body()
    }

    /// Takes the write lock, or counts one more holder; every call is paired with
    /// ``unlockForWriting()``, even when this throws.
    private func lockForWriting() throws(GraphStoreError) {
        writeLockDepth += 1
        guard options.sharing == .shared, writeLockDepth == 1 else { return }
        if let failure { throw .poisoned(cause: failure) }
        writeLock = try Self.io { try fileSystem.lockFile(directory + "/" + writeLockName, kind: .exclusiveWaiting) }
    }

    private func unlockForWriting() {
        writeLockDepth -= 1
        guard writeLockDepth == 0 else { return }
        writeLock?.unlock()
        writeLock = nil
    }

    /// The start of a commit of the graph: with ``Sharing/shared``, takes the write lock and
    /// applies what the others committed (published just before the commit's own changes).
    func beginCommit() throws {
        try lockForWriting()
        try catchUp(holdingWriteLock: true)
    }

    /// The end of a commit, written or failed: releases the write lock.
    func endCommit() {
        unlockForWriting()
    }

    // MARK: Following the others

    /// Applies the commits other processes made to the store since this store last read it,
    /// as ordinary commits of its graph: each is published to the graph's observers (and so
    /// to its controllers) as one `GraphChanges` with `GraphChanges.isExternal` set and
    /// the author the other process gave it, and is never recorded for undo.
    ///
    /// A commit another process is still writing (or that it was writing when it died) is
    /// not applied, and not taken for damage: it is applied once it is whole, or dropped by
    /// the next writer. When another process compacted the store, this store moves to the
    /// new files without reloading anything.
    ///
    /// A store opened ``Sharing/exclusive`` has nothing to apply. Each commit of the graph
    /// also applies the others' commits first, so calling this is needed only to see them
    /// between commits; ``followChanges(pollingInterval:isolation:)`` calls it as they come.
    ///
    /// - Returns: The number of commits applied.
    /// - Throws: ``GraphStoreError``: ``GraphStoreError/pendingChanges`` when the graph has
    ///   uncommitted changes (commit or roll back first; the next commit applies them too),
    ///   ``GraphStoreError/mustReopen(reason:)``, or a failure to read the files.
    /// - Complexity: O(*b*) for the *b* bytes of the commits applied, plus their
    ///   publication; O(1) reads when there are none.
    @discardableResult
    public func refresh() throws(GraphStoreError) -> Int {
        if let failure { throw .poisoned(cause: failure) }
        guard options.sharing == .shared else { return 0 }
        guard !graph.hasChanges else { throw .pendingChanges }
        return try catchUp(holdingWriteLock: false)
    }

    /// Reads what other processes appended to the journal since this store last read it,
    /// applies each whole commit, and moves to a new journal when another process compacted.
    ///
    /// Holding the write lock, a torn tail (a writer died while it wrote) is overwritten with
    /// zeros, and damage before intact records is reported; without it, both are taken for
    /// a commit being written, and left for later.
    ///
    /// - Returns: The number of commits applied.
    @discardableResult
    func catchUp(holdingWriteLock: Bool) throws(GraphStoreError) -> Int {
        guard options.sharing == .shared else { return 0 }
        if holdingWriteLock { try finishInterruptedCompaction() }
        var applied = 0
        while true {
            guard let journal else { throw .poisoned(cause: "the store is closed") }
            // The directory's journal, read before the rest of this one: a compaction that
            // replaces it after this read is seen on the next call, after every commit it
            // kept is read from here.
            let current = try currentJournalHeader()
            let read = try readNewRecords(of: journal, holdingWriteLock: holdingWriteLock)
            applied += read.applied
            // An observer that heard of a commit may have committed or compacted meanwhile.
            if read.interrupted || self.journal !== journal { continue }
            guard let current, current.generation != generation || current.salt != journal.header.salt else { return applied }
            guard current.generation > generation else {
                throw .mustReopen(reason: "the journal was replaced by an older one (generation \(current.generation), this store read \(generation))")
            }
            try moveToJournal(current)
        }
    }

    /// Completes a compaction whose process died after its new snapshot was in place and
    /// before its new journal was: the snapshot holds every commit of the journal it
    /// replaces (the compaction read them under the write lock), so that journal must take
    /// no more commits. Holding the write lock, this store moves it to `history/` (or drops
    /// it) and renames the compaction's new journal into place, as the compaction would
    /// have; the catching up that follows moves to it.
    private func finishInterruptedCompaction() throws(GraphStoreError) {
        let temporary = directory + "/journal.tmp"
        guard fileSystem.fileExists(temporary) || !fileSystem.fileExists(journalPath) else { return }
        guard let snapshot = try header(of: snapshotPath), let next = try header(of: temporary),
              next.kind == .journal, next.graphID == graph.identifier, next.generation == snapshot.generation else { return }
        let old = try header(of: journalPath)
        guard old.map({ $0.generation < snapshot.generation }) ?? true else { return }
        do {
            if let old {
                if options.historyRetention != .none {
                    try fileSystem.createDirectory(historyPath)
                    try fileSystem.rename(journalPath, to: keptJournalPath(retiring: old.generation))
                } else {
                    try fileSystem.remove(journalPath)
                }
            }
            try fileSystem.rename(temporary, to: journalPath)
            try fileSystem.syncDirectory(directory)
        } catch {
            failure = "\(error)"
            throw Self.mapped(error)
        }
    }

    /// The header of a record file; `nil` when it does not exist.
    private func header(of path: String) throws(GraphStoreError) -> RecordFileHeader? {
        guard fileSystem.fileExists(path) else { return nil }
        return try Self.io {
            let file = try fileSystem.openFile(path, create: false)
            defer { file.close() }
            return try RecordFileHeader.decode(try file.read(at: 0, count: RecordFormat.fileHeaderSize), path: path)
        }
    }

    /// The header of the journal in the store's directory now; `nil` when there is none.
    private func currentJournalHeader() throws(GraphStoreError) -> RecordFileHeader? {
        try header(of: journalPath)
    }

    /// Reads and applies the whole records after the journal's append point.
    ///
    /// - Returns: How many commits were applied, and whether the append point moved under
    ///   the reading (an observer's commit), so the caller reads again.
    private func readNewRecords(of journal: RecordWriter, holdingWriteLock: Bool) throws(GraphStoreError) -> (applied: Int, interrupted: Bool) {
        let blockSize = RecordFormat.blockSize
        let offset = journal.endOffset
        let base = Int(offset) / blockSize * blockSize
        var wanted = 64 << 10
        var records: [RecordReader.Record] = []
        var damage: RecordReader.Damage?
        var tail: RecordReader.Damage?
        while true {
            let size = try Self.io { try journal.fileSize() }
            let end = min(Int(size), base + wanted)
            guard end > Int(offset) else { return (0, false) }
            let bytes = try Self.io { try journal.read(at: UInt64(base), count: end - base) }
            var reader = RecordReader(
                continuing: journal.header, path: journalPath, bytes: bytes, base: base, from: Int(offset),
                lastSequence: journal.nextSequence - 1)
            records.removeAll(keepingCapacity: true)
            damage = nil
            while let event = reader.next() {
                switch event {
                case .record(let record): if damage == nil { records.append(record) }
                case .damage(let found): if damage == nil { damage = found }
                }
            }
            tail = reader.tail
            // Read on when the bytes read may end inside a record, or right before one.
            if end < Int(size) && (tail != nil || damage != nil || Int(reader.validEnd) + blockSize > end) {
                wanted *= 4
                continue
            }
            break
        }
        var applied = 0
        var position = offset
        for record in records {
            // (A record after block padding starts past the end of the one before it.)
            guard self.journal === journal, journal.endOffset == position, record.sequence == journal.nextSequence else {
                return (applied, true)
            }
            if try apply(record, of: journal) { applied += 1 }
            position = record.endOffset
        }
        guard holdingWriteLock else { return (applied, false) }
        // About to write: the file's size as the others left it, read once.
        do {
            try journal.resume(at: journal.endOffset, nextSequence: journal.nextSequence)
        } catch {
            failure = "\(error)"
            throw Self.mapped(error)
        }
        if let damage {
            failure = "\(journalPath) is damaged at byte \(damage.offset): \(damage.reason)"
            throw .damaged(file: journalPath, offset: damage.offset, afterSequence: damage.afterSequence, reason: "\(damage.reason)")
        }
        if let tail {
            // A writer died in the middle of this record: this writer cuts it.
            do {
                try journal.resume(at: journal.endOffset, nextSequence: journal.nextSequence, zeroingTo: tail.offset + tail.length)
            } catch {
                failure = "\(error)"
                throw Self.mapped(error)
            }
        }
        return (applied, false)
    }

    /// Applies one record another process appended and moves the append point past it.
    ///
    /// - Returns: Whether it was a commit.
    private func apply(_ record: RecordReader.Record, of journal: RecordWriter) throws(GraphStoreError) -> Bool {
        guard record.payload.first == GraphRecordType.commit.rawValue else {
            // A schema record starts each journal; a synced record says what a sync covered.
            guard let type = record.payload.first, type == GraphRecordType.schema.rawValue || type == GraphRecordType.synced.rawValue else {
                throw .corruptRecord(file: journalPath, sequence: record.sequence, reason: "a journal holds no record of this type")
            }
            journal.advance(past: record.endOffset, nextSequence: record.sequence + 1)
            return false
        }
        if externalDecoder == nil {
            let file = try GraphRecordDecoder.schema(of: encoder.schemaRecord()[...], current: schema, path: journalPath, sequence: 0)
            externalDecoder = GraphRecordDecoder(graph: graph, file: file, path: journalPath)
        }
        if graph.hasChanges {
            let conflicts = try externalDecoder!.conflicts(in: record.payload, sequence: record.sequence)
            guard conflicts.isEmpty else { throw .conflict(conflicts) }
        }
        graph.beginExternalCommit()
        do {
            try externalDecoder!.applyCommit(record.payload, sequence: record.sequence)
        } catch {
            // Checksummed but unreadable: what was applied is published, and the store stops.
            _ = graph.finishExternalCommit(author: nil)
            failure = "\(error)"
            throw error
        }
        journal.advance(past: record.endOffset, nextSequence: record.sequence + 1)
        graph.finishExternalCommit(author: externalDecoder!.lastAuthor)
        return true
    }

    /// Moves to the journal of the generation after this store's, once every record of its
    /// own was read: the directory's journal (`header`), or, when the store fell further
    /// behind, a kept one.
    private func moveToJournal(_ current: RecordFileHeader) throws(GraphStoreError) {
        guard let old = journal else { throw .poisoned(cause: "the store is closed") }
        var header = current
        var path = journalPath
        if current.generation != generation + 1 {
            guard let kept = keptJournalPath(generation + 1) else {
                throw .mustReopen(reason: "the store was compacted \(current.generation - generation) times since this store read it, and the journals it missed are no longer kept")
            }
            path = kept
            header = try Self.io {
                let file = try fileSystem.openFile(path, create: false)
                defer { file.close() }
                return try RecordFileHeader.decode(try file.read(at: 0, count: RecordFormat.fileHeaderSize), path: path)
            }
        }
        guard header.graphID == graph.identifier, header.kind == .journal else {
            throw .foreignFile(file: journalPath, reason: "another process replaced the journal with one of another store")
        }
        guard header.schemaFingerprint == schema.fingerprint else {
            throw .mustReopen(reason: "another process rewrote the store with another schema")
        }
        let next = try Self.io {
            try RecordWriter.attach(
                path: path, fileSystem: fileSystem, header: header, endOffset: UInt64(RecordFormat.fileHeaderSize),
                nextSequence: old.nextSequence)
        }
        // The new journal must start right after the last record read here: its first record
        // (its schema) has the sequence number after the snapshot's last.
        let first = try Self.io { try next.read(at: UInt64(RecordFormat.fileHeaderSize), count: RecordFormat.blockSize - RecordFormat.fileHeaderSize) }
        var reader = RecordReader(
            continuing: header, path: path, bytes: [UInt8](repeating: 0, count: RecordFormat.fileHeaderSize) + first, base: 0,
            from: RecordFormat.fileHeaderSize, lastSequence: nil)
        guard case .record(let record)? = reader.next() else {
            throw .mustReopen(reason: "another process's compaction left a journal without its first record")
        }
        guard record.sequence == old.nextSequence else {
            throw .mustReopen(reason: "the store was compacted more than once since this store read it (it read through record \(old.nextSequence - 1), the new journal starts at \(record.sequence))")
        }
        next.chunkSize = journalChunkSize
        next.preallocation = journalPreallocation
        old.close()
        journal = next
        generation = header.generation
        snapshotBytes = (try? fileSystem.fileSize(snapshotPath)) ?? snapshotBytes
    }
}

extension GraphStore {
    /// Applies other processes' commits as they come (``refresh()``), until the calling
    /// task is cancelled or the store closes.
    ///
    /// It runs in the caller's isolation, so the graph stays in its own: start it from the
    /// actor (or task) that owns the graph, for example
    /// `Task { @MainActor in try await store.followChanges() }`. It hears of a commit from the
    /// kernel (inotify) as soon as it is written; every `pollingInterval` it also looks
    /// without being told, in case a notification was lost. While the graph has uncommitted
    /// changes, nothing is applied; the next commit or look applies everything.
    ///
    /// - Parameters:
    ///   - pollingInterval: How often to look without a notification: one second by default.
    ///   - isolation: The caller's isolation, where commits are applied and published.
    /// - Throws: What ``refresh()`` throws, other than ``GraphStoreError/pendingChanges``.
    ///   Returns at once for a store opened ``Sharing/exclusive``.
    /// - Complexity: Each commit another process makes costs what ``refresh()`` costs for it.
    public func followChanges(pollingInterval: Duration = .seconds(1), isolation: isolated (any Actor)? = #isolation) async throws {
        guard options.sharing == .shared else { return }
        let watcher = DirectoryWatcher(directory: fileSystem is PosixFileSystem ? directory : nil, interval: pollingInterval)
        defer { watcher.stop() }
        _ = try? refresh()
        for await _ in watcher.signals {
            guard !Task.isCancelled, journal != nil else { return }
            do {
                try refresh()
            } catch .pendingChanges {
                continue
            }
        }
    }
}
