import Dispatch

/// The file-system operations the durable store needs, and nothing more.
///
/// Two implementations: ``PosixFileSystem`` (the real one) and ``SimulatedFileSystem``
/// (in memory, with failure injection and power-loss simulation for tests). Paths are plain
/// strings; a file's directory is the part before its last `/`.
///
/// Durability follows POSIX as a careful store must assume it: a write is durable only after
/// ``StoreFile/sync()`` of that file, and a create, rename or remove only after
/// ``syncDirectory(_:)`` of the directory that holds the name.
package protocol StoreFileSystem: Sendable {
    /// Opens a file for reading and writing.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - create: Whether to create the file when it does not exist (it is never truncated).
    /// - Returns: A handle; each write says where it goes.
    /// - Throws: ``StoreFileError`` (`ENOENT` when the file is missing and `create` is false).
    func openFile(_ path: String, create: Bool) throws -> any StoreFile

    /// Reads a whole file.
    ///
    /// - Parameter path: The file.
    /// - Returns: Its bytes as the file system shows them now (synced or not).
    /// - Throws: ``StoreFileError``.
    /// - Complexity: O(file size).
    func readFile(_ path: String) throws -> [UInt8]

    /// The size of a file in bytes.
    ///
    /// - Parameter path: The file.
    /// - Returns: Its current size.
    /// - Throws: ``StoreFileError``.
    func fileSize(_ path: String) throws -> UInt64

    /// Whether a file or directory exists at `path`.
    ///
    /// - Parameter path: The path.
    /// - Returns: `true` when something exists there.
    func fileExists(_ path: String) -> Bool

    /// Atomically replaces `destination` by `source` (POSIX `rename`).
    ///
    /// - Parameters:
    ///   - source: The file to rename.
    ///   - destination: Its new name; an existing file there is replaced.
    /// - Throws: ``StoreFileError``.
    func rename(_ source: String, to destination: String) throws

    /// Removes a file.
    ///
    /// - Parameter path: The file.
    /// - Throws: ``StoreFileError``.
    func remove(_ path: String) throws

    /// The names (not paths) of the entries of a directory, sorted, without `.` and `..`.
    ///
    /// - Parameter path: The directory.
    /// - Returns: The names.
    /// - Throws: ``StoreFileError``.
    func listDirectory(_ path: String) throws -> [String]

    /// Creates a directory and its missing parents.
    ///
    /// - Parameter path: The directory.
    /// - Throws: ``StoreFileError``.
    func createDirectory(_ path: String) throws

    /// Makes the names in a directory durable (open the directory and `fsync` it).
    ///
    /// - Parameter path: The directory.
    /// - Throws: ``StoreFileError``.
    func syncDirectory(_ path: String) throws

    /// Takes an advisory lock of a kind on a lock file, creating it when needed: held until
    /// the returned object is released or ``StoreLock/unlock()`` is called.
    ///
    /// - Parameters:
    ///   - path: The lock file.
    ///   - kind: Exclusive or shared, failing at once or waiting when someone holds it.
    /// - Returns: The held lock.
    /// - Throws: ``StoreFileError`` with operation `.lock` and `EWOULDBLOCK` when someone
    ///   holds a lock that excludes this one and `kind` does not wait.
    func lockFile(_ path: String, kind: StoreLockKind) throws -> any StoreLock
}

/// Which lock ``StoreFileSystem/lockFile(_:kind:)`` takes.
package enum StoreLockKind: Sendable, Equatable {
    /// Alone on the file; fails when anyone holds it (``StoreFileSystem/lockFile(_:)``).
    case exclusive
    /// With other shared holders; fails when someone holds it exclusively.
    case shared
    /// Alone on the file, waiting until every other holder has released it.
    case exclusiveWaiting
}

extension StoreFileSystem {
    package func lockFile(_ path: String) throws -> any StoreLock {
        try lockFile(path, kind: .exclusive)
    }
}

/// An open file: read and write anywhere, sync, truncate.
///
/// Not `Sendable`: a handle belongs to one isolation domain (the store's).
package protocol StoreFile: AnyObject {
    /// The path the file was opened with, for error messages.
    var path: String { get }

    /// The file's current size in bytes.
    ///
    /// - Throws: ``StoreFileError``.
    func size() throws -> UInt64

    /// Reads up to `count` bytes at `offset`; fewer at the end of the file.
    ///
    /// - Parameters:
    ///   - offset: Where to start.
    ///   - count: How many bytes at most.
    /// - Returns: The bytes read.
    /// - Throws: ``StoreFileError``.
    /// - Complexity: O(`count`).
    func read(at offset: UInt64, count: Int) throws -> [UInt8]

    /// Writes bytes at `offset` (`pwrite`): all of them, or throws.
    ///
    /// Bytes already there are replaced; a write past the end grows the file, and a gap
    /// between the old end and `offset` reads as zeros.
    ///
    /// - Parameters:
    ///   - bytes: The bytes.
    ///   - offset: Where the first byte goes.
    /// - Throws: ``StoreFileError``; some of the bytes may have been written.
    /// - Complexity: O(`bytes.count`).
    func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws

    /// Makes the file's data durable (`fdatasync`).
    ///
    /// A failure means written data may be lost even though a later sync reports success:
    /// callers must never retry a failed sync (they stop and reopen).
    ///
    /// - Throws: ``StoreFileError``.
    func sync() throws

    /// Starts writing the file's written data to the disk without waiting for it, so that a
    /// later ``sync()`` has less to wait for. A hint: it makes nothing durable, reports no
    /// error, and does nothing where the system offers no such call.
    func startWriteBack()

    /// Cuts the file to `size` bytes.
    ///
    /// - Parameter size: The new size, at most the current one.
    /// - Throws: ``StoreFileError``.
    func truncate(to size: UInt64) throws

    /// Closes the handle; later calls throw. Closing twice does nothing.
    func close()

    /// Closes the handle on another thread, inside `group` until it is closed; later calls
    /// throw.
    ///
    /// When the handle is the last reference to a file that lost its name (replaced by a
    /// rename), closing it frees the file's blocks, which takes milliseconds for a large
    /// file; the caller need not wait for that.
    ///
    /// - Parameter group: Entered now, left once the handle is closed.
    func closeInBackground(_ group: DispatchGroup)
}

extension StoreFile {
    /// Does nothing: a file that buffers nothing has nothing to start writing.
    package func startWriteBack() {}

    /// Closes the handle at once: a file whose closing frees nothing costs nothing to close.
    package func closeInBackground(_ group: DispatchGroup) {
        close()
    }
}

/// An exclusive lock on a lock file, held until ``unlock()`` or until the object is released.
package protocol StoreLock: AnyObject {
    /// Releases the lock; calling it again does nothing.
    func unlock()
}

/// A file-system operation that failed, with the operation, the path and the `errno`.
///
/// The store surfaces it to users (wrapped in its own errors or alone) when a file cannot be
/// opened, written, synced, renamed or locked.
public struct StoreFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The kinds of file-system operations the store performs.
    public enum Operation: String, Sendable {
        /// Opening a file or a directory.
        case open
        /// Reading a file's bytes.
        case read
        /// Writing bytes to a file.
        case write
        /// Making a file's data durable (`fdatasync`); never retried after it fails.
        case sync
        /// Cutting a file to a smaller size.
        case truncate
        /// Renaming a file over another (the error's path is the source).
        case rename
        /// Removing a file.
        case remove
        /// Listing the entries of a directory.
        case listDirectory
        /// Creating a directory and its missing parents.
        case createDirectory
        /// Making the names in a directory durable (`fsync` of the directory).
        case syncDirectory
        /// Reading the size or status of a file.
        case stat
        /// Taking the exclusive lock on the store's lock file.
        case lock
        /// Using a file after it was closed: a journal closed by the store refuses later
        /// appends and syncs with this operation and `EBADF`.
        case close
    }

    /// What failed.
    public var operation: Operation
    /// The path it failed on (for a rename, the source).
    public var path: String
    /// The `errno` the system reported (`EIO` for injected failures).
    public var code: Int32

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - operation: What failed.
    ///   - path: On which path.
    ///   - code: The `errno`.
    /// - Complexity: O(1).
    public init(_ operation: Operation, path: String, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// Whether the error is "somebody else holds the lock".
    public var isLockHeld: Bool {
        operation == .lock && code == storeErrnoWouldBlock
    }

    /// A message naming the operation, the path and the system's text for the error.
    public var description: String {
        if isLockHeld {
            return "the store at \(path) is already open (its lock file is held by another opener)"
        }
        return "\(operation.rawValue) failed for \(path): \(storeErrnoText(code)) (errno \(code))"
    }
}
