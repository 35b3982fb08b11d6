import Foundation
@testable import GraphStore
import ObjectGraph
import Testing
import TestSupport

/// Records whose checksums hold but whose contents are wrong (a writer's bug, a hand-edited
/// file, a schema that changed a relationship's destination): each is damage the recovery
/// mode decides about, and none can trap, put an object of another class into a
/// relationship, or leave half a commit applied.
@Suite("Records with intact checksums and wrong contents")
struct RecordContentDamageTests {
    /// Rewrites a record file with its header and sequence numbers, each record's payload
    /// replaced by what `change` returns for it. A commit record's time (its last field,
    /// nine bytes) is kept aside: `change` sees the record as it ends before it, and the
    /// time follows what it returns.
    static func rewrite(
        _ path: String, in fileSystem: SimulatedFileSystem, _ change: (RecordReader.Record) throws -> [UInt8]
    ) throws {
        let scan = try RecordScan(bytes: try fileSystem.readFile(path), path: path)
        let first = try #require(scan.records.first)
        let writer = try RecordWriter.create(path: path, fileSystem: fileSystem, header: scan.header, firstSequence: first.sequence)
        for var record in scan.records {
            try #require(writer.nextSequence == record.sequence, "the file's sequence numbers have a gap")
            var time: [UInt8] = []
            if record.payload.first == GraphRecordType.commit.rawValue {
                time = Array(record.payload.suffix(9))
                try #require(time.first == CommitField.time.rawValue, "a commit record ends with its time")
                record.payload = record.payload.dropLast(9)
            }
            _ = try writer.append(try change(record) + time)
        }
        try writer.sync()
        writer.close()
    }

    static let binsAndParts = try! StoreSchema([Bin.self, Part.self])

    @Test("A journal reference to an object of another entity than the relationship's destination is cut, not stored")
    func journalReferenceToAnotherEntity() throws {
        let fileSystem = SimulatedFileSystem()
        let store = try GraphStore.open(path: "/store", schema: Self.binsAndParts, options: GraphStore.Options(), fileSystem: fileSystem)
        store.graph.insert(Bin()).name = "bin"
        try store.graph.commit()
        store.graph.insert(Part()).number = 7
        try store.graph.commit()
        store.close()
        // The second commit inserts part 0 alone; it ends with the part's `bin` (an empty
        // list), no updates, no deletions, and Part's serial count (one entity: code 1,
        // count 1). Make `bin` name part 0 itself: a list of one reference, entity code 1
        // (Part), serial 0.
        var rewritten = 0
        try Self.rewrite("/store/journal", in: fileSystem) { record in
            let payload = Array(record.payload)
            guard payload.first == GraphRecordType.commit.rawValue, payload.count > 4, payload[1] == 1, payload[2] == 1 else { return payload }
            #expect(Array(payload.suffix(6)) == [0, 0, 0, 1, 1, 1])
            rewritten += 1
            return payload.dropLast(6) + [1, 1, 0] + [0, 0, 1, 1, 1]
        }
        #expect(rewritten == 1)
        let reopened = try GraphStore.open(path: "/store", schema: Self.binsAndParts, options: GraphStore.Options(), fileSystem: fileSystem)
        defer { reopened.close() }
        let part = try #require(reopened.graph.objects(of: Part.self).first)
        #expect(part.number == 7)
        #expect(part.bin == nil)
        #expect(reopened.openReport.cutReferences == 1, "\(reopened.openReport)")
        #expect(reopened.graph.objects(of: Bin.self).map(\.parts.count) == [0])
    }

    @Test("A commit's serial count that would leave billions of serials unused is damage, refused without allocating them")
    func journalSerialCountPastTheLimit() throws {
        let fileSystem = SimulatedFileSystem()
        let store = try GraphStore.open(path: "/store", schema: Self.binsAndParts, options: GraphStore.Options(), fileSystem: fileSystem)
        store.graph.insert(Part()).number = 7
        try store.graph.commit()
        store.close()
        // The commit ends with Part's serial count (one entity: code 1, count 1); make the
        // count 2^32 - 1.
        try Self.rewrite("/store/journal", in: fileSystem) { record in
            let payload = Array(record.payload)
            guard payload.first == GraphRecordType.commit.rawValue else { return payload }
            #expect(Array(payload.suffix(3)) == [1, 1, 1])
            return payload.dropLast() + [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]
        }
        #expect {
            try GraphStore.open(path: "/store", schema: Self.binsAndParts, options: GraphStore.Options(), fileSystem: fileSystem)
        } throws: { error in
            guard case GraphStoreError.corruptRecord(_, _, let reason) = error else { return false }
            return reason.contains("serials unused")
        }
        let salvaged = try GraphStore.open(path: "/store", schema: Self.binsAndParts, options: GraphStore.Options(recovery: .salvage), fileSystem: fileSystem)
        defer { salvaged.close() }
        #expect(salvaged.graph.objects(of: Part.self).isEmpty)
        #expect(salvaged.graph.serialCount(of: Part.entity) < 1_000)
        #expect(salvaged.openReport.lostSequences.count == 1)
    }

    /// The snapshot's records, for loading them directly.
    static func snapshotRecords(_ fileSystem: SimulatedFileSystem) throws -> (records: [RecordReader.Record], graphID: UUID) {
        let scan = try RecordScan(bytes: try fileSystem.readFile("/store/snapshot"), path: "/store/snapshot", kind: .snapshot)
        return (scan.records, scan.header.graphID)
    }

    static func emptyGraph(_ graphID: UUID) -> ObjectGraph {
        let graph = ObjectGraph(identifier: graphID)
        for entity in storeSchema.entities { graph.register(entity.description.objectType) }
        return graph
    }

    /// The index of the objects record of the products (40 serials, each one past the last).
    static func productObjectsRecord(_ records: [RecordReader.Record]) throws -> Int {
        let code = try #require(storeSchema.entityIndex["Product"])
        return try #require(records.indices.first { index in
            let payload = records[index].payload
            return payload.first == GraphRecordType.objects.rawValue && payload.dropFirst().first == UInt8(code)
        })
    }

    @Test("Serials in an objects record that add up past what a graph can issue are refused, not trapped on")
    func serialsPastTheLimit() throws {
        let (records, graphID) = try Self.snapshotRecords(try SnapshotDamageFuzzTests.compactedStore())
        let index = try Self.productObjectsRecord(records)
        var payload = Array(records[index].payload)
        #expect(payload[2] == 40 && payload[3] == 1 && payload[4] == 1, "\(payload.prefix(8))")
        // Two steps of 2^31: the second serial is 2^32, past every serial a graph issues.
        let step: [UInt8] = [0x80, 0x80, 0x80, 0x80, 0x08]
        payload.replaceSubrange(3...4, with: step + step)
        var damaged = records
        damaged[index].payload = payload[...]
        #expect {
            _ = try Snapshot.load(damaged, into: Self.emptyGraph(graphID), schema: storeSchema, path: "/store/snapshot")
        } throws: { error in
            guard case GraphStoreError.corruptRecord(_, let sequence, let reason) = error else { return false }
            return sequence == records[index].sequence && reason.contains("past")
        }
        let graph = Self.emptyGraph(graphID)
        let loaded = try Snapshot.load(damaged, into: graph, schema: storeSchema, path: "/store/snapshot", mode: .salvage)
        #expect(loaded.unreadable.map(\.record.sequence) == [records[index].sequence])
        #expect(graph.objects(of: Product.self).isEmpty)
        #expect(graph.objects(of: Shelf.self).count == 3)
    }

    @Test("A serial past the entity's serial count in the trailer is refused, with no empty slots made for it")
    func serialPastTheTrailersCount() throws {
        let (records, graphID) = try Self.snapshotRecords(try SnapshotDamageFuzzTests.compactedStore())
        let index = try Self.productObjectsRecord(records)
        var payload = Array(records[index].payload)
        // The last product's serial jumps by a million (the trailer says 40 were issued).
        payload[payload.count - 1] = 0xC0
        payload += [0x84, 0x3D]
        var damaged = records
        damaged[index].payload = payload[...]
        #expect {
            _ = try Snapshot.load(damaged, into: Self.emptyGraph(graphID), schema: storeSchema, path: "/store/snapshot")
        } throws: { error in
            guard case GraphStoreError.corruptRecord(_, _, let reason) = error else { return false }
            return reason.contains("past the 40 it issued")
        }
        let graph = Self.emptyGraph(graphID)
        _ = try Snapshot.load(damaged, into: graph, schema: storeSchema, path: "/store/snapshot", mode: .salvage)
        #expect(graph.serialCount(of: Product.entity) == 40)
    }

    @Test("An unreadable values record is damage: refused, or its objects reported lost by a salvage")
    func unreadableValuesRecord() throws {
        let fileSystem = try SnapshotDamageFuzzTests.compactedStore()
        let (records, _) = try Self.snapshotRecords(fileSystem)
        let productCode = try #require(storeSchema.entityIndex["Product"])
        let target = try #require(records.first { record in
            record.payload.first == GraphRecordType.values.rawValue && record.payload.dropFirst().first == UInt8(productCode)
        })
        // One byte more than its columns hold.
        try Self.rewrite("/store/snapshot", in: fileSystem) { record in
            record.sequence == target.sequence ? Array(record.payload) + [0] : Array(record.payload)
        }
        #expect {
            try GraphStore.open(path: "/store", schema: storeSchema, options: GraphStore.Options(recovery: .refuse), fileSystem: fileSystem)
        } throws: { error in
            guard case GraphStoreError.corruptRecord(let file, let sequence, _) = error else { return false }
            return file == "/store/snapshot" && sequence == target.sequence
        }
        let store = try GraphStore.open(path: "/store", schema: storeSchema, options: GraphStore.Options(recovery: .salvage), fileSystem: fileSystem)
        defer { store.close() }
        let report = store.openReport
        #expect(report.damage.map(\.file) == ["snapshot"], "\(report)")
        #expect(report.damage.first?.offset == target.offset)
        #expect(report.damage.first?.reason.contains("record \(target.sequence)") == true)
        #expect(report.lostObjects.count == 40, "\(report)")
        #expect(store.graph.objects(of: Product.self).isEmpty)
        #expect(store.graph.objects(of: Shelf.self).count == 3)
        #expect(store.graph.objects(of: Tag.self).allSatisfy { $0.products.isEmpty })
    }

    @Test("Stopping at an unreadable snapshot record keeps the records before it")
    func stopAtAnUnreadableRecord() throws {
        let fileSystem = try SnapshotDamageFuzzTests.compactedStore()
        let (records, _) = try Self.snapshotRecords(fileSystem)
        let values = records.filter { $0.payload.first == GraphRecordType.values.rawValue }
        try #require(values.count >= 2)
        let target = values[values.count - 1]
        try Self.rewrite("/store/snapshot", in: fileSystem) { record in
            record.sequence == target.sequence ? Array(record.payload) + [0] : Array(record.payload)
        }
        let store = try GraphStore.open(path: "/store", schema: storeSchema, options: GraphStore.Options(recovery: .stopAtDamage), fileSystem: fileSystem)
        defer { store.close() }
        #expect(store.openReport.damage.count == 1, "\(store.openReport)")
        #expect(!store.openReport.lostObjects.isEmpty)
    }

    @Test("A salvage skips an unreadable commit whole: none of its changes are applied", arguments: [GraphStore.Recovery.salvage, .stopAtDamage])
    func unreadableCommitIsNotHalfApplied(mode: GraphStore.Recovery) throws {
        let fileSystem = SimulatedFileSystem()
        let store = try GraphStore.open(path: "/store", schema: Self.binsAndParts, options: GraphStore.Options(), fileSystem: fileSystem)
        store.graph.insert(Bin()).name = "first"
        try store.graph.commit()
        for number in 1...3 { store.graph.insert(Part()).number = number }
        store.graph.insert(Bin()).name = "second"
        try store.graph.commit()
        store.close()
        // The second commit, with a byte after its end: it reads through to the end before
        // the error is found.
        let scan = try RecordScan(bytes: try fileSystem.readFile("/store/journal"), path: "/store/journal")
        let commits = scan.records.filter { $0.payload.first == GraphRecordType.commit.rawValue }
        try #require(commits.count == 2)
        try Self.rewrite("/store/journal", in: fileSystem) { record in
            record.sequence == commits[1].sequence ? Array(record.payload) + [0] : Array(record.payload)
        }
        let reopened = try GraphStore.open(path: "/store", schema: Self.binsAndParts, options: GraphStore.Options(recovery: mode), fileSystem: fileSystem)
        defer { reopened.close() }
        #expect(reopened.graph.objects(of: Part.self).isEmpty)
        #expect(reopened.graph.objects(of: Bin.self).map(\.name) == ["first"])
        #expect(reopened.openReport.damage.count == 1, "\(reopened.openReport)")
        if mode == .salvage { #expect(reopened.openReport.lostSequences == [commits[1].sequence...commits[1].sequence]) }
    }

    /// A payload garbled as round `round` says: cut short, bytes changed, or a long varint
    /// (a huge count or length) written somewhere after the type byte.
    static func garbled(_ payload: ArraySlice<UInt8>, round: Int, using rng: inout SeededGenerator) -> [UInt8] {
        var payload = Array(payload)
        switch round % 3 {
        case 0:
            payload.removeLast(Int.random(in: 1..<payload.count, using: &rng))
        case 1:
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                payload[Int.random(in: 1..<payload.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
        default:
            let at = Int.random(in: 1..<payload.count, using: &rng)
            let long: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]
            payload.replaceSubrange(at..<min(at + long.count, payload.count), with: long)
        }
        return payload
    }

    /// Opens the store at "/store" in `.refuse` mode, then (unless the damage is a value
    /// that does not fit) in `.salvage` mode: refusing throws only damage errors, salvaging
    /// always opens, and reports damage whenever refusing threw.
    static func openBothWays(_ fileSystem: SimulatedFileSystem, schema: StoreSchema, context: String) {
        var refused = false
        do {
            try GraphStore.open(path: "/store", schema: schema, options: GraphStore.Options(recovery: .refuse), fileSystem: fileSystem).close()
        } catch .corruptRecord, .damaged {
            refused = true
        } catch .incompatibleSchema {
            // A value that does not fit its attribute's type cannot be told from a changed
            // type: no mode opens the store.
            return
        } catch {
            Issue.record("\(context): \(error)")
            return
        }
        do {
            let store = try GraphStore.open(path: "/store", schema: schema, options: GraphStore.Options(recovery: .salvage), fileSystem: fileSystem)
            if refused { #expect(!store.openReport.isClean, "\(context)") }
            store.close()
        } catch {
            Issue.record("\(context): salvage threw \(error)")
        }
    }

    @Test("Garbled snapshot records with intact checksums: refuse names the damage, salvage opens and reports it", arguments: testSeeds(count: 4))
    func garbledSnapshotRecords(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        for round in 0..<30 {
            let fileSystem = try SnapshotDamageFuzzTests.compactedStore()
            let (records, _) = try Self.snapshotRecords(fileSystem)
            // Any record but the schema's.
            let target = records[Int.random(in: 1..<records.count, using: &rng)]
            let payload = Self.garbled(target.payload, round: round, using: &rng)
            try Self.rewrite("/store/snapshot", in: fileSystem) { record in
                record.sequence == target.sequence ? payload : Array(record.payload)
            }
            Self.openBothWays(fileSystem, schema: storeSchema, context: "seed \(seed), round \(round), snapshot record \(target.sequence) of type \(target.payload.first ?? 0)")
        }
    }

    @Test("Garbled commit records with intact checksums: refuse names the damage, salvage opens and reports it", arguments: testSeeds(count: 4))
    func garbledCommitRecords(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        for round in 0..<30 {
            let fileSystem = SimulatedFileSystem()
            let store = try GraphStore.open(path: "/store", schema: storeSchema, options: GraphStore.Options(), fileSystem: fileSystem)
            let graph = store.graph
            let shelf = graph.insert(Shelf())
            let tag = graph.insert(Tag())
            try graph.commit()
            for index in 0..<6 {
                let product = graph.insert(Product())
                product.name = "product \(index)"
                product.shelf = index % 2 == 0 ? shelf : nil
                product.tags = index % 3 == 0 ? [tag] : []
                try graph.commit()
            }
            for product in graph.objects(of: Product.self).prefix(2) { graph.delete(product) }
            shelf.name = "renamed"
            try graph.commit()
            store.close()
            let scan = try RecordScan(bytes: try fileSystem.readFile("/store/journal"), path: "/store/journal")
            let commits = scan.records.filter { $0.payload.first == GraphRecordType.commit.rawValue }
            let target = commits[Int.random(in: 0..<commits.count, using: &rng)]
            let payload = Self.garbled(target.payload, round: round, using: &rng)
            try Self.rewrite("/store/journal", in: fileSystem) { record in
                record.sequence == target.sequence ? payload : Array(record.payload)
            }
            Self.openBothWays(fileSystem, schema: storeSchema, context: "seed \(seed), round \(round), commit record \(target.sequence)")
        }
    }
}
