import Dispatch
import Glibc

/// `EWOULDBLOCK`, the `errno` of a lock someone else holds.
let storeErrnoWouldBlock: Int32 = EWOULDBLOCK

/// The system's text for an `errno`.
func storeErrnoText(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
}

/// The real file system, through POSIX calls.
///
/// Every call retries on `EINTR`; writes loop until every byte is written; a failure throws a
/// ``StoreFileError`` carrying the operation, the path and `errno`. ``StoreFile/sync()`` is
/// `fdatasync`, which is not retried by this type or its callers after a failure.
package struct PosixFileSystem: StoreFileSystem {
    /// Creates the file system.
    package init() {}

    package func openFile(_ path: String, create: Bool) throws -> any StoreFile {
        let flags = O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0)
        let fd = try retrying(.open, path) { open(path, flags, 0o644) }
        return PosixFile(path: path, descriptor: fd)
    }

    package func readFile(_ path: String) throws -> [UInt8] {
        let file = try openReadOnly(path)
        defer { _ = Glibc.close(file) }
        var status = stat()
        _ = try retrying(.stat, path) { fstat(file, &status) }
        return try readAll(descriptor: file, path: path, sizeHint: Int(status.st_size))
    }

    package func fileSize(_ path: String) throws -> UInt64 {
        var status = stat()
        _ = try retrying(.stat, path) { stat(path, &status) }
        return UInt64(status.st_size)
    }

    package func fileExists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    package func rename(_ source: String, to destination: String) throws {
        _ = try retrying(.rename, source) { Glibc.rename(source, destination) }
    }

    package func remove(_ path: String) throws {
        _ = try retrying(.remove, path) { unlink(path) }
    }

    package func listDirectory(_ path: String) throws -> [String] {
        guard let directory = opendir(path) else {
            throw StoreFileError(.listDirectory, path: path, code: errno)
        }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw StoreFileError(.listDirectory, path: path, code: errno) }
                break
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    package func createDirectory(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o755) != 0, errno != EEXIST {
                throw StoreFileError(.createDirectory, path: prefix, code: errno)
            }
        }
    }

    package func syncDirectory(_ path: String) throws {
        let directory = try retrying(.syncDirectory, path) { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { _ = Glibc.close(directory) }
        // Not retried on failure: the caller treats a failed directory sync as fatal.
        if fsync(directory) != 0 {
            throw StoreFileError(.syncDirectory, path: path, code: errno)
        }
    }

    /// How long ``lockFile(_:kind:)`` keeps trying a held lock before it reports it held.
    ///
    /// A `flock` belongs to the open file, and a process forked from this one shares the
    /// lock file's descriptor until it calls `exec` (which closes it: `O_CLOEXEC`). So for a
    /// moment after this process closes a store, a child it is just starting (a `Process`, a
    /// `posix_spawn`) can still hold the lock. A real second opener holds it for longer than
    /// this grace period and is reported after it.
    static let lockGracePeriod: Duration = .milliseconds(500)

    package func lockFile(_ path: String, kind: StoreLockKind) throws -> any StoreLock {
        let fd = try retrying(.lock, path) { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644) }
        if kind == .exclusiveWaiting {
            do {
                _ = try retrying(.lock, path) { flock(fd, LOCK_EX) }
            } catch {
                _ = Glibc.close(fd)
                throw error
            }
            return PosixLock(descriptor: fd)
        }
        let operation = kind == .shared ? LOCK_SH : LOCK_EX
        let clock = ContinuousClock()
        let deadline = clock.now + Self.lockGracePeriod
        while true {
            do {
                _ = try retrying(.lock, path) { flock(fd, operation | LOCK_NB) }
                return PosixLock(descriptor: fd)
            } catch let error as StoreFileError where error.isLockHeld && clock.now < deadline {
                usleep(5_000)
            } catch {
                _ = Glibc.close(fd)
                throw error
            }
        }
    }

    private func openReadOnly(_ path: String) throws -> Int32 {
        try retrying(.open, path) { open(path, O_RDONLY | O_CLOEXEC) }
    }
}

/// Runs a system call until it does not fail with `EINTR`.
///
/// - Returns: The call's non-negative result.
/// - Throws: ``StoreFileError`` with `errno` when the call returns a negative value.
private func retrying<Result: BinaryInteger>(
    _ operation: StoreFileError.Operation,
    _ path: String,
    _ call: () -> Result
) throws -> Result {
    while true {
        let result = call()
        if result >= 0 { return result }
        let code = errno
        if code != EINTR { throw StoreFileError(operation, path: path, code: code) }
    }
}

/// Reads a descriptor from its current position to the end.
private func readAll(descriptor: Int32, path: String, sizeHint: Int) throws -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: max(sizeHint, 0))
    var filled = 0
    while true {
        if filled == bytes.count {
            bytes.append(contentsOf: repeatElement(0, count: max(bytes.count, 4096)))
        }
        let count = try bytes.withUnsafeMutableBytes { raw in
            try retrying(.read, path) { Glibc.read(descriptor, raw.baseAddress! + filled, raw.count - filled) }
        }
        if count == 0 { break }
        filled += count
    }
    bytes.removeSubrange(filled...)
    return bytes
}

/// `SYNC_FILE_RANGE_WRITE`: start write-back of the range's dirty pages, without waiting.
private let posixSyncFileRangeWrite: UInt32 = 2

/// An open POSIX file, written with `pwrite` at the offsets its writer chooses.
///
/// The descriptor is owned: it is closed by ``close()`` or when the object is released.
final class PosixFile: StoreFile {
    let path: String
    private var descriptor: Int32

    init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close() }

    private func open(_ operation: StoreFileError.Operation) throws -> Int32 {
        guard descriptor >= 0 else { throw StoreFileError(operation, path: path, code: EBADF) }
        return descriptor
    }

    func size() throws -> UInt64 {
        let fd = try open(.stat)
        var status = stat()
        _ = try retrying(.stat, path) { fstat(fd, &status) }
        return UInt64(status.st_size)
    }

    func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        let fd = try open(.read)
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = try bytes.withUnsafeMutableBytes { raw in
                try retrying(.read, path) {
                    pread(fd, raw.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled))
                }
            }
            if got == 0 { break }
            filled += got
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws {
        let fd = try open(.write)
        var written = 0
        while written < bytes.count {
            // A short write is not an error: write the rest.
            let count = try retrying(.write, path) {
                pwrite(fd, bytes.baseAddress! + written, bytes.count - written, off_t(offset) + off_t(written))
            }
            if count == 0 { throw StoreFileError(.write, path: path, code: EIO) }
            written += count
        }
    }

    func sync() throws {
        let fd = try open(.sync)
        // Never retried, not even on EINTR: after a failed fdatasync the kernel may have
        // dropped the dirty pages, and a second call would report success for lost data.
        if fdatasync(fd) != 0 {
            throw StoreFileError(.sync, path: path, code: errno)
        }
    }

    /// `sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE)`: write-back of every dirty page of
    /// the file starts, and nothing waits for it.
    func startWriteBack() {
        guard descriptor >= 0, let syncFileRange = posixSyncFileRange else { return }
        _ = syncFileRange(descriptor, 0, 0, posixSyncFileRangeWrite)
    }

    func truncate(to size: UInt64) throws {
        let fd = try open(.truncate)
        _ = try retrying(.truncate, path) { ftruncate(fd, off_t(size)) }
    }

    func close() {
        if descriptor >= 0 {
            _ = Glibc.close(descriptor)
            descriptor = -1
        }
    }

    /// Closes the descriptor on a utility-priority thread: after a rename replaced the file,
    /// that last `close(2)` frees its blocks (about 3 ms for 13 MB on ext4 with `discard`).
    func closeInBackground(_ group: DispatchGroup) {
        guard descriptor >= 0 else { return }
        let closing = descriptor
        descriptor = -1
        DispatchQueue.global(qos: .utility).async(group: group) { _ = Glibc.close(closing) }
    }
}

/// A held `flock` on an open lock file; closing the descriptor releases it.
final class PosixLock: StoreLock {
    private var descriptor: Int32

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { unlock() }

    func unlock() {
        if descriptor >= 0 {
            _ = Glibc.close(descriptor)
            descriptor = -1
        }
    }
}
