extension ObjectGraph {
    /// Applies a batch in one commit.
    ///
    /// Inserts, upserts and attribute updates are applied first, in order; then every
    /// relationship of the batch (so a reference may name an object the batch inserts later);
    /// then the deletions. Either the whole batch is committed and published as one
    /// ``GraphChanges``, or it throws and the graph is left as it was.
    ///
    /// The graph must have no pending changes: commit or roll back first, or the call throws
    /// ``CommitError/pendingChanges`` and leaves them pending.
    /// Given as its last use, the batch is released as it is applied (see
    /// ``apply(_:author:progress:)``, which also reports progress).
    ///
    /// - Parameters:
    ///   - batch: The changes.
    ///   - author: The commit's author tag.
    /// - Returns: The changes, or `nil` when the batch changed nothing.
    /// - Throws: ``CommitError``: ``CommitError/pendingChanges`` when the graph has pending
    ///   changes; an unknown object, property or entity, a value of the wrong type, an upsert
    ///   without a unique value, or any error of ``commit(author:)``.
    /// - Complexity: O(*k*) for *k* values and related objects, plus O(*n*) per entity
    ///   upserted into (its *n* objects are indexed by their unique value once).
    @discardableResult
    public func apply(_ batch: consuming GraphBatch, author: String? = nil) throws(CommitError) -> GraphChanges? {
        try _apply(consume batch, author: author, progress: nil)
    }

    /// Applies a batch in one commit, reporting progress: an import.
    ///
    /// The same as ``apply(_:author:)``, with `progress` called at the start and end of each
    /// long phase and every few thousand units in between (see ``ImportProgress``): applying
    /// the batch, then, for a graph kept by a durable store, writing its record. The record
    /// of a stored graph is written in bounded chunks as it is encoded, so an import never
    /// holds its encoded bytes whole in memory.
    ///
    /// Pass the batch as its last use (`try graph.apply(batch, progress: …)` with `batch`
    /// not used afterwards, or `consume batch`): the import then releases each operation's
    /// values as soon as they are in the graph, and an import never holds the batch's data
    /// and the graph's copy of it whole at once.
    ///
    /// `progress` runs on the graph's isolation domain, synchronously. If it throws, the
    /// import stops before its commit point: the graph is left as it was, nothing is
    /// published, a store takes back what it wrote of the record, and the call throws
    /// ``CommitError/cancelled(_:)`` with the error. Throwing `CancellationError` from
    /// `try Task.checkCancellation()` cancels the import with its task.
    ///
    /// - Parameters:
    ///   - batch: The changes.
    ///   - author: The commit's author tag.
    ///   - progress: Told how far the import has got; throws to cancel it.
    /// - Returns: The changes, or `nil` when the batch changed nothing.
    /// - Throws: ``CommitError``: ``CommitError/cancelled(_:)`` when `progress` threw, or
    ///   any error of ``apply(_:author:)``.
    /// - Complexity: That of ``apply(_:author:)``, plus O(*k* / 4096) calls of `progress`
    ///   for *k* operations and objects written.
    @discardableResult
    public func apply(
        _ batch: consuming GraphBatch,
        author: String? = nil,
        progress: @escaping (ImportProgress) throws -> Void
    ) throws(CommitError) -> GraphChanges? {
        try _apply(consume batch, author: author, progress: progress)
    }

    private func _apply(
        _ batch: consuming GraphBatch,
        author: String?,
        progress: ((ImportProgress) throws -> Void)?
    ) throws(CommitError) -> GraphChanges? {
        guard !hasChanges else { throw .pendingChanges }
        _applyingBatch = true
        _importProgress = progress.map(_ImportProgressReporter.init(handler:))
        defer {
            _applyingBatch = false
            _importProgress = nil
        }
        do {
            let count = batch.count
            try _applyOperations(batch.takeOperations(), count: count, insertions: batch.insertions)
            return try commit(author: author)
        } catch {
            rollback()
            throw error
        }
    }

    /// Reports `completed` units of the applying phase, when an import has a handler.
    private func _reportApplying(_ completed: Int) throws(CommitError) {
        guard _importProgress != nil else { return }
        do {
            try _importProgress?.advance(to: completed)
        } catch {
            throw .cancelled(error)
        }
    }

    /// Applies the operations, releasing each one's values and relationships once they are
    /// in the graph (the array is most often the only owner of them).
    ///
    /// - Parameter count: The batch's ``GraphBatch/count``: its operations, counting each
    ///   insert of a run.
    private func _applyOperations(
        _ operations: consuming [GraphBatch.Operation], count: Int, insertions: Int
    ) throws(CommitError) {
        var made: [GraphObject?] = Array(repeating: nil, count: insertions)
        var uniqueIndexes: [Int: [AnyHashable: GraphObject]] = [:]
        let units = 2 * count
        var done = 0
        if _importProgress != nil {
            do {
                try _importProgress?.start(.applying, total: units)
            } catch {
                throw .cancelled(error)
            }
        }

        func resolve(_ reference: GraphBatch.Reference) throws(CommitError) -> GraphObject {
            switch reference.target {
            case .existing(let id):
                guard let object = object(with: id) else { throw .unknownObject(id) }
                return object
            case .inserted(let slot):
                guard slot < made.count, let object = made[slot] else {
                    requirementFailure("a GraphBatch.Reference used with another batch")
                }
                return object
            }
        }

        // Objects and attributes.
        for position in operations.indices {
            switch operations[position] {
            case .insert(let description, let values, let related, let slot):
                let object = description.objectType.init()
                _insert(object)
                made[slot] = object
                try _setValues(values, of: object)
                if let unique = description.uniqueAttribute, uniqueIndexes[description.number] != nil,
                    let key = description.accessors[unique.index.rawValue].hashable(object)
                {
                    uniqueIndexes[description.number]?[key] = object
                }
                operations[position] = .insert(description, [:], related, slot: slot)
            case .insertRun(var run):
                try _insertRows(of: run, made: &made, uniqueIndexes: &uniqueIndexes, done: &done)
                // The run's values go now; its references after the relationships.
                run.values = []
                operations[position] = .insertRun(run)
                continue
            case .upsert(let description, let values, let related, let slot):
                guard let unique = description.uniqueAttribute, let value = values[unique.name] else {
                    throw .missingUniqueValue(entity: description.name)
                }
                let accessor = description.accessors[unique.index.rawValue]
                guard let cast = accessor.cast(value), let key = accessor.hashable(value: cast) else {
                    throw .typeMismatch(entity: description.name, property: unique.name)
                }
                if uniqueIndexes[description.number] == nil {
                    var index: [AnyHashable: GraphObject] = [:]
                    for case let object? in _entity(for: description.objectType).objects {
                        if let key = accessor.hashable(object) { index[key] = object }
                    }
                    uniqueIndexes[description.number] = index
                }
                let object: GraphObject
                if let existing = uniqueIndexes[description.number]?[key] {
                    object = existing
                } else {
                    object = description.objectType.init()
                    _insert(object)
                    uniqueIndexes[description.number]?[key] = object
                }
                made[slot] = object
                try _setValues(values, of: object)
                operations[position] = .upsert(description, [:], related, slot: slot)
            case .update(let id, let values, let related):
                guard let object = object(with: id) else { throw .unknownObject(id) }
                try _setValues(values, of: object)
                operations[position] = .update(id, [:], related)
            case .delete:
                break
            }
            done += 1
            try _reportApplying(done)
        }
        // Relationships.
        for position in operations.indices {
            let object: GraphObject
            let relationships: GraphBatch.Relationships
            switch operations[position] {
            case .insert(let description, _, let related, let slot):
                guard let madeObject = made[slot] else { requirementFailure("internal inconsistency: a batch object was not made") }
                (object, relationships) = (madeObject, related)
                operations[position] = .insert(description, [:], [:], slot: slot)
            case .insertRun(var run):
                try _relateRows(of: run, made: made, resolve: resolve, done: &done)
                run.targets = []
                operations[position] = .insertRun(run)
                continue
            case .upsert(let description, _, let related, let slot):
                guard let madeObject = made[slot] else { requirementFailure("internal inconsistency: a batch object was not made") }
                (object, relationships) = (madeObject, related)
                operations[position] = .upsert(description, [:], [:], slot: slot)
            case .update(let id, _, let related):
                guard let existing = self.object(with: id) else { throw .unknownObject(id) }
                (object, relationships) = (existing, related)
                operations[position] = .update(id, [:], [:])
            case .delete:
                done += 1
                try _reportApplying(done)
                continue
            }
            if relationships.count == 1, let (name, references) = relationships.first, references.count == 1,
                object._flags == GraphObject._insertedFlag
            {
                // The common case of an import: one object related to a new one.
                try _setRelationship(named: name, of: object, toOne: try resolve(references[0]))
            } else {
                for (name, references) in relationships.sorted(by: { $0.key < $1.key }) {
                    var targets: [GraphObject] = []
                    for reference in references { targets.append(try resolve(reference)) }
                    try _setRelationship(named: name, of: object, to: targets)
                }
            }
            done += 1
            try _reportApplying(done)
        }
        // Deletions.
        for case .delete(let id) in operations {
            guard let object = object(with: id) else { throw .unknownObject(id) }
            _delete(object)
        }
        _checkInvariants()
    }

    /// Inserts a run's objects and stores their values: each name is looked up once for the
    /// run. A row with a value that does not fit its attribute goes down the checked path of
    /// ``_setValues(_:of:)``, which throws for it.
    private func _insertRows(
        of run: GraphBatch.InsertRun, made: inout [GraphObject?], uniqueIndexes: inout [Int: [AnyHashable: GraphObject]],
        done: inout Int
    ) throws(CommitError) {
        let description = run.entity
        let accessors = run.valueNames.map { name in description.indexByName[name].flatMap { description.attributeAccessors[$0] } }
        let width = accessors.count
        let unique = description.uniqueAttribute.flatMap { uniqueIndexes[description.number] != nil ? $0 : nil }
        for row in 0..<run.count {
            let object = description.objectType.init()
            _insert(object)
            made[run.firstSlot + row] = object
            var stored = true
            for column in 0..<width {
                guard let accessor = accessors[column], accessor.storeIfCast(object, run.values[row * width + column]) else {
                    stored = false
                    break
                }
            }
            if stored {
                _checkInvariants(around: object)
            } else {
                try _setValues(run.values(ofRow: row), of: object)
            }
            if let unique, let key = description.accessors[unique.index.rawValue].hashable(object) {
                uniqueIndexes[description.number]?[key] = object
            }
            done += 1
            try _reportApplying(done)
        }
    }

    /// Relates a run's objects to the objects its rows name.
    private func _relateRows(
        of run: GraphBatch.InsertRun, made: [GraphObject?],
        resolve: (GraphBatch.Reference) throws(CommitError) -> GraphObject, done: inout Int
    ) throws(CommitError) {
        let width = run.relationshipNames.count
        // Relationships are set in name order, as for a lone insert.
        let order = run.relationshipNames.indices.sorted { run.relationshipNames[$0] < run.relationshipNames[$1] }
        for row in 0..<run.count {
            guard let object = made[run.firstSlot + row] else {
                requirementFailure("internal inconsistency: a batch object was not made")
            }
            for column in order {
                let target = try resolve(run.targets[row * width + column])
                if width == 1 && object._flags == GraphObject._insertedFlag {
                    try _setRelationship(named: run.relationshipNames[column], of: object, toOne: target)
                } else {
                    try _setRelationship(named: run.relationshipNames[column], of: object, to: [target])
                }
            }
            done += 1
            try _reportApplying(done)
        }
    }

    /// Sets attributes by name, with the setter's recording.
    private func _setValues(_ values: GraphBatch.Values, of object: GraphObject) throws(CommitError) {
        let description = _state(of: object).description
        // An object inserted in this transaction and never observed keeps no old values and
        // tells no one: each value is cast and stored in one step, in the dictionary's order.
        // A value that does not fit sends the object down the checked path below, which
        // stores the same values in name order and throws for the first one that does not fit.
        if object._flags == GraphObject._insertedFlag, _storeNewValues(values, of: object, description) { return }
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            guard let index = description.indexByName[name], let accessor = description.attributeAccessors[index] else {
                throw .unknownProperty(entity: description.name, name: name)
            }
            guard let cast = accessor.cast(value) else {
                throw .typeMismatch(entity: description.name, property: name)
            }
            _setAttribute(object, index: index, cast, direct: true)
        }
    }

    /// Stores the values of an object inserted in this transaction and never observed.
    ///
    /// - Returns: Whether every value named an attribute and had its type (the values
    ///   before the first that did not were stored).
    private func _storeNewValues(_ values: GraphBatch.Values, of object: GraphObject, _ description: EntityDescription) -> Bool {
        let properties = description.properties
        // A short list of names is scanned (comparing short names costs less than hashing
        // them); a long one is looked up.
        let scans = properties.count <= 16
        for (name, value) in values {
            var found: Int?
            if scans {
                for index in properties.indices where properties[index].name == name {
                    found = index
                    break
                }
            } else {
                found = description.indexByName[name]
            }
            guard let index = found, let accessor = description.attributeAccessors[index], accessor.storeIfCast(object, value) else {
                return false
            }
        }
        _checkInvariants(around: object)
        return true
    }

    /// Sets a relationship, given by name, of an object inserted in this transaction and
    /// never observed, to one object, checking its class, the way a to-one setter does (the
    /// inverse added in bulk at the commit, when both objects are new).
    private func _setRelationship(named name: String, of object: GraphObject, toOne target: GraphObject) throws(CommitError) {
        let description = _state(of: object).description
        guard let index = description.indexByName[name], let accessor = description.relationshipAccessors[index],
            let destination = description.destinations[index]
        else {
            throw .unknownProperty(entity: description.name, name: name)
        }
        guard type(of: target) == destination else { throw .typeMismatch(entity: description.name, property: name) }
        guard accessor.kind == .toOne else {
            _setRelationship(object, index: index, [target], direct: true)
            return
        }
        _setToOne(object, offset: accessor.offset, target)
    }

    /// Sets a relationship by name, checking the objects' class and count.
    private func _setRelationship(named name: String, of object: GraphObject, to targets: [GraphObject]) throws(CommitError) {
        let description = _state(of: object).description
        guard let index = description.indexByName[name], let accessor = description.relationshipAccessors[index],
            let destination = description.destinations[index]
        else {
            throw .unknownProperty(entity: description.name, name: name)
        }
        guard targets.allSatisfy({ type(of: $0) == destination }), accessor.kind != .toOne || targets.count <= 1 else {
            throw .typeMismatch(entity: description.name, property: name)
        }
        _setRelationship(object, index: index, targets, direct: true)
    }
}
