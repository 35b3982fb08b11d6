import Foundation
@testable import GraphStore
import ObjectGraph
import Testing
import TestSupport

/// A gauge saved with a 32-bit level.
final class Gauge: GraphObject {
    override class var entityName: String { "Gauge" }
    @Attribute var level: Int32 = 0
    @Attribute var label = ""
    @Attribute var note: String? = nil
}

/// The same entity, read later with a wider level.
final class WideGauge: GraphObject {
    override class var entityName: String { "Gauge" }
    @Attribute var level = 0
    @Attribute var label = ""
    @Attribute var note: String? = nil
}

/// The same entity, read later with a level too narrow for some saved values.
final class TinyGauge: GraphObject {
    override class var entityName: String { "Gauge" }
    @Attribute var level: Int8 = 0
    @Attribute var label = ""
    @Attribute var note: String? = nil
}

/// A bin of parts: the to-many side of a pair whose to-one side is `Part.bin`.
final class Bin: GraphObject {
    @Attribute var name = ""
    @Relationship var parts: Set<Part>
}

/// A part in a bin.
final class Part: GraphObject {
    @Attribute var number = 0
    @Relationship(inverse: \Bin.parts) var bin: Bin?
}

@Suite("Snapshot and commit records: chunking and converted values")
struct SnapshotTests {
    @Test("An entity larger than an objects list and many value chunks, with gaps in its serials, survives compaction")
    func manyChunks() throws {
        let directory = TemporaryDirectory()
        let schema = try StoreSchema([Gauge.self])
        // More than one objects list (65,536 serials) and dozens of value chunks (2,048).
        let count = Snapshot.objectsPerList + 3 * Snapshot.objectsPerChunk + 5
        var expected: [String] = []
        do {
            let store = try GraphStore.open(at: directory.url, schema: schema)
            let gauges = (0..<count).map { index in
                let gauge = store.graph.insert(Gauge())
                gauge.level = Int32(index) - 1_000
                gauge.label = "g\(index)"
                gauge.note = index % 3 == 0 ? nil : "n\(index % 10)"
                return gauge
            }
            try store.graph.commit()
            for (index, gauge) in gauges.enumerated() where index % 7 == 3 || index > count - 4 { store.graph.delete(gauge) }
            try store.graph.commit()
            try store.compact()
            expected = store.graph.objects(of: Gauge.self).map { "\($0.objectID) \($0.level) \($0.label) \($0.note ?? "-")" }
            store.close()
        }
        let store = try GraphStore.open(at: directory.url, schema: schema)
        defer { store.close() }
        #expect(store.openReport.isClean, "\(store.openReport)")
        #expect(store.openReport.replayedCommits == 0)
        let found = store.graph.objects(of: Gauge.self).map { "\($0.objectID) \($0.level) \($0.label) \($0.note ?? "-")" }
        #expect(found.count == expected.count)
        #expect(found == expected)
        #expect(store.graph.serialCount(of: Gauge.entity) == count)
    }

    @Test("Values saved with one integer width are read with another, from the snapshot and the journal")
    func convertedValues() throws {
        let directory = TemporaryDirectory()
        let levels: [Int32] = [0, -5, 127, 70_000, .min, .max]
        do {
            let store = try GraphStore.open(at: directory.url, schema: try StoreSchema([Gauge.self]))
            for (index, level) in levels.enumerated() {
                let gauge = store.graph.insert(Gauge())
                gauge.level = level
                gauge.label = "g\(index)"
                try store.graph.commit()
                // The first half goes into the snapshot, the rest stays in the journal.
                if index == levels.count / 2 { try store.compact() }
            }
            store.close()
        }
        do {
            let store = try GraphStore.open(at: directory.url, schema: try StoreSchema([WideGauge.self]))
            defer { store.close() }
            #expect(store.openReport.replayedCommits == levels.count - levels.count / 2 - 1)
            let found = store.graph.objects(of: WideGauge.self).map { "\($0.label)=\($0.level)" }
            #expect(found == levels.enumerated().map { "g\($0.offset)=\($0.element)" })
        }
        // Too narrow: a clear error, and the store is left as it was.
        #expect {
            try GraphStore.open(at: directory.url, schema: try StoreSchema([TinyGauge.self]))
        } throws: { error in
            guard case GraphStoreError.incompatibleSchema(let reason) = error else { return false }
            return reason.contains("Gauge.level")
        }
        let report = try GraphStore.verify(at: directory.url, schema: try StoreSchema([WideGauge.self]))
        #expect(report.isClean, "\(report)")
    }

    /// A store of `count` parts spread over two bins, compacted, on a simulated file system.
    static func binStore(count: Int) throws -> (SimulatedFileSystem, [String]) {
        let fileSystem = SimulatedFileSystem()
        let store = try GraphStore.open(path: "/store", schema: try StoreSchema([Bin.self, Part.self]), options: GraphStore.Options(), fileSystem: fileSystem)
        let bins = (0..<2).map { index in
            let bin = store.graph.insert(Bin())
            bin.name = "bin \(index)"
            return bin
        }
        for index in 0..<count {
            let part = store.graph.insert(Part())
            part.number = index % 50
            part.bin = bins[index % 2]
        }
        try store.graph.commit()
        try store.compact()
        let state = binDump(store.graph)
        store.close()
        return (fileSystem, state)
    }

    /// Every part with its bin, and every bin with its parts.
    static func binDump(_ graph: ObjectGraph) -> [String] {
        graph.objects(of: Part.self).map { "\($0.objectID) \($0.number) \($0.bin.map { "\($0.objectID)" } ?? "-")" }
            + graph.objects(of: Bin.self).map { "\($0.objectID) \($0.name) \($0.parts.map { "\($0.objectID)" }.sorted())" }
    }

    static func openBins(_ fileSystem: SimulatedFileSystem, _ recovery: GraphStore.Recovery) throws -> GraphStore {
        try GraphStore.open(
            path: "/store", schema: try StoreSchema([Bin.self, Part.self]), options: GraphStore.Options(recovery: recovery), fileSystem: fileSystem)
    }

    @Test("A snapshot saves one side of each inverse pair and rebuilds the other on load")
    func oneSideOfInverses() throws {
        let count = 10_000
        let (fileSystem, state) = try Self.binStore(count: count)
        // Each part's bin is saved once, as one byte: its serial list, its number and its bin
        // take about three bytes (the bins' sets of parts took three more).
        let size = try fileSystem.readFile("/store/snapshot").count
        #expect(size < 5 * count, "\(size) bytes for \(count) parts")
        let store = try Self.openBins(fileSystem, .refuse)
        defer { store.close() }
        #expect(store.openReport.isClean, "\(store.openReport)")
        #expect(Self.binDump(store.graph) == state)
        #expect(store.graph.objects(of: Bin.self).map(\.parts.count) == [count / 2, count / 2])
    }

    /// The offset of a snapshot record's payload byte `index` (one fragment: the record is small).
    static func snapshotOffset(_ fileSystem: SimulatedFileSystem, type: GraphRecordType, payloadByte index: Int) throws -> Int {
        let scan = try RecordScan(bytes: try fileSystem.readFile("/store/snapshot"), path: "/store/snapshot", kind: .snapshot)
        let record = try #require(scan.records.first { $0.payload.first == type.rawValue })
        return Int(record.offset) + RecordFormat.fragmentHeaderSize + RecordFormat.sequenceSize + index
    }

    @Test("When the record of the sides left out is damaged, refuse names the snapshot and salvage rebuilds them by repair")
    func damagedInverses() throws {
        let (fileSystem, state) = try Self.binStore(count: 300)
        let offset = try Self.snapshotOffset(fileSystem, type: .inverses, payloadByte: 1)
        fileSystem.corrupt("/store/snapshot", at: offset, with: [0x7F])
        #expect {
            _ = try Self.openBins(GraphStoreEvolutionTests.copy(fileSystem), .refuse)
        } throws: { error in
            guard case GraphStoreError.damaged(let file, _, _, _) = error else { return false }
            return file.hasSuffix("snapshot")
        }
        let store = try Self.openBins(fileSystem, .salvage)
        defer { store.close() }
        #expect(!store.openReport.isClean)
        #expect(store.openReport.lostObjects.isEmpty)
        #expect(store.openReport.repairedRelationships == 300, "\(store.openReport)")
        #expect(Self.binDump(store.graph) == state)
    }

    @Test("A damaged values record loses its objects, reported, and the inverses stay consistent")
    func damagedValues() throws {
        let count = 3 * Snapshot.objectsPerChunk
        let (fileSystem, _) = try Self.binStore(count: count)
        let scan = try RecordScan(bytes: try fileSystem.readFile("/store/snapshot"), path: "/store/snapshot", kind: .snapshot)
        // The second values record of the parts (the first is the bins').
        let record = scan.records.filter { $0.payload.first == GraphRecordType.values.rawValue }[2]
        fileSystem.corrupt("/store/snapshot", at: Int(record.offset) + 100, with: [0xAA, 0x55])
        let store = try Self.openBins(fileSystem, .salvage)
        defer { store.close() }
        #expect(store.openReport.lostObjects.count == Snapshot.objectsPerChunk, "\(store.openReport)")
        let parts = store.graph.objects(of: Part.self)
        #expect(parts.count == count - Snapshot.objectsPerChunk)
        for bin in store.graph.objects(of: Bin.self) {
            #expect(bin.parts.count == parts.filter { $0.bin === bin }.count)
            #expect(bin.parts.allSatisfy { $0.bin === bin && !$0.isDeleted })
        }
    }

    @Test("When the objects a to-one relationship names are lost, salvage cuts and counts every reference to them")
    func lostDestinations() throws {
        let count = 3 * Snapshot.objectsPerChunk + 7
        let (fileSystem, _) = try Self.binStore(count: count)
        // The bins' objects record: the first one (the bins come first in the schema).
        let offset = try Self.snapshotOffset(fileSystem, type: .objects, payloadByte: 1)
        fileSystem.corrupt("/store/snapshot", at: offset, with: [0x7F])
        let store = try Self.openBins(fileSystem, .salvage)
        defer { store.close() }
        #expect(store.graph.objects(of: Bin.self).isEmpty)
        let parts = store.graph.objects(of: Part.self)
        #expect(parts.count == count)
        #expect(parts.allSatisfy { $0.bin == nil })
        #expect(parts.map(\.number) == (0..<count).map { $0 % 50 })
        #expect(store.openReport.cutReferences == count, "\(store.openReport)")
        #expect(store.openReport.lostObjects.isEmpty, "\(store.openReport)")
    }

    @Test("Ordered relationships keep their order and many-to-many ones both sides through a snapshot")
    func orderedAndManyToMany() throws {
        let directory = TemporaryDirectory()
        var expected: [String] = []
        do {
            let store = try GraphStore.open(at: directory.url, schema: storeSchema)
            let list = store.graph.insert(Playlist())
            let songs = (0..<50).map { index in
                let song = store.graph.insert(Song())
                song.title = "s\(index)"
                return song
            }
            var rng = SeededGenerator(seed: 17)
            list.songs = songs.shuffled(using: &rng)
            let tags = (0..<3).map { _ in store.graph.insert(Tag()) }
            for index in 0..<20 {
                let product = store.graph.insert(Product())
                product.tags = Set(tags.enumerated().filter { (index >> $0.offset) & 1 == 1 }.map(\.element))
            }
            try store.graph.commit()
            try store.compact()
            expected = dump(store.graph)
            store.close()
        }
        let store = try GraphStore.open(at: directory.url, schema: storeSchema)
        defer { store.close() }
        #expect(store.openReport.isClean && store.openReport.replayedCommits == 0)
        #expect(dump(store.graph) == expected)
    }
}
