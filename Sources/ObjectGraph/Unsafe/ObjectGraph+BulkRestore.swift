import Foundation

// Bulk restoring, for a store that loads a whole snapshot: objects by the thousand, to-one
// relationships through their storage, and relationships rebuilt from their inverse (a
// snapshot saves one side of each inverse pair).
//
// Kept with the module's other unsafe code (see UnsafeTechniques.swift): it reads and writes
// to-one slots in place (`_storageOffset`'s invariant: a to-one slot is one word holding a
// retained reference or zero), handles table objects unretained (the entity tables keep them
// alive for the whole restore), and hands counted member lists to `adoptAll`, which takes
// over their references.

extension ObjectGraph {
    /// Makes committed objects of a class with the given serials, as
    /// ``restoreObject(of:serial:)`` does one by one. Nothing is recorded or published.
    ///
    /// - Parameters:
    ///   - type: The objects' class.
    ///   - serials: Increasing serials, the first at least ``serialCount(of:)`` (`precondition`).
    ///
    /// The entity table holds the new objects; ``restoredObjects(of:from:count:last:)`` and
    /// ``objectLookup(of:)`` find them.
    ///
    /// - Complexity: O(*k*) for *k* serials, plus the serials skipped.
    package func restoreObjects(of type: GraphObject.Type, serials: [Int]) {
        require(!hasChanges, "internal inconsistency: restoring objects into a graph with pending changes")
        let entity = _entity(for: type)
        let idBase = entity.idBase
        let description = entity.description
        for serial in serials {
            require(serial >= entity.objects.count && UInt64(serial) < 1 << ObjectID.serialBits,
                    "internal inconsistency: restoring serial \(serial) of \(description.name), issued up to \(entity.objects.count)")
            while entity.objects.count < serial { entity.objects.appendEmpty() }
            let object = type.init()
            object._idBits = idBase | UInt64(serial)
            object._entity = description
            object._attachDetached(to: _context)
            object._flags = 0
            entity.objects.append(object)
        }
        entity.liveCount += serials.count
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
            if let object = entity.objects.unretained(at: serial) { objects.append(object.object) }
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
                guard let owner = source.objects.unretained(at: serial)?.object else { continue }
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
            guard let target = state.objects.unretained(at: serial)?.object else { continue }
            let list = UnsafeBufferPointer(rebasing: members[starts[serial]..<starts[serial + 1]])
            if accessor.kind == .toMany {
                accessor.adoptAll(target, _AdoptedMembers(list))
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
        // By owner serial: its target's serial, or -1; then a counting sort by target. Plain
        // buffers, so that no write checks that an array is uniquely referenced.
        let targets = UnsafeMutableBufferPointer<Int>.allocate(capacity: owners)
        targets.initialize(repeating: -1)
        let starts = UnsafeMutableBufferPointer<Int>.allocate(capacity: serials + 1)
        starts.initialize(repeating: 0)
        let next = UnsafeMutableBufferPointer<Int>.allocate(capacity: serials + 1)
        defer {
            targets.deallocate()
            starts.deallocate()
            next.deallocate()
        }
        for serial in 0..<owners {
            guard let owner = source.objects.unretained(at: serial) else { continue }
            let bits = (UnsafeRawPointer(owner._reference.toOpaque()) + offset).load(as: UInt.self)
            guard let pointer = UnsafeRawPointer(bitPattern: bits) else { continue }
            let target = Unmanaged<GraphObject>.fromOpaque(pointer)._withUnsafeGuaranteedRef { target in
                ObjectIdentifier(type(of: target)) == targetType && target._flags & GraphObject._deletedFlag == 0 ? target._serial : -1
            }
            guard target >= 0 && target < serials else { continue }
            targets[serial] = target
            starts[target + 1] += 1
            // The reference the set keeps, counted now that the owner is in the cache: the
            // pass below reads only the table.
            _ = owner.retain()
        }
        for serial in 0..<serials { starts[serial + 1] += starts[serial] }
        let members = UnsafeMutableBufferPointer<Unmanaged<GraphObject>>.allocate(capacity: starts[serials])
        defer { members.deallocate() }
        _ = next.initialize(from: starts)
        for serial in 0..<owners where targets[serial] >= 0 {
            guard let owner = source.objects.unretained(at: serial) else { continue }
            members[next[targets[serial]]] = owner._reference
            next[targets[serial]] += 1
        }
        for serial in 0..<serials where starts[serial + 1] > starts[serial] {
            guard let target = state.objects.unretained(at: serial) else { continue }
            target.borrow { accessor.adoptAll($0, _AdoptedMembers(UnsafeBufferPointer(rebasing: members[starts[serial]..<starts[serial + 1]]))) }
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

    /// Makes the relationship of each object hold the live object of `lookup` whose serial
    /// is at the same position in `serials` (nothing for a negative serial), as
    /// ``restore(_:into:)`` does one by one; the objects and the targets are handled
    /// unretained (the entity tables keep them alive), so only the references the slots
    /// keep are counted.
    ///
    /// - Parameters:
    ///   - serials: One serial per object, or -1.
    ///   - lookup: The objects of the relationship's destination class.
    ///   - objects: Objects of the storage's class (`precondition`).
    /// - Returns: How many serials name no live object (those objects are left as they are).
    /// - Complexity: O(*n*) for *n* objects.
    package func restore(serials: [Int], from lookup: ObjectLookup, into objects: [GraphObject]) -> Int {
        require(serials.count == objects.count, "internal inconsistency: \(serials.count) serials for \(objects.count) objects")
        var missing = 0
        objects.withUnsafeBufferPointer { objects in
            // The array holds one reference word per object: read it without counting.
            let words = UnsafeRawPointer(objects.baseAddress.unsafelyUnwrapped)
            for (position, serial) in serials.enumerated() where serial >= 0 {
                guard let target = lookup.unretained(serial) else {
                    missing += 1
                    continue
                }
                let owner = words.load(fromByteOffset: position * MemoryLayout<UInt>.stride, as: UnsafeMutableRawPointer.self)
                require(Unmanaged<GraphObject>.fromOpaque(owner)._withUnsafeGuaranteedRef { ObjectIdentifier(type(of: $0)) } == objectType,
                        "internal inconsistency: a relationship restored into an object of another class")
                let slot = owner + offset
                let old = slot.load(as: UInt.self)
                slot.storeBytes(of: UInt(bitPattern: target.retain()._reference.toOpaque()), as: UInt.self)
                if let pointer = UnsafeRawPointer(bitPattern: old) { Unmanaged<GraphObject>.fromOpaque(pointer).release() }
            }
        }
        return missing
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
        return table.unretained(at: serial)?.object
    }

    /// The live object with a serial, unretained (the table keeps it), or `nil`.
    @inline(__always)
    fileprivate func unretained(_ serial: Int) -> _Unretained<GraphObject>? {
        guard serial >= 0 && serial < table.count else { return nil }
        return table.unretained(at: serial)
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
