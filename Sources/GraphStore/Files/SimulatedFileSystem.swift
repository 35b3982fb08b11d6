import Glibc
import ObjectGraph

/// An in-memory file system that forgets what was not synced, for crash and failure tests.
///
/// Writes and truncations of a file stay *unsynced* until ``StoreFile/sync()`` of that file;
/// creates, renames and removes stay unsynced until ``syncDirectory(_:)`` of the directory
/// holding the (new) name. Reads always see the latest state, as a page cache does.
///
/// - Failure injection: ``injectFailure(_:atOccurrence:code:)`` makes the n-th write, sync,
///   truncate, rename, remove or directory sync from now throw. A failed sync behaves as
///   Linux does after a write-back error: the file's unsynced writes are no longer dirty, so a
///   later sync succeeds *without* making them durable; a power loss may or may not keep them.
/// - Power loss: ``simulatePowerLoss(seed:)`` (or ``scheduleCrash(afterOperations:seed:)``,
///   which cuts the power in place of a future operation) keeps every synced byte and name,
///   and decides at random, from the seed, for each unsynced write whether it is applied,
///   dropped, torn (a prefix applied) or garbled (applied with random bytes in it), and for
///   each unsynced name change whether it happened. Then it "reboots": handles and locks
///   from before are dead, and the surviving state is the new durable state. Holes left by a
///   dropped write below an applied one read as zeros. SQLite's crash simulator works this way.
///
/// Everything is deterministic: the same operations and seeds give the same files.
///
/// Directories are created durably at once and never removed (the store needs no more).
///
/// `state` (a `_Locked`) guards every mutable field; handles reach the state only through it.
package final class SimulatedFileSystem: StoreFileSystem {
    /// The operations whose failure can be injected and that are counted.
    package enum Operation: Hashable, Sendable, CaseIterable {
        case write, sync, truncate, rename, remove, syncDirectory
    }

    /// What a power loss did to one unsynced write.
    package enum WriteFate: Equatable, Sendable {
        /// It reached the disk whole.
        case applied
        /// It never reached the disk.
        case dropped
        /// Only its first `count` bytes reached the disk.
        case torn(count: Int)
        /// It reached the disk with `count` bytes at `offset` (relative to the write) replaced
        /// by random bytes.
        case garbled(offset: Int, count: Int)
    }

    /// What a power loss kept and lost, for tests to check against.
    package struct PowerLossReport: Sendable {
        /// For each file (by a name it had before the loss), the fates of its unsynced writes
        /// in the order they were made. Unsynced truncations count as `.applied` / `.dropped`.
        package var writes: [String: [WriteFate]] = [:]
        /// How many unsynced name changes (create, rename, remove) happened and how many not.
        package var nameChangesApplied = 0
        package var nameChangesDropped = 0
    }

    fileprivate let state: _Locked<State>

    /// Creates an empty file system whose root directory `/` exists.
    package init() {
        state = _Locked(State())
    }

    /// Makes the `occurrence`-th operation of a kind, counted from now (1 is the next one),
    /// throw a ``StoreFileError`` with `code`.
    ///
    /// - Parameters:
    ///   - operation: Which kind of operation.
    ///   - occurrence: 1 for the next one, 2 for the one after, and so on.
    ///   - code: The `errno` to report.
    package func injectFailure(_ operation: Operation, atOccurrence occurrence: Int, code: Int32 = EIO) {
        require(occurrence >= 1, "occurrence counts from 1")
        state.withLock { state in
            state.failures.append((operation, state.counts[operation, default: 0] + occurrence, code))
        }
    }

    /// How many operations of a kind were attempted so far (failed ones included).
    ///
    /// - Parameter operation: The kind.
    /// - Returns: The count since the file system was made.
    package func count(of operation: Operation) -> Int {
        state.withLock { $0.counts[operation, default: 0] }
    }

    /// The total number of operations of every kind attempted so far.
    package var operationCount: Int {
        state.withLock { $0.counts.values.reduce(0, +) }
    }

    /// Cuts the power in place of a future operation: the `count + 1`-th operation from now
    /// (of any ``Operation`` kind) is not performed; a power loss with `seed` happens instead
    /// and the operation throws `EIO`.
    ///
    /// - Parameters:
    ///   - count: How many operations still succeed first.
    ///   - seed: The seed of the power loss.
    package func scheduleCrash(afterOperations count: Int, seed: UInt64) {
        state.withLock { state in
            state.scheduledCrash = (state.counts.values.reduce(0, +) + count + 1, seed)
        }
    }

    /// Whether a scheduled crash has happened (it then clears itself).
    package var crashed: Bool {
        state.withLock { $0.crashCount > 0 }
    }

    /// Cancels a crash scheduled by ``scheduleCrash(afterOperations:seed:)`` that has not
    /// happened yet.
    package func cancelScheduledCrash() {
        state.withLock { $0.scheduledCrash = nil }
    }

    /// How many scheduled crashes have happened.
    package var crashCount: Int {
        state.withLock { $0.crashCount }
    }

    /// Loses the power now and reboots into what survived.
    ///
    /// - Parameter seed: Decides the fate of every unsynced write and name change.
    /// - Returns: What was applied and what was lost.
    /// - Complexity: O(total size of the files).
    @discardableResult
    package func simulatePowerLoss(seed: UInt64) -> PowerLossReport {
        state.withLock { $0.powerLoss(seed: seed) }
    }

    /// The bytes of a file that are durable for sure: what a power loss that drops every
    /// unsynced write and name change would leave.
    ///
    /// - Parameter path: The file.
    /// - Returns: The durable bytes, or `nil` when the file's name is not durable.
    package func durableContents(_ path: String) -> [UInt8]? {
        state.withLock { state in
            state.durableNames[path].flatMap { state.inodes[$0]?.durableContent }
        }
    }

    /// Overwrites bytes of a file in place, durably, as a disk error would: for damage tests.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - offset: Where the bytes go; the file grows (with zeros) when needed.
    ///   - bytes: The new bytes.
    package func corrupt(_ path: String, at offset: Int, with bytes: [UInt8]) {
        state.withLock { state in
            guard let id = state.names[path] else { requirementFailure("no file \(path)") }
            state.inodes[id]!.base = state.inodes[id]!.content
            state.inodes[id]!.changes = []
            overwrite(&state.inodes[id]!.base, at: offset, with: bytes)
            state.inodes[id]!.content = state.inodes[id]!.base
        }
    }

    package func openFile(_ path: String, create: Bool) throws -> any StoreFile {
        try state.withLock { state in
            if let id = state.names[path] {
                return SimulatedFile(fileSystem: self, path: path, inode: id, epoch: state.epoch)
            }
            guard create else { throw StoreFileError(.open, path: path, code: ENOENT) }
            guard state.directories.contains(parent(of: path)) else {
                throw StoreFileError(.open, path: path, code: ENOENT)
            }
            let id = state.makeInode()
            state.names[path] = id
            state.pendingNames.append(.link(path, id))
            return SimulatedFile(fileSystem: self, path: path, inode: id, epoch: state.epoch)
        }
    }

    package func readFile(_ path: String) throws -> [UInt8] {
        try state.withLock { state in
            guard let id = state.names[path] else { throw StoreFileError(.read, path: path, code: ENOENT) }
            return state.inodes[id]!.content
        }
    }

    package func fileSize(_ path: String) throws -> UInt64 {
        try state.withLock { state in
            guard let id = state.names[path] else { throw StoreFileError(.stat, path: path, code: ENOENT) }
            return UInt64(state.inodes[id]!.content.count)
        }
    }

    package func fileExists(_ path: String) -> Bool {
        state.withLock { $0.names[path] != nil || $0.directories.contains(path) }
    }

    package func rename(_ source: String, to destination: String) throws {
        try state.withLock { state in
            try state.begin(.rename, path: source)
            guard let id = state.names[source] else { throw StoreFileError(.rename, path: source, code: ENOENT) }
            guard state.directories.contains(parent(of: destination)) else {
                throw StoreFileError(.rename, path: source, code: ENOENT)
            }
            state.names[source] = nil
            state.names[destination] = id
            state.pendingNames.append(.rename(source, destination, id))
        }
    }

    package func remove(_ path: String) throws {
        try state.withLock { state in
            try state.begin(.remove, path: path)
            guard state.names[path] != nil else { throw StoreFileError(.remove, path: path, code: ENOENT) }
            state.names[path] = nil
            state.pendingNames.append(.unlink(path))
        }
    }

    package func listDirectory(_ path: String) throws -> [String] {
        try state.withLock { state in
            guard state.directories.contains(path) else {
                throw StoreFileError(.listDirectory, path: path, code: ENOENT)
            }
            let files = state.names.keys.filter { parent(of: $0) == path }
            let subdirectories = state.directories.filter { $0 != path && parent(of: $0) == path }
            return (files + subdirectories).map { String($0.split(separator: "/").last ?? "") }.sorted()
        }
    }

    package func createDirectory(_ path: String) throws {
        state.withLock { state in
            var prefix = ""
            for component in path.split(separator: "/") {
                prefix += "/" + component
                state.directories.insert(prefix)
            }
        }
    }

    package func syncDirectory(_ path: String) throws {
        try state.withLock { state in
            try state.begin(.syncDirectory, path: path)
            guard state.directories.contains(path) else {
                throw StoreFileError(.syncDirectory, path: path, code: ENOENT)
            }
            var remaining: [NameChange] = []
            for change in state.pendingNames {
                if change.directories.contains(path) {
                    change.apply(to: &state.durableNames)
                } else {
                    remaining.append(change)
                }
            }
            state.pendingNames = remaining
        }
    }

    /// Takes a lock. One thread drives a simulated file system, so a lock it would wait for
    /// is never released: `.exclusiveWaiting` fails like `.exclusive` instead of waiting
    /// forever.
    package func lockFile(_ path: String, kind: StoreLockKind) throws -> any StoreLock {
        try state.withLock { state in
            let shared = kind == .shared
            guard !state.locks.contains(path), shared || state.sharedLocks[path, default: 0] == 0 else {
                throw StoreFileError(.lock, path: path, code: EWOULDBLOCK)
            }
            if state.names[path] == nil {
                guard state.directories.contains(parent(of: path)) else {
                    throw StoreFileError(.lock, path: path, code: ENOENT)
                }
                let id = state.makeInode()
                state.names[path] = id
                state.pendingNames.append(.link(path, id))
            }
            if shared {
                state.sharedLocks[path, default: 0] += 1
            } else {
                state.locks.insert(path)
            }
            return SimulatedLock(fileSystem: self, path: path, epoch: state.epoch, shared: shared)
        }
    }
}

// MARK: - State

/// One unsynced change to a file's bytes.
private struct FileChange {
    enum Kind {
        case write(offset: Int, bytes: [UInt8])
        case truncate(size: Int)
    }

    enum Status {
        /// Not synced yet.
        case pending
        /// Synced: it survives any power loss.
        case synced
        /// A sync failed while it was pending: no longer dirty, yet not durable.
        case limbo
    }

    var kind: Kind
    var status: Status
}

/// A file's bytes: `base` is durable; `changes` since then are pending, synced or in limbo.
private struct Inode {
    var base: [UInt8] = []
    var changes: [FileChange] = []
    /// `base` with every change applied: what reads see.
    var content: [UInt8] = []

    /// `base` with the synced changes only.
    var durableContent: [UInt8] {
        var bytes = base
        for change in changes where change.status == .synced {
            apply(change.kind, to: &bytes)
        }
        return bytes
    }
}

/// An unsynced change to the names.
private enum NameChange {
    case link(String, Int)
    case unlink(String)
    case rename(String, String, Int)

    /// The directories whose sync makes the change durable.
    var directories: Set<String> {
        switch self {
        case .link(let path, _), .unlink(let path): return [parent(of: path)]
        case .rename(let source, let destination, _): return [parent(of: source), parent(of: destination)]
        }
    }

    func apply(to names: inout [String: Int]) {
        switch self {
        case .link(let path, let id): names[path] = id
        case .unlink(let path): names[path] = nil
        case .rename(let source, let destination, let id):
            names[source] = nil
            names[destination] = id
        }
    }
}

private struct State {
    var inodes: [Int: Inode] = [:]
    var nextInode = 1
    var names: [String: Int] = [:]
    var durableNames: [String: Int] = [:]
    var pendingNames: [NameChange] = []
    var directories: Set<String> = ["/"]
    var locks: Set<String> = []
    /// The number of shared holders of each lock file.
    var sharedLocks: [String: Int] = [:]
    var epoch = 0
    var counts: [SimulatedFileSystem.Operation: Int] = [:]
    var failures: [(operation: SimulatedFileSystem.Operation, at: Int, code: Int32)] = []
    var scheduledCrash: (at: Int, seed: UInt64)?
    var crashCount = 0

    mutating func makeInode() -> Int {
        defer { nextInode += 1 }
        inodes[nextInode] = Inode()
        return nextInode
    }

    /// Counts an operation and throws when a failure or a crash is due for it.
    mutating func begin(_ operation: SimulatedFileSystem.Operation, path: String) throws {
        counts[operation, default: 0] += 1
        if let crash = scheduledCrash, counts.values.reduce(0, +) >= crash.at {
            scheduledCrash = nil
            crashCount += 1
            powerLoss(seed: crash.seed)
            throw StoreFileError(errorOperation(operation), path: path, code: EIO)
        }
        let count = counts[operation]!
        if let index = failures.firstIndex(where: { $0.operation == operation && $0.at == count }) {
            let code = failures.remove(at: index).code
            throw StoreFileError(errorOperation(operation), path: path, code: code)
        }
    }

    /// Checks a handle is from the current boot.
    func check(epoch handleEpoch: Int, _ operation: StoreFileError.Operation, _ path: String) throws {
        if handleEpoch != epoch { throw StoreFileError(operation, path: path, code: EIO) }
    }

    @discardableResult
    mutating func powerLoss(seed: UInt64) -> SimulatedFileSystem.PowerLossReport {
        var random = SplitMix(seed: seed)
        var report = SimulatedFileSystem.PowerLossReport()
        var pathOfInode: [Int: String] = [:]
        for (path, id) in names.sorted(by: { $0.key < $1.key }) where pathOfInode[id] == nil {
            pathOfInode[id] = path
        }
        for id in inodes.keys.sorted() {
            var inode = inodes[id]!
            var bytes = inode.base
            var fates: [SimulatedFileSystem.WriteFate] = []
            for change in inode.changes {
                if change.status == .synced {
                    apply(change.kind, to: &bytes)
                    continue
                }
                switch change.kind {
                case .truncate:
                    let kept = random.next() & 1 == 0
                    if kept { apply(change.kind, to: &bytes) }
                    fates.append(kept ? .applied : .dropped)
                case .write(let offset, let written):
                    let fate: SimulatedFileSystem.WriteFate
                    switch random.next() % 4 {
                    case 0: fate = .dropped
                    case 1: fate = .applied
                    case 2: fate = .torn(count: Int(random.next() % UInt64(max(written.count, 1))))
                    default:
                        let start = Int(random.next() % UInt64(max(written.count, 1)))
                        let count = 1 + Int(random.next() % UInt64(max(written.count - start, 1)))
                        fate = .garbled(offset: start, count: min(count, written.count - start))
                    }
                    fates.append(fate)
                    switch fate {
                    case .dropped: break
                    case .applied: overwrite(&bytes, at: offset, with: written)
                    case .torn(let count): overwrite(&bytes, at: offset, with: Array(written.prefix(count)))
                    case .garbled(let start, let count):
                        var garbled = written
                        for index in start..<start + count { garbled[index] = UInt8(truncatingIfNeeded: random.next()) }
                        overwrite(&bytes, at: offset, with: garbled)
                    }
                }
            }
            if !fates.isEmpty { report.writes[pathOfInode[id] ?? "<unlinked \(id)>", default: []] += fates }
            inode.base = bytes
            inode.content = bytes
            inode.changes = []
            inodes[id] = inode
        }
        for change in pendingNames {
            if random.next() & 1 == 0 {
                change.apply(to: &durableNames)
                report.nameChangesApplied += 1
            } else {
                report.nameChangesDropped += 1
            }
        }
        pendingNames = []
        names = durableNames
        let reachable = Set(names.values)
        inodes = inodes.filter { reachable.contains($0.key) }
        locks = []
        sharedLocks = [:]
        epoch += 1
        return report
    }
}

private func errorOperation(_ operation: SimulatedFileSystem.Operation) -> StoreFileError.Operation {
    switch operation {
    case .write: .write
    case .sync: .sync
    case .truncate: .truncate
    case .rename: .rename
    case .remove: .remove
    case .syncDirectory: .syncDirectory
    }
}

private func apply(_ kind: FileChange.Kind, to bytes: inout [UInt8]) {
    switch kind {
    case .write(let offset, let written): overwrite(&bytes, at: offset, with: written)
    case .truncate(let size): if size < bytes.count { bytes.removeSubrange(size...) }
    }
}

private func overwrite(_ bytes: inout [UInt8], at offset: Int, with written: [UInt8]) {
    if bytes.count < offset + written.count {
        bytes.append(contentsOf: repeatElement(0, count: offset + written.count - bytes.count))
    }
    bytes.replaceSubrange(offset..<offset + written.count, with: written)
}

/// The directory part of a path: everything before the last `/`, or `/`.
private func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
    return String(path[..<slash])
}

/// SplitMix64, so the module needs no test support to be deterministic.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

// MARK: - Handles

/// A handle on a simulated file; dead after a power loss.
private final class SimulatedFile: StoreFile {
    let fileSystem: SimulatedFileSystem
    let path: String
    let inode: Int
    let epoch: Int
    var closed = false

    init(fileSystem: SimulatedFileSystem, path: String, inode: Int, epoch: Int) {
        self.fileSystem = fileSystem
        self.path = path
        self.inode = inode
        self.epoch = epoch
    }

    private func withInode<Result>(
        _ operation: StoreFileError.Operation,
        _ body: (inout State, inout Inode) throws -> Result
    ) throws -> Result {
        if closed { throw StoreFileError(operation, path: path, code: EBADF) }
        return try fileSystem.state.withLock { state in
            try state.check(epoch: epoch, operation, path)
            var file = state.inodes[inode]!
            defer { if state.epoch == epoch { state.inodes[inode] = file } }
            return try body(&state, &file)
        }
    }

    func size() throws -> UInt64 {
        try withInode(.stat) { _, file in UInt64(file.content.count) }
    }

    func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        try withInode(.read) { _, file in
            let start = min(Int(offset), file.content.count)
            return Array(file.content[start..<min(start + count, file.content.count)])
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws {
        let written = [UInt8](bytes)
        try withInode(.write) { state, file in
            try state.begin(.write, path: path)
            // A crash in `begin` replaced the inode: write nothing back over it.
            file.changes.append(FileChange(kind: .write(offset: Int(offset), bytes: written), status: .pending))
            overwrite(&file.content, at: Int(offset), with: written)
        }
    }

    func sync() throws {
        try withInode(.sync) { state, file in
            do {
                try state.begin(.sync, path: path)
            } catch {
                if state.epoch == epoch {
                    for index in file.changes.indices where file.changes[index].status == .pending {
                        file.changes[index].status = .limbo
                    }
                }
                throw error
            }
            for index in file.changes.indices where file.changes[index].status == .pending {
                file.changes[index].status = .synced
            }
            if !file.changes.contains(where: { $0.status == .limbo }) {
                file.base = file.content
                file.changes = []
            }
        }
    }

    func truncate(to size: UInt64) throws {
        try withInode(.truncate) { state, file in
            try state.begin(.truncate, path: path)
            file.changes.append(FileChange(kind: .truncate(size: Int(size)), status: .pending))
            if Int(size) < file.content.count { file.content.removeSubrange(Int(size)...) }
        }
    }

    func close() {
        closed = true
    }
}

/// A lock on a simulated lock file; a power loss releases it.
private final class SimulatedLock: StoreLock {
    let fileSystem: SimulatedFileSystem
    let path: String
    let epoch: Int
    let shared: Bool
    var held = true

    init(fileSystem: SimulatedFileSystem, path: String, epoch: Int, shared: Bool) {
        self.fileSystem = fileSystem
        self.path = path
        self.epoch = epoch
        self.shared = shared
    }

    deinit { unlock() }

    func unlock() {
        guard held else { return }
        held = false
        fileSystem.state.withLock { state in
            guard state.epoch == epoch else { return }
            if shared {
                state.sharedLocks[path, default: 1] -= 1
            } else {
                state.locks.remove(path)
            }
        }
    }
}
