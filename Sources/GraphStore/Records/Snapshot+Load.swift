import ObjectGraph

extension Snapshot {
    /// Loads the records of a snapshot into an empty graph.
    ///
    /// A record whose checksum holds but whose contents cannot be read (a writer's bug, a
    /// hand-edited file) is damage like any other: `.refuse` throws, `.stopAtDamage` keeps
    /// what comes before it in the file, `.salvage` skips it alone. The objects whose values
    /// it held are then lost and listed in the losses.
    ///
    /// - Parameters:
    ///   - records: The intact records, in file order (damaged ones already left out by the
    ///     caller's recovery mode).
    ///   - mode: What to do with a record that cannot be read.
    /// - Throws: ``GraphStoreError/corruptRecord(file:sequence:reason:)`` for an unreadable
    ///   record under `.refuse` or an unreadable schema record;
    ///   ``GraphStoreError/incompatibleSchema(_:)`` for a value the current schema cannot
    ///   hold, in every mode.
    ///
    /// Under `.salvage`, a snapshot whose schema record was lost (its first intact record is
    /// not a schema) is read with the app's schema when the file header's fingerprint is the
    /// app schema's: the header proves the records were written with it.
    ///
    /// - Parameter fileFingerprint: The schema fingerprint of the snapshot's header.
    /// - Complexity: O(*n* + *b*) for *n* serials issued and *b* bytes.
    static func load(
        _ records: [RecordReader.Record], into graph: ObjectGraph, schema: StoreSchema, path: String,
        mode: RecordRecoveryMode = .refuse, fileFingerprint: UInt64? = nil
    ) throws(GraphStoreError) -> Loaded {
        let phases = try LoadPhases(records, into: graph, schema: schema, path: path, mode: mode, fileFingerprint: fileFingerprint)
        // The trailer first: the serial counts it lists bound every serial the snapshot names.
        try phases.readTrailer()
        // Then every object (a relationship may name an object of a later chunk), then values.
        try phases.restoreObjects()
        try phases.readValues()
        try phases.restoreSerialCounts()
        phases.removeObjectsWithoutValues()
        return try phases.finish()
    }

    /// What a snapshot's trailer says.
    fileprivate struct Trailer {
        var includedSequence: UInt64
        /// By file entity code: the serials the entity had issued (`nil` when not listed).
        var serialCounts: [Int?]
    }

    /// One load's state as it goes through the phases of
    /// ``load(_:into:schema:path:mode:fileFingerprint:)``, in the order that function calls them
    /// (a class: each phase reads records through ``read(_:_:)``, whose body changes the state
    /// the phase also keeps).
    private final class LoadPhases {
        let graph: ObjectGraph
        let schema: StoreSchema
        let path: String
        let mode: RecordRecoveryMode
        /// The schema the snapshot was written with.
        let file: FileSchema
        var decoder: ColumnDecoder
        /// The records read: under `.stopAtDamage`, cut short at the first unreadable one.
        var records: ArraySlice<RecordReader.Record>
        var loaded = Loaded(includedSequence: 0, hasTrailer: false, losses: RecordLosses())
        var trailer: Trailer?
        /// The relationships whose other side is rebuilt, as the inverses record lists them.
        var derived: [Derived] = []
        var inversesSequence: UInt64 = 0
        /// Which objects had their values read, by schema entity: the serials from the first
        /// to the last object of each values record (the live objects between are its
        /// objects), and how many objects that makes.
        var valued: [[ClosedRange<Int>]]
        var valuedCounts: [Int]

        /// Reads the schema record (or, under `.salvage` with the app schema's fingerprint in
        /// the header, takes the app's schema when that record was lost).
        init(
            _ records: [RecordReader.Record], into graph: ObjectGraph, schema: StoreSchema, path: String,
            mode: RecordRecoveryMode, fileFingerprint: UInt64?
        ) throws(GraphStoreError) {
            guard let first = records.first else {
                throw .corruptRecord(file: path, sequence: 0, reason: "the snapshot has no schema record")
            }
            self.graph = graph
            self.schema = schema
            self.path = path
            self.mode = mode
            self.records = records[...]
            let readWithAppSchema = first.payload.first != GraphRecordType.schema.rawValue && mode == .salvage && fileFingerprint == schema.fingerprint
            let file = readWithAppSchema
                ? try FileSchema(text: schema.text, current: schema)
                : try GraphRecordDecoder.schema(of: first.payload, current: schema, path: path, sequence: first.sequence)
            self.file = file
            decoder = ColumnDecoder(graph: graph, file: file, path: path)
            valued = schema.entities.map { _ in [] }
            valuedCounts = [Int](repeating: 0, count: schema.entities.count)
            loaded.readWithAppSchema = readWithAppSchema
        }

        /// Runs `body`, which reads `record`: the reason when the record cannot be read and
        /// `mode` goes on without it (``skip(_:because:)`` then notes it), `nil` when it was read.
        private static func failure(
            reading record: RecordReader.Record, path: String, mode: RecordRecoveryMode, _ body: () throws -> Void
        ) throws(GraphStoreError) -> String? {
            do {
                try converting(path: path, sequence: record.sequence, body)
                return nil
            } catch {
                guard case .corruptRecord(_, _, let reason) = error, mode != .refuse else { throw error }
                return reason
            }
        }

        /// Notes a record that could not be read; under `.stopAtDamage`, the records from it on
        /// are not read.
        private func skip(_ record: RecordReader.Record, because reason: String) {
            loaded.unreadable.append((record, reason))
            if mode == .stopAtDamage { records = records.prefix { $0.offset < record.offset } }
        }

        /// Reads `record` with `body`; `false` when it could not be read and the mode goes on
        /// without it.
        private func read(_ record: RecordReader.Record, _ body: () throws -> Void) throws(GraphStoreError) -> Bool {
            guard let reason = try Self.failure(reading: record, path: path, mode: mode, body) else { return true }
            skip(record, because: reason)
            return false
        }

        /// Reads the trailer's included sequence and serial counts.
        func readTrailer() throws(GraphStoreError) {
            guard let last = records.last(where: { $0.payload.first == GraphRecordType.trailer.rawValue }) else { return }
            _ = try read(last) {
                var reader = ByteReader(last.payload.dropFirst())
                var parsed = Trailer(includedSequence: try reader.varint(), serialCounts: self.file.entities.map { _ in nil })
                let entities = try reader.count(limit: self.file.entities.count)
                for _ in 0..<entities {
                    let code = try reader.count()
                    _ = try self.decoder.records.entity(code, reader)
                    parsed.serialCounts[code] = try reader.count(limit: ObjectID.serialLimit)
                }
                _ = try reader.varint()
                self.trailer = parsed
            }
        }

        /// Restores the objects every objects record lists, and reads the inverses record.
        func restoreObjects() throws(GraphStoreError) {
            for record in records where record.payload.first != GraphRecordType.schema.rawValue {
                switch record.payload.first {
                case GraphRecordType.objects.rawValue:
                    _ = try read(record) { try self.restoreObjects(of: record) }
                case GraphRecordType.inverses.rawValue:
                    guard try read(record, { self.derived = try self.decoder.readDerived(record.payload) }) else { continue }
                    inversesSequence = record.sequence
                default:
                    continue
                }
            }
            decoder.prepare(derived: derived)
        }

        /// Restores the objects one objects record lists.
        private func restoreObjects(of record: RecordReader.Record) throws {
            var reader = ByteReader(record.payload.dropFirst())
            let code = try reader.count()
            let entity = try decoder.records.entity(code, reader)
            let count = try reader.count(limit: record.payload.count)
            guard let current = entity.current else { return }
            // Listed serials are below the entity's serial count, and leave no more
            // serials unused than a store allows: a damaged list can neither trap
            // nor make billions of empty slots.
            let bound = trailer?.serialCounts[code] ?? ObjectID.serialLimit
            let live = graph.count(of: current.description.objectType)
            var serials: [Int] = []
            serials.reserveCapacity(count)
            var serial = -1
            var issued = graph.serialCount(of: current.description)
            try reader.withCursor { cursor throws(ByteReaderError) in
                for _ in 0..<count {
                    serial += try cursor.count(limit: ObjectID.serialLimit)
                    guard serial >= issued else { throw cursor.failure("serial \(serial) of \(entity.name) is listed twice") }
                    guard serial < bound else { throw cursor.failure("serial \(serial) of \(entity.name) is past the \(bound) it issued") }
                    guard serial < live + serials.count + StoreLimits.unusedSerials else {
                        throw cursor.failure("serial \(serial) of \(entity.name) leaves more than \(StoreLimits.unusedSerials) serials unused")
                    }
                    serials.append(serial)
                    issued = serial + 1
                }
            }
            graph.restoreObjects(of: current.description.objectType, serials: serials)
        }

        /// Reads every values record into the objects, noting which objects had values.
        func readValues() throws(GraphStoreError) {
            let schemaCodes = file.entities.map { entity in entity.current.flatMap { schema.entityIndex[$0.description.name] } }
            for record in records.dropFirst(loaded.readWithAppSchema ? 0 : 1) {
                switch record.payload.first {
                case GraphRecordType.values.rawValue:
                    _ = try read(record) {
                        guard let (code, serials, count) = try self.decoder.readValues(record.payload), let serials,
                              let schemaCode = schemaCodes[code] else { return }
                        self.valued[schemaCode].append(serials)
                        self.valuedCounts[schemaCode] += count
                    }
                case GraphRecordType.objects.rawValue, GraphRecordType.inverses.rawValue, GraphRecordType.trailer.rawValue:
                    continue
                default:
                    _ = try read(record) {
                        throw GraphStoreError.corruptRecord(file: path, sequence: record.sequence, reason: "a snapshot holds a record of type \(record.payload.first ?? 0)")
                    }
                }
            }
        }

        /// Checks the trailer's serial counts against the objects restored, and restores them:
        /// then the snapshot is whole, through the trailer's sequence.
        func restoreSerialCounts() throws(GraphStoreError) {
            guard let trailer, let last = records.last, last.payload.first == GraphRecordType.trailer.rawValue else { return }
            let intact = try read(last) {
                for (entity, count) in zip(self.file.entities, trailer.serialCounts) {
                    guard let current = entity.current, let count else { continue }
                    guard count <= self.graph.count(of: current.description.objectType) + StoreLimits.unusedSerials else {
                        throw GraphStoreError.corruptRecord(
                            file: self.path, sequence: last.sequence,
                            reason: "a serial count of \(count) for \(entity.name) leaves more than \(StoreLimits.unusedSerials) serials unused")
                    }
                }
            }
            guard intact else { return }
            loaded.includedSequence = trailer.includedSequence
            loaded.hasTrailer = true
            for (entity, count) in zip(file.entities, trailer.serialCounts) {
                if let current = entity.current, let count { graph.restoreSerialCount(count, of: current.description.objectType) }
            }
        }

        /// Objects whose values were in a damaged chunk are lost: takes them out again.
        func removeObjectsWithoutValues() {
            for (code, entity) in schema.entities.enumerated() {
                // Ranges in increasing order, none overlapping, whose objects add up to every
                // live object cover them all.
                let ranges = valued[code]
                if valuedCounts[code] == graph.count(of: entity.description.objectType)
                    && zip(ranges, ranges.dropFirst()).allSatisfy({ $0.upperBound < $1.lowerBound }) {
                    continue
                }
                let table = graph.objectLookup(of: entity.description.objectType)
                var valuedSerials = [Bool](repeating: false, count: table.count)
                for range in ranges { for serial in range { valuedSerials[serial] = true } }
                var lost: [GraphObject] = []
                for serial in 0..<table.count {
                    if let object = table[serial], !valuedSerials[serial] { lost.append(object) }
                }
                for object in lost {
                    decoder.records.losses.lostObjects.append(object.objectID.uriRepresentation)
                    graph.restoreDeletion(object)
                }
            }
        }

        /// Rebuilds the sides of relationships left out from the sides saved, and says what
        /// the load found.
        func finish() throws(GraphStoreError) -> Loaded {
            if decoder.rebuildInverses() > 0 {
                throw .corruptRecord(file: path, sequence: inversesSequence, reason: "a to-one relationship is the inverse of more than one object")
            }
            loaded.losses = decoder.records.losses
            loaded.schemaIsCurrent = file.isCurrent
            return loaded
        }
    }
}
