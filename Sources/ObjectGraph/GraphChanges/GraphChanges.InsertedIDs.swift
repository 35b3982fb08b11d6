import Synchronization

extension GraphChanges {
    /// The IDs a commit inserted, kept the way the commit collected them: distinct, in a
    /// contiguous array. The `Set` that ``GraphChanges/inserted`` returns is built from
    /// them the first time it is asked for, then kept, so a commit of a million inserts does
    /// not hash a million IDs for observers that only iterate them, or never look.
    ///
    /// Immutable apart from the cache; `GraphChanges` values share one box and replace it
    /// when `inserted` is set.
    internal final class InsertedIDs: Sendable {
        /// The IDs, distinct, in the order the commit collected them.
        let ids: [ObjectID]
        /// The set of `ids`, once built.
        private let cache: Mutex<Set<ObjectID>?>

        /// A box for IDs known to be distinct; the set is built on first use.
        init(distinct ids: [ObjectID]) {
            self.ids = ids
            cache = Mutex(nil)
        }

        /// A box for a set.
        init(_ set: Set<ObjectID>) {
            ids = Array(set)
            cache = Mutex(set)
        }

        /// The box of no IDs.
        static let empty = InsertedIDs(Set())

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
