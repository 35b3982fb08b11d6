import Foundation
import Glibc
import Testing

@testable import GraphStore

@Suite("PosixFileSystem")
struct PosixFileSystemTests {
    /// A fresh temporary directory, removed by the caller.
    func makeDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "/frk-store-\(UUID().uuidString)"
        try PosixFileSystem().createDirectory(path)
        return path
    }

    @Test("files: create, write, overwrite, read, size, truncate, sync, rename, remove, list, directory sync")
    func fileOperations() throws {
        let fileSystem = PosixFileSystem()
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = try fileSystem.openFile(directory + "/a", create: true)
        let big = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try big.withUnsafeBytes { try file.write($0, at: 0) }
        try [UInt8]([1, 2, 3]).withUnsafeBytes { try file.write($0, at: 300_000) }
        try file.sync()
        #expect(try file.size() == 300_003)
        #expect(try fileSystem.fileSize(directory + "/a") == 300_003)
        #expect(try file.read(at: 300_000, count: 10) == [1, 2, 3])
        #expect(try fileSystem.readFile(directory + "/a") == big + [1, 2, 3])
        // Writes go where they are told, not to the end: an overwrite keeps the size, and a
        // write past the end leaves a gap of zeros.
        try [UInt8]([4, 5]).withUnsafeBytes { try file.write($0, at: 1) }
        #expect(try file.size() == 300_003)
        #expect(try file.read(at: 0, count: 4) == [big[0], 4, 5, big[3]])
        try [UInt8]([6]).withUnsafeBytes { try file.write($0, at: 300_005) }
        #expect(try file.read(at: 300_000, count: 10) == [1, 2, 3, 0, 0, 6])
        try file.truncate(to: 5)
        #expect(try fileSystem.readFile(directory + "/a") == [big[0], 4, 5, big[3], big[4]])
        try fileSystem.rename(directory + "/a", to: directory + "/b")
        try fileSystem.syncDirectory(directory)
        #expect(try fileSystem.listDirectory(directory) == ["b"])
        // The handle still writes to the renamed file.
        try [UInt8]([9]).withUnsafeBytes { try file.write($0, at: 5) }
        #expect(try fileSystem.readFile(directory + "/b") == [big[0], 4, 5, big[3], big[4], 9])
        file.close()
        #expect(throws: StoreFileError.self) { try file.sync() }
        try fileSystem.remove(directory + "/b")
        #expect(!fileSystem.fileExists(directory + "/b"))
        #expect(try fileSystem.listDirectory(directory).isEmpty)
    }

    @Test("errors carry the operation, the path and errno")
    func errors() throws {
        let fileSystem = PosixFileSystem()
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let missing = directory + "/missing"
        #expect(throws: StoreFileError(.open, path: missing, code: ENOENT)) {
            try fileSystem.openFile(missing, create: false)
        }
        #expect(throws: StoreFileError(.rename, path: missing, code: ENOENT)) {
            try fileSystem.rename(missing, to: directory + "/x")
        }
        let error = StoreFileError(.open, path: missing, code: ENOENT)
        #expect(error.description.contains(missing) && error.description.contains("No such file"))
    }

    @Test("a journal written and read through the real file system")
    func journalRoundTrip() throws {
        let fileSystem = PosixFileSystem()
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/journal"
        let header = RecordFileHeader(kind: .journal, schemaFingerprint: 3, graphID: UUID(), generation: 1)
        let writer = try RecordWriter.create(path: path, fileSystem: fileSystem, header: header, firstSequence: 10)
        for size in [0, 10, 70_000, 5] { try writer.append([UInt8](repeating: 1, count: size)) }
        try writer.sync()
        try fileSystem.syncDirectory(directory)
        let (again, scan) = try RecordWriter.openForAppend(
            path: path, fileSystem: fileSystem, graphID: header.graphID, generation: 1, firstSequence: 10)
        #expect(scan.records.map(\.sequence) == [10, 11, 12, 13])
        #expect(scan.records.map(\.payload.count) == [0, 10, 70_000, 5])
        try again.append([2])
        try again.sync()
        #expect(try RecordScan(bytes: fileSystem.readFile(path), path: path).records.last?.sequence == 14)
    }

    @Test("the lock: a second lock fails with a clear error, also from another process")
    func lock() throws {
        let fileSystem = PosixFileSystem()
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/LOCK"
        let lock = try fileSystem.lockFile(path)
        let error = #expect(throws: StoreFileError.self) { try fileSystem.lockFile(path) }
        #expect(error?.isLockHeld == true)
        #expect(error?.description.contains("already open") == true)
        let flock = "/usr/bin/flock"
        let otherProcessCanLock = { () throws -> Bool? in
            guard FileManager.default.isExecutableFile(atPath: flock) else { return nil }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: flock)
            process.arguments = ["-n", path, "true"]
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus == 0
        }
        if let locked = try otherProcessCanLock() { #expect(locked == false) }
        lock.unlock()
        if let locked = try otherProcessCanLock() { #expect(locked == true) }
        let again = try fileSystem.lockFile(path)
        again.unlock()
    }

    /// A lock released within the grace period is taken, not reported held: a child process
    /// this one forks shares the lock file until its `exec`, so a store closed and opened
    /// again while a child starts would otherwise be reported open elsewhere.
    @Test func aLockReleasedWithinTheGracePeriodIsTaken() throws {
        let fileSystem = PosixFileSystem()
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/LOCK"
        nonisolated(unsafe) let held = try fileSystem.lockFile(path)
        let release = Thread {
            usleep(20_000)
            held.unlock()
        }
        release.start()
        let lock = try fileSystem.lockFile(path)
        lock.unlock()
    }
}
