/// What a durable store needs to save a graph and to rebuild it: objects by entity and
/// serial, their stored values by property index, and writes that bypass recording and
/// inverse maintenance (the store saved both sides of every relationship).
extension ObjectGraph {
    /// The entities this graph has objects of (or had), in registration order.
    package var registeredEntities: [EntityDescription] {
        _entities.compactMap { $0?.description }
    }

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
    /// - Parameters:
    ///   - type: The object's class.
    ///   - serial: Its serial: at least ``serialCount(of:)`` (`precondition`).
    /// - Returns: The new object, with its class's initial values.
    /// - Complexity: O(1) amortized, plus the serials skipped.
    package func restoreObject(of type: GraphObject.Type, serial: Int) -> GraphObject {
        require(!hasChanges, "internal inconsistency: restoring objects into a graph with pending changes")
        let entity = _entity(for: type)
        require(serial >= entity.objects.count && UInt64(serial) < 1 << ObjectID.serialBits,
                     "internal inconsistency: restoring serial \(serial) of \(entity.description.name), issued up to \(entity.objects.count)")
        while entity.objects.count < serial { entity.objects.appendEmpty() }
        let object = type.init()
        object._idBits = entity.idBase | UInt64(serial)
        object._entity = entity.description
        object._attachDetached(to: _context)
        object._flags = 0
        entity.objects.append(object)
        entity.liveCount += 1
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
        guard let accessor = _state(of: object).description.attributeAccessors[index.rawValue], let cast = accessor.cast(value) else {
            return false
        }
        accessor.store(object, cast)
        return true
    }

    /// Replaces a relationship's objects without recording and without touching inverses.
    package func restoreRelationship(_ object: GraphObject, _ index: PropertyIndex, _ targets: [GraphObject]) {
        guard let accessor = _state(of: object).description.relationshipAccessors[index.rawValue] else {
            requirementFailure("internal inconsistency: property \(index) of \(object.objectID) is not a relationship")
        }
        accessor.setObjects(object, targets)
    }

    /// Adds and removes members of a relationship without recording and without touching
    /// inverses.
    package func restoreMembership(_ object: GraphObject, _ index: PropertyIndex, added: [GraphObject], removed: [GraphObject]) {
        guard let accessor = _state(of: object).description.relationshipAccessors[index.rawValue] else {
            requirementFailure("internal inconsistency: property \(index) of \(object.objectID) is not a relationship")
        }
        for member in removed { accessor.remove(object, member) }
        for member in added where !accessor.contains(object, member) { accessor.add(object, member) }
    }

    /// Takes a committed object out of the graph as a committed deletion would (its serial
    /// stays issued), emptying its relationships without touching inverses.
    package func restoreDeletion(_ object: GraphObject) {
        let entity = _state(of: object)
        for (_, accessor) in entity.relationships { accessor.setObjects(object, []) }
        object._flags |= GraphObject._deletedFlag
        entity.objects[object._serial] = nil
        entity.liveCount -= 1
    }

    /// The object with a serial of a class, if live.
    package func restoredObject(of type: GraphObject.Type, serial: Int) -> GraphObject? {
        guard let entity = _entityByType[ObjectIdentifier(type)], serial >= 0, serial < entity.objects.count else { return nil }
        return entity.objects[serial]
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

extension AttributeStorage {
    /// Where the value lies in an object of the storage's class: this many bytes past the
    /// object's address. For a loop of the caller's, specialized for `Value`, that reads and
    /// writes values through a pointer (``read(_:)`` and ``restore(_:into:)`` are inlined only
    /// into this module's callers).
    ///
    /// - Complexity: O(1).
    package var valueOffset: Int {
        offset + (MemoryLayout<Attribute<Value>>.offset(of: \Attribute<Value>._value) ?? 0)
    }

    /// The class of the objects whose storage this is.
    package var objectClass: ObjectIdentifier { objectType }
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

// Bulk restoring, for a store that loads a whole snapshot: objects by the thousand, to-one
// relationships through their storage, and relationships rebuilt from their inverse (a
// snapshot saves one side of each inverse pair).

extension ObjectGraph {
    /// Makes committed objects of a class with the given serials, as
    /// ``restoreObject(of:serial:)`` does one by one. Nothing is recorded or published.
    ///
    /// - Parameters:
    ///   - type: The objects' class.
    ///   - serials: Increasing serials, the first at least ``serialCount(of:)`` (`precondition`).
    /// - Returns: The new objects, in the order of `serials`.
    /// - Complexity: O(*k*) for *k* serials, plus the serials skipped.
    package func restoreObjects(of type: GraphObject.Type, serials: [Int]) -> [GraphObject] {
        require(!hasChanges, "internal inconsistency: restoring objects into a graph with pending changes")
        let entity = _entity(for: type)
        var objects: [GraphObject] = []
        objects.reserveCapacity(serials.count)
        for serial in serials {
            require(serial >= entity.objects.count && UInt64(serial) < 1 << ObjectID.serialBits,
                    "internal inconsistency: restoring serial \(serial) of \(entity.description.name), issued up to \(entity.objects.count)")
            while entity.objects.count < serial { entity.objects.appendEmpty() }
            let object = type.init()
            object._idBits = entity.idBase | UInt64(serial)
            object._entity = entity.description
            object._attachDetached(to: _context)
            object._flags = 0
            entity.objects.append(object)
            objects.append(object)
        }
        entity.liveCount += serials.count
        return objects
    }

    /// The first `count` live objects of a class from serial `start` on, in serial order;
    /// `nil` when fewer are live or the last of them does not have the serial `last`.
    ///
    /// - Complexity: O(*s*) for the *s* serials from `start` to `last`.
    package func restoredObjects(of type: GraphObject.Type, from start: Int, count: Int, last: Int) -> [GraphObject]? {
        guard let entity = _entityByType[ObjectIdentifier(type)], start >= 0, start <= last, last < entity.objects.count,
              count > 0, count <= last - start + 1 else { return nil }
        var objects: [GraphObject] = []
        objects.reserveCapacity(count)
        var serial = start
        while objects.count < count && serial <= last {
            if let object = entity.objects.unretained(at: serial) { objects.append(object.takeUnretainedValue()) }
            serial += 1
        }
        guard objects.count == count, objects[count - 1]._serial == last else { return nil }
        return objects
    }

    /// Rebuilds a relationship from its inverse, which was restored alone: each live object
    /// of the inverse's entity joins the relationship of every object its inverse holds.
    /// Objects that are deleted are left out; nothing is recorded or published.
    ///
    /// The relationship's objects must be empty (as restored objects are); a to-many one gets
    /// all its members at once, with its capacity reserved.
    ///
    /// - Parameters:
    ///   - entity: The entity of the relationship to rebuild.
    ///   - index: The relationship; it must have an inverse (`precondition`).
    /// - Returns: How many objects a to-one relationship was offered beside the one it holds
    ///   (left out): 0 unless the inverse's values disagree with a to-one relationship.
    /// - Complexity: O(*n* + *e*) for *n* objects of the two entities and *e* relationship
    ///   entries.
    package func restoreInverse(of entity: EntityDescription, _ index: PropertyIndex) -> Int {
        let state = _entity(for: entity.objectType)
        guard let link = state.inverses[index.rawValue], let accessor = entity.relationshipAccessors[index.rawValue],
              let sourceAccessor = link.entity.description.relationshipAccessors[link.index] else {
            requirementFailure("internal inconsistency: \(entity.name).\(entity.properties[index.rawValue].name) has no inverse to rebuild it from")
        }
        _flushDeferredInverses()
        let source = link.entity
        let targetType = ObjectIdentifier(entity.objectType)
        if accessor.kind == .toMany && sourceAccessor.kind == .toOne && sourceAccessor.storageSize == MemoryLayout<UInt>.size {
            _restoreToManyInverse(accessor, of: state, from: source, toOneOffset: sourceAccessor.offset)
            return 0
        }
        // Calls `body` with each (owner, target) pair, targets of this graph's entity only.
        func forEachPair(_ body: (GraphObject, GraphObject) -> Void) {
            let toOne = sourceAccessor.kind == .toOne && sourceAccessor.storageSize == MemoryLayout<UInt>.size
            for serial in 0..<source.objects.count {
                guard let owner = source.objects.unretained(at: serial)?.takeUnretainedValue() else { continue }
                if toOne {
                    let bits = (UnsafeRawPointer(Unmanaged.passUnretained(owner).toOpaque()) + sourceAccessor.offset).load(as: UInt.self)
                    guard let pointer = UnsafeRawPointer(bitPattern: bits) else { continue }
                    let target = Unmanaged<GraphObject>.fromOpaque(pointer).takeUnretainedValue()
                    if ObjectIdentifier(type(of: target)) == targetType && target._flags & GraphObject._deletedFlag == 0 { body(owner, target) }
                } else {
                    for target in sourceAccessor.objects(owner)
                    where ObjectIdentifier(type(of: target)) == targetType && target._flags & GraphObject._deletedFlag == 0 {
                        body(owner, target)
                    }
                }
            }
        }
        if accessor.kind == .toOne {
            var conflicts = 0
            forEachPair { owner, target in
                if accessor.isEmpty(target) {
                    accessor.add(target, owner)
                } else if !accessor.contains(target, owner) {
                    conflicts += 1
                }
            }
            return conflicts
        }
        // A counting sort of the owners by their target's serial, then one pass per target.
        let serials = state.objects.count
        var starts = [Int](repeating: 0, count: serials + 1)
        forEachPair { _, target in starts[target._serial + 1] += 1 }
        for serial in 0..<serials { starts[serial + 1] += starts[serial] }
        let members = UnsafeMutableBufferPointer<Unmanaged<GraphObject>>.allocate(capacity: starts[serials])
        defer { members.deallocate() }
        var next = starts
        forEachPair { owner, target in
            members[next[target._serial]] = Unmanaged.passRetained(owner)
            next[target._serial] += 1
        }
        for serial in 0..<serials where starts[serial + 1] > starts[serial] {
            guard let target = state.objects.unretained(at: serial)?.takeUnretainedValue() else { continue }
            let list = UnsafeBufferPointer(rebasing: members[starts[serial]..<starts[serial + 1]])
            if accessor.kind == .toMany {
                accessor.adoptAll(target, list)
            } else {
                // Ordered: the members in their owners' serial order, after any it holds.
                accessor.setObjects(target, accessor.objects(target) + list.map { $0.takeRetainedValue() })
            }
        }
        return 0
    }
}

extension ObjectGraph {
    /// ``restoreInverse(of:_:)`` for the common case, a to-one relationship's to-many
    /// inverse: the to-one slots are read in place and the objects handled unretained, so
    /// the only references counted are the ones the sets keep.
    ///
    /// - Complexity: O(*n*) for *n* objects of the two entities.
    private func _restoreToManyInverse(_ accessor: _PropertyAccessor, of state: _GraphEntity, from source: _GraphEntity, toOneOffset offset: Int) {
        let targetType = ObjectIdentifier(state.description.objectType)
        let serials = state.objects.count
        let owners = source.objects.count
        // By owner serial: its target's serial, or -1; then a counting sort by target.
        var targets = [Int](repeating: -1, count: owners)
        var starts = [Int](repeating: 0, count: serials + 1)
        for serial in 0..<owners {
            guard let owner = source.objects.unretained(at: serial) else { continue }
            let bits = (UnsafeRawPointer(owner.toOpaque()) + offset).load(as: UInt.self)
            guard let pointer = UnsafeRawPointer(bitPattern: bits) else { continue }
            let target = Unmanaged<GraphObject>.fromOpaque(pointer)._withUnsafeGuaranteedRef { target in
                ObjectIdentifier(type(of: target)) == targetType && target._flags & GraphObject._deletedFlag == 0 ? target._serial : -1
            }
            guard target >= 0 && target < serials else { continue }
            targets[serial] = target
            starts[target + 1] += 1
        }
        for serial in 0..<serials { starts[serial + 1] += starts[serial] }
        let members = UnsafeMutableBufferPointer<Unmanaged<GraphObject>>.allocate(capacity: starts[serials])
        defer { members.deallocate() }
        var next = starts
        for serial in 0..<owners where targets[serial] >= 0 {
            guard let owner = source.objects.unretained(at: serial) else { continue }
            members[next[targets[serial]]] = owner.retain()
            next[targets[serial]] += 1
        }
        for serial in 0..<serials where starts[serial + 1] > starts[serial] {
            guard let target = state.objects.unretained(at: serial) else { continue }
            target._withUnsafeGuaranteedRef { accessor.adoptAll($0, UnsafeBufferPointer(rebasing: members[starts[serial]..<starts[serial + 1]])) }
        }
    }
}

/// Typed, untracked access to a to-one relationship's storage (one nullable reference) in
/// the objects of one class: what a store resolves once per schema to save and restore
/// to-one relationships without making arrays.
package struct ToOneStorage {
    @usableFromInline internal let offset: Int
    @usableFromInline internal let objectType: ObjectIdentifier

    @usableFromInline
    internal init(offset: Int, objectType: ObjectIdentifier) {
        self.offset = offset
        self.objectType = objectType
    }

    /// The object the relationship of `object` holds, untracked.
    ///
    /// - Parameter object: An object of the storage's class (`precondition`).
    /// - Complexity: O(1).
    @inlinable
    package func target(of object: GraphObject) -> GraphObject? {
        require(ObjectIdentifier(type(of: object)) == objectType, "internal inconsistency: a relationship read from an object of another class")
        let bits = (UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()) + offset).load(as: UInt.self)
        guard let pointer = UnsafeRawPointer(bitPattern: bits) else { return nil }
        return Unmanaged<GraphObject>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Makes the relationship of `object` hold `target`, without recording it and without
    /// touching the inverse (as ``ObjectGraph/restoreRelationship(_:_:_:)``).
    ///
    /// - Parameters:
    ///   - target: The related object, of the relationship's destination class, or `nil`.
    ///   - object: An object of the storage's class (`precondition`).
    /// - Complexity: O(1).
    @inlinable
    package func restore(_ target: GraphObject?, into object: GraphObject) {
        require(ObjectIdentifier(type(of: object)) == objectType, "internal inconsistency: a relationship restored into an object of another class")
        let slot = UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque()) + offset
        let old = slot.load(as: UInt.self)
        slot.storeBytes(of: target.map { UInt(bitPattern: Unmanaged.passRetained($0).toOpaque()) } ?? 0, as: UInt.self)
        if let pointer = UnsafeRawPointer(bitPattern: old) { Unmanaged<GraphObject>.fromOpaque(pointer).release() }
    }
}

extension EntityDescription {
    /// Typed access to a to-one relationship's storage; `nil` when the property is not a
    /// to-one relationship.
    ///
    /// - Complexity: O(1).
    package func toOneStorage(at index: PropertyIndex) -> ToOneStorage? {
        guard index.rawValue < relationshipAccessors.count, let accessor = relationshipAccessors[index.rawValue],
              accessor.kind == .toOne, accessor.storageSize == MemoryLayout<UInt>.size else { return nil }
        return ToOneStorage(offset: accessor.offset, objectType: ObjectIdentifier(objectType))
    }
}

/// The objects of one entity of a graph by serial, looked up without hashing: what a store
/// resolves once per entity to read references.
package struct ObjectLookup {
    private let table: _ObjectTable

    fileprivate init(table: _ObjectTable) {
        self.table = table
    }

    /// The number of serials issued: every serial below it is live or deleted.
    package var count: Int { table.count }

    /// The live object with a serial, or `nil`.
    ///
    /// - Complexity: O(1).
    package subscript(serial: Int) -> GraphObject? {
        guard serial >= 0 && serial < table.count else { return nil }
        return table.unretained(at: serial)?.takeUnretainedValue()
    }

    /// Appends the live objects from serial `start` on, in serial order, until `objects`
    /// holds `limit` objects or the serials run out.
    ///
    /// - Returns: The serial after the last one looked at (``count`` once all were).
    /// - Complexity: O(*s*) for the *s* serials looked at.
    package func appendLive(from start: Int, to objects: inout [GraphObject], limit: Int) -> Int {
        var serial = Swift.max(start, 0)
        while serial < table.count && objects.count < limit {
            if let object = table.unretained(at: serial) { objects.append(object.takeUnretainedValue()) }
            serial += 1
        }
        return serial
    }
}

extension ObjectGraph {
    /// The objects of a class by serial, as they are now and as they are restored later (the
    /// class is registered).
    ///
    /// - Complexity: O(1).
    package func objectLookup(of type: GraphObject.Type) -> ObjectLookup {
        ObjectLookup(table: _entity(for: type).objects)
    }
}
