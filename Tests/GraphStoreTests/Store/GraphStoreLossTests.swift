import Foundation
@testable import GraphStore
import ObjectGraph
import Testing
import TestSupport

// An older app's view of the model: no `Tag`, and `Product` without most attributes.
final class ProductWithoutNote: GraphObject {
    override class var entityName: String { "Product" }
    @Attribute var name = ""
}

/// Nothing a user saved is lost silently: a missing file, damage at the end of the journal or
/// a schema that leaves data out is refused, or opened with a report that says what is gone.
@Suite("GraphStore: missing files, damage at the end, omitted schema")
struct GraphStoreLossTests {
    static let path = "/store"

    /// A store of `commits` commits (one product each), closed; every `compactEvery`-th commit
    /// is followed by a compaction.
    static func savedStore(commits: Int, compactAfter: Int? = nil) throws -> (SimulatedFileSystem, [String]) {
        let fileSystem = SimulatedFileSystem()
        let store = try GraphStoreCrashTests.open(fileSystem)
        for index in 0..<commits {
            let product = store.graph.insert(Product())
            product.name = "p\(index)"
            try store.graph.commit()
            if index + 1 == compactAfter { try store.compact() }
        }
        let state = dump(store.graph)
        store.close()
        return (fileSystem, state)
    }

    static func open(_ fileSystem: SimulatedFileSystem, _ recovery: GraphStore.Recovery) throws -> GraphStore {
        try GraphStoreCrashTests.open(fileSystem, recovery)
    }

    /// The intact records of the journal.
    static func journalRecords(_ fileSystem: SimulatedFileSystem) throws -> [RecordReader.Record] {
        var reader = try RecordReader(bytes: fileSystem.readFile(path + "/journal"), path: "journal")
        var records: [RecordReader.Record] = []
        while let event = reader.next() {
            if case .record(let record) = event { records.append(record) }
        }
        return records
    }

    // MARK: 2. A missing journal

    @Test("A deleted journal is refused, naming it", arguments: [nil, 12] as [Int?])
    func deletedJournalIsRefused(compactAfter: Int?) throws {
        let (fileSystem, _) = try Self.savedStore(commits: 30, compactAfter: compactAfter)
        try fileSystem.remove(Self.path + "/journal")
        #expect {
            _ = try Self.open(fileSystem, .refuse)
        } throws: { error in
            "\(error)".contains("journal") && "\(error)".contains("missing")
        }
        // Refusing changed nothing: still refused.
        #expect(throws: GraphStoreError.self) { _ = try Self.open(fileSystem, .refuse) }
    }

    @Test("A deleted journal opened in salvage says the commits since the snapshot are lost")
    func deletedJournalSalvaged() throws {
        let (fileSystem, _) = try Self.savedStore(commits: 30, compactAfter: 12)
        try fileSystem.remove(Self.path + "/journal")
        for recovery in [GraphStore.Recovery.stopAtDamage, .salvage] {
            let store = try Self.open(Self.copyOf(fileSystem), recovery)
            #expect(!store.openReport.isClean, "\(store.openReport)")
            #expect("\(store.openReport)".contains("journal is missing"), "\(store.openReport)")
            #expect(store.graph.objects(of: Product.self).count == 12)
            store.close()
        }
    }

    @Test("A crash at any operation of a store's creation leaves a store that opens cleanly")
    func crashDuringCreation() throws {
        var crashes = 0
        for crashAfter in 0..<16 {
            let fileSystem = SimulatedFileSystem()
            fileSystem.scheduleCrash(afterOperations: crashAfter, seed: UInt64(crashAfter))
            if let store = try? Self.open(fileSystem, .refuse) { store.close() }
            guard fileSystem.crashCount > 0 else { break }
            crashes += 1
            let reopened = try Self.open(fileSystem, .refuse)
            #expect(reopened.openReport.isClean, "crash after \(crashAfter) operations: \(reopened.openReport)")
            #expect(reopened.graph.objects(of: Product.self).isEmpty)
            reopened.close()
        }
        #expect(crashes > 4)
    }

    /// A copy of the durable files.
    static func copyOf(_ fileSystem: SimulatedFileSystem) throws -> SimulatedFileSystem {
        try GraphStoreEvolutionTests.copy(fileSystem)
    }

    // MARK: 3. A missing snapshot

    @Test("A deleted snapshot of a compacted store says how many saved objects it held")
    func deletedSnapshotSalvaged() throws {
        let (fileSystem, _) = try Self.savedStore(commits: 20, compactAfter: 12)
        try fileSystem.remove(Self.path + "/snapshot")
        #expect(throws: GraphStoreError.self) { _ = try Self.open(fileSystem, .refuse) }
        let store = try Self.open(fileSystem, .salvage)
        let description = "\(store.openReport)"
        #expect(!store.openReport.isClean)
        #expect(description.contains("12 objects"), "\(description)")
        // The 8 products inserted after the compaction are kept.
        #expect(store.graph.objects(of: Product.self).count == 8)
        store.close()
    }

    // MARK: 4. Damage at the end of the journal

    @Test("A bit flipped in the last acknowledged record is damage, not an unfinished commit")
    func lastRecordBitFlip() throws {
        let (fileSystem, state) = try Self.savedStore(commits: 40)
        let last = try #require(Self.journalRecords(fileSystem).last)
        let offset = Int(last.endOffset) - 3
        let byte = try fileSystem.readFile(Self.path + "/journal")[offset]
        fileSystem.corrupt(Self.path + "/journal", at: offset, with: [byte ^ 0x10])
        #expect(throws: GraphStoreError.self) {
            let store = try Self.open(fileSystem, .refuse)
            defer { store.close() }
            // Opening is allowed only with the whole acknowledged graph.
            #expect(dump(store.graph) == state)
        }
    }

    @Test("A journal cut in the middle of its records is damage", arguments: [0.5, 0.9])
    func truncatedJournal(fraction: Double) throws {
        let (fileSystem, state) = try Self.savedStore(commits: 40)
        let records = try Self.journalRecords(fileSystem)
        let file = try fileSystem.openFile(Self.path + "/journal", create: false)
        try file.truncate(to: UInt64(Double(records.last!.endOffset) * fraction))
        try file.sync()
        file.close()
        #expect(throws: GraphStoreError.self) {
            let store = try Self.open(fileSystem, .refuse)
            defer { store.close() }
            #expect(dump(store.graph) == state)
        }
    }

    @Test("A journal cut exactly at a record's start after a clean close is damage")
    func journalCutAtRecordBoundary() throws {
        let (fileSystem, _) = try Self.savedStore(commits: 10)
        let records = try Self.journalRecords(fileSystem)
        let file = try fileSystem.openFile(Self.path + "/journal", create: false)
        try file.truncate(to: records[records.count - 3].offset)
        try file.sync()
        file.close()
        #expect(throws: GraphStoreError.self) { _ = try Self.open(fileSystem, .refuse).close() }
    }

    @Test("Random bytes over a fresh journal's schema record are damage")
    func schemaRecordOverwritten() throws {
        let (fileSystem, _) = try Self.savedStore(commits: 15, compactAfter: 15)
        let records = try Self.journalRecords(fileSystem)
        var rng = SeededGenerator(seed: 31)
        let noise = (RecordFormat.fileHeaderSize..<Int(records.last!.endOffset)).map { _ in UInt8.random(in: 1...255, using: &rng) }
        fileSystem.corrupt(Self.path + "/journal", at: RecordFormat.fileHeaderSize, with: noise)
        #expect(throws: GraphStoreError.self) { _ = try Self.open(fileSystem, .refuse).close() }
    }

    // MARK: 5. A schema that leaves data out

    @Test("Opening with a schema that omits an attribute or an entity is refused and changes nothing")
    func omittedAttributeAndEntity() throws {
        let fileSystem = SimulatedFileSystem()
        let store = try GraphStoreCrashTests.open(fileSystem)
        let product = store.graph.insert(Product())
        product.name = "milk"
        product.count = 35
        store.graph.insert(Tag()).label = "cold"
        try store.graph.commit()
        store.close()
        let older = try StoreSchema([ProductWithoutNote.self])
        for recovery in [GraphStore.Recovery.refuse, .salvage] {
            #expect(throws: GraphStoreError.self) {
                _ = try GraphStore.open(path: Self.path, schema: older, options: .init(recovery: recovery), fileSystem: fileSystem).close()
            }
        }
        // The full schema still finds everything.
        let reopened = try GraphStoreCrashTests.open(fileSystem)
        #expect(reopened.graph.objects(of: Product.self).map(\.count) == [35])
        #expect(reopened.graph.objects(of: Tag.self).map(\.label) == ["cold"])
        reopened.close()
    }

    // MARK: Salvage with the app's schema

    @Test("An unreadable schema record of the snapshot is salvaged with the app's schema")
    func snapshotSchemaRecordUnreadable() throws {
        let (fileSystem, state) = try Self.savedStore(commits: 12, compactAfter: 12)
        fileSystem.corrupt(Self.path + "/snapshot", at: RecordFormat.fileHeaderSize + 12, with: [0xAA, 0x55])
        #expect(throws: GraphStoreError.self) { _ = try Self.open(Self.copyOf(fileSystem), .refuse).close() }
        let store = try Self.open(fileSystem, .salvage)
        #expect(dump(store.graph) == state)
        #expect(!store.openReport.isClean)
        #expect("\(store.openReport)".contains("schema"), "\(store.openReport)")
        store.close()
    }

    // MARK: The open report, in objects

    @Test("A dropped commit says how many objects it held and its action name")
    func droppedCommitCountsObjects() throws {
        let fileSystem = SimulatedFileSystem()
        let store = try GraphStoreCrashTests.open(fileSystem)
        store.graph.insert(Shelf()).name = "first"
        try store.graph.commit()
        store.graph.insert(Shelf()).name = "damaged"
        try store.graph.commit()
        for index in 0..<50 { store.graph.insert(Product()).name = "imported \(index)" }
        try store.graph.commit(actionName: "Import")
        store.close()
        let records = try Self.journalRecords(fileSystem)
        // Records: the schema, "first", "damaged", the import.
        fileSystem.corrupt(Self.path + "/journal", at: Int(records[2].offset) + 12, with: [0xFF, 0x00])
        let stopped = try Self.open(Self.copyOf(fileSystem), .stopAtDamage)
        let report = stopped.openReport
        #expect(report.keptObjects == 1)
        let dropped = report.droppedCommits
        #expect(dropped.map(\.sequence) == [records[2].sequence, records[3].sequence], "\(report)")
        #expect(dropped.first?.cause == .damaged && dropped.first?.changes == nil)
        let importCommit = try #require(dropped.last)
        #expect(importCommit.cause == .followsDamage && importCommit.wasAcknowledged)
        #expect(importCommit.changes == GraphStore.ChangeCounts(inserted: 50))
        #expect(importCommit.changesByEntity == ["Product": GraphStore.ChangeCounts(inserted: 50)])
        #expect(importCommit.actionName == "Import")
        #expect(report.lostAcknowledgedCommits.count == 2)
        stopped.close()
    }

    @Test("A deleted journal of a closed store lists each lost commit")
    func deletedJournalListsCommits() throws {
        let (fileSystem, _) = try Self.savedStore(commits: 30, compactAfter: 12)
        try fileSystem.remove(Self.path + "/journal")
        let store = try Self.open(fileSystem, .salvage)
        let report = store.openReport
        #expect(report.missingFiles == ["journal"])
        #expect(report.lostAcknowledgedCommits.count == 18, "\(report)")
        #expect(report.droppedCommits.allSatisfy { $0.cause == .journalMissing })
        #expect(report.keptObjectsByEntity["Product"] == 12)
        store.close()
    }

    @Test("A journal cut after a clean close lists the commits cut off")
    func cutJournalListsCommits() throws {
        let (fileSystem, _) = try Self.savedStore(commits: 10)
        let records = try Self.journalRecords(fileSystem)
        let file = try fileSystem.openFile(Self.path + "/journal", create: false)
        try file.truncate(to: records[records.count - 3].offset)
        try file.sync()
        file.close()
        let store = try Self.open(fileSystem, .salvage)
        let report = store.openReport
        #expect(report.lostAcknowledgedCommits.map(\.cause) == [.cutOff, .cutOff, .cutOff], "\(report)")
        #expect(store.graph.objects(of: Product.self).count == 7)
        store.close()
    }

    @Test("A lost snapshot is counted in objects")
    func lostSnapshotCounted() throws {
        let (fileSystem, _) = try Self.savedStore(commits: 20, compactAfter: 12)
        try fileSystem.remove(Self.path + "/snapshot")
        let store = try Self.open(fileSystem, .salvage)
        #expect(store.openReport.lostSnapshot?.objectCount == 12)
        #expect(store.openReport.lostSnapshot?.objectsByEntity?["Product"] == 12)
        #expect(store.openReport.missingFiles == ["snapshot"])
        store.close()
    }

    /// What stays ambiguous: with no record of a clean close (a crash), a damaged last record
    /// is taken for a commit that never finished. It is reported as such.
    @Test("Without a clean close, a damaged last record is an unfinished commit")
    func damagedLastRecordWithoutCloseIsUnfinished() throws {
        let (fileSystem, _) = try Self.savedStore(commits: 5)
        try fileSystem.remove(Self.path + "/" + JournalEndMarker.name)
        let last = try #require(Self.journalRecords(fileSystem).last)
        fileSystem.corrupt(Self.path + "/journal", at: Int(last.endOffset) - 2, with: [0x5A])
        let store = try Self.open(fileSystem, .refuse)
        let report = store.openReport
        #expect(report.isClean)
        #expect(report.tornTailBytes > 0)
        #expect(report.droppedCommits == [GraphStore.DroppedCommit(sequence: last.sequence, cause: .unfinishedWrite, wasAcknowledged: false)])
        #expect(store.graph.objects(of: Product.self).count == 4)
        store.close()
    }

    @Test("A schema that names what to drop opens, and drops only that")
    func explicitDrop() throws {
        let fileSystem = SimulatedFileSystem()
        let store = try GraphStoreCrashTests.open(fileSystem)
        store.graph.insert(Product()).name = "milk"
        store.graph.insert(Tag()).label = "cold"
        try store.graph.commit()
        store.close()
        let allProductAttributes: Set<String> = [
            "count", "small", "big", "price", "weight", "flag", "added", "identifier", "blob", "link", "cost", "note", "rating",
            "kind", "code", "size", "shelf", "tags",
        ]
        #expect {
            _ = try GraphStore.open(path: Self.path, schema: StoreSchema([ProductWithoutNote.self], droppedEntities: ["Tag", "Shelf", "Playlist", "Song"]), options: .init(), fileSystem: fileSystem).close()
        } throws: { error in
            guard case GraphStoreError.omittedFromSchema(entity: "Product", property: let property?) = error else { return false }
            return allProductAttributes.contains(property)
        }
        #expect {
            _ = try GraphStore.open(path: Self.path, schema: StoreSchema(
                [ProductWithoutNote.self], droppedEntities: ["Shelf", "Playlist", "Song"], droppedProperties: ["Product": allProductAttributes]), options: .init(), fileSystem: fileSystem).close()
        } throws: { error in
            guard case GraphStoreError.omittedFromSchema(entity: "Tag", property: nil) = error else { return false }
            return true
        }
        let older = try StoreSchema([ProductWithoutNote.self], droppedEntities: ["Tag", "Shelf", "Playlist", "Song"], droppedProperties: ["Product": allProductAttributes])
        let opened = try GraphStore.open(path: Self.path, schema: older, options: .init(), fileSystem: fileSystem)
        #expect(opened.graph.objects(of: ProductWithoutNote.self).map(\.name) == ["milk"])
        opened.close()
    }

    @Test("An import cut short says how many objects it inserted, with or without a clean close", arguments: [true, false])
    func cutImportCountsInsertions(closedCleanly: Bool) throws {
        let fileSystem = SimulatedFileSystem()
        let store = try GraphStore.open(path: Self.path, schema: storeSchema, options: .init(compactionFactor: nil), fileSystem: fileSystem)
        store.graph.insert(Shelf()).name = "before"
        try store.graph.commit()
        for index in 0..<3_000 { store.graph.insert(Product()).name = "imported item number \(index)" }
        try store.graph.commit(actionName: "Import")
        store.close()
        if !closedCleanly { try fileSystem.remove(Self.path + "/" + JournalEndMarker.name) }
        let last = try #require(Self.journalRecords(fileSystem).last)
        #expect(last.endOffset - last.offset > UInt64(2 * RecordFormat.blockSize))
        let file = try fileSystem.openFile(Self.path + "/journal", create: false)
        try file.truncate(to: last.offset + (last.endOffset - last.offset) / 2)
        try file.sync()
        file.close()
        let opened = try Self.open(fileSystem, .salvage)
        let dropped = try #require(opened.openReport.droppedCommits.last, "\(opened.openReport)")
        #expect(dropped.sequence == last.sequence)
        #expect(dropped.cause == (closedCleanly ? .cutOff : .unfinishedWrite))
        #expect(dropped.wasAcknowledged == closedCleanly)
        #expect(dropped.changes == nil)
        #expect(dropped.insertedFromSurvivingStart == 3_000, "\(opened.openReport)")
        #expect(opened.openReport.isClean == !closedCleanly)
        #expect(opened.openReport.keptObjectsByEntity["Shelf"] == 1)
        opened.close()
    }
}
