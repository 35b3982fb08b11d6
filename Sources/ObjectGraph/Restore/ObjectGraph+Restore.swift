/// What a durable store needs to save a graph and to rebuild it: objects by entity and
/// serial, their stored values by property index, and writes that bypass recording and
/// inverse maintenance (the store saved both sides of every relationship).
extension ObjectGraph {
    /// The number of serials the graph has issued for an entity: the next object gets this one.
    ///
    /// - Complexity: O(1).
    package func serialCount(of entity: EntityDescription) -> Int {
        _entityByType[ObjectIdentifier(entity.objectType)]?.objects.count ?? 0
    }

    /// Calls `body` with each live object of an entity, by serial.
    ///
    /// - Complexity: O(*s*) for *s* serials issued.
    package func forEachObject(of entity: EntityDescription, _ body: (GraphObject) throws -> Void) rethrows {
        guard let state = _entityByType[ObjectIdentifier(entity.objectType)] else { return }
        for serial in 0..<state.objects.count {
            if let object = state.objects[serial] { try body(object) }
        }
    }

    /// Makes a committed object of a class with a given serial, issuing the serials below it
    /// that were never issued as empty (deleted) slots. Nothing is recorded or published.
    ///
    /// A serial issued before whose slot is empty (a deleted object brought back by undo or
    /// redo, which keeps its serial) is filled again.
    ///
    /// - Parameters:
    ///   - type: The object's class.
    ///   - serial: Its serial: at least ``serialCount(of:)``, or an issued serial with no live
    ///     object (`precondition`).
    /// - Returns: The new object, with its class's initial values.
    /// - Complexity: O(1) amortized, plus the serials skipped.
    package func restoreObject(of type: GraphObject.Type, serial: Int) -> GraphObject {
        require(!hasChanges || _external != nil, "internal inconsistency: restoring objects into a graph with pending changes")
        let entity = _entity(for: type)
        if _external != nil { _movePendingInserts(of: entity, from: serial) }
        let reused = serial < entity.objects.count
        require(serial >= 0 && UInt64(serial) < 1 << ObjectID.serialBits && !(reused && entity.objects[serial] != nil),
                     "internal inconsistency: restoring serial \(serial) of \(entity.description.name), which is live")
        while entity.objects.count < serial { entity.objects.appendEmpty() }
        let object = type.init()
        object._idBits = entity.idBase | UInt64(serial)
        object._entity = entity.description
        object._attachDetached(to: _context)
        object._flags = 0
        if reused {
            entity.objects[serial] = object
        } else {
            entity.objects.append(object)
        }
        entity.liveCount += 1
        _external?.noteInsert(object)
        return object
    }

    /// Issues empty serials of a class up to `count` (objects deleted after the last one
    /// kept), so no serial is ever issued twice.
    package func restoreSerialCount(_ count: Int, of type: GraphObject.Type) {
        let entity = _entity(for: type)
        while entity.objects.count < count { entity.objects.appendEmpty() }
    }

    /// Stores an attribute value without recording it.
    ///
    /// - Returns: `false` when the value is not of the attribute's type.
    package func restoreAttribute(_ object: GraphObject, _ index: PropertyIndex, _ value: Any) -> Bool {
        let entity = _state(of: object)
        guard let accessor = entity.description.attributeAccessors[index.rawValue], let cast = accessor.cast(value) else {
            return false
        }
        if let external = _external {
            _notifying(object, entity, index.rawValue) { accessor.store(object, cast) }
            _rebaseOriginal(of: object, index.rawValue)
            external.noteUpdate(object, entity.description, index.rawValue)
        } else {
            accessor.store(object, cast)
        }
        return true
    }

    /// Replaces a relationship's objects without recording and without touching inverses.
    package func restoreRelationship(_ object: GraphObject, _ index: PropertyIndex, _ targets: [GraphObject]) {
        let entity = _state(of: object)
        guard let accessor = entity.description.relationshipAccessors[index.rawValue] else {
            requirementFailure("internal inconsistency: property \(index) of \(object.objectID) is not a relationship")
        }
        guard let external = _external else {
            accessor.setObjects(object, targets)
            return
        }
        if accessor.kind == .toMany, object._pendingSlot > 0,
           let local = _pending[Int(object._pendingSlot) - 1].original(index.rawValue)?.membershipChange {
            // This graph's pending members of the relationship stay; the other commit's
            // members join them (the conflict check found no member both changed).
            let (added, removed) = _externalDelta(of: object, index.rawValue, local, targets)
            restoreMembership(object, index, added: added, removed: removed)
            return
        }
        let ordered = accessor.kind == .orderedToMany && !external.isInserted(object)
        let before = ordered ? accessor.objects(object) : []
        _notifying(object, entity, index.rawValue) { accessor.setObjects(object, targets) }
        _rebaseOriginal(of: object, index.rawValue)
        external.noteUpdate(object, entity.description, index.rawValue)
        guard ordered else { return }
        let after = accessor.objects(object)
        for move in OrderedMove.movedPositions(from: before.map(ObjectIdentifier.init), to: after.map(ObjectIdentifier.init)) {
            external.moves.append(
                OrderedMove(
                    owner: object.objectID, relationship: entity.description.properties[index.rawValue].name,
                    object: after[move.to].objectID, from: move.from, to: move.to))
        }
    }

    /// Adds and removes members of a relationship without recording and without touching
    /// inverses.
    package func restoreMembership(_ object: GraphObject, _ index: PropertyIndex, added: [GraphObject], removed: [GraphObject]) {
        let entity = _state(of: object)
        guard let accessor = entity.description.relationshipAccessors[index.rawValue] else {
            requirementFailure("internal inconsistency: property \(index) of \(object.objectID) is not a relationship")
        }
        guard let external = _external else {
            for member in removed { accessor.remove(object, member) }
            for member in added where !accessor.contains(object, member) { accessor.add(object, member) }
            return
        }
        _notifying(object, entity, index.rawValue) {
            for member in removed { accessor.remove(object, member) }
            for member in added where !accessor.contains(object, member) { accessor.add(object, member) }
        }
        _rebaseOriginal(of: object, index.rawValue)
        external.noteUpdate(object, entity.description, index.rawValue)
        guard external.keepsUndoKeys, !external.isInserted(object) else { return }
        let id = object.objectID
        for member in added + removed {
            external.undoKeys.insert(_UndoKey(objectID: id, property: index.rawValue, member: member.objectID))
        }
    }

    /// Takes a committed object out of the graph as a committed deletion would (its serial
    /// stays issued), emptying its relationships without touching inverses.
    package func restoreDeletion(_ object: GraphObject) {
        let entity = _state(of: object)
        if let external = _external {
            // Found by ID until every observer has heard of the deletion, as after a commit.
            external.deleted.insert(object.objectID)
            _undeliveredDeletions[object._idBits] = object
            if object._flags & GraphObject._observedFlag != 0 {
                _registrars[ObjectIdentifier(object)] = nil
                object._flags &= ~GraphObject._observedFlag
            }
        }
        for (_, accessor) in entity.relationships { accessor.setObjects(object, []) }
        object._flags |= GraphObject._deletedFlag
        entity.objects[object._serial] = nil
        entity.liveCount -= 1
    }

    /// Checks every invariant of the graph (inverses included), when the package is built
    /// with invariant checks.
    package func checkRestoredInvariants() {
        _checkInvariants()
    }
}

extension EntityDescription {
    /// The declared type of an attribute's value (the type of a relationship's storage for
    /// a relationship).
    package func valueType(of index: PropertyIndex) -> any Any.Type {
        valueTypes[index.rawValue]
    }

    /// The class of a relationship's objects; `nil` for an attribute.
    package func destinationType(of index: PropertyIndex) -> GraphObject.Type? {
        destinations[index.rawValue]
    }
}

extension GraphObject {
    /// The stored value of an attribute, untracked.
    package func storedValue(at index: PropertyIndex) -> Any {
        let entity = _entity ?? type(of: self).entity
        return entity.accessors[index.rawValue].readAny(self)
    }

    /// The objects of a relationship, in order for an ordered one, untracked.
    package func relatedObjects(at index: PropertyIndex) -> [GraphObject] {
        if _flags & Self._staleInverseFlag != 0 { _flushStaleInverses() }
        let entity = _entity ?? type(of: self).entity
        return entity.accessors[index.rawValue].objects(self)
    }
}

extension ObjectGraph {
    /// The inverse of a relationship, as this graph resolved it: its entity and property.
    package func inverse(of entity: EntityDescription, _ index: PropertyIndex) -> (entity: EntityDescription, index: PropertyIndex)? {
        guard let state = _entityByType[ObjectIdentifier(entity.objectType)], let link = state.inverses[index.rawValue] else { return nil }
        return (link.entity.description, PropertyIndex(link.index))
    }

    /// Registers a class as an entity of this graph (resolving its inverses) without
    /// inserting anything.
    package func register(_ type: GraphObject.Type) {
        _ = _entity(for: type)
    }
}

extension ObjectID {
    /// The object's serial within its entity and graph (what a store saves).
    package var serialNumber: Int { serial }
}

extension GraphObject {
    /// The serial of an inserted object, without making its ``objectID``.
    ///
    /// - Complexity: O(1).
    package var serialNumber: Int { _serial }
}

extension GraphObject {
    /// Whether a relationship holds `target` (O(1) for a to-many one).
    package func relates(_ target: GraphObject, at index: PropertyIndex) -> Bool {
        if _flags & Self._staleInverseFlag != 0 { _flushStaleInverses() }
        let entity = _entity ?? type(of: self).entity
        return entity.accessors[index.rawValue].contains(self, target)
    }
}

/// Typed, untracked access to one attribute's storage in the objects of one class: what a
/// store resolves once per schema to encode and decode values without boxing them in `Any`.
package struct AttributeStorage<Value> {
    @usableFromInline internal let offset: Int
    @usableFromInline internal let objectType: ObjectIdentifier

    @usableFromInline
    internal init(offset: Int, objectType: ObjectIdentifier) {
        self.offset = offset
        self.objectType = objectType
    }

    /// The stored value of `object`, untracked.
    ///
    /// - Parameter object: An object of the storage's class (`precondition`).
    /// - Complexity: O(1).
    @inlinable
    package func read(_ object: GraphObject) -> Value {
        require(ObjectIdentifier(type(of: object)) == objectType, "internal inconsistency: an attribute read from an object of another class")
        return _storagePointer(object, at: offset, as: Attribute<Value>.self).pointee._value
    }

    /// Stores a value into `object` without recording it (as ``ObjectGraph/restoreAttribute(_:_:_:)``).
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - object: An object of the storage's class (`precondition`).
    /// - Complexity: O(1).
    @inlinable
    package func restore(_ value: Value, into object: GraphObject) {
        require(ObjectIdentifier(type(of: object)) == objectType, "internal inconsistency: an attribute restored into an object of another class")
        _storagePointer(object, at: offset, as: Attribute<Value>.self).pointee._value = value
    }
}

extension EntityDescription {
    /// Typed access to an attribute's storage; `nil` when the property is a relationship or
    /// its values are not of type `Value` exactly.
    ///
    /// - Complexity: O(1).
    package func attributeStorage<Value>(at index: PropertyIndex, as type: Value.Type) -> AttributeStorage<Value>? {
        guard index.rawValue < attributeAccessors.count, let accessor = attributeAccessors[index.rawValue],
              valueTypes[index.rawValue] == Value.self else { return nil }
        return AttributeStorage(offset: accessor.offset, objectType: ObjectIdentifier(objectType))
    }
}

extension GraphObject {
    /// The object of a to-one relationship, untracked, without making an array.
    ///
    /// - Complexity: O(1).
    package func relatedObject(at index: PropertyIndex) -> GraphObject? {
        if _flags & Self._staleInverseFlag != 0 { _flushStaleInverses() }
        let entity = _entity ?? type(of: self).entity
        return entity.accessors[index.rawValue].toOne(self)
    }
}
