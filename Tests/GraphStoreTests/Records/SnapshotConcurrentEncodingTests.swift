import Foundation
@testable import GraphStore
import ObjectGraph
import Testing
import TestSupport

@Suite("Snapshot: values records encoded on two threads")
struct SnapshotConcurrentEncodingTests {
    /// A graph of entities that are encoded concurrently (`Gauge`, `Part`, `Song`: attributes
    /// and to-one relationships) and serially (`Playlist`: an ordered to-many column), with
    /// gaps in the serials, nils, shared strings and cross-entity references. (No `Codable`
    /// attribute: its JSON's key order is not the same from one encoding to the next, so two
    /// writes of such a value need not be byte-identical, whichever thread writes them.)
    private static func makeGraph(seed: UInt64, scale: Int) throws -> ObjectGraph {
        var random = SeededGenerator(seed: seed)
        let graph = ObjectGraph()
        let bins = (0..<7).map { index in
            let bin = graph.insert(Bin())
            bin.name = "bin \(index)"
            return bin
        }
        let playlist = graph.insert(Playlist())
        playlist.title = "mix"
        var gauges: [Gauge] = []
        var parts: [Part] = []
        for index in 0..<scale {
            let gauge = graph.insert(Gauge())
            gauge.level = Int32.random(in: -1_000...1_000, using: &random)
            gauge.label = Bool.random(using: &random) ? "shared" : "gauge \(index) \(String(repeating: "x", count: index % 40))"
            gauge.note = index % 3 == 0 ? nil : "n\(index % 10)"
            gauges.append(gauge)
            let part = graph.insert(Part())
            part.number = Int.random(in: Int.min...Int.max, using: &random)
            part.bin = index % 5 == 0 ? nil : bins[Int.random(in: 0..<bins.count, using: &random)]
            parts.append(part)
        }
        for index in 0..<(scale / 8) {
            let song = graph.insert(Song())
            song.title = "song \(index)"
            playlist.songs.append(song)
        }
        try graph.commit()
        for (index, gauge) in gauges.enumerated() where index % 11 == 4 || Int.random(in: 0..<50, using: &random) == 0 {
            graph.delete(gauge)
        }
        for (index, part) in parts.enumerated() where index % 13 == 7 { graph.delete(part) }
        try graph.commit()
        return graph
    }

    /// The bytes of a snapshot file written with a fixed header.
    private static func snapshotBytes(
        of graph: ObjectGraph, schema: StoreSchema, concurrently: Bool, chunksPerBatch: Int,
        objectsPerList: Int = Snapshot.objectsPerList, graphID: UUID? = nil
    ) throws -> [UInt8] {
        let fileSystem = SimulatedFileSystem()
        try fileSystem.createDirectory("/s")
        let header = RecordFileHeader(
            kind: .snapshot, schemaFingerprint: schema.fingerprint, graphID: graphID ?? graph.identifier, generation: 1, salt: 0x5EED)
        let writer = try RecordWriter.create(path: "/s/snapshot", fileSystem: fileSystem, header: header, firstSequence: 0)
        writer.holdsWholeRecords = true
        try Snapshot.write(
            graph, schema: schema, includedSequence: 9, to: writer, concurrently: concurrently, chunksPerBatch: chunksPerBatch,
            objectsPerList: objectsPerList)
        try writer.sync()
        return try fileSystem.readFile("/s/snapshot")
    }

    @Test("The file is byte for byte the one a single thread writes", arguments: testSeeds(count: 3))
    func sameBytes(seed: UInt64) throws {
        let schema = try StoreSchema([Gauge.self, Bin.self, Part.self, Playlist.self, Song.self])
        // Several batches of several chunks, and a last chunk that is not full.
        let graph = try Self.makeGraph(seed: seed, scale: 7 * Snapshot.objectsPerChunk + 123)
        // One list of objects per entity, then lists of two chunks (batches end inside them).
        for list in [Snapshot.objectsPerList, 2 * Snapshot.objectsPerChunk] {
            let serial = try Self.snapshotBytes(of: graph, schema: schema, concurrently: false, chunksPerBatch: 16, objectsPerList: list)
            for chunksPerBatch in [1, 2, 3, 16] {
                let concurrentBytes = try Self.snapshotBytes(
                    of: graph, schema: schema, concurrently: true, chunksPerBatch: chunksPerBatch, objectsPerList: list)
                // The first byte that differs, if any (comparing whole arrays would print them).
                let difference = zip(concurrentBytes, serial).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                #expect(concurrentBytes.count == serial.count, "seed \(seed), \(chunksPerBatch) chunks per batch, lists of \(list)")
                #expect(difference == nil, "seed \(seed), \(chunksPerBatch) chunks per batch, lists of \(list)")
            }
        }
        // Entities of both kinds were written: some concurrently, some not.
        let columns = Snapshot.ColumnEncoder(schema: schema, derived: Snapshot.derivedRelationships(graph, schema: schema))
        let concurrent = Set(schema.entities.indices.filter { columns.readsOnly(entity: $0) }.map { schema.entities[$0].description.name })
        #expect(concurrent.isSuperset(of: ["Gauge", "Part", "Song"]), "\(concurrent)")
        #expect(!concurrent.contains("Playlist"), "\(concurrent)")
    }

    /// The file's length and CRC-32C, with a fixed graph identifier, as the encoder wrote it
    /// before the run-of-serials and bounded-column changes (commit 36993c0, the layout in which
    /// objects and values records take turns; lists of every size, gaps in the serials,
    /// batches ending inside lists): a faster encoder must write the same bytes.
    @Test("The file is byte for byte the one the encoder wrote before its speed-ups",
          arguments: [
              (Snapshot.objectsPerList, 1, 462_633, 4_289_172_423 as UInt32), (3 * Snapshot.objectsPerChunk, 2, 462_673, 2_006_654_912),
              (2 * Snapshot.objectsPerChunk, 3, 462_713, 3_803_240_618),
          ])
    func sameBytesAsBefore(objectsPerList: Int, chunksPerBatch: Int, count: Int, checksum: UInt32) throws {
        let schema = try StoreSchema([Gauge.self, Bin.self, Part.self, Playlist.self, Song.self])
        let graph = try Self.makeGraph(seed: 5, scale: 6 * Snapshot.objectsPerChunk + 1_000)
        let identifier = UUID(uuidString: "00000000-0000-4000-8000-00000000F17E")!
        for concurrently in [false, true] {
            let bytes = try Self.snapshotBytes(
                of: graph, schema: schema, concurrently: concurrently, chunksPerBatch: chunksPerBatch, objectsPerList: objectsPerList,
                graphID: identifier)
            #expect(bytes.count == count, "lists of \(objectsPerList), concurrently: \(concurrently)")
            #expect(CRC32C.checksum(bytes) == checksum, "lists of \(objectsPerList), concurrently: \(concurrently)")
        }
    }

    @Test("A store compacted with concurrent encoding reopens to the same graph")
    func roundTrip() throws {
        let directory = TemporaryDirectory()
        let schema = try StoreSchema([Gauge.self, Bin.self, Part.self])
        var expected: [String] = []
        do {
            let store = try GraphStore.open(at: directory.url, schema: schema)
            var random = SeededGenerator(seed: 17)
            let bins = (0..<3).map { _ in store.graph.insert(Bin()) }
            for index in 0..<(5 * Snapshot.objectsPerChunk + 9) {
                let gauge = store.graph.insert(Gauge())
                gauge.label = "g\(index)"
                let part = store.graph.insert(Part())
                part.number = index
                part.bin = Bool.random(using: &random) ? bins[index % 3] : nil
            }
            try store.graph.commit()
            try store.compact()
            expected = Self.describe(store.graph)
            store.close()
        }
        let store = try GraphStore.open(at: directory.url, schema: schema)
        defer { store.close() }
        #expect(store.openReport.isClean, "\(store.openReport)")
        #expect(Self.describe(store.graph) == expected)
    }

    @Test("Objects and values records take turns per list of objects; a file listing every objects record first, as 0.1.0 wrote, loads to the same graph")
    func recordLayout() throws {
        let schema = try StoreSchema([Gauge.self, Bin.self, Part.self, Playlist.self, Song.self])
        // Lists of three chunks; more than two lists of gauges and of parts, the last one
        // not full, in batches that end inside a list.
        let list = 3 * Snapshot.objectsPerChunk
        let graph = try Self.makeGraph(seed: 5, scale: 2 * list + 1_000)
        let bytes = try Self.snapshotBytes(of: graph, schema: schema, concurrently: true, chunksPerBatch: 2, objectsPerList: list)
        let records = try RecordScan(bytes: bytes, path: "/s/snapshot", mode: .refuse).records
        // Each objects record is followed by the values records of its objects.
        var listed = 0
        var valued = 0
        var objectsRecords = 0
        for record in records {
            if record.payload.first == GraphRecordType.objects.rawValue {
                #expect(listed == valued, "an objects record before the values of the one before")
                var reader = ByteReader(record.payload.dropFirst())
                _ = try reader.count()
                listed += try reader.count()
                objectsRecords += 1
            } else if record.payload.first == GraphRecordType.values.rawValue {
                var reader = ByteReader(record.payload.dropFirst())
                _ = try reader.count()
                valued += try reader.count()
                #expect(valued <= listed, "values of objects not listed yet")
            }
        }
        #expect(listed == valued && objectsRecords >= 6, "\(objectsRecords) objects records")
        // The same records, every objects record first: the layout of files written before.
        let isObjects = { (record: RecordReader.Record) in record.payload.first == GraphRecordType.objects.rawValue }
        let isTrailer = { (record: RecordReader.Record) in record.payload.first == GraphRecordType.trailer.rawValue }
        let body = Array(records.dropFirst(2))
        let reordered: [RecordReader.Record] = Array(records.prefix(2)) + body.filter(isObjects)
            + body.filter { !isObjects($0) && !isTrailer($0) } + body.filter(isTrailer)
        #expect(reordered.count == records.count)
        let fileSystem = SimulatedFileSystem()
        try fileSystem.createDirectory("/old")
        let header = RecordFileHeader(kind: .snapshot, schemaFingerprint: schema.fingerprint, graphID: graph.identifier, generation: 1, salt: 0x01D)
        let writer = try RecordWriter.create(path: "/old/snapshot", fileSystem: fileSystem, header: header, firstSequence: 0)
        for record in reordered { try writer.append(Array(record.payload)) }
        try writer.sync()
        let oldRecords = try RecordScan(bytes: try fileSystem.readFile("/old/snapshot"), path: "/old/snapshot", mode: .refuse).records
        for (layout, records) in [("turns", records), ("objects first", oldRecords)] {
            let loaded = ObjectGraph(identifier: graph.identifier)
            for entity in schema.entities { loaded.register(entity.description.objectType) }
            let report = try Snapshot.load(records, into: loaded, schema: schema, path: "/s/snapshot")
            #expect(report.hasTrailer && report.losses.lostObjects.isEmpty, "\(layout)")
            #expect(Self.describe(loaded) == Self.describe(graph), "\(layout)")
            #expect(loaded.objects(of: Playlist.self).first?.songs.map(\.title) == graph.objects(of: Playlist.self).first?.songs.map(\.title), "\(layout)")
        }
    }

    private static func describe(_ graph: ObjectGraph) -> [String] {
        graph.objects(of: Gauge.self).map { "\($0.objectID) \($0.level) \($0.label) \($0.note ?? "-")" }
            + graph.objects(of: Part.self).map { "\($0.objectID) \($0.number) \($0.bin.map { "\($0.objectID)" } ?? "-")" }
            + graph.objects(of: Bin.self).map { "\($0.objectID) \($0.parts.count)" }
    }
}
