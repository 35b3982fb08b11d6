import Foundation
import ObjectGraph

/// A snapshot file: the schema, then for each entity the serials of its live objects, then
/// their values in chunks, then a trailer with every entity's serial count and the last
/// journal record the snapshot includes.
enum Snapshot {
    /// Objects per values record: small enough that damage loses little, large enough that
    /// framing costs nothing.
    static let objectsPerChunk = 2_048

    /// Writes a graph's committed state to `writer` (not synced).
    ///
    /// - Complexity: O(*n*) for *n* objects and their relationships.
    static func write(_ graph: ObjectGraph, schema: StoreSchema, includedSequence: UInt64, to writer: RecordWriter) throws {
        let encoder = GraphRecordEncoder(schema: schema)
        _ = try writer.append(encoder.schemaRecord())
        var serialCounts: [(Int, Int)] = []
        var total = 0
        for (code, entity) in schema.entities.enumerated() {
            var objects: [GraphObject] = []
            graph.forEachObject(of: entity.description) { objects.append($0) }
            serialCounts.append((code, graph.serialCount(of: entity.description)))
            total += objects.count
            var start = 0
            while start < objects.count {
                let end = min(objects.count, start + 65_536)
                var record = ByteWriter(capacity: (end - start) * 2 + 16)
                record.byte(GraphRecordType.objects.rawValue)
                record.varint(code)
                record.varint(end - start)
                var previous = -1
                for object in objects[start..<end] {
                    let serial = object.objectID.serialNumber
                    record.varint(serial - previous)
                    previous = serial
                }
                _ = try writer.append(record.bytes)
                start = end
            }
            start = 0
            while start < objects.count {
                let end = min(objects.count, start + objectsPerChunk)
                var record = ByteWriter(capacity: (end - start) * 32 + 16)
                record.byte(GraphRecordType.values.rawValue)
                record.varint(code)
                record.varint(end - start)
                for object in objects[start..<end] {
                    record.varint(object.objectID.serialNumber)
                    for property in entity.properties {
                        try encoder.writeProperty(property, of: object, to: &record)
                    }
                }
                _ = try writer.append(record.bytes)
                start = end
            }
        }
        var trailer = ByteWriter()
        trailer.byte(GraphRecordType.trailer.rawValue)
        trailer.varint(includedSequence)
        trailer.varint(serialCounts.count)
        for (code, count) in serialCounts {
            trailer.varint(code)
            trailer.varint(count)
        }
        trailer.varint(total)
        _ = try writer.append(trailer.bytes)
    }

    /// What loading a snapshot found.
    struct Loaded {
        var includedSequence: UInt64
        var hasTrailer: Bool
        var losses: RecordLosses
        /// Whether the snapshot was written with the current schema.
        var schemaIsCurrent = true
    }

    /// Loads the records of a snapshot into an empty graph.
    ///
    /// - Parameter records: The intact records, in file order (damaged ones already left
    ///   out by the caller's recovery mode).
    static func load(
        _ records: [RecordReader.Record], into graph: ObjectGraph, schema: StoreSchema, path: String
    ) throws(GraphStoreError) -> Loaded {
        guard let first = records.first else {
            throw .corruptRecord(file: path, sequence: 0, reason: "the snapshot has no schema record")
        }
        let file = try GraphRecordDecoder.schema(of: first.payload, current: schema, path: path, sequence: first.sequence)
        var decoder = GraphRecordDecoder(graph: graph, file: file, path: path)
        // First every object (a relationship may name an object of a later chunk), then values.
        for record in records.dropFirst() where record.payload.first == GraphRecordType.objects.rawValue {
            try converting(path: path, sequence: record.sequence) {
                var reader = ByteReader(record.payload.dropFirst())
                let entity = try decoder.entity(try reader.count(), reader)
                let count = try reader.count(limit: record.payload.count)
                var serial = -1
                for _ in 0..<count {
                    serial += try reader.count()
                    guard let current = entity.current else { continue }
                    guard serial >= graph.serialCount(of: current.description) else {
                        throw reader.failure("serial \(serial) of \(entity.name) is listed twice")
                    }
                    _ = graph.restoreObject(of: current.description.objectType, serial: serial)
                }
            }
        }
        var valued: [ObjectIdentifier: Set<Int>] = [:]
        var loaded = Loaded(includedSequence: 0, hasTrailer: false, losses: RecordLosses())
        for record in records.dropFirst() {
            switch record.payload.first {
            case GraphRecordType.values.rawValue:
                try converting(path: path, sequence: record.sequence) {
                    var reader = ByteReader(record.payload.dropFirst())
                    let entity = try decoder.entity(try reader.count(), reader)
                    let count = try reader.count(limit: record.payload.count)
                    for _ in 0..<count {
                        let serial = try reader.count()
                        let object = entity.current.flatMap { graph.restoredObject(of: $0.description.objectType, serial: serial) }
                        if let object { valued[ObjectIdentifier(object.objectID.entity), default: []].insert(serial) }
                        for property in entity.properties { try decoder.readProperty(property, into: object, &reader) }
                    }
                }
            case GraphRecordType.trailer.rawValue:
                try converting(path: path, sequence: record.sequence) {
                    var reader = ByteReader(record.payload.dropFirst())
                    loaded.includedSequence = try reader.varint()
                    let entities = try reader.count(limit: file.entities.count)
                    for _ in 0..<entities {
                        let entity = try decoder.entity(try reader.count(), reader)
                        let count = try reader.count(limit: 1 << 32)
                        if let current = entity.current { graph.restoreSerialCount(count, of: current.description.objectType) }
                    }
                    _ = try reader.varint()
                    loaded.hasTrailer = true
                }
            case GraphRecordType.objects.rawValue:
                continue
            default:
                throw .corruptRecord(file: path, sequence: record.sequence, reason: "a snapshot holds a record of type \(record.payload.first ?? 0)")
            }
        }
        // Objects whose values were in a damaged chunk are lost: take them out again.
        for entity in schema.entities {
            var lost: [GraphObject] = []
            let have = valued[ObjectIdentifier(entity.description)] ?? []
            graph.forEachObject(of: entity.description) { object in
                if !have.contains(object.objectID.serialNumber) { lost.append(object) }
            }
            for object in lost {
                decoder.losses.lostObjects.append(object.objectID.uriRepresentation)
                graph.restoreDeletion(object)
            }
        }
        loaded.losses = decoder.losses
        loaded.schemaIsCurrent = file.isCurrent
        return loaded
    }
}
