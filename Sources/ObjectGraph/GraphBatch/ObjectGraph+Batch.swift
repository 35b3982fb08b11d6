extension ObjectGraph {
    /// Applies a batch in one commit.
    ///
    /// Inserts, upserts and attribute updates are applied first, in order; then every
    /// relationship of the batch (so a reference may name an object the batch inserts later);
    /// then the deletions. Either the whole batch is committed and published as one
    /// ``GraphChanges``, or it throws and the graph is left as it was.
    ///
    /// The graph must have no pending changes (`precondition`): commit or roll back first.
    ///
    /// - Parameters:
    ///   - batch: The changes.
    ///   - author: The commit's author tag.
    /// - Returns: The changes, or `nil` when the batch changed nothing.
    /// - Throws: ``CommitError``: an unknown object, property or entity, a value of the
    ///   wrong type, an upsert without a unique value, or any error of ``commit(author:)``.
    /// - Complexity: O(*k*) for *k* values and related objects, plus O(*n*) per entity
    ///   upserted into (its *n* objects are indexed by their unique value once).
    @discardableResult
    public func apply(_ batch: GraphBatch, author: String? = nil) throws(CommitError) -> GraphChanges? {
        require(!hasChanges, "apply(_:author:): commit or roll back the pending changes first")
        _applyingBatch = true
        defer { _applyingBatch = false }
        do {
            try _apply(batch)
            return try commit(author: author)
        } catch {
            rollback()
            throw error
        }
    }

    private func _apply(_ batch: GraphBatch) throws(CommitError) {
        var made: [GraphObject?] = Array(repeating: nil, count: batch.insertions)
        var uniqueIndexes: [Int: [AnyHashable: GraphObject]] = [:]

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
        for operation in batch.operations {
            switch operation {
            case .insert(let description, let values, _, let slot):
                let object = description.objectType.init()
                _insert(object)
                made[slot] = object
                try _setValues(values, of: object)
                if let unique = description.uniqueAttribute, uniqueIndexes[description.number] != nil,
                    let key = description.accessors[unique.index.rawValue].hashable(object)
                {
                    uniqueIndexes[description.number]?[key] = object
                }
            case .upsert(let description, let values, _, let slot):
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
            case .update(let id, let values, _):
                guard let object = object(with: id) else { throw .unknownObject(id) }
                try _setValues(values, of: object)
            case .delete:
                continue
            }
        }
        // Relationships.
        for operation in batch.operations {
            let object: GraphObject
            let relationships: GraphBatch.Relationships
            switch operation {
            case .insert(_, _, let related, let slot), .upsert(_, _, let related, let slot):
                guard let madeObject = made[slot] else { requirementFailure("internal inconsistency: a batch object was not made") }
                (object, relationships) = (madeObject, related)
            case .update(let id, _, let related):
                guard let existing = self.object(with: id) else { throw .unknownObject(id) }
                (object, relationships) = (existing, related)
            case .delete:
                continue
            }
            for (name, references) in relationships.sorted(by: { $0.key < $1.key }) {
                var targets: [GraphObject] = []
                for reference in references { targets.append(try resolve(reference)) }
                try _setRelationship(named: name, of: object, to: targets)
            }
        }
        // Deletions.
        for case .delete(let id) in batch.operations {
            guard let object = object(with: id) else { throw .unknownObject(id) }
            _delete(object)
        }
        _checkInvariants()
    }

    /// Sets attributes by name, with the setter's recording.
    private func _setValues(_ values: GraphBatch.Values, of object: GraphObject) throws(CommitError) {
        let description = _state(of: object).description
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
