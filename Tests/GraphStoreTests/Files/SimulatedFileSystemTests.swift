import Glibc
import Testing
import TestSupport

@testable import GraphStore

@Suite("SimulatedFileSystem")
struct SimulatedFileSystemTests {
    func makeFileSystem() throws -> SimulatedFileSystem {
        let fileSystem = SimulatedFileSystem()
        try fileSystem.createDirectory("/db")
        return fileSystem
    }

    func append(_ file: any StoreFile, _ bytes: [UInt8]) throws {
        let end = try file.size()
        try bytes.withUnsafeBytes { try file.write($0, at: end) }
    }

    @Test("a failure is injected at the n-th write, sync, truncate, rename, remove and directory sync")
    func failureInjection() throws {
        let fileSystem = try makeFileSystem()
        let file = try fileSystem.openFile("/db/a", create: true)
        fileSystem.injectFailure(.write, atOccurrence: 3)
        try append(file, [1])
        try append(file, [2])
        #expect(throws: StoreFileError(.write, path: "/db/a", code: EIO)) { try self.append(file, [3]) }
        try append(file, [4])
        #expect(try fileSystem.readFile("/db/a") == [1, 2, 4])
        fileSystem.injectFailure(.sync, atOccurrence: 2, code: ENOSPC)
        try file.sync()
        #expect(throws: StoreFileError(.sync, path: "/db/a", code: ENOSPC)) { try file.sync() }
        fileSystem.injectFailure(.truncate, atOccurrence: 1)
        #expect(throws: StoreFileError.self) { try file.truncate(to: 0) }
        fileSystem.injectFailure(.rename, atOccurrence: 1)
        #expect(throws: StoreFileError(.rename, path: "/db/a", code: EIO)) { try fileSystem.rename("/db/a", to: "/db/b") }
        #expect(fileSystem.fileExists("/db/a") && !fileSystem.fileExists("/db/b"))
        fileSystem.injectFailure(.syncDirectory, atOccurrence: 1)
        #expect(throws: StoreFileError(.syncDirectory, path: "/db", code: EIO)) { try fileSystem.syncDirectory("/db") }
        fileSystem.injectFailure(.remove, atOccurrence: 1)
        #expect(throws: StoreFileError.self) { try fileSystem.remove("/db/a") }
        #expect(fileSystem.count(of: .write) == 4)
        #expect(fileSystem.count(of: .sync) == 2)
    }

    @Test("after a failed sync a second sync succeeds but the data is not durable (Linux semantics)")
    func failedSyncLosesData() throws {
        let fileSystem = try makeFileSystem()
        let file = try fileSystem.openFile("/db/a", create: true)
        try fileSystem.syncDirectory("/db")
        try append(file, [1, 2])
        try file.sync()
        try append(file, [3, 4])
        fileSystem.injectFailure(.sync, atOccurrence: 1)
        #expect(throws: StoreFileError.self) { try file.sync() }
        try file.sync()
        #expect(try fileSystem.readFile("/db/a") == [1, 2, 3, 4])
        #expect(fileSystem.durableContents("/db/a") == [1, 2])
    }

    @Test("a power loss keeps exactly the synced data plus the unsynced writes it reports", arguments: testSeeds(count: 20))
    func powerLoss(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let fileSystem = try makeFileSystem()
        let file = try fileSystem.openFile("/db/a", create: true)
        try fileSystem.syncDirectory("/db")
        var synced: [UInt8] = []
        var unsynced: [[UInt8]] = []
        for _ in 0..<Int.random(in: 1...30, using: &random) {
            let bytes = (0..<Int.random(in: 1...50, using: &random)).map { _ in UInt8.random(in: 1...255, using: &random) }
            try append(file, bytes)
            unsynced.append(bytes)
            if Bool.random(using: &random) {
                try file.sync()
                synced += unsynced.joined()
                unsynced = []
            }
        }
        let report = fileSystem.simulatePowerLoss(seed: random.next())
        let fates = report.writes["/db/a"] ?? []
        #expect(fates.count == unsynced.count, "seed \(seed)")
        // Rebuild what the report says survived and compare byte for byte.
        var expected = synced
        var offset = synced.count
        var garbled: [Range<Int>] = []
        for (bytes, fate) in zip(unsynced, fates) {
            func put(_ part: ArraySlice<UInt8>) {
                if expected.count < offset + part.count {
                    expected += [UInt8](repeating: 0, count: offset + part.count - expected.count)
                }
                expected.replaceSubrange(offset..<offset + part.count, with: part)
            }
            switch fate {
            case .applied: put(bytes[...])
            case .dropped: break
            case .torn(let count): put(bytes.prefix(count))
            case .garbled(let start, let count):
                put(bytes[...])
                garbled.append(offset + start..<offset + start + count)
            }
            offset += bytes.count
        }
        let after = try fileSystem.readFile("/db/a")
        #expect(after.count == expected.count, "seed \(seed)")
        #expect(Array(after.prefix(synced.count)) == synced, "seed \(seed)")
        for index in 0..<min(after.count, expected.count) where !garbled.contains(where: { $0.contains(index) }) {
            #expect(after[index] == expected[index], "seed \(seed), byte \(index)")
        }
        // The handle from before the power loss is dead.
        #expect(throws: StoreFileError.self) { try self.append(file, [1]) }
    }

    @Test("an unsynced overwrite of synced bytes is kept, dropped, torn or garbled over them", arguments: testSeeds(count: 20))
    func overwriteAndPowerLoss(seed: UInt64) throws {
        let fileSystem = try makeFileSystem()
        let file = try fileSystem.openFile("/db/a", create: true)
        try fileSystem.syncDirectory("/db")
        // Synced zeros, as a preallocating writer leaves them, then a record over them.
        try [UInt8](repeating: 0, count: 64).withUnsafeBytes { try file.write($0, at: 0) }
        try file.sync()
        let record = [UInt8](1...20)
        try record.withUnsafeBytes { try file.write($0, at: 10) }
        let report = fileSystem.simulatePowerLoss(seed: seed)
        let after = try fileSystem.readFile("/db/a")
        #expect(after.count == 64, "seed \(seed): an overwrite never changes the size")
        #expect(after[..<10].allSatisfy { $0 == 0 } && after[30...].allSatisfy { $0 == 0 }, "seed \(seed)")
        switch try #require(report.writes["/db/a"]?.first) {
        case .applied: #expect(Array(after[10..<30]) == record, "seed \(seed)")
        case .dropped: #expect(after.allSatisfy { $0 == 0 }, "seed \(seed)")
        case .torn(let count):
            #expect(Array(after[10..<10 + count]) == Array(record.prefix(count)), "seed \(seed)")
            #expect(after[(10 + count)...].allSatisfy { $0 == 0 }, "seed \(seed)")
        case .garbled(let start, let count):
            for index in 0..<record.count where !(start..<start + count).contains(index) {
                #expect(after[10 + index] == record[index], "seed \(seed), byte \(index)")
            }
        }
    }

    @Test("names are durable only after a directory sync")
    func namesNeedDirectorySync() throws {
        var keptOnce = false
        var droppedOnce = false
        for seed in 0..<UInt64(16) {
            let fileSystem = try makeFileSystem()
            let durable = try fileSystem.openFile("/db/durable", create: true)
            try fileSystem.syncDirectory("/db")
            try append(durable, [1])
            try durable.sync()
            let fresh = try fileSystem.openFile("/db/fresh", create: true)
            try append(fresh, [2])
            try fresh.sync()
            try fileSystem.rename("/db/durable", to: "/db/renamed")
            #expect(fileSystem.durableContents("/db/fresh") == nil)
            let report = fileSystem.simulatePowerLoss(seed: seed)
            #expect(report.nameChangesApplied + report.nameChangesDropped == 2)
            // The synced file survives under its old or new name, never lost.
            let survivors = try fileSystem.listDirectory("/db")
            #expect(survivors.contains("durable") != survivors.contains("renamed"))
            if survivors.contains("fresh") {
                keptOnce = true
                #expect(try fileSystem.readFile("/db/fresh") == [2])
            } else {
                droppedOnce = true
            }
        }
        #expect(keptOnce && droppedOnce)
    }

    @Test("the lock is exclusive until released, and a power loss releases it")
    func lock() throws {
        let fileSystem = try makeFileSystem()
        let lock = try fileSystem.lockFile("/db/LOCK")
        let error = #expect(throws: StoreFileError.self) { try fileSystem.lockFile("/db/LOCK") }
        #expect(error?.isLockHeld == true)
        lock.unlock()
        let again = try fileSystem.lockFile("/db/LOCK")
        fileSystem.simulatePowerLoss(seed: 1)
        try fileSystem.syncDirectory("/db")
        _ = try fileSystem.lockFile("/db/LOCK")
        again.unlock()
    }

    @Test("a crash scheduled at every operation of a synced append workload leaves only a torn tail", arguments: testSeeds(count: 4))
    func crashAtEveryOperation(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let sizes = (0..<12).map { _ in Int.random(in: 0...50_000, using: &random) }
        var crashPoint = 0
        while true {
            let fileSystem = try makeFileSystem()
            let header = RecordFileHeader(kind: .journal, schemaFingerprint: 1, graphID: RecordFixture.graphID, generation: 1, salt: 77)
            let writer = try RecordWriter.create(path: "/db/j", fileSystem: fileSystem, header: header, firstSequence: 1)
            try writer.sync()
            try fileSystem.syncDirectory("/db")
            fileSystem.scheduleCrash(afterOperations: crashPoint, seed: random.next())
            var acknowledged: UInt64 = 0
            do {
                for size in sizes {
                    let (sequence, _) = try writer.append([UInt8](repeating: UInt8(truncatingIfNeeded: size), count: size))
                    try writer.sync()
                    acknowledged = sequence
                }
            } catch {}
            guard fileSystem.crashed else { break }
            let scan = try RecordScan(bytes: try fileSystem.readFile("/db/j"), path: "/db/j", mode: .refuse)
            let sequences = scan.records.map(\.sequence)
            #expect(sequences == Array(1...UInt64(max(sequences.count, 1))).prefix(sequences.count).map { $0 }, "seed \(seed), crash \(crashPoint)")
            #expect(sequences.count >= Int(acknowledged), "seed \(seed), crash \(crashPoint): lost an acknowledged record")
            #expect(sequences.count <= Int(acknowledged) + 1, "seed \(seed), crash \(crashPoint)")
            for record in scan.records {
                #expect(record.payload.allSatisfy { $0 == UInt8(truncatingIfNeeded: sizes[Int(record.sequence) - 1]) })
            }
            crashPoint += 1
        }
        #expect(crashPoint == sizes.count * 2)
    }
}
