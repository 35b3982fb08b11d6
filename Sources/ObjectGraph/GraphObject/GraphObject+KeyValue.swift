extension GraphObject {
    /// The value of an attribute or relationship, by name, for format predicates and
    /// debugging.
    ///
    /// Attributes give their value (an optional attribute gives an `Optional` inside the
    /// `Any`); to-one relationships the object or `nil`, to-many ones the `Set`, ordered
    /// ones the array. The read is tracked by ``ObjectGraph/trackReads(_:)``.
    ///
    /// - Parameter key: A property name of the object's entity.
    /// - Returns: The value, or `nil` when the entity has no such property.
    /// - Complexity: Expected O(1): a name look-up, then the read the property's getter makes.
    public func value(forKey key: String) -> Any? {
        try? value(forKeyChecked: key)
    }

    /// The value of an attribute or relationship, by name; throws for an unknown name.
    ///
    /// - Parameter key: A property name of the object's entity.
    /// - Returns: The value, as ``value(forKey:)`` describes.
    /// - Throws: ``ObjectGraphError/unknownKey(entity:key:)``.
    /// - Complexity: Expected O(1): a name look-up, then the read the property's getter makes.
    public func value(forKeyChecked key: String) throws(ObjectGraphError) -> Any {
        let entity = _entity ?? type(of: self).entity
        guard let index = entity.indexByName[key] else {
            throw .unknownKey(entity: entity.name, key: key)
        }
        if _context._readMode != .untracked, let graph = _context.graph {
            graph._noteRead(self, index: index)
        }
        if _flags & Self._staleInverseFlag != 0 { _flushStaleInverses() }
        return entity.accessors[index].readAny(self)
    }

    /// Sets an attribute or relationship by name, with the same recording and inverse
    /// maintenance as the property's setter.
    ///
    /// - Parameters:
    ///   - value: The new value: of the attribute's type, or for a relationship a
    ///     `GraphObject?`, a `Set` or an array of the destination class.
    ///   - key: A property name of the object's entity.
    /// - Throws: ``ObjectGraphError/unknownKey(entity:key:)`` for an unknown name or a
    ///   value of the wrong type; ``ObjectGraphError/objectNotFound(_:)`` when the object is
    ///   deleted (nothing is written).
    /// - Complexity: Expected O(1) for an attribute, as its setter. For a relationship,
    ///   O(*m* + *p*) for *m* objects in `value` and *p* in the relationship now, plus the
    ///   copy of the old value the first time in a transaction.
    public func setValue(_ value: Any?, forKey key: String) throws(ObjectGraphError) {
        let entity = _entity ?? type(of: self).entity
        guard let index = entity.indexByName[key] else {
            throw .unknownKey(entity: entity.name, key: key)
        }
        if isDeleted { throw .objectNotFound(objectID) }
        if let attribute = entity.attributeAccessors[index] {
            let boxed: Any = value as Any
            guard let cast = attribute.cast(boxed) ?? value.flatMap(attribute.cast) else {
                throw .unknownKey(entity: entity.name, key: key)
            }
            if let graph = _context.graph {
                graph._setAttribute(self, index: index, cast, direct: true)
            } else {
                attribute.store(self, cast)
            }
            return
        }
        guard let relationship = entity.relationshipAccessors[index],
            let targets = Self._objects(in: value),
            let destination = entity.destinations[index],
            targets.allSatisfy({ type(of: $0) == destination }),
            relationship.kind != .toOne || targets.count <= 1
        else {
            throw .unknownKey(entity: entity.name, key: key)
        }
        if let graph = _context.graph {
            graph._setRelationship(self, index: index, targets, direct: true)
        } else {
            relationship.setObjects(self, targets)
        }
    }

    /// The objects in a relationship value given as `Any`.
    private static func _objects(in value: Any?) -> [GraphObject]? {
        guard let value else { return [] }
        if let object = value as? GraphObject { return [object] }
        if let sequence = value as? any Sequence {
            var objects: [GraphObject] = []
            for element in AnySequence(_erasing: sequence) {
                guard let object = element as? GraphObject else { return nil }
                objects.append(object)
            }
            return objects
        }
        return nil
    }
}

extension AnySequence where Element == Any {
    /// Erases a sequence of unknown element type.
    fileprivate init(_erasing sequence: any Sequence) {
        func open<S: Sequence>(_ sequence: S) -> AnySequence<Any> { AnySequence<Any>(sequence.lazy.map { $0 as Any }) }
        self = open(sequence)
    }
}

extension ObjectGraph {
    /// A write by property index to an attribute, with a value of its type.
    internal func _setAttribute(_ object: GraphObject, index: Int, _ value: Any, direct: Bool) {
        let entity = _state(of: object)
        guard let accessor = entity.description.attributeAccessors[index] else {
            requirementFailure("internal inconsistency: property \(index) is not an attribute")
        }
        if accessor.isEqual(object, to: value) {
            if direct && object._flags & GraphObject._deletedFlag != 0 { _willWrite(object, entity, index, direct: true) }
            return
        }
        _willWrite(object, entity, index, direct: direct)
        _notifying(object, entity, index) { accessor.store(object, value) }
        _checkInvariants(around: object)
    }

    /// A write by property index to a relationship.
    internal func _setRelationship(_ object: GraphObject, index: Int, _ targets: [GraphObject], direct: Bool) {
        _flushDeferredInverses()
        let entity = _state(of: object)
        guard let accessor = entity.description.relationshipAccessors[index] else {
            requirementFailure("internal inconsistency: property \(index) is not a relationship")
        }
        var seen = Set<ObjectIdentifier>()
        let distinct = targets.filter { seen.insert(ObjectIdentifier($0)).inserted }
        let current = accessor.objects(object)
        let same =
            accessor.kind == .orderedToMany
            ? current.elementsEqual(distinct, by: ===)
            : Set(current.map(ObjectIdentifier.init)) == seen
        if same {
            if direct && object._flags & GraphObject._deletedFlag != 0 { _willWrite(object, entity, index, direct: true) }
            return
        }
        _assign(object, entity, index, distinct, direct: direct)
        _checkInvariants(around: object)
    }
}
