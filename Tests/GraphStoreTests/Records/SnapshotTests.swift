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
}
