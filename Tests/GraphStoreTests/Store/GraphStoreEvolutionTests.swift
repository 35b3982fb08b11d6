import Foundation
@testable import GraphStore
import ObjectGraph
import Testing
import TestSupport

// Versions of one entity, named "Note" in every version (as an app's model changes).
final class NoteV1: GraphObject {
    override class var entityName: String { "Note" }
    @Attribute var title = ""
    @Attribute var count = 0
    @Attribute var obsolete = "gone"
}

final class NoteV2: GraphObject {
    override class var entityName: String { "Note" }
    @Attribute var name = ""            // renamed from title
    @Attribute var count: Int64 = 0     // widened
    @Attribute var rating = 5           // added
}

final class NoteV3: GraphObject {
    override class var entityName: String { "Note" }
    @Attribute var title = ""
    @Attribute var count = Date()       // cannot convert from an integer
}

final class Memo: GraphObject {
    @Attribute var text = ""
}

final class Scribble: GraphObject {     // Memo, renamed
    @Attribute var text = ""
}

@Suite("GraphStore: schema evolution, salvage and durability modes")
struct GraphStoreEvolutionTests {
    @Test("Added attributes take their default, removed ones and removed entities are dropped, renames follow the mapping")
    func evolution() throws {
        let directory = TemporaryDirectory()
        var ids: [String] = []
        do {
            let store = try GraphStore.open(at: directory.url, schema: StoreSchema([NoteV1.self, Memo.self]))
            for index in 0..<5 {
                let note = store.graph.insert(NoteV1())
                note.title = "note \(index)"
                note.count = index * 1_000
                store.graph.insert(Memo()).text = "memo \(index)"
                ids.append(note.objectID.uriRepresentation)
                try store.graph.commit()
            }
            store.close()
        }
        let schema = try StoreSchema(
            [NoteV2.self, Scribble.self], renamedEntities: ["Memo": "Scribble"], renamedProperties: ["Note": ["title": "name"]],
            droppedProperties: ["Note": ["obsolete"]])
        for round in 0..<2 {
            let store = try GraphStore.open(at: directory.url, schema: schema)
            let notes = store.graph.objects(of: NoteV2.self)
            #expect(notes.map(\.name) == (0..<5).map { "note \($0)" }, "round \(round)")
            #expect(notes.map(\.count) == (0..<5).map { Int64($0 * 1_000) })
            #expect(notes.dropFirst().allSatisfy { $0.rating == 5 })
            #expect(store.graph.objects(of: Scribble.self).map(\.text) == (0..<5).map { "memo \($0)" })
            #expect(notes.map(\.objectID.uriRepresentation) == ids)
            if round == 0 {
                #expect(notes[0].rating == 5)
                notes[0].rating = 1
                try store.graph.commit()
            } else {
                #expect(notes[0].rating == 1)
            }
            store.close()
        }
    }

    @Test("A type change that cannot convert is an error, and the files are left as they were")
    func incompatibleTypeChange() throws {
        let directory = TemporaryDirectory()
        let store = try GraphStore.open(at: directory.url, schema: StoreSchema([NoteV1.self]))
        store.graph.insert(NoteV1()).count = 3
        try store.graph.commit()
        store.close()
        func contents() throws -> [Data] {
            try ["snapshot", "journal"].map { try Data(contentsOf: directory.url.appendingPathComponent($0)) }
        }
        let before = try contents()
        #expect {
            _ = try GraphStore.open(at: directory.url, schema: StoreSchema([NoteV3.self]))
        } throws: { error in
            guard case GraphStoreError.incompatibleSchema(let reason) = error else { return false }
            return reason.contains("Note.count")
        }
        #expect(try contents() == before)
        let again = try GraphStore.open(at: directory.url, schema: StoreSchema([NoteV1.self]))
        #expect(again.graph.objects(of: NoteV1.self).map(\.count) == [3])
        again.close()
    }

    /// A store whose journal's middle record is damaged, and the states after each commit.
    static func damagedJournal() throws -> (SimulatedFileSystem, [[String]], damagedCommit: Int) {
        let fileSystem = SimulatedFileSystem()
        let store = try GraphStoreCrashTests.open(fileSystem)
        var states: [[String]] = []
        let graph = store.graph
        let shelf = graph.insert(Shelf())
        shelf.name = "shelf"
        try graph.commit()
        states.append(dump(graph))
        var products: [Product] = []
        for index in 0..<6 {
            let product = graph.insert(Product())
            product.name = "p\(index)"
            product.shelf = shelf
            products.append(product)
            try graph.commit()
            states.append(dump(graph))
        }
        // A later change to the object whose insert will be lost.
        products[2].count = 7
        try graph.commit()
        states.append(dump(graph))
        store.close()
        // Damage the record of the commit that inserted p2 (the fourth commit record).
        let bytes = try fileSystem.readFile("/store/journal")
        var reader = try RecordReader(bytes: bytes, path: "journal")
        var offsets: [UInt64] = []
        while let event = reader.next() {
            if case .record(let record) = event { offsets.append(record.offset) }
        }
        // Record 0 is the schema; record 1 the shelf; record 4 inserts p2.
        fileSystem.corrupt("/store/journal", at: Int(offsets[4]) + 20, with: [0xFF, 0x00, 0xFF])
        return (fileSystem, states, 3)
    }

    @Test("Refuse names the file, the offset and the record; stop-at-damage keeps what precedes it; salvage keeps every intact record and repairs")
    func recoveryModes() throws {
        let (fileSystem, states, damaged) = try Self.damagedJournal()
        #expect {
            _ = try GraphStoreCrashTests.open(fileSystem, .refuse)
        } throws: { error in
            guard case GraphStoreError.damaged(let file, let offset, let after, _) = error else { return false }
            return file.hasSuffix("journal") && offset > 0 && after != nil
        }
        // Nothing was changed by the refusal.
        let stopped = try GraphStoreCrashTests.open(Self.copy(fileSystem), .stopAtDamage)
        #expect(dump(stopped.graph) == states[damaged - 1])
        #expect(!stopped.openReport.isClean)
        stopped.close()

        let salvaged = try GraphStoreCrashTests.open(fileSystem, .salvage)
        let report = salvaged.openReport
        #expect(!report.isClean)
        #expect(report.damage.count == 1)
        #expect(report.lostSequences.count == 1)
        #expect(report.skippedChanges == 1, "the change to the lost p2 is skipped: \(report)")
        #expect(!report.preservedFiles.isEmpty)
        // p2's insert is lost; its later updates (none here) would be skipped; the others are kept.
        let names = salvaged.graph.objects(of: Product.self).map(\.name)
        #expect(names == ["p0", "p1", "p3", "p4", "p5"])
        let shelf = try #require(salvaged.graph.objects(of: Shelf.self).first)
        #expect(shelf.products.map(\.name).sorted() == names)
        #expect(salvaged.graph.objects(of: Product.self).allSatisfy { $0.shelf === shelf })
        // The rewritten store opens cleanly with the salvaged state.
        let state = dump(salvaged.graph)
        salvaged.close()
        let reopened = try GraphStoreCrashTests.open(fileSystem, .refuse)
        #expect(reopened.openReport.isClean, "\(reopened.openReport)")
        #expect(dump(reopened.graph) == state)
        reopened.close()
    }

    /// A copy of a simulated file system's durable files (the kept journals in `history/` too).
    static func copy(_ fileSystem: SimulatedFileSystem) throws -> SimulatedFileSystem {
        let copy = SimulatedFileSystem()
        func copyDirectory(_ path: String) throws {
            try copy.createDirectory(path)
            for name in try fileSystem.listDirectory(path) where name != "LOCK" {
                if (try? fileSystem.listDirectory(path + "/" + name)) != nil {
                    try copyDirectory(path + "/" + name)
                    continue
                }
                let file = try copy.openFile(path + "/" + name, create: true)
                try fileSystem.readFile(path + "/" + name).withUnsafeBytes { try file.write($0, at: 0) }
                try file.sync()
                file.close()
            }
            try copy.syncDirectory(path)
        }
        try copyDirectory("/store")
        return copy
    }

    @Test("A journal of another store is refused")
    func foreignJournal() throws {
        let first = SimulatedFileSystem()
        let second = SimulatedFileSystem()
        for fileSystem in [first, second] {
            let store = try GraphStoreCrashTests.open(fileSystem)
            store.graph.insert(Shelf()).name = "x"
            try store.graph.commit()
            store.close()
        }
        let journal = try second.readFile("/store/journal")
        first.corrupt("/store/journal", at: 0, with: journal)
        #expect(throws: GraphStoreError.self) { _ = try GraphStoreCrashTests.open(first, .salvage) }
    }

    @Test("Deferred durability writes every commit and syncs on flush; a power loss loses only unsynced commits, whole, and is no damage")
    func deferredDurability() throws {
        var dropped = 0
        for seed in 0..<40 as Range<UInt64> {
            let fileSystem = SimulatedFileSystem()
            let options = GraphStore.Options(durability: .deferred(interval: .seconds(3_600)))
            let store = try GraphStore.open(path: "/store", schema: storeSchema, options: options, fileSystem: fileSystem)
            var workload = StoreWorkload(seed: seed)
            var states = [dump(store.graph)]
            for _ in 0..<5 { try workload.commitEdits(store.graph); states.append(dump(store.graph)) }
            let syncs = fileSystem.count(of: .sync)
            try store.flush()
            // One sync when a commit was written since the last one (the edits may cancel out).
            #expect(fileSystem.count(of: .sync) <= syncs + 1)
            let flushed = states.count - 1
            let afterFlush = fileSystem.count(of: .sync)
            for _ in 0..<8 { try workload.commitEdits(store.graph); states.append(dump(store.graph)) }
            #expect(fileSystem.count(of: .sync) == afterFlush, "no commit syncs before the interval")
            fileSystem.simulatePowerLoss(seed: seed)
            // The default recovery refuses damage: a power loss in deferred mode is not damage.
            let reopened = try GraphStore.open(path: "/store", schema: storeSchema, options: options, fileSystem: fileSystem)
            let state = dump(reopened.graph)
            #expect(states[flushed...].contains(state), "seed \(seed): \(reopened.openReport)")
            #expect(reopened.openReport.damage.isEmpty, "seed \(seed): \(reopened.openReport)")
            dropped += reopened.openReport.unsyncedRecordsDropped
            reopened.close()
        }
        #expect(dropped > 0, "no power loss kept a later unsynced write after a dropped one")
    }

    @Test("A batch import is one commit and one record")
    func batchIsOneRecord() throws {
        let directory = TemporaryDirectory()
        let store = try GraphStore.open(at: directory.url, schema: storeSchema)
        var batch = GraphBatch()
        for index in 0..<500 { batch.insert(Shelf.self, values: ["name": "shelf \(index)"]) }
        let before = try FileManager.default.attributesOfItem(atPath: directory.url.appendingPathComponent("journal").path)[.size] as? Int ?? 0
        try store.graph.apply(batch)
        store.close()
        let bytes = try [UInt8](Data(contentsOf: directory.url.appendingPathComponent("journal")))
        #expect(bytes.count > before)
        let scan = try RecordScan(bytes: bytes, path: "journal")
        #expect(scan.records.count == 2)  // the schema, and the batch
        let reopened = try GraphStore.open(at: directory.url, schema: storeSchema)
        #expect(reopened.graph.count(of: Shelf.self) == 500)
        reopened.close()
    }
}
