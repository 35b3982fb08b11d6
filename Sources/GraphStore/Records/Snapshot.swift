import Foundation
import ObjectGraph

/// A snapshot file: the schema; the relationships left out because their inverse is saved;
/// for each entity, in turns, the serials of up to ``objectsPerList`` of its live objects (an
/// objects record), then their values in chunks, by property (in columns); then a trailer
/// with every entity's serial count and the last journal record the snapshot includes.
///
/// A reader takes every objects record before any values record, so the order of the two
/// kinds in the file is free (files written before objects and values records took turns
/// list all of an entity's objects first).
///
/// Of a relationship and its inverse only one side is saved (the ordered side, else the
/// to-one side, else the first in the schema); loading rebuilds the other side from it, in
/// one pass per relationship. A relationship without inverse, and both sides of an ordered
/// relationship whose inverse is ordered too, are saved as they are.
enum Snapshot {
    /// Objects per values record: small enough that damage loses little, large enough that
    /// framing costs nothing.
    static let objectsPerChunk = 2_048

    /// Serials per objects record (a multiple of ``objectsPerChunk``, so each values record
    /// falls within one objects record), unless a test asks for fewer.
    static let objectsPerList = 65_536

    /// A relationship the snapshot leaves out, and the inverse it is rebuilt from (entity
    /// codes and property positions of the snapshot's schema).
    struct Derived: Equatable {
        var entity: Int
        var position: Int
        var sourceEntity: Int
        var sourcePosition: Int
    }

    /// The relationships of `schema` that a snapshot of `graph` leaves out.
    ///
    /// - Complexity: O(*p*) for *p* properties.
    static func derivedRelationships(_ graph: ObjectGraph, schema: StoreSchema) -> [Derived] {
        var derived: [Derived] = []
        for (code, entity) in schema.entities.enumerated() {
            for (position, property) in entity.properties.enumerated() {
                guard let kind = property.relationship, let inverse = graph.inverse(of: entity.description, property.index),
                      let inverseCode = schema.entityIndex[inverse.entity.name],
                      let inversePosition = schema.entities[inverseCode].properties.firstIndex(where: { $0.index == inverse.index }),
                      let inverseKind = schema.entities[inverseCode].properties[inversePosition].relationship
                else { continue }
                let leftOut: Bool
                if kind == .orderedToMany {
                    leftOut = false
                } else if inverseKind == .orderedToMany {
                    leftOut = true
                } else if (kind == .toOne) != (inverseKind == .toOne) {
                    leftOut = inverseKind == .toOne
                } else {
                    leftOut = (inverseCode, inversePosition) < (code, position)
                }
                if leftOut {
                    derived.append(Derived(entity: code, position: position, sourceEntity: inverseCode, sourcePosition: inversePosition))
                }
            }
        }
        return derived
    }

    /// Writes a graph's committed state to `writer` (not synced).
    ///
    /// - Parameters:
    ///   - concurrently: Whether values records may be encoded on two threads, and records
    ///     appended on a third while the next ones are encoded (the file is the same either
    ///     way).
    ///   - chunksPerBatch: Values records encoded per batch (see ``ValuesEncoder``).
    ///   - objectsPerList: Objects per objects record, a multiple of ``objectsPerChunk``
    ///     (tests make it small).
    /// - Complexity: O(*n*) for *n* objects and their relationships.
    static func write(
        _ graph: ObjectGraph, schema: StoreSchema, includedSequence: UInt64, to writer: RecordWriter,
        concurrently: Bool = ProcessInfo.processInfo.activeProcessorCount > 1, chunksPerBatch: Int = 16,
        objectsPerList: Int = Snapshot.objectsPerList
    ) throws {
        require(
            objectsPerList > 0 && objectsPerList % objectsPerChunk == 0,
            "internal inconsistency: a list of objects that is not a whole number of chunks")
        let appender = Appender(writer, concurrently: concurrently)
        do {
            try write(
                graph, schema: schema, includedSequence: includedSequence, to: appender, concurrently: concurrently,
                chunksPerBatch: chunksPerBatch, objectsPerList: objectsPerList)
        } catch {
            // The writer is the caller's again only once the queue has let it go.
            try? appender.finish()
            throw error
        }
        try appender.finish()
    }

    private static func write(
        _ graph: ObjectGraph, schema: StoreSchema, includedSequence: UInt64, to writer: Appender, concurrently: Bool,
        chunksPerBatch: Int, objectsPerList: Int
    ) throws {
        let encoder = GraphRecordEncoder(schema: schema)
        writer.append(encoder.schemaRecord())
        let derived = derivedRelationships(graph, schema: schema)
        var inverses = ByteWriter()
        inverses.byte(GraphRecordType.inverses.rawValue)
        inverses.varint(derived.count)
        for relationship in derived {
            inverses.varint(relationship.entity)
            inverses.varint(relationship.position)
            inverses.varint(relationship.sourceEntity)
            inverses.varint(relationship.sourcePosition)
        }
        writer.append(inverses.bytes)
        let columns = ColumnEncoder(schema: schema, derived: derived)
        let values = ValuesEncoder(columns: columns, chunksPerBatch: chunksPerBatch, objectsPerList: objectsPerList)
        var serialCounts: [(Int, Int)] = []
        var total = 0
        // One buffer for every objects record, filled straight from the graph's tables: the
        // objects unretained, their values read in place, each column by a loop of its own
        // type. The table of each entity is read once: each list of objects goes to an
        // objects record, then to the values records of its objects.
        var chunk = Chunk(capacity: 1 << 16)
        for (code, entity) in schema.entities.enumerated() {
            let type = entity.description.objectType
            let issued = graph.serialCount(of: entity.description)
            serialCounts.append((code, issued))
            let concurrent = concurrently && columns.readsOnly(entity: code)
            var next = 0
            while next < issued && !writer.hasFailed {
                let filled: Int
                (filled, next) = values.objects.fill(from: graph, of: type, from: next)
                guard filled > 0 else { continue }
                // The objects record: each serial as the difference from the one before.
                chunk.writeSerials(values.objects[0..<filled].serials)
                chunk.count = filled
                total += filled
                chunk.emit(.objects, code: code, to: writer)
                // Its objects' values records, objectsPerChunk objects each (the entity's last
                // one fewer).
                try values.write(count: filled, code: code, concurrently: concurrent, to: writer)
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
        writer.append(trailer.bytes)
    }

    /// A snapshot record being filled: its type, its entity's code and a count of objects
    /// known only once the record is full, then the objects. Room for that header is kept in
    /// front of the objects and filled last, so the record is appended without a copy.
    private struct Chunk: ~Copyable {
        static let headerRoom = recordHeaderRoom
        /// `headerRoom` bytes, then the objects.
        var writer: RawByteWriter
        /// Objects written since the last record.
        var count = 0

        init(capacity: Int) {
            writer = RawByteWriter(capacity: capacity)
            writer.reserve(Self.headerRoom)
            writer.count = Self.headerRoom
        }

        /// Writes each of `serials` (increasing) as the difference from the one before it,
        /// the first from -1: when they have no gaps, every difference after the first is 1,
        /// written as a run of bytes.
        ///
        /// - Complexity: O(*k*) for *k* serials.
        mutating func writeSerials(_ serials: some RandomAccessCollection<Int>) {
            guard let first = serials.first, let last = serials.last else { return }
            writer.varint(first + 1)
            if last - first == serials.count - 1 {
                writer.byte(1, repeated: serials.count - 1)
                return
            }
            writer.reserve(serials.count * 10)
            var previous = first
            for serial in serials.dropFirst() {
                writer.varint(serial - previous)
                previous = serial
            }
        }

        /// Appends the record and empties the chunk.
        mutating func emit(_ type: GraphRecordType, code: Int, to file: Appender) {
            let header = recordHeader(type, code: code, count: count)
            let start = Self.headerRoom - header.bytes.count
            header.bytes.withUnsafeBytes { writer.overwrite(at: start, with: $0) }
            file.append(UnsafeRawBufferPointer(rebasing: writer.bytes[start...]))
            writer.count = Self.headerRoom
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
        /// Records whose checksum holds but whose contents could not be read, left out (in
        /// the recovery modes that keep going), with what was wrong.
        var unreadable: [(record: RecordReader.Record, reason: String)] = []
        /// The snapshot's schema record was lost and its records were read with the app's
        /// schema (``load(_:into:schema:path:mode:appSchemaFingerprint:)``).
        var readWithAppSchema = false
    }

}
