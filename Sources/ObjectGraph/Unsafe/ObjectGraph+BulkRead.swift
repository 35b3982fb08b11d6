// Bulk reading, for a store that saves a whole snapshot: an entity's table of objects read
// in place, its live objects handed out by the thousand as unretained references, and the
// serials their to-one relationships hold read in place, so that saving a million objects
// counts no reference and makes no array of objects.
//
// Kept with the module's other unsafe code (see UnsafeTechniques.swift): the references
// handed out count nothing (the entity tables keep every object alive; the caller must not
// change the graph while it holds them), and to-one slots are read in place
// (`_storageOffset`'s invariant: a to-one slot is one word holding a retained reference or
// zero).

/// The objects of one class in a graph, by serial, read in place: what a snapshot's
/// encoders scan, from several threads at once, while the graph is not changed.
///
/// A view of the entity's table: valid while the graph is not changed (no insert, delete,
/// commit or rollback), which the holder guarantees for as long as it keeps the view. Reads
/// only, so any number of threads may read it at once; the objects it hands out are
/// unretained (the table keeps them alive).
package struct ObjectSlots {
    /// Slot `i`: the address of the live object with serial `i`, or 0.
    private let slots: UnsafeBufferPointer<UInt>

    fileprivate init(slots: UnsafeBufferPointer<UInt>) {
        self.slots = slots
    }

    /// The serials the entity has issued (``ObjectGraph/serialCount(of:)``).
    package var count: Int { slots.count }

    /// The first serial from `start` on whose object is live; ``count`` when there is none.
    ///
    /// - Complexity: O(*s*) for the *s* serials looked at.
    package func firstLive(from start: Int) -> Int {
        var serial = Swift.max(start, 0)
        while serial < slots.count && slots[serial] == 0 { serial &+= 1 }
        return Swift.min(serial, slots.count)
    }

    /// The end of the run of live objects from serial `start`: the first serial from `start`
    /// on, below `limit`, whose object is not live; `limit` (at most ``count``) when there
    /// is none.
    ///
    /// - Complexity: O(*s*) for the *s* serials looked at.
    package func liveRunEnd(from start: Int, limit: Int) -> Int {
        let limit = Swift.min(limit, slots.count)
        var serial = Swift.max(start, 0)
        while serial < limit && slots[serial] != 0 { serial &+= 1 }
        return Swift.max(serial, Swift.min(start, limit))
    }

    /// Fills a buffer with the live objects from serial `start` on, in serial order,
    /// unretained; it stops when the buffer is full or the serials run out.
    ///
    /// - Parameters:
    ///   - start: The first serial to look at.
    ///   - objects: Where the objects go, from its start.
    /// - Returns: How many objects were filled in, and the serial of the last one (-1 for
    ///   none).
    /// - Complexity: O(*s*) for the *s* serials looked at.
    package func liveObjects(from start: Int, into objects: UnsafeMutableBufferPointer<Unmanaged<GraphObject>>) -> (count: Int, last: Int) {
        var serial = Swift.max(start, 0)
        var count = 0
        var last = -1
        while serial < slots.count && count < objects.count {
            if let object = UnsafeRawPointer(bitPattern: slots[serial]) {
                objects[count] = Unmanaged.fromOpaque(object)
                last = serial
                count &+= 1
            }
            serial &+= 1
        }
        return (count, last)
    }
}

extension ObjectGraph {
    /// The objects of a class by serial, read in place (see ``ObjectSlots``): every object of
    /// the view is of class `type` exactly.
    ///
    /// - Parameter type: The objects' class (registered, or registered now).
    /// - Complexity: O(1).
    package func objectSlots(of type: GraphObject.Type) -> ObjectSlots {
        _entity(for: type).objects.withSlots { ObjectSlots(slots: $0) }
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
