import ObjectGraph

// A snapshot's values record holds a chunk of one entity's live objects, named by the
// serials of the first and the last (the objects between are those its objects record
// lists), then one column per saved property: every object's value of that property, in
// serial order.
//
//     entity code, object count, first serial, last serial,
//     column count, the columns' property positions (increasing), the columns
//
// An attribute's column holds its values in the attribute's kind. A to-one relationship's
// column holds one reference per object, a to-many or ordered one a count and that many
// references. A reference is one varint when its object is of the relationship's
// destination entity: 2 × serial + 1; otherwise 2 × (serial + 1) followed by the entity's
// code; and 0 for a to-one relationship that holds nothing.

extension Snapshot {
    /// Writes values records in columns, with each attribute's codec and each relationship's
    /// storage resolved once per schema.
    struct ColumnEncoder {
        private enum Column {
            case attribute(AttributeCodec)
            case toOne(ToOneStorage, destination: Int)
            case toMany(PropertyIndex, destination: Int)
        }

        private let schema: StoreSchema
        /// By entity code: the positions of the properties saved, and how each is written.
        private let columns: [[(position: Int, column: Column)]]
        /// Entity codes by class, and classes by code.
        private let codesByType: [ObjectIdentifier: Int]
        private let types: [ObjectIdentifier]

        /// - Parameter derived: The relationships left out.
        init(schema: StoreSchema, derived: [Derived]) {
            self.schema = schema
            types = schema.entities.map { ObjectIdentifier($0.description.objectType) }
            var codes: [ObjectIdentifier: Int] = [:]
            for (code, type) in types.enumerated() { codes[type] = code }
            codesByType = codes
            columns = schema.entities.enumerated().map { code, entity in
                entity.properties.enumerated().compactMap { position, property in
                    if derived.contains(where: { $0.entity == code && $0.position == position }) { return nil }
                    if let kind = property.kind {
                        return (position, .attribute(AttributeCodec(entity: entity.description, index: property.index, kind: kind)))
                    }
                    let destination = property.destination.flatMap { schema.entityIndex[$0] } ?? -1
                    if property.relationship == .toOne, let storage = entity.description.toOneStorage(at: property.index) {
                        return (position, .toOne(storage, destination: destination))
                    }
                    return (position, .toMany(property.index, destination: destination))
                }
            }
        }

        /// Whether writing the entity's columns only reads the graph: no to-many column
        /// (reading one may first bring its deferred inverses up to date), so the values of
        /// different objects can be written on different threads at once.
        ///
        /// - Complexity: O(*p*) for *p* properties.
        func readsOnly(entity code: Int) -> Bool {
            columns[code].allSatisfy { _, column in
                if case .toMany = column { return false }
                return true
            }
        }

        /// Writes the body of the values record of `objects`, live objects of the entity
        /// `code` in serial order (at least one), unretained, with their `serials`; `scratch`
        /// holds as many integers as there are objects.
        ///
        /// Each attribute's column is written by its codec's loop for the attribute's type, and
        /// each to-one relationship's from the serials its slots hold, read in place.
        ///
        /// - Complexity: O(*k* + *r*) for *k* objects and *r* references of to-many
        ///   relationships.
        func write(
            _ objects: ObjectChunk, code: Int, to writer: inout RawByteWriter, scratch: SerialScratch
        ) throws(GraphStoreError) {
            guard let first = objects.serials.first, let last = objects.serials.last else { return }
            writer.varint(first)
            writer.varint(last)
            writer.varint(columns[code].count)
            for (position, _) in columns[code] { writer.varint(position) }
            for (position, column) in columns[code] {
                switch column {
                case .attribute(let codec):
                    do {
                        try codec.writeSnapshotColumn(objects, &writer)
                    } catch {
                        let property = schema.entities[code].properties[position]
                        throw .unsupportedAttribute(entity: schema.entities[code].description.name, property: property.name, type: error.description)
                    }
                case .toOne(let storage, let destination):
                    objects.targetSerials(storage, destination: destination >= 0 ? types[destination] : nil, into: scratch)
                    for (index, serial) in scratch.prefix(objects.count).enumerated() {
                        if serial >= 0 {
                            writer.varint(UInt64(serial) << 1 | 1)
                        } else if serial == -1 {
                            writer.byte(0)
                        } else if let target = storage.target(of: objects.object(at: index)) {
                            try writeReference(target, likely: destination, to: &writer)
                        } else {
                            writer.byte(0)
                        }
                    }
                case .toMany(let index, let destination):
                    for position in objects.indices {
                        let targets = objects.object(at: position).relatedObjects(at: index)
                        writer.varint(targets.count)
                        for target in targets { try writeReference(target, likely: destination, to: &writer) }
                    }
                }
            }
        }

        private func writeReference(_ object: GraphObject, likely: Int, to writer: inout RawByteWriter) throws(GraphStoreError) {
            let serial = UInt64(object.serialNumber)
            let type = ObjectIdentifier(Swift.type(of: object))
            if likely >= 0, type == types[likely] {
                writer.varint(serial << 1 | 1)
                return
            }
            guard let code = codesByType[type] ?? schema.entityIndex[object.objectID.entityName] else {
                throw .missingEntity(object.objectID.entityName, referencedBy: "an object of the graph")
            }
            writer.varint((serial + 1) << 1)
            writer.varint(code)
        }
    }

    /// Reads values records written by ``ColumnEncoder`` (with the schema of their file) into
    /// a graph whose objects are restored, and rebuilds the relationships left out.
    struct ColumnDecoder {
        /// The reader of single values (converted attributes) and the losses.
        var records: GraphRecordDecoder
        private let graph: ObjectGraph
        private let file: FileSchema
        /// By file entity code, then property position: the codec of an attribute saved with
        /// the kind it has now.
        private let codecs: [[AttributeCodec?]]
        /// By file entity code, then property position: the code of a relationship's
        /// destination in the file (-1 for none).
        private let destinations: [[Int]]
        /// By file entity code, then property position: the code in the file of the entity
        /// whose objects a relationship may hold now, the class of its current destination
        /// (-1 for none). A reference to an object of any other entity is cut: storing it
        /// would put an object of another class in the relationship.
        private let holdable: [[Int]]
        /// By file entity code, then property position: the storage of a relationship that is
        /// to-one now.
        private let toOnes: [[ToOneStorage?]]
        /// By file entity code: the objects of the entity (`nil` for a removed entity).
        private let objects: [ObjectLookup?]
        /// Relationships left out whose inverse is the relationship saved: rebuilt by the graph.
        private var rebuilt: [(EntityDescription, PropertyIndex)] = []
        /// By file entity code, then property position: the relationships (class and
        /// current index) left out whose inverse now is another one, filled pair by pair from
        /// the saved one.
        private var fills: [[[(type: ObjectIdentifier, index: PropertyIndex)]]]
        /// The (owner, target, target's relationship) pairs for ``fills``.
        private var pairs: [(owner: GraphObject, target: GraphObject, index: PropertyIndex)] = []
        /// The serials of a to-one column's targets, kept to reuse its room.
        private var serials: [Int] = []

        init(graph: ObjectGraph, file: FileSchema, path: String) {
            records = GraphRecordDecoder(graph: graph, file: file, path: path)
            self.graph = graph
            self.file = file
            codecs = file.entities.map { entity in
                entity.properties.map { property in
                    guard let current = entity.current, let index = property.current, let kind = property.kind, kind == property.currentKind else {
                        return nil
                    }
                    return AttributeCodec(entity: current.description, index: index, kind: kind)
                }
            }
            destinations = file.entities.map { entity in
                entity.properties.map { property in
                    property.destination.flatMap { name in file.entities.firstIndex { $0.name == name } } ?? -1
                }
            }
            holdable = file.entities.map { entity in
                entity.properties.map { property in
                    guard let current = entity.current, let index = property.current,
                          let name = current.properties.first(where: { $0.index == index })?.destination else { return -1 }
                    return file.entities.firstIndex { $0.current?.description.name == name } ?? -1
                }
            }
            toOnes = file.entities.map { entity in
                entity.properties.map { property in
                    guard let current = entity.current, let index = property.current else { return nil }
                    return current.description.toOneStorage(at: index)
                }
            }
            objects = file.entities.map { entity in entity.current.map { graph.objectLookup(of: $0.description.objectType) } }
            fills = file.entities.map { entity in entity.properties.map { _ in [] } }
        }

        /// Reads an ``GraphRecordType/inverses`` record.
        func readDerived(_ payload: ArraySlice<UInt8>) throws -> [Derived] {
            var reader = ByteReader(payload.dropFirst())
            let count = try reader.count(limit: payload.count)
            var derived: [Derived] = []
            for _ in 0..<count {
                var relationship = Derived(entity: 0, position: 0, sourceEntity: 0, sourcePosition: 0)
                relationship.entity = try reader.count(limit: file.entities.count - 1)
                relationship.position = try reader.count(limit: file.entities[relationship.entity].properties.count - 1)
                relationship.sourceEntity = try reader.count(limit: file.entities.count - 1)
                relationship.sourcePosition = try reader.count(limit: file.entities[relationship.sourceEntity].properties.count - 1)
                guard file.entities[relationship.entity].properties[relationship.position].relationship != nil,
                      file.entities[relationship.sourceEntity].properties[relationship.sourcePosition].relationship != nil
                else { throw reader.failure("an inverse that is not a relationship") }
                derived.append(relationship)
            }
            guard reader.isAtEnd else { throw reader.failure("bytes follow the inverses") }
            return derived
        }

        /// Decides how each relationship left out is rebuilt: by the graph from its inverse
        /// when that is the relationship saved, otherwise pair by pair as the saved one is
        /// read (the schema paired them otherwise when the file was written).
        mutating func prepare(derived: [Derived]) {
            for relationship in derived {
                let entity = file.entities[relationship.entity]
                let source = file.entities[relationship.sourceEntity]
                guard let current = entity.current, let index = entity.properties[relationship.position].current else { continue }
                if let sourceCurrent = source.current, let sourceIndex = source.properties[relationship.sourcePosition].current,
                   let inverse = graph.inverse(of: current.description, index),
                   inverse.entity.objectType == sourceCurrent.description.objectType, inverse.index == sourceIndex {
                    rebuilt.append((current.description, index))
                } else {
                    fills[relationship.sourceEntity][relationship.sourcePosition].append((ObjectIdentifier(current.description.objectType), index))
                }
            }
        }

        /// Reads a values record into its objects.
        ///
        /// - Returns: The file's entity code, the serials from the first to the last object
        ///   given values (`nil` for none; the live objects between are those objects) and
        ///   their count; `nil` when the entity was removed, or its objects record was lost.
        mutating func readValues(_ payload: ArraySlice<UInt8>) throws -> (code: Int, serials: ClosedRange<Int>?, count: Int)? {
            var reader = ByteReader(payload.dropFirst())
            let code = try reader.count()
            let entity = try records.entity(code, reader)
            let count = try reader.count()
            let first = try reader.count(limit: ObjectID.serialLimit - 1)
            let last = try reader.count(limit: ObjectID.serialLimit - 1)
            let columnCount = try reader.count(limit: entity.properties.count)
            var positions: [Int] = []
            for _ in 0..<columnCount {
                let position = try reader.count(limit: entity.properties.count - 1)
                guard position > positions.last ?? -1 else { throw reader.failure("the columns are out of order") }
                positions.append(position)
            }
            guard let current = entity.current, let lookup = objects[code] else { return nil }
            guard count > 0 else { return (code, nil, 0) }
            guard let objects = graph.restoredObjects(of: current.description.objectType, from: first, count: count, last: last) else {
                // A values record falls within one objects record: when that was lost, so
                // are these objects. Otherwise the record disagrees with the objects listed.
                guard lookup[first] == nil else { throw reader.failure("the values of \(count) objects do not match the objects listed") }
                return nil
            }
            for position in positions { try readColumn(code, position, objects, &reader) }
            guard reader.isAtEnd else { throw reader.failure("bytes follow the values") }
            return (code, first...last, count)
        }

        private mutating func readColumn(_ code: Int, _ position: Int, _ objects: [GraphObject], _ reader: inout ByteReader) throws {
            let property = file.entities[code].properties[position]
            guard let relationship = property.relationship else {
                if let codec = codecs[code][position] {
                    guard try codec.readColumn(&reader, objects, graph) else {
                        let kind = property.kind.map { "\($0)" } ?? ""
                        throw GraphStoreError.incompatibleSchema("a value of \(file.entities[code].name).\(property.name) saved as \(kind) does not fit \(kind)")
                    }
                } else {
                    for object in objects { try records.readProperty(code, position, into: object, &reader) }
                }
                return
            }
            let likely = destinations[code][position]
            let holdable = self.holdable[code][position]
            let fills = self.fills[code][position]
            let index = property.current
            if relationship == .toOne, let storage = toOnes[code][position], fills.isEmpty, likely >= 0, likely == holdable, let lookup = self.objects[likely] {
                try readToOneColumn(objects, storage: storage, lookup: lookup, likely: likely, holdable: holdable, &reader)
            } else if relationship == .toOne {
                let storage = toOnes[code][position]
                try reader.withCursor { cursor throws(ByteReaderError) in
                    for object in objects {
                        guard let target = try readToOne(&cursor, likely: likely, holdable: holdable) else { continue }
                        if let storage {
                            storage.restore(target, into: object)
                        } else if let index {
                            graph.restoreRelationship(object, index, [target])
                        }
                        if !fills.isEmpty { note(owner: object, target: target, fills) }
                    }
                }
            } else {
                try reader.withCursor { cursor throws(ByteReaderError) in
                    for object in objects {
                        let count = try cursor.count(limit: cursor.offset + cursor.remaining)
                        var targets: [GraphObject] = []
                        targets.reserveCapacity(count)
                        for _ in 0..<count {
                            if let target = try readReference(&cursor, likely: likely, holdable: holdable) { targets.append(target) }
                        }
                        if let index { graph.restoreRelationship(object, index, targets) }
                        if !fills.isEmpty { for target in targets { note(owner: object, target: target, fills) } }
                    }
                }
            }
        }

        /// Reads a to-one relationship's column into its storage, the common case: references
        /// to the likely entity are gathered as serials and restored in one pass.
        private mutating func readToOneColumn(
            _ objects: [GraphObject], storage: ToOneStorage, lookup: ObjectLookup, likely: Int, holdable: Int,
            _ reader: inout ByteReader
        ) throws(ByteReaderError) {
            serials.removeAll(keepingCapacity: true)
            serials.reserveCapacity(objects.count)
            try reader.withCursor { cursor throws(ByteReaderError) in
                for position in objects.indices {
                    let value = try cursor.varint()
                    if value & 1 == 1 {
                        let serial = value >> 1
                        guard serial < ObjectID.serialLimit else {
                            records.losses.cutReferences += 1
                            serials.append(-1)
                            continue
                        }
                        serials.append(Int(serial))
                    } else {
                        serials.append(-1)
                        if value != 0, let target = try resolve(value, &cursor, likely: likely, holdable: holdable) { storage.restore(target, into: objects[position]) }
                    }
                }
            }
            records.losses.cutReferences += storage.restore(serials: serials, from: lookup, into: objects)
        }

        private mutating func note(owner: GraphObject, target: GraphObject, _ fills: [(type: ObjectIdentifier, index: PropertyIndex)]) {
            for fill in fills where ObjectIdentifier(type(of: target)) == fill.type { pairs.append((owner, target, fill.index)) }
        }

        /// Reads a reference of a list; `nil`, counted as cut, when its object does not exist.
        private mutating func readReference(_ reader: inout ByteCursor, likely: Int, holdable: Int) throws(ByteReaderError) -> GraphObject? {
            let value = try reader.varint()
            guard value != 0 else { throw reader.failure("an empty reference in a list") }
            return try resolve(value, &reader, likely: likely, holdable: holdable)
        }

        /// Reads a to-one relationship's reference; `nil` when it holds nothing, or (counted
        /// as cut) when its object does not exist.
        private mutating func readToOne(_ reader: inout ByteCursor, likely: Int, holdable: Int) throws(ByteReaderError) -> GraphObject? {
            let value = try reader.varint()
            return value == 0 ? nil : try resolve(value, &reader, likely: likely, holdable: holdable)
        }

        /// The object of a reference whose first varint is `value` (not 0); `nil`, counted as
        /// cut, when it does not exist or is not of the entity `holdable` (the file code of
        /// the relationship's current destination).
        private mutating func resolve(_ value: UInt64, _ reader: inout ByteCursor, likely: Int, holdable: Int) throws(ByteReaderError) -> GraphObject? {
            let code: Int
            let serial: UInt64
            if value & 1 == 1 {
                guard likely >= 0 else { throw reader.failure("a reference names no entity") }
                code = likely
                serial = value >> 1
            } else {
                serial = (value >> 1) - 1
                code = try reader.count(limit: file.entities.count - 1)
            }
            guard serial < ObjectID.serialLimit, code == holdable, let lookup = objects[code], let object = lookup[Int(serial)] else {
                records.losses.cutReferences += 1
                return nil
            }
            return object
        }

        /// Rebuilds the relationships left out, once every saved value is in place and the
        /// lost objects are gone.
        ///
        /// - Returns: How many objects a to-one relationship was offered beside the one it
        ///   holds (0 unless the file disagrees with itself).
        func rebuildInverses() -> Int {
            var conflicts = 0
            for (entity, index) in rebuilt { conflicts += graph.restoreInverse(of: entity, index) }
            for (owner, target, index) in pairs where !owner.isDeleted && !target.isDeleted {
                graph.restoreMembership(target, index, added: [owner], removed: [])
            }
            return conflicts
        }
    }
}
