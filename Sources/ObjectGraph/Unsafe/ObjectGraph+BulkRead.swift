// Bulk reading, for a store that saves a whole snapshot: the live objects of an entity
// handed out by the thousand as unretained references, and the serials their to-one
// relationships hold read in place, so that saving a million objects counts no reference
// and makes no array of objects.
//
// Kept with the module's other unsafe code (see UnsafeTechniques.swift): the references
// handed out count nothing (the entity tables keep every object alive; the caller must not
// change the graph while it holds them), and to-one slots are read in place
// (`_storageOffset`'s invariant: a to-one slot is one word holding a retained reference or
// zero).

extension ObjectGraph {
    /// Fills a buffer with the live objects of a class from serial `start` on, in serial
    /// order, unretained, with their serials; it stops when the buffer is full or the
    /// serials run out.
    ///
    /// The references count nothing: they stay valid while the graph is not changed (no
    /// insert, delete, commit or rollback), which the caller guarantees for as long as it
    /// uses them. Every object is of class `type` exactly.
    ///
    /// - Parameters:
    ///   - type: The objects' class (registered, or registered now).
    ///   - start: The first serial to look at.
    ///   - objects: Where the objects go, from its start.
    ///   - serials: Where their serials go, as many as `objects` has room for.
    /// - Returns: How many objects were filled in, and the serial after the last one looked
    ///   at (``serialCount(of:)`` once all were).
    /// - Complexity: O(*s*) for the *s* serials looked at.
    package func liveObjects(
        of type: GraphObject.Type, from start: Int,
        into objects: UnsafeMutableBufferPointer<Unmanaged<GraphObject>>, serials: UnsafeMutableBufferPointer<Int>
    ) -> (count: Int, next: Int) {
        require(serials.count >= objects.count, "internal inconsistency: fewer serial slots than object slots")
        let table = _entity(for: type).objects
        let objectType = ObjectIdentifier(type)
        let end = table.count
        var serial = Swift.max(start, 0)
        var count = 0
        while serial < end && count < objects.count {
            if let object = table.unretained(at: serial) {
                // Checked in debug builds only: an entity's table holds objects of its class
                // alone by construction, and reading each object's class here would load
                // every object into the cache a pass before its values are read.
                assert(object.borrow { ObjectIdentifier(Swift.type(of: $0)) } == objectType, "internal inconsistency: an object of another class in an entity's table")
                objects[count] = object._reference
                serials[count] = serial
                count += 1
            }
            serial += 1
        }
        return (count, serial)
    }
}

extension ToOneStorage {
    /// For each object, the serial of the object its relationship holds when that object is
    /// of class `destination`; -1 when it holds nothing; -2 when it holds an object of
    /// another class (for the caller to read with ``target(of:)``).
    ///
    /// - Parameters:
    ///   - objects: Objects of the storage's class (`precondition`), alive for the call.
    ///   - destination: The class whose objects are named by serial alone.
    ///   - serials: Where the results go, one per object.
    /// - Complexity: O(*k*) for *k* objects.
    package func targetSerials(
        of objects: UnsafeBufferPointer<Unmanaged<GraphObject>>, destination: ObjectIdentifier?,
        into serials: UnsafeMutableBufferPointer<Int>
    ) {
        require(serials.count >= objects.count, "internal inconsistency: fewer serial slots than objects")
        for (position, object) in objects.enumerated() {
            let address = UnsafeRawPointer(object.toOpaque())
            require(object._withUnsafeGuaranteedRef { ObjectIdentifier(type(of: $0)) } == objectType, "internal inconsistency: a relationship read from an object of another class")
            let bits = (address + offset).load(as: UInt.self)
            guard let pointer = UnsafeRawPointer(bitPattern: bits) else {
                serials[position] = -1
                continue
            }
            serials[position] = Unmanaged<GraphObject>.fromOpaque(pointer)._withUnsafeGuaranteedRef { target in
                ObjectIdentifier(type(of: target)) == destination ? target._serial : -2
            }
        }
    }
}
