import Foundation
@testable import GraphStore
import ObjectGraph
import Testing
import TestSupport

/// Snapshot records whose checksums hold but whose payloads are cut or garbled (what a
/// writer's bug or a hand-edited file leaves) go through the decoder: loading throws or
/// reports damage, and never reads past a record or traps.
@Suite("Snapshot decoding of garbled records")
struct SnapshotDamageFuzzTests {
    /// The records of a compacted store of every attribute type and relationship kind.
    static func records() throws -> (records: [RecordReader.Record], graphID: UUID) {
        let scan = try RecordScan(bytes: try compactedStore().readFile("/store/snapshot"), path: "/store/snapshot", kind: .snapshot)
        return (scan.records, scan.header.graphID)
    }

    /// A compacted store at "/store" of every attribute type and relationship kind: 3
    /// shelves, 4 tags and 40 products (serials 0–39, one values record), a playlist and 10
    /// songs.
    static func compactedStore() throws -> SimulatedFileSystem {
        let fileSystem = SimulatedFileSystem()
        let store = try GraphStore.open(path: "/store", schema: storeSchema, options: GraphStore.Options(), fileSystem: fileSystem)
        let graph = store.graph
        let shelves = (0..<3).map { index in
            let shelf = graph.insert(Shelf())
            shelf.name = "shelf \(index)"
            return shelf
        }
        let tags = (0..<4).map { index in
            let tag = graph.insert(Tag())
            tag.label = "tag \(index)"
            return tag
        }
        for index in 0..<40 {
            let product = graph.insert(Product())
            product.name = index % 3 == 0 ? "same" : "name \(index) é"
            product.count = index * 1_000_003
            product.big = UInt64(index) << 50
            product.price = Double(index) / 3
            product.note = index % 2 == 0 ? nil : "note \(index % 4)"
            product.rating = index % 5 == 0 ? nil : index
            product.blob = Data(repeating: UInt8(index), count: index % 7)
            product.link = URL(string: "https://example.com/\(index % 3)")!
            product.cost = Decimal(index) / 4
            product.shelf = index % 4 == 0 ? nil : shelves[index % 3]
            product.tags = Set(tags.prefix(index % 4))
        }
        let playlist = graph.insert(Playlist())
        playlist.title = "list"
        for index in 0..<10 {
            let song = graph.insert(Song())
            song.title = "song \(index % 2)"
            song.playlist = index % 3 == 0 ? nil : playlist
        }
        try graph.commit()
        try store.compact()
        store.close()
        return fileSystem
    }

    /// Loads `records` into a new graph: whatever they hold, this returns or throws.
    static func load(_ records: [RecordReader.Record], graphID: UUID) {
        let graph = ObjectGraph(identifier: graphID)
        for entity in storeSchema.entities { graph.register(entity.description.objectType) }
        _ = try? Snapshot.load(records, into: graph, schema: storeSchema, path: "/store/snapshot")
    }

    @Test("A values record cut short or garbled anywhere throws or is reported, never read past its end", arguments: testSeeds(count: 4))
    func garbledValues(seed: UInt64) throws {
        let (records, graphID) = try Self.records()
        let targets = records.indices.filter { records[$0].payload.first == GraphRecordType.values.rawValue }
        try #require(!targets.isEmpty)
        var rng = SeededGenerator(seed: seed)
        for round in 0..<300 {
            var damaged = records
            let target = targets.randomElement(using: &rng)!
            damaged[target].payload = RecordContentDamageTests.garbled(damaged[target].payload, round: round, using: &rng)[...]
            Self.load(damaged, graphID: graphID)
        }
    }

    @Test("An intact snapshot still loads through the same path")
    func intactLoads() throws {
        let (records, graphID) = try Self.records()
        let graph = ObjectGraph(identifier: graphID)
        for entity in storeSchema.entities { graph.register(entity.description.objectType) }
        let loaded = try Snapshot.load(records, into: graph, schema: storeSchema, path: "/store/snapshot")
        #expect(loaded.hasTrailer)
        #expect(graph.objects(of: Product.self).count == 40)
    }

    @Test("A reference that names an object of another entity than the relationship's destination is cut, not stored")
    func referenceToAnotherEntity() throws {
        let fileSystem = SimulatedFileSystem()
        let schema = try StoreSchema([Bin.self, Part.self])
        let store = try GraphStore.open(path: "/store", schema: schema, options: GraphStore.Options(), fileSystem: fileSystem)
        store.graph.insert(Bin()).name = "bin"
        store.graph.insert(Part()).number = 7
        try store.graph.commit()
        try store.compact()
        store.close()
        let scan = try RecordScan(bytes: try fileSystem.readFile("/store/snapshot"), path: "/store/snapshot", kind: .snapshot)
        var records = scan.records
        // The parts' values record ends with the column of `bin`: one 0 byte (no bin). Make
        // it name part 0 instead (2 × (serial + 1), then the code of Part: 1).
        let index = try #require(records.indices.last { records[$0].payload.first == GraphRecordType.values.rawValue })
        #expect(records[index].payload.last == 0)
        records[index].payload = (Array(records[index].payload.dropLast()) + [2, 1])[...]
        let graph = ObjectGraph(identifier: scan.header.graphID)
        for entity in schema.entities { graph.register(entity.description.objectType) }
        let loaded = try Snapshot.load(records, into: graph, schema: schema, path: "/store/snapshot")
        let part = try #require(graph.objects(of: Part.self).first)
        #expect(part.number == 7)
        #expect(part.bin == nil)
        #expect(loaded.losses.cutReferences == 1, "\(loaded.losses)")
        #expect(graph.objects(of: Bin.self).map(\.parts.count) == [0])
    }
}
