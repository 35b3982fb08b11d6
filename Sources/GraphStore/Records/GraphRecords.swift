import Foundation
import ObjectGraph

/// Limits a store holds its files to, so that reading a damaged file can neither trap nor
/// allocate without bound.
enum StoreLimits {
    /// How many serials of one entity may be unused by live objects (issued to objects that
    /// were deleted or rolled back): each takes a slot of 8 bytes in the graph, so 2^28 is
    /// 2 GiB. A commit that would pass it throws ``GraphStoreError/tooManyUnusedSerials(entity:unused:)``;
    /// a record that claims more is damage.
    static let unusedSerials = 1 << 28
}

/// The kinds of record in a store's files: the first byte of every payload.
enum GraphRecordType: UInt8 {
    /// The schema the file was written with (its text form).
    case schema = 1
    /// One commit of the graph.
    case commit = 2
    /// Snapshot: the serials of the live objects of one entity.
    case objects = 3
    /// Snapshot: the values of some objects of one entity, by property (in columns).
    case values = 4
    /// Snapshot: the last record, with the serial counts and the journal position included.
    case trailer = 5
    /// Journal, with deferred durability: written after each sync, naming the last record
    /// the sync made durable, so that opening after a power loss can tell commits that were
    /// never synced (lost, as promised) from damage to synced ones.
    case synced = 6
    /// Snapshot: the relationships left out because their inverse is saved, each rebuilt
    /// from it on load.
    case inverses = 7
}

/// Writes commits and snapshots in the current schema's codes: an entity is its position in
/// the schema, a property its position among its entity's properties, an object reference
/// its entity's code and its serial.
///
/// Each attribute's ``AttributeCodec`` and each relationship's destination code are resolved
/// once, when the encoder is made, so writing a value does no lookup by name and no cast.
struct GraphRecordEncoder {
    let schema: StoreSchema
    /// By entity code, then property position: the code of a relationship's destination (-1
    /// for an attribute).
    private let destinations: [[Int]]
    /// Entity codes by class.
    private let codesByType: [ObjectIdentifier: Int]
    /// Classes by entity code.
    private let types: [ObjectIdentifier]
    /// By entity code: how each property is written, in schema order (resolved once, so
    /// writing a property copies one closure, not a whole codec, and reads no schema entry).
    private let plans: [[PropertyPlan]]
    /// By entity code: each property's index and relationship kind, in schema order (what
    /// writing an updated object reads per property, without copying a schema entry).
    private let updateFields: [[(index: PropertyIndex, relationship: RelationshipKind?)]]

    /// How ``writeProperty(_:of:code:to:)`` writes one property.
    private enum PropertyPlan {
        /// An attribute: its codec's writer, and its position (for an error's message).
        case attribute((GraphObject, inout ByteWriter) throws(StoredValueError) -> Void, position: Int)
        /// A to-one relationship: the property, and the code its destination most likely has.
        case toOne(PropertyIndex, likely: Int)
        /// A to-many or ordered relationship.
        case toMany(PropertyIndex, likely: Int)
    }

    init(schema: StoreSchema) {
        self.schema = schema
        let codecs = schema.entities.map { entity in
            entity.properties.map { property in
                property.kind.map { AttributeCodec(entity: entity.description, index: property.index, kind: $0) }
            }
        }
        destinations = schema.entities.map { entity in
            entity.properties.map { property in property.destination.flatMap { schema.entityIndex[$0] } ?? -1 }
        }
        types = schema.entities.map { ObjectIdentifier($0.description.objectType) }
        var codes: [ObjectIdentifier: Int] = [:]
        for (code, type) in types.enumerated() { codes[type] = code }
        codesByType = codes
        updateFields = schema.entities.map { entity in entity.properties.map { ($0.index, $0.relationship) } }
        plans = schema.entities.indices.map { [codecs, destinations] code in
            schema.entities[code].properties.enumerated().map { position, property -> PropertyPlan in
                if let codec = codecs[code][position] { return .attribute(codec.write, position: position) }
                let likely = destinations[code][position]
                return property.relationship == .toOne ? .toOne(property.index, likely: likely) : .toMany(property.index, likely: likely)
            }
        }
    }

    /// A ``GraphRecordType/synced`` record.
    func syncedRecord(through sequence: UInt64) -> [UInt8] {
        var writer = ByteWriter(capacity: 12)
        writer.byte(GraphRecordType.synced.rawValue)
        writer.varint(sequence)
        return writer.bytes
    }

    /// A ``GraphRecordType/schema`` record: the schema's text, then, in a journal, the live
    /// objects of each entity in the snapshot the journal follows (by entity code). Readers
    /// before FetchedResultsKit 0.2 read the text and ignore what follows it.
    ///
    /// - Parameter snapshotCounts: In a journal, the snapshot's live objects by entity code.
    func schemaRecord(snapshotCounts: [Int]? = nil) -> [UInt8] {
        var writer = ByteWriter()
        writer.byte(GraphRecordType.schema.rawValue)
        writer.string(schema.text)
        if let snapshotCounts {
            writer.varint(snapshotCounts.count)
            for count in snapshotCounts { writer.varint(count) }
        }
        return writer.bytes
    }

    func entityCode(_ object: GraphObject) throws(GraphStoreError) -> Int {
        if let code = codesByType[ObjectIdentifier(type(of: object))] { return code }
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

    /// Writes a reference to an object that is most likely of the entity `code`.
    private func writeReference(_ object: GraphObject, likely code: Int, to writer: inout ByteWriter) throws(GraphStoreError) {
        if code >= 0, ObjectIdentifier(type(of: object)) == types[code] {
            writer.varint(code)
            writer.varint(object.objectID.serialNumber)
        } else {
            try writeReference(object, to: &writer)
        }
    }

    func writeReferences(_ objects: [GraphObject], to writer: inout ByteWriter) throws(GraphStoreError) {
        try writeReferences(objects, likely: -1, to: &writer)
    }

    private func writeReferences(_ objects: [GraphObject], likely code: Int, to writer: inout ByteWriter) throws(GraphStoreError) {
        writer.varint(objects.count)
        for object in objects { try writeReference(object, likely: code, to: &writer) }
    }

    /// Writes one property of an object of the entity `code`: an attribute's value, or a
    /// relationship's objects.
    ///
    /// - Parameters:
    ///   - position: The property's position among its entity's properties.
    func writeProperty(_ position: Int, of object: GraphObject, code: Int, to writer: inout ByteWriter) throws(GraphStoreError) {
        try write(plans[code][position], of: object, code: code, to: &writer)
    }

    /// Writes every property of an object of the entity `code`, in schema order (the bytes
    /// of ``writeProperty(_:of:code:to:)`` for each).
    func writeProperties(of object: GraphObject, code: Int, to writer: inout ByteWriter) throws(GraphStoreError) {
        for plan in plans[code] { try write(plan, of: object, code: code, to: &writer) }
    }

    /// Writes one property of an object of the entity `code` as its plan says.
    private func write(_ plan: PropertyPlan, of object: GraphObject, code: Int, to writer: inout ByteWriter) throws(GraphStoreError) {
        switch plan {
        case .attribute(let write, let position):
            do {
                try write(object, &writer)
            } catch {
                let property = schema.entities[code].properties[position]
                throw .unsupportedAttribute(entity: object.objectID.entityName, property: property.name, type: error.description)
            }
        case .toOne(let index, let likely):
            // The bytes of a list of zero or one reference, without making the list.
            if let target = object.relatedObject(at: index) {
                writer.varint(1)
                try writeReference(target, likely: likely, to: &writer)
            } else {
                writer.varint(0)
            }
        case .toMany(let index, let likely):
            try writeReferences(object.relatedObjects(at: index), likely: likely, to: &writer)
        }
    }

    /// Writes the record of a commit in parts: `sink` receives its bytes in pieces of
    /// about ``commitChunkSize`` bytes, so a commit of any size is never encoded whole in
    /// memory.
    ///
    /// - Parameters:
    ///   - commit: The commit.
    ///   - serialCounts: Entities (by code) whose serial count grew past what the last record
    ///     said, and the count: objects inserted and deleted before a commit, or rolled
    ///     back, used serials no record names.
    ///   - sink: Takes each piece of the record, in order.
    /// - Throws: What encoding a value throws, or what `sink` or the commit's progress
    ///   handler throws (the record is then incomplete: the caller drops what it wrote).
    /// - Complexity: O(*c*) for *c* changed objects and their values; O(1) memory beyond a
    ///   piece.
    func writeCommitRecord(
        _ commit: PendingCommit,
        serialCounts: [(code: Int, count: Int)],
        to sink: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        // The record's state is one local struct, changed only through `inout` and by the
        // non-escaping closures below: no local function captures it, so its accesses are
        // checked when compiled, not at each use.
        var state = CommitRecordState()
        commit.forEachInserted { _ in state.inserted += 1 }
        let updatedCount = commit.changes.updated.count
        let deleted = commit.changes.deleted.sorted()
        state.total = state.inserted * 2 + updatedCount + deleted.count
        try commit.reportWritingProgress(completed: 0, total: state.total)

        state.writer.byte(GraphRecordType.commit.rawValue)
        state.writer.varint(state.inserted)
        try commit.forEachInserted { object in
            state.writer.varint(try state.code(of: object, self))
            state.writer.varint(object.objectID.serialNumber)
            try state.advance(commit, sink)
        }
        try commit.forEachInserted { object in
            try writeProperties(of: object, code: try state.code(of: object, self), to: &state.writer)
            try state.advance(commit, sink)
        }
        state.writer.varint(updatedCount)
        var updatedWritten = 0
        try commit.forEachUpdated { object, changed in
            try writeUpdate(of: object, code: try state.code(of: object, self), changed: changed, commit, to: &state.writer)
            updatedWritten += 1
            try state.advance(commit, sink)
        }
        require(updatedWritten == updatedCount, "internal inconsistency: the commit lists \(updatedCount) updated objects, \(updatedWritten) pending")
        state.writer.varint(deleted.count)
        for id in deleted {
            guard let code = schema.entityIndex[id.entityName] else {
                throw GraphStoreError.missingEntity(id.entityName, referencedBy: "a deleted object")
            }
            state.writer.varint(code)
            state.writer.varint(id.serialNumber)
            try state.advance(commit, sink)
        }
        state.writer.varint(serialCounts.count)
        for (code, count) in serialCounts {
            state.writer.varint(code)
            state.writer.varint(count)
        }
        // Optional tagged fields, so that a dropped commit can be named in the open report
        // (only when the commit has them: most records stay as they were).
        if let actionName = commit.actionName {
            state.writer.byte(CommitField.actionName.rawValue)
            state.writer.string(actionName)
        }
        if let author = commit.changes.author {
            state.writer.byte(CommitField.author.rawValue)
            state.writer.string(author)
        }
        state.writer.byte(CommitField.time.rawValue)
        state.writer.fixed64(Date().timeIntervalSince1970.bitPattern)
        try writeTombstones(commit, to: &state.writer)
        try commit.reportWritingProgress(completed: state.total, total: state.total)
        try state.flush(ifOver: 1, sink)
    }

    /// Writes the values the schema keeps of the objects the commit deletes, if it keeps any.
    private func writeTombstones(_ commit: PendingCommit, to writer: inout ByteWriter) throws {
        guard schema.keepsTombstones, !commit.changes.deleted.isEmpty else { return }
        var kept: [(object: GraphObject, code: Int, positions: [Int])] = []
        try commit.forEachDeleted { object in
            let code = try entityCode(object)
            let positions = schema.preserved[code]
            if !positions.isEmpty { kept.append((object, code, positions)) }
        }
        guard !kept.isEmpty else { return }
        writer.byte(CommitField.tombstones.rawValue)
        writer.varint(kept.count)
        for (object, code, positions) in kept {
            writer.varint(code)
            writer.varint(object.objectID.serialNumber)
            writer.varint(positions.count)
            for position in positions {
                writer.varint(position)
                try writeProperty(position, of: object, code: code, to: &writer)
            }
        }
    }

    /// Writes an updated object's entry of a commit record: its entity and serial, then each
    /// changed property's position and value (a to-many relationship's members gained and
    /// lost, when the commit knows them).
    private func writeUpdate(
        of object: GraphObject, code: Int, changed: ChangedProperties, _ commit: PendingCommit, to writer: inout ByteWriter
    ) throws {
        writer.varint(code)
        writer.varint(object.objectID.serialNumber)
        let fields = updateFields[code]
        var changedCount = 0
        for field in fields where changed.contains(field.index) { changedCount += 1 }
        writer.varint(changedCount)
        for position in fields.indices where changed.contains(fields[position].index) {
            let property = fields[position]
            writer.varint(position)
            if property.relationship == .toMany, let change = commit.membershipChange(of: object, property: property.index) {
                writer.byte(1)
                try writeReferences(change.added, likely: destinations[code][position], to: &writer)
                try writeReferences(change.removed, likely: destinations[code][position], to: &writer)
            } else {
                if property.relationship != nil { writer.byte(0) }
                try writeProperty(position, of: object, code: code, to: &writer)
            }
        }
    }

    /// About how many bytes of a commit record ``writeCommitRecord(_:serialCounts:to:)``
    /// encodes before it hands them on.
    static let commitChunkSize = 64 << 10
}

/// What ``GraphRecordEncoder/writeCommitRecord(_:serialCounts:to:)`` keeps while it writes a
/// record: the bytes not handed on yet, the progress, and the entity of the last inserted
/// object.
private struct CommitRecordState {
    var writer = ByteWriter(capacity: 1_024)
    /// Objects the commit inserts.
    var inserted = 0
    /// Units of progress: two per inserted object, one per updated or deleted one.
    var total = 0
    var done = 0
    /// Inserted objects come in runs of one class, and updated ones often: its code is
    /// looked up once per run.
    private var lastType: ObjectIdentifier?
    private var lastCode = 0

    /// The code of an object's entity.
    mutating func code(of object: GraphObject, _ encoder: GraphRecordEncoder) throws(GraphStoreError) -> Int {
        let type = ObjectIdentifier(Swift.type(of: object))
        if type != lastType {
            lastCode = try encoder.entityCode(object)
            lastType = type
        }
        return lastCode
    }

    /// Hands the bytes on once there are about a piece's worth, and counts a unit of
    /// progress (the handler hears of every 256th).
    mutating func advance(_ commit: PendingCommit, _ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        try flush(ifOver: GraphRecordEncoder.commitChunkSize, sink)
        done += 1
        if done & 255 == 0 { try commit.reportWritingProgress(completed: done, total: total) }
    }

    /// Hands the bytes on when there are at least `limit`.
    mutating func flush(ifOver limit: Int, _ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard writer.bytes.count >= limit else { return }
        try writer.bytes.withUnsafeBytes { try sink($0) }
        writer.bytes.removeAll(keepingCapacity: true)
    }
}

/// The optional fields at the end of a commit record, each a tag byte and a string.
enum CommitField: UInt8 {
    /// The action name given to `commit(actionName:)`.
    case actionName = 1
    /// The commit's author tag.
    case author = 2
    /// When the commit was written: seconds since 1970 as a `Double`'s bits (fixed 64).
    case time = 3
    /// The values a schema keeps of deleted objects (``StoreSchema`` `preservedOnDeletion`):
    /// a count, then per object its entity code, serial, a count and (position, value) pairs.
    case tombstones = 4
}

/// What a commit record changed, by file entity code and serial (see
/// ``GraphRecordDecoder/transaction(of:sequence:)``).
struct RecordedTransaction {
    var inserted: [(code: Int, serial: Int)] = []
    var updated: [(code: Int, serial: Int, positions: [Int])] = []
    var deleted: [(code: Int, serial: Int)] = []
    var tombstones: [(code: Int, serial: Int, values: [(String, Any)])] = []
    var author: String?
    var actionName: String?
    var time: Date?
}

/// What a commit record holds, counted without applying it (for a commit that opening drops).
struct CommitSummary {
    var changes = GraphStore.ChangeCounts()
    var changesByEntity: [String: GraphStore.ChangeCounts] = [:]
    var actionName: String?
    var author: String?
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
    /// While ``summary(of:sequence:)`` reads a record: what it counted so far.
    private var summary: CommitSummary?
    /// While ``conflicts(in:sequence:)`` reads a record: the conflicts found so far.
    private var found: [StoreConflict]?
    /// The author the last commit record read names, if any.
    private(set) var lastAuthor: String?
    /// While ``transaction(of:sequence:)`` reads a record: what it found so far.
    private var recorded: RecordedTransaction?

    /// By file entity code, then property position: the reader of the codec of an attribute
    /// saved with the kind it has now (`nil` for a relationship, a removed property, or one
    /// whose values are converted). Only the reader, so that taking one out counts one
    /// reference, not one per closure of the codec.
    private let readers: [[((inout ByteReader, GraphObject?, ObjectGraph) throws(ByteReaderError) -> Bool)?]]
    /// By file entity code: the entity's objects by serial (`nil` for a removed entity).
    private let objects: [ObjectLookup?]
    /// By file entity code, then property position: the class of the objects a relationship
    /// may hold now, its current destination (`nil` for an attribute or a removed property).
    /// A reference to an object of another class is cut: storing it would put an object of
    /// another class in the relationship (a destination changed by the schema, or a record
    /// that disagrees with its file).
    private let holdable: [[ObjectIdentifier?]]

    init(graph: ObjectGraph, file: FileSchema, path: String) {
        self.graph = graph
        self.file = file
        self.path = path
        objects = file.entities.map { entity in entity.current.map { graph.objectLookup(of: $0.description.objectType) } }
        holdable = file.entities.map { entity in
            entity.properties.map { property in
                guard let current = entity.current, let index = property.current,
                      let type = current.description.destinationType(of: index) else { return nil }
                return ObjectIdentifier(type)
            }
        }
        readers = file.entities.map { entity in
            entity.properties.map { property in
                guard let current = entity.current, let index = property.current, let kind = property.kind, kind == property.currentKind else {
                    return nil
                }
                return AttributeCodec(entity: current.description, index: index, kind: kind).read
            }
        }
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

    /// Reads an object's entity code and serial.
    ///
    /// - Throws: When the code is not in the file's schema, or the serial is one no graph
    ///   issues.
    mutating func readObjectKey(_ reader: inout ByteReader) throws(ByteReaderError) -> (code: Int, serial: Int) {
        let code = try reader.count()
        _ = try entity(code, reader)
        return (code, try reader.count(limit: ObjectID.serialLimit - 1))
    }

    /// Reads a reference; `nil` when its object does not exist (its entity was removed, or
    /// the object was lost).
    mutating func readReference(_ reader: inout ByteReader) throws(ByteReaderError) -> GraphObject? {
        let (code, serial) = try readObjectKey(&reader)
        return objects[code]?[serial]
    }

    /// Reads a list of references held by the relationship at `position` of the file entity
    /// `code`. References to objects that do not exist, or that are not of the class the
    /// relationship holds now, are left out and counted as cut (a relationship the schema
    /// removed keeps the others: its list is skipped, never stored).
    mutating func readReferences(_ reader: inout ByteReader, of code: Int, _ position: Int) throws(ByteReaderError) -> [GraphObject] {
        let count = try reader.count(limit: reader.bytes.count)
        let holdable = self.holdable[code][position]
        var objects: [GraphObject] = []
        objects.reserveCapacity(count)
        for _ in 0..<count {
            guard let object = try readReference(&reader) else {
                losses.cutReferences += 1
                continue
            }
            // A removed relationship's references are read only to be skipped.
            guard holdable == nil || ObjectIdentifier(type(of: object)) == holdable else {
                losses.cutReferences += 1
                continue
            }
            objects.append(object)
        }
        return objects
    }

    /// Reads one property's value and stores it into `object` (when both still exist).
    ///
    /// - Parameters:
    ///   - code: The object's entity code in the file.
    ///   - position: The property's position among the file entity's properties.
    mutating func readProperty(_ code: Int, _ position: Int, into object: GraphObject?, _ reader: inout ByteReader) throws {
        if let read = readers[code][position] {
            let fits: Bool
            if let object, graph.isApplyingExternalCommit, let index = file.entities[code].properties[position].current {
                fits = try graph.externalWrite(object, index) { try read(&reader, object, graph) }
            } else {
                fits = try read(&reader, object, graph)
            }
            // The value of an object that no longer exists is skipped unchecked.
            guard !fits, let object else { return }
            let property = file.entities[code].properties[position]
            let kind = property.kind.map { "\($0)" } ?? ""
            throw GraphStoreError.incompatibleSchema("a value of \(object.objectID.entityName).\(property.name) saved as \(kind) does not fit \(kind)")
        }
        let property = file.entities[code].properties[position]
        if let kind = property.kind {
            let plain = try kind.read(from: &reader)
            guard let object, let index = property.current, let currentKind = property.currentKind, let type = property.currentType else { return }
            guard let value = currentKind.value(plain, as: type), graph.restoreAttribute(object, index, value) else {
                throw GraphStoreError.incompatibleSchema("a value of \(object.objectID.entityName).\(property.name) saved as \(kind) does not fit \(currentKind)")
            }
        } else {
            let targets = try readReferences(&reader, of: code, position)
            guard let object, let index = property.current else { return }
            graph.restoreRelationship(object, index, targets)
        }
    }

    /// The live objects of each entity in the snapshot a journal follows, by entity name, as
    /// its schema record says; `nil` for a journal written before schema records said it.
    func snapshotCounts(in payload: ArraySlice<UInt8>) -> [String: Int]? {
        var reader = ByteReader(payload)
        guard (try? reader.byte()) == GraphRecordType.schema.rawValue, (try? reader.string()) != nil, !reader.isAtEnd,
              let count = try? reader.count(limit: file.entities.count), count == file.entities.count else { return nil }
        var counts: [String: Int] = [:]
        for entity in file.entities {
            guard let objects = try? reader.count() else { return nil }
            counts[entity.name, default: 0] += objects
        }
        return counts
    }

    /// What a commit record holds, without applying it; `nil` when it cannot be read.
    ///
    /// - Complexity: O(*b*) for the record's *b* bytes.
    mutating func summary(of payload: ArraySlice<UInt8>, sequence: UInt64) -> CommitSummary? {
        let kept = losses
        defer { losses = kept }
        summary = CommitSummary()
        defer { summary = nil }
        do {
            try converting(path: path, sequence: sequence) { () throws in try applyCommitRecord(payload, sequence: sequence, pass: .read) }
        } catch {
            return nil
        }
        return summary
    }

    /// What a commit record made elsewhere would change that the graph's pending changes
    /// changed too, without applying it (see ``ObjectGraph/externalConflict(on:property:added:removed:)``).
    ///
    /// - Returns: Each conflict: the object, the property (`nil`: the object's deletion), why.
    /// - Throws: When the record cannot be read.
    /// - Complexity: O(*b*) for the record's *b* bytes.
    mutating func conflicts(in payload: ArraySlice<UInt8>, sequence: UInt64) throws(GraphStoreError) -> [StoreConflict] {
        let kept = losses
        defer { losses = kept }
        found = []
        defer { found = nil }
        try converting(path: path, sequence: sequence) { () throws in try applyCommitRecord(payload, sequence: sequence, pass: .findConflicts) }
        return found ?? []
    }

    /// Applies a commit record.
    ///
    /// A record that cannot be read may be applied in part before the error is found; pass
    /// `checkFirst` when the caller goes on after such an error (the record is then read
    /// once without applying anything, so it is applied whole or not at all).
    ///
    /// - Complexity: O(*b*) for the record's *b* bytes (twice with `checkFirst`).
    mutating func applyCommit(_ payload: ArraySlice<UInt8>, sequence: UInt64, checkFirst: Bool = false) throws(GraphStoreError) {
        if checkFirst {
            let kept = losses
            defer { losses = kept }
            try converting(path: path, sequence: sequence) { () throws in try applyCommitRecord(payload, sequence: sequence, pass: .read) }
        }
        try converting(path: path, sequence: sequence) { () throws in try applyCommitRecord(payload, sequence: sequence, pass: .apply) }
    }

    /// What one reading of a commit record does.
    private enum Pass {
        /// Reads it (to check it, or to summarize it), changing nothing.
        case read
        /// Applies it to the graph.
        case apply
        /// Finds the objects it touches and asks the graph whether they conflict with its
        /// pending changes, changing nothing.
        case findConflicts
        /// Lists what it inserted, updated and deleted, changing nothing.
        case history
    }

    /// Reads a commit record, and applies it to the graph on the `.apply` pass.
    private mutating func applyCommitRecord(_ payload: ArraySlice<UInt8>, sequence: UInt64, pass: Pass) throws {
        let apply = pass == .apply
        var reader = ByteReader(payload)
        lastAuthor = nil
        guard try reader.byte() == GraphRecordType.commit.rawValue else {
            throw GraphStoreError.corruptRecord(file: path, sequence: sequence, reason: "not a commit record")
        }
        let insertCount = try reader.count(limit: payload.count)
        var inserted: [(code: Int, object: GraphObject?)] = []
        inserted.reserveCapacity(insertCount)
        // By file entity code: the live objects before this record plus those it inserted
        // so far. No serial the record names, and no serial count it sets, may leave more
        // than `StoreLimits.unusedSerials` serials unused beyond them.
        var live = file.entities.map { entity in entity.current.map { graph.count(of: $0.description.objectType) } ?? 0 }
        for _ in 0..<insertCount {
            let (code, serial) = try readObjectKey(&reader)
            let entity = file.entities[code]
            if summary != nil { count(\.inserted, of: entity) }
            if entity.current != nil { recorded?.inserted.append((code, serial)) }
            guard let current = entity.current else {
                inserted.append((code, nil))
                continue
            }
            guard serial < live[code] + StoreLimits.unusedSerials else {
                throw reader.failure("serial \(serial) of \(entity.name) leaves more than \(StoreLimits.unusedSerials) serials unused")
            }
            live[code] += 1
            let type = current.description.objectType
            // The entity's serials issued (as `serialCount(of:)`, without looking the entity up).
            if !apply {
                inserted.append((code, nil))
            } else if objects[code]?[serial].map({ $0.isInserted }) ?? true {
                // (An object inserted in this graph's pending transaction that holds the serial
                // moves to another one: the graph makes room.)
                // A new serial, or one issued before whose object was deleted: undo and redo
                // bring a deleted object back with its serial.
                inserted.append((code, graph.restoreObject(of: type, serial: serial)))
            } else {
                // The serial is live: only a salvage that lost records gets here.
                losses.skippedChanges += 1
                inserted.append((code, nil))
            }
        }
        for (code, object) in inserted {
            for position in file.entities[code].properties.indices { try readProperty(code, position, into: object, &reader) }
        }
        let updateCount = try reader.count(limit: payload.count)
        for _ in 0..<updateCount {
            let (code, serial) = try readObjectKey(&reader)
            let entity = file.entities[code]
            if summary != nil { count(\.updated, of: entity) }
            let touched = pass == .read || pass == .history ? nil : objects[code]?[serial] ?? pendingDeletion(code, serial, pass)
            if entity.current != nil { recorded?.updated.append((code, serial, [])) }
            let object = apply ? touched : nil
            if object == nil && entity.current != nil { losses.skippedChanges += 1 }
            let changedCount = try reader.count(limit: entity.properties.count)
            for _ in 0..<changedCount {
                let position = try reader.count(limit: entity.properties.count - 1)
                let index = entity.properties[position].current
                if index != nil, entity.current != nil, let last = recorded?.updated.indices.last {
                    recorded?.updated[last].positions.append(position)
                }
                // The fields read one by one: a copy of the whole property counts a reference
                // per field.
                if entity.properties[position].relationship != nil, try reader.byte() == 1 {
                    let added = try readReferences(&reader, of: code, position)
                    let removed = try readReferences(&reader, of: code, position)
                    if let object, let index {
                        graph.restoreMembership(object, index, added: added, removed: removed)
                    } else if pass == .findConflicts, let touched, let index {
                        noteConflict(on: touched, index, added: added, removed: removed)
                    }
                } else if pass == .findConflicts, let touched, let index {
                    if entity.properties[position].relationship != nil, entity.properties[position].kind == nil {
                        // A relationship given whole: a to-many one merges with pending members.
                        let targets = try readReferences(&reader, of: code, position)
                        noteConflict(on: touched, index, replacement: targets)
                    } else {
                        noteConflict(on: touched, index)
                        try readProperty(code, position, into: nil, &reader)
                    }
                } else {
                    try readProperty(code, position, into: object, &reader)
                }
            }
        }
        let deleteCount = try reader.count(limit: payload.count)
        for _ in 0..<deleteCount {
            if summary != nil {
                var peek = reader
                if let code = try? peek.count(), code < file.entities.count { count(\.deleted, of: file.entities[code]) }
            }
            if pass == .findConflicts {
                let (code, serial) = try readObjectKey(&reader)
                if let object = objects[code]?[serial] ?? pendingDeletion(code, serial, pass) { noteConflict(on: object, nil) }
            } else if pass == .history {
                let (code, serial) = try readObjectKey(&reader)
                if file.entities[code].current != nil { recorded?.deleted.append((code, serial)) }
            } else if let object = try readReference(&reader), apply {
                graph.restoreDeletion(object)
            }
        }
        let countCount = try reader.count(limit: file.entities.count)
        for _ in 0..<countCount {
            let code = try reader.count()
            let entity = try entity(code, reader)
            let count = try reader.count(limit: ObjectID.serialLimit)
            guard let current = entity.current else { continue }
            guard count <= live[code] + StoreLimits.unusedSerials else {
                throw reader.failure("a serial count of \(count) for \(entity.name) leaves more than \(StoreLimits.unusedSerials) serials unused")
            }
            if apply { graph.restoreSerialCount(count, of: current.description.objectType) }
        }
        while !reader.isAtEnd {
            let tag = try reader.byte()
            switch CommitField(rawValue: tag) {
            case .actionName?:
                let name = try reader.string()
                summary?.actionName = name
                recorded?.actionName = name
            case .author?:
                let author = try reader.string()
                summary?.author = author
                lastAuthor = author
                recorded?.author = author
            case .time?:
                let time = Date(timeIntervalSince1970: Double(bitPattern: try reader.fixed64()))
                recorded?.time = time
            case .tombstones?:
                try readTombstones(&reader)
            case nil:
                throw reader.failure("bytes follow the commit")
            }
        }
    }

    /// Asks the graph whether a change the record makes conflicts with its pending changes.
    private mutating func noteConflict(
        on object: GraphObject, _ index: PropertyIndex?, added: [GraphObject] = [], removed: [GraphObject] = [],
        replacement: [GraphObject]? = nil
    ) {
        // A serial the graph's pending transaction holds is one the record itself inserts:
        // the pending object moves to another serial when the record is applied.
        guard !object.isInserted else { return }
        let added = added.filter { !$0.isInserted }
        let removed = removed.filter { !$0.isInserted }
        let replacement = replacement?.filter { !$0.isInserted }
        guard let reason = graph.externalConflict(on: object, property: index, added: added, removed: removed, replacement: replacement) else {
            return
        }
        let entity = object.objectID.entity
        found?.append(StoreConflict(objectID: object.objectID, property: index.map { entity[$0].name }, reason: StoreConflict.Reason(reason)))
    }

    /// What a commit record inserted, updated (with the positions of the properties) and
    /// deleted, by entity code and serial, with its fields; `nil` when it cannot be read.
    ///
    /// - Complexity: O(*b*) for the record's *b* bytes.
    mutating func transaction(of payload: ArraySlice<UInt8>, sequence: UInt64) -> RecordedTransaction? {
        let kept = losses
        defer { losses = kept }
        recorded = RecordedTransaction()
        defer { recorded = nil }
        do {
            try converting(path: path, sequence: sequence) { () throws in try applyCommitRecord(payload, sequence: sequence, pass: .history) }
        } catch {
            return nil
        }
        return recorded
    }

    /// Reads the tombstones of a commit record (kept by ``transaction(of:sequence:)``,
    /// skipped otherwise).
    private mutating func readTombstones(_ reader: inout ByteReader) throws {
        let count = try reader.count(limit: reader.bytes.count)
        for _ in 0..<count {
            let (code, serial) = try readObjectKey(&reader)
            let entity = file.entities[code]
            let valueCount = try reader.count(limit: entity.properties.count)
            var values: [(String, Any)] = []
            for _ in 0..<valueCount {
                let position = try reader.count(limit: entity.properties.count - 1)
                let property = entity.properties[position]
                guard let kind = property.kind else { throw reader.failure("a tombstone keeps a relationship") }
                let plain = try kind.read(from: &reader)
                guard let index = property.current, let currentKind = property.currentKind, let type = property.currentType,
                      let value = currentKind.value(plain, as: type), let current = entity.current else { continue }
                values.append((current.description[index].name, value))
            }
            if entity.current != nil { recorded?.tombstones.append((code, serial, values)) }
        }
    }

    /// On the conflict pass, the object with a serial that the graph's pending transaction
    /// deletes (out of its table, so `objects` does not find it).
    private func pendingDeletion(_ code: Int, _ serial: Int, _ pass: Pass) -> GraphObject? {
        guard pass == .findConflicts, let type = file.entities[code].current?.description.objectType else { return nil }
        return graph.pendingDeletion(of: type, serial: serial)
    }

    /// Counts one object of a commit being summarized.
    private mutating func count(_ field: WritableKeyPath<GraphStore.ChangeCounts, Int>, of entity: FileSchema.Entity) {
        let name = entity.current?.description.name ?? entity.name
        summary?.changes[keyPath: field] += 1
        summary?.changesByEntity[name, default: GraphStore.ChangeCounts()][keyPath: field] += 1
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
