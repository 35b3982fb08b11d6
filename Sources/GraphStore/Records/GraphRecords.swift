import Foundation
import ObjectGraph

/// The kinds of record in a store's files: the first byte of every payload.
enum GraphRecordType: UInt8 {
    /// The schema the file was written with (its text form).
    case schema = 1
    /// One commit of the graph.
    case commit = 2
    /// Snapshot: the serials of the live objects of one entity.
    case objects = 3
    /// Snapshot: the values of some objects of one entity.
    case values = 4
    /// Snapshot: the last record, with the serial counts and the journal position included.
    case trailer = 5
}

/// Writes commits and snapshots in the current schema's codes: an entity is its position in
/// the schema, a property its position among its entity's properties, an object reference
/// its entity's code and its serial.
struct GraphRecordEncoder {
    let schema: StoreSchema

    func schemaRecord() -> [UInt8] {
        var writer = ByteWriter()
        writer.byte(GraphRecordType.schema.rawValue)
        writer.string(schema.text)
        return writer.bytes
    }

    func entityCode(_ object: GraphObject) throws(GraphStoreError) -> Int {
        let name = object.objectID.entityName
        guard let code = schema.entityIndex[name] else {
            throw .missingEntity(name, referencedBy: "an object of the graph")
        }
        return code
    }

    func writeReference(_ object: GraphObject, to writer: inout ByteWriter) throws(GraphStoreError) {
        writer.varint(try entityCode(object))
        writer.varint(object.objectID.serialNumber)
    }

    func writeReferences(_ objects: [GraphObject], to writer: inout ByteWriter) throws(GraphStoreError) {
        writer.varint(objects.count)
        for object in objects { try writeReference(object, to: &writer) }
    }

    /// Writes one property of an object: an attribute's value, or a relationship's objects.
    func writeProperty(_ property: StoreSchema.Property, of object: GraphObject, to writer: inout ByteWriter) throws(GraphStoreError) {
        if let kind = property.kind {
            let value = object.storedValue(at: property.index)
            do {
                kind.write(try kind.plain(value), to: &writer)
            } catch {
                throw .unsupportedAttribute(entity: object.objectID.entityName, property: property.name, type: error.description)
            }
        } else {
            try writeReferences(object.relatedObjects(at: property.index), to: &writer)
        }
    }

    /// The record of a commit.
    ///
    /// - Parameters:
    ///   - commit: The commit.
    ///   - serialCounts: Entities (by code) whose serial count grew past what the last record
    ///     said, and the count: objects inserted and deleted before a commit, or rolled
    ///     back, used serials no record names.
    func commitRecord(_ commit: PendingCommit, serialCounts: [(code: Int, count: Int)]) throws(GraphStoreError) -> [UInt8] {
        var writer = ByteWriter(capacity: 1_024)
        writer.byte(GraphRecordType.commit.rawValue)
        var inserted: [GraphObject] = []
        commit.forEachInserted { inserted.append($0) }
        writer.varint(inserted.count)
        for object in inserted { try writeReference(object, to: &writer) }
        for object in inserted {
            let entity = schema.entities[try entityCode(object)]
            for property in entity.properties { try writeProperty(property, of: object, to: &writer) }
        }
        var updates: [(GraphObject, ChangedProperties)] = []
        commit.forEachUpdated { updates.append(($0, $1)) }
        writer.varint(updates.count)
        for (object, changed) in updates {
            try writeReference(object, to: &writer)
            let entity = schema.entities[try entityCode(object)]
            let properties = entity.properties.enumerated().filter { changed.contains($0.element.index) }
            writer.varint(properties.count)
            for (position, property) in properties {
                writer.varint(position)
                if property.relationship == .toMany, let change = commit.membershipChange(of: object, property: property.index) {
                    writer.byte(1)
                    try writeReferences(change.added, to: &writer)
                    try writeReferences(change.removed, to: &writer)
                } else {
                    if property.relationship != nil { writer.byte(0) }
                    try writeProperty(property, of: object, to: &writer)
                }
            }
        }
        let deleted = commit.changes.deleted.sorted()
        writer.varint(deleted.count)
        for id in deleted {
            guard let code = schema.entityIndex[id.entityName] else { throw .missingEntity(id.entityName, referencedBy: "a deleted object") }
            writer.varint(code)
            writer.varint(id.serialNumber)
        }
        writer.varint(serialCounts.count)
        for (code, count) in serialCounts {
            writer.varint(code)
            writer.varint(count)
        }
        return writer.bytes
    }
}

/// What reading records left out, for the open report.
struct RecordLosses {
    /// References to objects that do not exist, dropped.
    var cutReferences = 0
    /// Objects whose values were lost, removed from the graph (URIs).
    var lostObjects: [String] = []
    /// Records skipped because they refer to objects that were lost.
    var skippedChanges = 0
}

/// Applies records written by ``GraphRecordEncoder`` (with the schema of their file) to a
/// graph, without recording anything.
struct GraphRecordDecoder {
    let graph: ObjectGraph
    let file: FileSchema
    let path: String
    var losses = RecordLosses()

    init(graph: ObjectGraph, file: FileSchema, path: String) {
        self.graph = graph
        self.file = file
        self.path = path
    }

    /// The file's schema, read from a schema record.
    static func schema(of payload: ArraySlice<UInt8>, current: StoreSchema, path: String, sequence: UInt64) throws(GraphStoreError) -> FileSchema {
        try converting(path: path, sequence: sequence) {
            var reader = ByteReader(payload)
            guard try reader.byte() == GraphRecordType.schema.rawValue else {
                throw GraphStoreError.corruptRecord(file: path, sequence: sequence, reason: "the first record of the file is not its schema")
            }
            return try FileSchema(text: try reader.string(), current: current)
        }
    }

    func entity(_ code: Int, _ reader: ByteReader) throws(ByteReaderError) -> FileSchema.Entity {
        guard code < file.entities.count else { throw reader.failure("entity \(code) is not in the file's schema") }
        return file.entities[code]
    }

    /// Reads a reference; `nil` when its object does not exist (its entity was removed, or
    /// the object was lost).
    mutating func readReference(_ reader: inout ByteReader) throws(ByteReaderError) -> GraphObject? {
        let entity = try entity(try reader.count(), reader)
        let serial = try reader.count()
        guard let current = entity.current else { return nil }
        return graph.restoredObject(of: current.description.objectType, serial: serial)
    }

    mutating func readReferences(_ reader: inout ByteReader) throws(ByteReaderError) -> [GraphObject] {
        let count = try reader.count(limit: reader.bytes.count)
        var objects: [GraphObject] = []
        objects.reserveCapacity(count)
        for _ in 0..<count {
            if let object = try readReference(&reader) {
                objects.append(object)
            } else {
                losses.cutReferences += 1
            }
        }
        return objects
    }

    /// Reads one property's value and stores it into `object` (when both still exist).
    mutating func readProperty(_ property: FileSchema.Property, into object: GraphObject?, _ reader: inout ByteReader) throws {
        if let kind = property.kind {
            let plain = try kind.read(from: &reader)
            guard let object, let index = property.current, let currentKind = property.currentKind, let type = property.currentType else { return }
            guard let value = currentKind.value(plain, as: type), graph.restoreAttribute(object, index, value) else {
                throw GraphStoreError.incompatibleSchema("a value of \(object.objectID.entityName).\(property.name) saved as \(kind) does not fit \(currentKind)")
            }
        } else {
            let targets = try readReferences(&reader)
            guard let object, let index = property.current else { return }
            graph.restoreRelationship(object, index, targets)
        }
    }

    /// Applies a commit record.
    mutating func applyCommit(_ payload: ArraySlice<UInt8>, sequence: UInt64) throws(GraphStoreError) {
        let path = path
        try converting(path: path, sequence: sequence) { () throws in try applyCommitRecord(payload, sequence: sequence) }
    }

    private mutating func applyCommitRecord(_ payload: ArraySlice<UInt8>, sequence: UInt64) throws {
        var reader = ByteReader(payload)
        do {
            guard try reader.byte() == GraphRecordType.commit.rawValue else {
                throw GraphStoreError.corruptRecord(file: path, sequence: sequence, reason: "not a commit record")
            }
            let insertCount = try reader.count(limit: payload.count)
            var inserted: [(FileSchema.Entity, GraphObject?)] = []
            inserted.reserveCapacity(insertCount)
            for _ in 0..<insertCount {
                let entity = try entity(try reader.count(), reader)
                let serial = try reader.count()
                guard let current = entity.current else {
                    inserted.append((entity, nil))
                    continue
                }
                let type = current.description.objectType
                if serial >= graph.serialCount(of: current.description) {
                    inserted.append((entity, graph.restoreObject(of: type, serial: serial)))
                } else {
                    // The serial was issued already: only a salvage that lost records gets here.
                    losses.skippedChanges += 1
                    inserted.append((entity, nil))
                }
            }
            for (entity, object) in inserted {
                for property in entity.properties { try readProperty(property, into: object, &reader) }
            }
            let updateCount = try reader.count(limit: payload.count)
            for _ in 0..<updateCount {
                let entity = try entity(try reader.count(), reader)
                let serial = try reader.count()
                let object = entity.current.flatMap { graph.restoredObject(of: $0.description.objectType, serial: serial) }
                if object == nil && entity.current != nil { losses.skippedChanges += 1 }
                let changedCount = try reader.count(limit: entity.properties.count)
                for _ in 0..<changedCount {
                    let position = try reader.count(limit: entity.properties.count - 1)
                    let property = entity.properties[position]
                    if property.relationship != nil, try reader.byte() == 1 {
                        let added = try readReferences(&reader)
                        let removed = try readReferences(&reader)
                        if let object, let index = property.current {
                            graph.restoreMembership(object, index, added: added, removed: removed)
                        }
                    } else {
                        try readProperty(property, into: object, &reader)
                    }
                }
            }
            let deleteCount = try reader.count(limit: payload.count)
            for _ in 0..<deleteCount {
                if let object = try readReference(&reader) { graph.restoreDeletion(object) }
            }
            let countCount = try reader.count(limit: file.entities.count)
            for _ in 0..<countCount {
                let entity = try entity(try reader.count(), reader)
                let count = try reader.count(limit: 1 << 32)
                if let current = entity.current { graph.restoreSerialCount(count, of: current.description.objectType) }
            }
            guard reader.isAtEnd else { throw reader.failure("bytes follow the commit") }
        }
    }
}

/// Runs `body`, turning what it throws into a ``GraphStoreError`` that names the record.
func converting<Result>(path: String, sequence: UInt64, _ body: () throws -> Result) throws(GraphStoreError) -> Result {
    do {
        return try body()
    } catch let error as GraphStoreError {
        throw error
    } catch let error as ByteReaderError {
        throw .corruptRecord(file: path, sequence: sequence, reason: error.description)
    } catch {
        throw .corruptRecord(file: path, sequence: sequence, reason: "\(error)")
    }
}
