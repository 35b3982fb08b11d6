import Foundation
import ObjectGraph

/// Keeps an `ObjectGraph` on disk: a snapshot of the whole graph plus a journal with one
/// checksummed record per commit, written (and, by default, synced) before anyone hears of
/// the commit.
///
/// ```swift
/// let store = try GraphStore.open(at: directory, schema: StoreSchema([Item.self, Location.self]))
/// let graph = store.graph           // the saved objects, with their identity and IDs
/// graph.insert(Item()).name = "Milk"
/// try graph.commit()                // durable when it returns
/// ```
///
/// Opening replays the journal on top of the snapshot; the graph keeps its
/// `ObjectGraph.identifier` and every object its `ObjectID`, so URIs and restoration
/// identifiers saved by an app resolve after a relaunch. A directory is open in one store at
/// a time (a lock file, across processes too), unless every opener asks for
/// ``Sharing/shared``: then any number of processes share it, each commit applying the
/// others' commits first (see ``refresh()``). The store compacts the journal into a new
/// snapshot when it outgrows it.
///
/// The store and its graph keep each other alive until ``close()``. A store is confined to
/// its graph's isolation domain.
public final class GraphStore {
    /// The graph, loaded from the files; its commits are written by this store.
    public let graph: ObjectGraph
    /// What opening found (replayed commits, damage, losses).
    public private(set) var openReport: OpenReport
    /// The store's directory.
    public let directory: String
    /// The schema the store writes with.
    public let schema: StoreSchema

    let options: Options
    let fileSystem: any StoreFileSystem
    let encoder: GraphRecordEncoder
    private var lock: (any StoreLock)?
    var journal: RecordWriter?
    var generation: UInt64
    var snapshotBytes: UInt64
    /// Why the store stopped writing, once it has; every later commit is refused.
    var failure: String?
    /// With ``Sharing/shared``: the write lock while a commit, compaction or close holds it,
    /// and how many of them nest.
    var writeLock: (any StoreLock)?
    var writeLockDepth = 0
    /// With ``Sharing/shared``: reads the commit records other processes append.
    var externalDecoder: GraphRecordDecoder?
    /// Whether a compaction is running (one an observer starts during it waits for the next).
    private var isCompacting = false
    private var lastSync = ContinuousClock.now
    private var hasUnsyncedCommits = false
    private var observation: GraphObservation?
    /// Each entity's serial count as the files say it, by schema position.
    private var serialCounts: [Int]
    /// The closing of files that a compaction replaced, on another thread: their last close
    /// frees their blocks (see ``waitForReleasedFiles()``).
    private let releases = DispatchGroup()
    /// How many serials of one entity a commit may leave unused by live objects
    /// (``StoreLimits/unusedSerials``): tests make it small, to reach it.
    package var unusedSerialLimit = StoreLimits.unusedSerials {
        willSet { require(newValue <= StoreLimits.unusedSerials, "a store cannot write what it refuses to read") }
    }
    /// About how many bytes of a commit record the journal buffers before it writes them
    /// (``RecordWriter/chunkSize``): tests make it small, to stream small records.
    package var journalChunkSize = RecordWriter.defaultChunkSize {
        didSet { journal?.chunkSize = journalChunkSize }
    }
    /// At most how many bytes of zeros the journal keeps written ahead of its last record
    /// (``RecordWriter/preallocation``), so that a commit overwrites zeros instead of growing
    /// the file: its sync then writes no file size. Tests make it small, to grow it often.
    package var journalPreallocation = GraphStore.defaultJournalPreallocation {
        didSet { journal?.preallocation = journalPreallocation }
    }
    /// The default ``journalPreallocation``: 1 MiB.
    package static let defaultJournalPreallocation = 1 << 20

    /// Where the journal's next record goes: the bytes of records it holds, header included
    /// (its file may be longer: see ``journalPreallocation``); `nil` once the store is closed.
    package var journalEnd: UInt64? { journal?.endOffset }

    var snapshotPath: String { directory + "/snapshot" }
    var journalPath: String { directory + "/journal" }

    /// Opens the store in a directory, creating it (and the directory) when there is none.
    ///
    /// - Parameters:
    ///   - directory: The store's directory (a file URL).
    ///   - schema: The classes the graph holds.
    ///   - options: Recovery, durability and compaction.
    /// - Returns: The open store; its ``graph`` holds the saved objects.
    /// - Throws: ``GraphStoreError``: `.locked` when the directory is open elsewhere,
    ///   `.damaged` (with `.refuse`), `.incompatibleSchema` (nothing is changed), `.io`.
    /// - Complexity: O(*n* + *j*) for *n* objects in the snapshot and *j* journal bytes.
    public static func open(at directory: URL, schema: StoreSchema, options: Options = Options()) throws(GraphStoreError) -> GraphStore {
        try open(path: directory.path, schema: schema, options: options, fileSystem: PosixFileSystem())
    }

    /// Opens the store through a given file system (a simulated one, in tests).
    package static func open(
        path: String, schema: StoreSchema, options: Options, fileSystem: any StoreFileSystem
    ) throws(GraphStoreError) -> GraphStore {
        try io { try fileSystem.createDirectory(path) }
        let lock: any StoreLock
        let shared = options.sharing == .shared
        do {
            lock = try fileSystem.lockFile(path + "/LOCK", kind: shared ? .shared : .exclusive)
        } catch let error as StoreFileError where error.isLockHeld {
            throw .locked(directory: path)
        } catch {
            throw mapped(error)
        }
        do {
            // Shared: no other store writes while this one reads the files and settles them.
            let writeLock = shared ? try io { try fileSystem.lockFile(path + "/" + writeLockName, kind: .exclusiveWaiting) } : nil
            defer { writeLock?.unlock() }
            let loaded = try load(path: path, schema: schema, mode: options.recovery, fileSystem: fileSystem)
            return try GraphStore(loaded: loaded, path: path, schema: schema, options: options, fileSystem: fileSystem, lock: lock)
        } catch {
            lock.unlock()
            throw error
        }
    }

    /// Checks a store without opening it for writes: every checksum of both files, the
    /// schema, every record's contents and the agreement of every relationship with its
    /// inverse. The files are not changed.
    ///
    /// - Parameters:
    ///   - directory: The store's directory.
    ///   - schema: The classes the graph holds.
    /// - Returns: What an open in `.salvage` mode would find; ``OpenReport/isClean`` says
    ///   whether the store is intact.
    /// - Throws: ``GraphStoreError`` when the files cannot be read at all.
    /// - Complexity: O(*b* + *o* + *r*) for *b* bytes in the files, *o* objects and *r*
    ///   relationship entries: the whole graph is loaded in memory, as an open does.
    public static func verify(at directory: URL, schema: StoreSchema) throws(GraphStoreError) -> OpenReport {
        try load(path: directory.path, schema: schema, mode: .salvage, fileSystem: PosixFileSystem()).report
    }

    private init(loaded: Loaded, path: String, schema: StoreSchema, options: Options, fileSystem: any StoreFileSystem, lock: any StoreLock) throws(GraphStoreError) {
        graph = loaded.graph
        directory = path
        self.schema = schema
        self.options = options
        self.fileSystem = fileSystem
        self.lock = lock
        encoder = GraphRecordEncoder(schema: schema)
        serialCounts = schema.entities.map { loaded.graph.serialCount(of: $0.description) }
        generation = loaded.generation
        snapshotBytes = loaded.snapshotBytes
        openReport = loaded.report
        if let scan = loaded.journal, !loaded.needsRewrite {
            journal = try Self.io {
                try RecordWriter.append(
                    path: path + "/journal", fileSystem: fileSystem, header: scan.header, endOffset: scan.validEnd,
                    nextSequence: (scan.records.last?.sequence).map { $0 + 1 } ?? loaded.nextSequence)
            }
            journal?.preallocation = journalPreallocation
        } else {
            if loaded.needsRewrite {
                // Keep the damaged files for inspection; the store goes on from what was read.
                for name in ["snapshot", "journal"] where fileSystem.fileExists(path + "/" + name) {
                    let kept = "\(name).damaged-\(loaded.generation)"
                    try Self.io { try fileSystem.rename(path + "/" + name, to: path + "/" + kept) }
                    openReport.preservedFiles.append(kept)
                }
                try Self.io { try fileSystem.syncDirectory(path) }
            }
            try writeGeneration(includedSequence: loaded.nextSequence - 1)
        }
        if case .deferred = options.durability, let journal, loaded.journal != nil, !loaded.needsRewrite {
            // What the journal holds now was read from the disk; sync it and say so before
            // any deferred commit follows it.
            do {
                try syncDeferred(journal, durably: true)
            } catch {
                throw Self.mapped(error)
            }
        }
        graph.commitHook = _Hook(store: self)
        observation = graph.addObserver { [unowned self] _ in self.compactIfDue() }
    }

    deinit {
        journal?.close()
        lock?.unlock()
    }

    // MARK: Writing

    /// Writes (and syncs, per ``Options/durability``) one commit: called by the graph.
    ///
    /// - Throws: A ``GraphStoreError``, or the error of a cancelled import as it came.
    fileprivate func write(_ commit: PendingCommit) throws {
        if let failure { throw GraphStoreError.poisoned(cause: failure) }
        guard let journal else { throw GraphStoreError.poisoned(cause: "the store is closed") }
        var grown: [(code: Int, count: Int)] = []
        for (code, entity) in schema.entities.enumerated() {
            let count = graph.serialCount(of: entity.description)
            if count > serialCounts[code] { grown.append((code, count)) }
            // (The graph's live count already includes the commit's inserts and deletions.)
            let unused = count - graph.count(of: entity.description.objectType)
            if unused > unusedSerialLimit { throw GraphStoreError.tooManyUnusedSerials(entity: entity.description.name, unused: unused) }
        }
        do {
            // The record is streamed: encoded and written a chunk at a time, so a large
            // import never holds its bytes whole. It stays one record, whole or dropped.
            try journal.beginRecord()
            try encoder.writeCommitRecord(commit, serialCounts: grown) { try journal.continueRecord($0) }
            _ = try journal.finishRecord()
        } catch {
            try abandonRecord(in: journal, after: error)
        }
        do {
            for (code, count) in grown { serialCounts[code] = count }
            switch options.durability {
            case .synchronous:
                try journal.sync()
                lastSync = .now
            case .deferred(let interval):
                if ContinuousClock.now - lastSync >= interval {
                    try syncDeferred(journal)
                } else {
                    hasUnsyncedCommits = true
                }
            }
        } catch {
            // Fail-stop: a failed write or sync is never retried (a second fsync can report
            // success for data the first one lost); reopening finds what is really on disk.
            failure = "\(error)"
            throw Self.mapped(error)
        }
    }

    /// Drops a commit record whose encoding or writing stopped, and throws why.
    ///
    /// A failed write stops the store (fail-stop; the record is a torn tail for the next
    /// open). An error while encoding, or a cancelled import, leaves the store writing: what
    /// was written of the record is cut off and the cut synced; if that fails, the store
    /// stops.
    private func abandonRecord(in journal: RecordWriter, after error: any Error) throws {
        if journal.isPoisoned {
            failure = "\(error)"
            throw Self.mapped(error)
        }
        do {
            try journal.abandonRecord()
        } catch let abandonError {
            failure = "\(abandonError)"
            throw Self.mapped(abandonError)
        }
        // The encoder's own error, or the import's cancellation, which the graph recognizes.
        throw error
    }

    /// Syncs the commits written since the last sync (with ``Durability/deferred(interval:)``);
    /// does nothing when everything is synced.
    ///
    /// - Throws: ``GraphStoreError/poisoned(cause:)`` after an earlier failure, or the
    ///   sync's error (the store then stops writing).
    /// - Complexity: One `fdatasync` of the journal when commits are unsynced; O(1) otherwise.
    public func flush() throws(GraphStoreError) {
        if let failure { throw .poisoned(cause: failure) }
        guard hasUnsyncedCommits, let journal else { return }
        do {
            try syncDeferred(journal)
        } catch {
            failure = "\(error)"
            throw Self.mapped(error)
        }
    }

    /// Syncs the journal and writes a record saying through which record the sync made it
    /// durable, for the next open after a power loss. That record is synced by the next sync,
    /// or at once when `durably` (the first one of a journal, so one always survives).
    private func syncDeferred(_ journal: RecordWriter, durably: Bool = false) throws {
        try journal.sync()
        lastSync = .now
        hasUnsyncedCommits = false
        _ = try journal.append(encoder.syncedRecord(through: journal.nextSequence - 1))
        if durably { try journal.sync() }
    }

    /// Writes the graph's committed state as a new snapshot and starts an empty journal.
    ///
    /// In order: the new journal and snapshot are written and synced under temporary names,
    /// the snapshot is renamed into place and the directory synced, then the journal. A crash
    /// at any point leaves a store that opens to the same state. The files replaced are
    /// closed on another thread once this returns; closing frees their blocks, and a commit
    /// synced meanwhile may wait for that.
    ///
    /// The graph must have no uncommitted changes: the snapshot holds committed state only.
    /// Automatic compaction waits for a commit after which the graph has none.
    ///
    /// - Throws: ``GraphStoreError``: ``GraphStoreError/pendingChanges`` when the graph has
    ///   uncommitted changes (nothing is written); when a failure comes after the new snapshot
    ///   is in place, the store stops writing (reopen it).
    /// - Complexity: O(*n*) for *n* objects.
    public func compact() throws(GraphStoreError) {
        if let failure { throw .poisoned(cause: failure) }
        guard !graph.hasChanges else { throw .pendingChanges }
        isCompacting = true
        defer { isCompacting = false }
        try withWriteLock { () throws(GraphStoreError) in
            // Shared: the snapshot must hold every commit, others' too.
            try catchUp(holdingWriteLock: true)
            guard !graph.hasChanges else { throw .pendingChanges }
            try flush()
            guard let journal else { throw .poisoned(cause: "the store is closed") }
            try writeGeneration(includedSequence: journal.nextSequence - 1)
        }
    }

    /// Compacts when the journal has outgrown the snapshot (see ``Options/compactionFactor``).
    private func compactIfDue() {
        guard failure == nil, !isCompacting, let factor = options.compactionFactor, let journal else { return }
        let limit = max(UInt64(options.minimumCompactionBytes), UInt64(Double(snapshotBytes) * factor))
        guard journal.endOffset > limit else { return }
        // A failure before the snapshot is in place leaves the store as it was; one after
        // it stops the store, and the next commit says why.
        try? compact()
    }

    /// Writes the next generation: snapshot and journal under temporary names, then renamed.
    private func writeGeneration(includedSequence: UInt64) throws(GraphStoreError) {
        let next = generation + 1
        let snapshotTemp = directory + "/snapshot.tmp"
        let journalTemp = directory + "/journal.tmp"
        let fingerprint = schema.fingerprint
        // The snapshot being replaced, held open through the rename: the rename then only
        // drops its name, and freeing its blocks (milliseconds for a large file) waits for
        // the last close, done on another thread once the compaction is over. `nil` when
        // there is none, or it cannot be opened (the rename then frees it, as any rename).
        let previousSnapshot = try? fileSystem.openFile(snapshotPath, create: false)
        let newJournal: RecordWriter
        do {
            // The new journal first, its write-back started at once: by the time the snapshot
            // is synced, the journal's bytes are on their way and its sync waits for little.
            newJournal = try RecordWriter.create(
                path: journalTemp, fileSystem: fileSystem,
                header: RecordFileHeader(kind: .journal, schemaFingerprint: fingerprint, graphID: graph.identifier, generation: next),
                firstSequence: includedSequence + 1)
            newJournal.chunkSize = journalChunkSize
            // The journal's schema record also says how many objects the snapshot holds, so
            // that a lost snapshot can be reported in objects.
            _ = try newJournal.append(encoder.schemaRecord(snapshotCounts: schema.entities.map { graph.count(of: $0.description.objectType) }))
            newJournal.startWriteBack()
            let snapshot = try RecordWriter.create(
                path: snapshotTemp, fileSystem: fileSystem,
                header: RecordFileHeader(kind: .snapshot, schemaFingerprint: fingerprint, graphID: graph.identifier, generation: next),
                firstSequence: 0)
            // Records are held and written a chunk at a time, each chunk's write-back started
            // while the next is encoded.
            snapshot.holdsWholeRecords = true
            try Snapshot.write(graph, schema: schema, includedSequence: includedSequence, to: snapshot)
            try snapshot.sync()
            let bytes = snapshot.endOffset
            snapshot.close()
            try newJournal.sync()
            try fileSystem.rename(snapshotTemp, to: snapshotPath)
            snapshotBytes = bytes
        } catch {
            previousSnapshot?.close()
            try? fileSystem.remove(snapshotTemp)
            try? fileSystem.remove(journalTemp)
            throw Self.mapped(error)
        }
        do {
            // From here the new snapshot may be on disk: the old journal must not take
            // another commit, whatever happens.
            try fileSystem.syncDirectory(directory)
            if options.historyRetention != .none && fileSystem.fileExists(journalPath) {
                // Kept for the history, and for the stores of other processes that have not
                // read all of it yet (they hold it open, but one that falls further behind
                // finds it here). A crash before the next rename leaves no journal, which
                // `journal.tmp` proves harmless.
                try fileSystem.createDirectory(historyPath)
                try fileSystem.rename(journalPath, to: keptJournalPath(retiring: generation))
            }
            try fileSystem.rename(journalTemp, to: journalPath)
            newJournal.moved(to: journalPath)
            try fileSystem.syncDirectory(directory)
        } catch {
            previousSnapshot?.close()
            failure = "\(error)"
            throw Self.mapped(error)
        }
        pruneKeptJournals(current: next)
        // Both replaced files lost their names; their blocks are freed as they close.
        previousSnapshot?.closeInBackground(releases)
        journal?.closeInBackground(releases)
        journal = newJournal
        generation = next
        lastSync = .now
        hasUnsyncedCommits = false
        if case .deferred = options.durability {
            do {
                try syncDeferred(newJournal, durably: true)
            } catch {
                failure = "\(error)"
                throw Self.mapped(error)
            }
        }
        // No zeros written ahead yet: the first commit adds them, so that a compaction writes
        // no more than the graph.
        newJournal.preallocation = journalPreallocation
    }

    /// Waits until the files that compactions replaced are closed and their blocks freed.
    ///
    /// A compaction returns once the new files are durable and in place; the last close of
    /// the files they replaced, which frees their blocks, runs on another thread after it.
    /// A commit that comes within milliseconds may wait for that freeing inside its sync
    /// (the file system commits it first); waiting here takes that cost up front, as a
    /// benchmark that times each step apart must.
    ///
    /// - Complexity: Waits for at most two closes per compaction made since the last wait.
    package func waitForReleasedFiles() {
        releases.wait()
    }

    /// Syncs what is unsynced, releases the directory's lock and stops writing: later
    /// commits of the graph throw `CommitError.persistenceFailed(_:)`.
    ///
    /// - Complexity: One `fdatasync` of the journal when commits are unsynced; O(1) otherwise.
    public func close() {
        // Shared: the end marker is written by one store at a time.
        try? withWriteLock { () throws(GraphStoreError) in writeEndMarker() }
        journal?.close()
        journal = nil
        if failure == nil { failure = "the store is closed" }
        observation?.cancel()
        observation = nil
        lock?.unlock()
        lock = nil
        // The graph's hook keeps the store alive until now.
        graph.commitHook = nil
        graph.commitHook = _ClosedHook()
    }

    /// Syncs what is unsynced and writes `journal.closed`.
    private func writeEndMarker() {
        if failure == nil { try? flush() }
        if failure == nil, let journal {
            // Every commit is durable: say through which record, so that the next open
            // tells a journal that lost its last records from one whose last commit never
            // finished. A marker that does not reach the disk proves nothing, which is safe.
            do {
                try journal.sync()
                try JournalEndMarker(
                    generation: generation, salt: journal.header.salt, lastSequence: journal.nextSequence - 1,
                    endOffset: journal.endOffset
                ).write(directory: directory, fileSystem: fileSystem)
            } catch {}
        }
    }

    // MARK: Errors

    static func io<Result>(_ body: () throws -> Result) throws(GraphStoreError) -> Result {
        do {
            return try body()
        } catch {
            throw mapped(error)
        }
    }

    static func mapped(_ error: any Error) -> GraphStoreError {
        switch error {
        case let error as GraphStoreError: return error
        case let error as StoreFileError: return .io(error)
        case let error as RecordFileError:
            switch error {
            case .poisoned(_, let cause): return .poisoned(cause: "\(cause)")
            case .badHeader(let path, let reason): return .foreignFile(file: path, reason: reason)
            case .foreignHeader(let path, let field, let expected, let found):
                return .foreignFile(file: path, reason: "its \(field) is \(found), not \(expected)")
            case .damaged(let path, let offset, _, let after, _, let reason):
                return .damaged(file: path, offset: offset, afterSequence: after, reason: reason)
            }
        default: return .poisoned(cause: "\(error)")
        }
    }
}

@available(*, unavailable, message: "a store is confined to its graph's isolation domain")
extension GraphStore: Sendable {}

/// The graph's hook into its store (holding it: the store lives as long as the graph
/// commits through it).
private final class _Hook: CommitHook {
    let store: GraphStore
    init(store: GraphStore) { self.store = store }
    func graphWillCommit(_ commit: PendingCommit) throws {
        try store.write(commit)
    }
    func graphWillBeginCommit(_ graph: ObjectGraph) throws {
        try store.beginCommit()
    }
    func graphDidEndCommit(_ graph: ObjectGraph) {
        store.endCommit()
    }
}

/// The hook of a closed store's graph: every commit is refused, so nothing is lost silently.
private final class _ClosedHook: CommitHook {
    func graphWillCommit(_ commit: PendingCommit) throws {
        throw GraphStoreError.poisoned(cause: "the store is closed")
    }
}
