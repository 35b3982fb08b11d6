import ObjectGraph

// A snapshot's lists of objects: live objects of one entity held unretained in memory
// allocated once, with their serials, read a chunk at a time by the values encoder's lanes.
//
// Invariant: the graph does not change while a snapshot is written (the store holds it), and
// its entity tables keep every listed object alive, so the unretained references stay valid
// until the list is filled again; a chunk is a view of the list's first `count` entries,
// used only while the list is not refilled (the encoder waits for every lane of a batch
// before it fills the list again); scratch serials belong to one lane.

extension Snapshot {
    /// Live objects of one entity, unretained, in serial order, and their serials: one
    /// objects record's list, refilled for each.
    final class ObjectList {
        /// The most objects the list holds.
        let capacity: Int
        private let objects: UnsafeMutableBufferPointer<Unmanaged<GraphObject>>
        private let serials: UnsafeMutableBufferPointer<Int>

        init(capacity: Int) {
            self.capacity = capacity
            objects = .allocate(capacity: capacity)
            serials = .allocate(capacity: capacity)
        }

        deinit {
            objects.deallocate()
            serials.deallocate()
        }

        /// Fills the list with the live objects of class `type` from serial `start` on, as
        /// many as it holds.
        ///
        /// - Returns: How many objects it holds now, and the serial after the last one
        ///   looked at.
        /// - Complexity: O(*s*) for the *s* serials looked at.
        func fill(from graph: ObjectGraph, of type: GraphObject.Type, from start: Int) -> (count: Int, next: Int) {
            graph.liveObjects(of: type, from: start, into: objects, serials: serials)
        }

        /// The objects at `range` of the list and their serials (the list filled that far).
        subscript(range: Range<Int>) -> ObjectChunk {
            ObjectChunk(objects: UnsafeBufferPointer(rebasing: objects[range]), serials: UnsafeBufferPointer(rebasing: serials[range]))
        }
    }

    /// Some objects of an ``ObjectList``, unretained, and their serials (increasing): a
    /// collection of the objects, valid until the list is filled again.
    struct ObjectChunk: RandomAccessCollection {
        private let objects: UnsafeBufferPointer<Unmanaged<GraphObject>>
        /// The objects' serials, in the same order.
        let serials: UnsafeBufferPointer<Int>

        fileprivate init(objects: UnsafeBufferPointer<Unmanaged<GraphObject>>, serials: UnsafeBufferPointer<Int>) {
            self.objects = objects
            self.serials = serials
        }

        /// Calls `body` with a chunk of `objects`, objects of one class, which the call keeps
        /// alive, and their serials.
        ///
        /// - Complexity: O(*k*) for *k* objects, beyond `body`.
        static func of<Result>(_ objects: [GraphObject], _ body: (ObjectChunk) throws -> Result) rethrows -> Result {
            let unretained = objects.map { Unmanaged.passUnretained($0) }
            let serials = objects.map(\.serialNumber)
            return try withExtendedLifetime(objects) {
                try unretained.withUnsafeBufferPointer { unretained in
                    try serials.withUnsafeBufferPointer { serials in try body(ObjectChunk(objects: unretained, serials: serials)) }
                }
            }
        }

        var startIndex: Int { 0 }
        var endIndex: Int { objects.count }

        subscript(position: Int) -> Unmanaged<GraphObject> {
            @inline(__always) get { objects[position] }
        }

        /// The object at `position`, retained.
        func object(at position: Int) -> GraphObject {
            objects[position].takeUnretainedValue()
        }

        /// For each object, the serial of the object its to-one relationship `storage` holds
        /// when that one is of class `destination`; -1 when it holds nothing, -2 when it
        /// holds an object of another class (see `ToOneStorage.targetSerials`).
        ///
        /// - Complexity: O(*k*) for *k* objects.
        func targetSerials(_ storage: ToOneStorage, destination: ObjectIdentifier?, into scratch: SerialScratch) {
            storage.targetSerials(of: objects, destination: destination, into: scratch.serials)
        }
    }

    /// Room for one serial per object of a chunk, allocated once per lane.
    final class SerialScratch {
        fileprivate let serials: UnsafeMutableBufferPointer<Int>

        init(capacity: Int) {
            serials = .allocate(capacity: capacity)
        }

        deinit { serials.deallocate() }

        /// The first `count` serials written.
        func prefix(_ count: Int) -> UnsafeBufferPointer<Int>.SubSequence {
            UnsafeBufferPointer(serials).prefix(count)
        }
    }
}
