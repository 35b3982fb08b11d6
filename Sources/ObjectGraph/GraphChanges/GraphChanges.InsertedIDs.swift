extension GraphChanges {
    /// The IDs a commit inserted, kept the way the commit has them: runs of consecutive
    /// serials of one entity, minus the objects inserted and deleted in the same transaction.
    /// The array that ``GraphChanges/insertedIDs`` returns and the `Set` that
    /// ``GraphChanges/inserted`` returns are each built the first time they are asked for,
    /// then kept: a commit of a million inserts writes no ID for observers that never look.
    ///
    /// Immutable apart from the caches; `GraphChanges` values share one box and replace it
    /// when `inserted` is set.
    internal final class InsertedIDs: Sendable {
        /// Serials `start..<end` of one entity of one graph, in insertion order.
        struct Run: Sendable {
            /// The entity; descriptions are immortal.
            unowned(unsafe) let entity: EntityDescription
            /// The ID bits of serial 0 (graph tag and entity number).
            let base: UInt64
            let start: Int
            let end: Int
        }

        /// The runs, in insertion order (empty when the box was made from IDs).
        private let runs: [Run]
        /// The ID bits of the objects of `runs` that are not inserted (deleted in the same
        /// transaction).
        private let excluded: Set<UInt64>
        /// The number of IDs.
        let count: Int
        /// The IDs, distinct, in insertion order, once built.
        private let array: _Locked<[ObjectID]?>
        /// The set of the IDs, once built.
        private let cache: _Locked<Set<ObjectID>?>

        /// A box for the objects of `runs` whose ID bits are not in `excluded` (each of which
        /// is the bits of an object of the runs).
        ///
        /// - Complexity: O(*r*) for *r* runs.
        init(runs: [Run], excluding excluded: Set<UInt64>) {
            self.runs = runs
            self.excluded = excluded
            count = runs.reduce(0) { $0 + $1.end - $1.start } - excluded.count
            array = _Locked(nil)
            cache = _Locked(nil)
        }

        /// A box for a set.
        init(_ set: Set<ObjectID>) {
            runs = []
            excluded = []
            count = set.count
            array = _Locked(Array(set))
            cache = _Locked(set)
        }

        /// The box of no IDs.
        static let empty = InsertedIDs(Set())

        /// The IDs, distinct, in insertion order when they come from a commit.
        ///
        /// - Complexity: O(*n*) the first time, O(1) after.
        var ids: [ObjectID] {
            if let built = array.withLock({ $0 }) { return built }
            var built: [ObjectID] = []
            built.reserveCapacity(count)
            for run in runs {
                for serial in run.start..<run.end {
                    let bits = run.base | UInt64(serial)
                    if !excluded.isEmpty && excluded.contains(bits) { continue }
                    built.append(ObjectID(_bits: bits, entity: run.entity))
                }
            }
            return array.withLock { cached in
                if let cached { return cached }
                cached = built
                return built
            }
        }

        /// The IDs as a set, built on the first call.
        ///
        /// - Complexity: O(*n*) the first time, O(1) after.
        var set: Set<ObjectID> {
            if let built = cache.withLock({ $0 }) { return built }
            let built = Set(ids)
            return cache.withLock { cached in
                if let cached { return cached }
                cached = built
                return built
            }
        }
    }
}
