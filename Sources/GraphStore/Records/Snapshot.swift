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
        // One buffer for every record, filled straight from the graph (no array of objects).
        var chunk = Chunk(capacity: 1 << 16)
        for (code, entity) in schema.entities.enumerated() {
            serialCounts.append((code, graph.serialCount(of: entity.description)))
            var previous = -1
            try graph.forEachObject(of: entity.description) { object in
                let serial = object.objectID.serialNumber
                chunk.writer.varint(serial - previous)
                previous = serial
                chunk.count += 1
                total += 1
                if chunk.count == objectsPerList {
                    try chunk.emit(.objects, code: code, to: writer)
                    previous = -1
                }
            }
            if chunk.count > 0 { try chunk.emit(.objects, code: code, to: writer) }
            try graph.forEachObject(of: entity.description) { object in
                chunk.writer.varint(object.objectID.serialNumber)
                try encoder.writeProperties(of: object, code: code, to: &chunk.writer)
                chunk.count += 1
                if chunk.count == objectsPerChunk { try chunk.emit(.values, code: code, to: writer) }
            }
            if chunk.count > 0 { try chunk.emit(.values, code: code, to: writer) }
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

    /// Serials per objects record.
    static let objectsPerList = 65_536

    /// A snapshot record being filled: its type, its entity's code and a count of objects
    /// known only once the record is full, then the objects. Room for that header is kept in
    /// front of the objects and filled last, so the record is appended without a copy.
    private struct Chunk {
        /// The most a header takes: a type byte and two varints of up to 64 bits.
        static let headerRoom = 1 + 10 + 10
        /// `headerRoom` bytes, then the objects.
        var writer: ByteWriter
        /// Objects written since the last record.
        var count = 0

        init(capacity: Int) {
            writer = ByteWriter(capacity: capacity)
            writer.bytes.append(contentsOf: repeatElement(0, count: Self.headerRoom))
        }

        /// Appends the record and empties the chunk.
        mutating func emit(_ type: GraphRecordType, code: Int, to file: RecordWriter) throws {
            var header = ByteWriter(capacity: Self.headerRoom)
            header.byte(type.rawValue)
            header.varint(code)
            header.varint(count)
            let start = Self.headerRoom - header.bytes.count
            writer.bytes.replaceSubrange(start..<Self.headerRoom, with: header.bytes)
            try writer.bytes.withUnsafeBytes { bytes in
                _ = try file.append(UnsafeRawBufferPointer(rebasing: bytes[start...]))
            }
            writer.bytes.removeSubrange(Self.headerRoom...)
            count = 0
        }
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
        // Which objects had their values read, by schema entity and serial.
        var valued = schema.entities.map { [Bool](repeating: false, count: graph.serialCount(of: $0.description)) }
        let schemaCodes = file.entities.map { entity in entity.current.flatMap { schema.entityIndex[$0.description.name] } }
        var loaded = Loaded(includedSequence: 0, hasTrailer: false, losses: RecordLosses())
        for record in records.dropFirst() {
            switch record.payload.first {
            case GraphRecordType.values.rawValue:
                try converting(path: path, sequence: record.sequence) {
                    var reader = ByteReader(record.payload.dropFirst())
                    let code = try reader.count()
                    let entity = try decoder.entity(code, reader)
                    let count = try reader.count(limit: record.payload.count)
                    let type = entity.current?.description.objectType
                    for _ in 0..<count {
                        let serial = try reader.count()
                        let object = type.flatMap { graph.restoredObject(of: $0, serial: serial) }
                        if object != nil, let schemaCode = schemaCodes[code] { valued[schemaCode][serial] = true }
                        for position in entity.properties.indices { try decoder.readProperty(code, position, into: object, &reader) }
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
        for (code, entity) in schema.entities.enumerated() {
            var lost: [GraphObject] = []
            graph.forEachObject(of: entity.description) { object in
                if !valued[code][object.objectID.serialNumber] { lost.append(object) }
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
