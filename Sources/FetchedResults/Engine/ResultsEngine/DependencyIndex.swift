import ObjectGraph

/// One property of one object that an evaluation read.
struct DependencyKey: Hashable {
    var object: ObjectID
    var property: PropertyIndex
}

/// Which evaluations depend on what: the controller's exact dependency tracking.
///
/// - Reads of an object's own properties are kept per request, as one set of property
///   indexes (every object runs the same predicate and keys, so they read the same own
///   properties): a write to one of them re-evaluates the written object.
/// - Reads of other objects (across relationships) are kept per evaluated object, in a dense
///   column indexed by the object's `ObjectID.entitySerial`. The (object, property) pairs
///   read are interned as small handles; most objects read exactly one (`item.location?.name`),
///   kept inline in the column. Objects that read several keep them in a side table.
/// - The reverse index holds, per handle, the serials of the objects whose evaluation read
///   it: a write there re-evaluates exactly those objects. Adding a dependent is O(1).
///   Removing the one key of an object that no longer exists (``remove(_:)``) is O(1) too:
///   its entry stays in the list, *stale*, and the object's column entry marks it as such
///   (naming the handle), so readers skip it and a later evaluation of the same serial
///   drops it first. A list whose stale entries outnumber its live ones is compacted, so
///   stale entries never take more room than live ones did; compacting costs O(d) for d
///   entries, once per d/2 removals. Changing an object's keys (re-parenting) removes its
///   entries at once, O(d) for d dependents of the key — a few microseconds for 10,000.
///   The index keeps about 8 bytes per evaluated object that reads one related object (none
///   for a request that reads no other object).
/// - Each handle also knows whether some evaluation read its key outside the section key
///   (in the predicate or a sort key). A write to a key that only section keys read changes
///   no predicate result and no sort key: its dependents need only their section key read
///   again (``dependents(ofWritesIn:)`` lists them apart).
struct DependencyIndex {
    /// The entity of the evaluated objects.
    let entity: EntityDescription
    /// The own properties some evaluation read.
    private(set) var ownReads: Set<PropertyIndex> = []
    /// Bit `i` is set when property `i` (below 64) is in ``ownReads``.
    private var ownReadBits: UInt64 = 0
    /// Per serial: what the object's evaluation read of other objects (``Entry``).
    private var crossKey: [Entry] = []
    /// The handles read by objects that read several keys, by serial.
    private var several: [Int: [Int32]] = [:]
    /// Per serial: where the object was last put in a handle's dependents, so that taking it
    /// out of the list of its one key costs no search. A hint, checked before use (an
    /// object that reads several keys has one position per list, and keeps only the last).
    private var positions: [UInt32] = []
    /// The handle of each interned key.
    private var handles: [DependencyKey: Int32] = [:]
    /// The key of each handle (stale for free handles).
    private var keyOfHandle: [DependencyKey] = []
    /// Per handle: the serials of the objects whose evaluation read its key, and the stale
    /// entries of removed objects that read it.
    private var dependentSerials: [[UInt32]] = []
    /// Per handle: how many of its dependents are stale (at most half of them).
    private var staleCounts: [Int32] = []
    /// Per handle: whether some evaluation read its key outside the section key, since the
    /// handle was interned (never cleared before it is freed).
    private var readOutsideSection: [Bool] = []
    private var freeHandles: [Int32] = []
    /// Recently interned keys and their handles, by a hash of the key; emptied whenever a
    /// handle is freed.
    private var cache: [(DependencyKey, Int32)?] = []
    private static var cacheSize: Int { 256 }
    /// The number of live (object, key) pairs recorded.
    private var pairCount = 0
    /// How many serials to make room for once the first object reads another object.
    private var capacityHint = 0
    /// The entities of the objects whose properties some key names, with bit `min(i, 63)`
    /// set for each property `i` named: a write elsewhere needs no hash lookup. Only grows.
    private var keyedEntities: [(entity: ObjectIdentifier, properties: UInt64)] = []

    /// The highest own property index that has a bit of its own in ``ownReadBits`` and
    /// ``keyedEntities``; higher ones share it.
    private static var lastPropertyBit: UInt64 { UInt64(UInt64.bitWidth - 1) }

    /// What the column holds for one object: whether its last evaluation read no key of
    /// other objects, one (its handle), or several (kept in ``several``), or whether the
    /// object was removed while its entry stays, stale, in the dependents of one handle.
    ///
    /// Four bytes, as the column is as long as the objects evaluated.
    struct Entry: Equatable {
        /// A handle (0 or more), -1 for no key, -2 for several keys, or -3 - h for a removed
        /// object left stale in the dependents of handle h.
        private var code: Int32

        @inline(__always)
        private init(code: Int32) { self.code = code }

        /// The entry of an object whose evaluation read no key of other objects (or that
        /// was never evaluated).
        static var noKey: Entry { Entry(code: -1) }

        /// The entry of an object whose evaluation read several keys of other objects.
        static var severalKeys: Entry { Entry(code: -2) }

        /// The entry of an object whose evaluation read one key of other objects, `handle`.
        @inline(__always)
        static func one(_ handle: Int32) -> Entry {
            assert(handle >= 0, "internal inconsistency: negative handle \(handle)")
            return Entry(code: handle)
        }

        /// The entry of a removed object whose entry in the dependents of `handle` is left
        /// stale.
        @inline(__always)
        static func removed(from handle: Int32) -> Entry {
            assert(handle >= 0, "internal inconsistency: negative handle \(handle)")
            return Entry(code: -3 - handle)
        }

        /// The handle of the one key read, or `nil` for any other entry.
        @inline(__always)
        var handle: Int32? { code >= 0 ? code : nil }

        /// The handle whose dependents still list this removed object, or `nil` when the
        /// entry is not that of a removed object.
        @inline(__always)
        var removedHandle: Int32? { code <= -3 ? -3 - code : nil }
    }

    /// Makes an empty index for objects of `entity`.
    init(entity: EntityDescription) {
        self.entity = entity
    }

    /// Makes room for the reads of `count` objects, when evaluations turn out to read other
    /// objects (a request that reads none allocates nothing).
    mutating func reserveCapacity(_ count: Int) {
        capacityHint = count
    }

    /// Records reads of the evaluated objects' own properties, given as bits: bit `i` for
    /// property `i` (the split form of `ObjectGraph.trackReads(of:ownProperties:appendingTo:_:)`).
    ///
    /// - Parameter bits: The own properties read, below index 64.
    /// - Complexity: O(1) when every bit was recorded before.
    mutating func recordOwnReads(_ bits: UInt64) {
        var added = bits & ~ownReadBits
        guard added != 0 else { return }
        ownReadBits |= added
        while added != 0 {
            ownReads.insert(PropertyIndex(added.trailingZeroBitCount))
            added &= added - 1
        }
    }

    /// Records the reads of one evaluation of `id`, replacing those of its last evaluation.
    ///
    /// - Parameters:
    ///   - id: The evaluated object, of ``entity``.
    ///   - reads: What the evaluation read, in any order, with repeats.
    /// - Complexity: O(r) for r reads when the object reads what it read before, or one
    ///   key and nothing before; O(r + d) when its keys change, for d dependents of the
    ///   keys it no longer reads (or of the key it read before it was removed).
    mutating func record<Reads: Sequence<PropertyRead>>(_ id: ObjectID, reads: Reads) {
        record(id, reads: reads, entry: entry(of: id))
    }

    /// Records the reads of one evaluation of `id` as ``record(_:reads:entry:)`` does, where
    /// the reads from position `sectionStart` on are the section key's and the others the
    /// predicate's and the sort keys'.
    ///
    /// - Parameters:
    ///   - id: The evaluated object, of ``entity``.
    ///   - reads: What the evaluation read, the section key's last.
    ///   - sectionStart: The position of the section key's first read in `reads`.
    ///   - entry: The object's entry (``entry(of:)``).
    /// - Complexity: As ``record(_:reads:entry:)``.
    mutating func record(_ id: ObjectID, reads: [PropertyRead], sectionStart: Int, entry: Entry) {
        record(id, reads: reads, entry: entry, sectionStart: sectionStart)
    }

    /// Records the reads of one evaluation of `id`, the section key's last, as
    /// ``record(_:reads:sectionStart:entry:)`` does, reading the object's entry itself (an
    /// entry read by the caller through a class's property copies the whole index first).
    ///
    /// - Parameters:
    ///   - id: The evaluated object, of ``entity``.
    ///   - reads: What the evaluation read, the section key's last.
    ///   - sectionStart: The position of the section key's first read in `reads`.
    mutating func record(_ id: ObjectID, reads: [PropertyRead], sectionStart: Int) {
        record(id, reads: reads, entry: entry(of: id), sectionStart: sectionStart)
    }

    /// The column entry of an object: what ``record(_:reads:entry:)`` needs to know of its
    /// last evaluation. A caller that evaluates many objects reads their entries first, in
    /// a tight loop, so that these reads (cache misses in a large column) overlap.
    ///
    /// An object's entry changes only when that object is recorded or removed, with one
    /// exception: the entry of a removed object (its stale entry still listed) becomes
    /// ``Entry/noKey`` when recording or removing another object frees or compacts the list
    /// that holds it. ``record(_:reads:entry:sectionStart:)`` reads such an entry again.
    ///
    /// - Parameter id: An object of ``entity``.
    /// - Returns: The entry, valid until the object is recorded or removed (see above).
    /// - Complexity: O(1).
    func entry(of id: ObjectID) -> Entry {
        let serial = id.entitySerial
        return serial < crossKey.count ? crossKey[serial] : .noKey
    }

    /// Asks the processor for the lines of the entries of `ids` (a hint that changes
    /// nothing), so that their cache misses overlap before a loop reads them one by one.
    ///
    /// - Complexity: O(k) for k objects.
    func prefetchEntries(of ids: some Sequence<ObjectID>) {
        let entity = entity
        crossKey.prefetchElements(at: ids.lazy.filter { $0.entity === entity }.map(\.entitySerial))
    }

    /// Records the reads of one evaluation of `id` as ``record(_:reads:)`` does, given its
    /// entry as ``entry(of:)`` returned it since the object was last recorded or removed
    /// (other objects may have been recorded since: a removed object's entry that they
    /// cleared is read again).
    ///
    /// - Parameters:
    ///   - id: The evaluated object, of ``entity``.
    ///   - reads: What the evaluation read, in any order, with repeats.
    ///   - entry: The object's entry.
    ///   - sectionStart: The position in `reads` of the section key's first read; every
    ///     read before it was made outside the section key. By default every read was.
    mutating func record<Reads: Sequence<PropertyRead>>(_ id: ObjectID, reads: Reads, entry: Entry, sectionStart: Int = .max) {
        assert(id.entity === entity, "internal inconsistency: \(id) is not of the evaluated entity")
        let serial = id.entitySerial
        var previous = entry
        if previous.removedHandle != nil {
            // A removed object's entry, read before other objects were recorded: one of them
            // may have freed or compacted the list that held its stale entry since (an undo
            // brings an object back while others leave its key), so it is read again.
            previous = self.entry(of: id)
        }
        assert(previous == self.entry(of: id), "internal inconsistency: the entry of \(id) changed since it was read")
        if let staleHandle = previous.removedHandle {
            // Evaluated again after `remove(_:)` (a member that left an ordered relationship
            // and came back): its stale entry goes first, so it is never listed twice.
            dropStaleEntry(of: serial, handle: staleHandle)
            previous = .noKey
        }
        var single: Int32? = nil
        var many: [Int32] = []
        var position = 0
        for read in reads {
            defer { position += 1 }
            if read.objectID == id {
                // A bit per low property index spares a set lookup per read.
                let raw = read.property.rawValue
                if raw <= Self.lastPropertyBit {
                    if ownReadBits & 1 << raw == 0 {
                        ownReadBits |= 1 << raw
                        ownReads.insert(read.property)
                    }
                } else if !ownReads.contains(read.property) {
                    ownReads.insert(read.property)
                }
                continue
            }
            let key = DependencyKey(object: read.objectID, property: read.property)
            // A re-evaluation that reads the one key it read before finds its handle
            // without hashing the key.
            let handle: Int32
            if let previousHandle = previous.handle, keyOfHandle[Int(previousHandle)] == key {
                handle = previousHandle
            } else {
                handle = intern(key)
            }
            if position < sectionStart && !readOutsideSection[Int(handle)] { readOutsideSection[Int(handle)] = true }
            if many.isEmpty {
                if let single {
                    if single != handle { many = [single, handle] }
                } else {
                    single = handle
                }
            } else if !many.contains(handle) {
                many.append(handle)
            }
        }
        // The same one key as before, or none before and now: nothing changes (a handle
        // read before has this object as a dependent, so it stays in use).
        if many.isEmpty && previous == (single.map(Entry.one) ?? .noKey) { return }
        if many.isEmpty, previous == .noKey, let single {
            // The common case of a fetch: one key read, none before; no arrays made.
            makeRoom(for: serial)
            append(serial, to: single)
            pairCount += 1
            crossKey[serial] = .one(single)
            return
        }
        if many.isEmpty, let single, let oldHandle = previous.handle {
            // One key for another (an item moved to another location): no arrays made.
            removeDependent(serial, of: oldHandle)
            append(serial, to: single)
            pairCount += 1
            crossKey[serial] = .one(single)
            tidy(single)
            return
        }
        let old: [Int32] = if let handle = previous.handle { [handle] } else if previous == .severalKeys { several[serial] ?? [] } else { [] }
        let new: [Int32] = many.isEmpty ? (single.map { [$0] } ?? []) : many
        for handle in old where !new.contains(handle) {
            removeDependent(serial, of: handle)
        }
        if !new.isEmpty { makeRoom(for: serial) }
        switch new.count {
        case 0:
            if previous == .severalKeys { several[serial] = nil }
            if serial < crossKey.count { crossKey[serial] = .noKey }
        case 1:
            let handle = new[0]
            if previous == .severalKeys { several[serial] = nil }
            if !old.contains(handle) {
                append(serial, to: handle)
                pairCount += 1
            } else if let position = self.position(of: serial, in: Int(handle)) {
                // It read several keys, this one among them: its position is this list's now.
                positions[serial] = UInt32(position)
            }
            crossKey[serial] = .one(handle)
        default:
            for handle in new where !old.contains(handle) {
                append(serial, to: handle)
                pairCount += 1
            }
            several[serial] = new
            crossKey[serial] = .severalKeys
        }
        for handle in new { tidy(handle) }
    }

    /// Records for `id` the reads of other objects that `source`, an index of the same
    /// entity, holds for it, as if an evaluation here had read exactly those keys: for an
    /// engine whose evaluation of the object reads what the source's does, and nothing else
    /// of other objects (a search's row, whose searched string reads only its own
    /// properties, of which the base holds the evaluation current with the commit).
    ///
    /// A key the source's handle marks as read outside a section key is recorded so here
    /// too (that mark is shared by all of the source's dependents of the key, so it may
    /// call for more re-evaluation than needed, never less). The source's own reads are
    /// not copied: see ``recordOwnReads(of:)``.
    ///
    /// - Parameters:
    ///   - id: The object, of ``entity``.
    ///   - entry: Its entry here (``entry(of:)``).
    ///   - source: The index whose entry for `id` to copy.
    /// - Returns: `false`, recording nothing, when the source holds the entry of a removed
    ///   object for it (the caller evaluates the object instead).
    /// - Complexity: O(1) when the source's entry names the key this one does; otherwise
    ///   as ``record(_:reads:entry:sectionStart:)`` for the source's keys.
    mutating func adoptEntry(of id: ObjectID, entry: Entry, from source: borrowing DependencyIndex) -> Bool {
        let serial = id.entitySerial
        let sourceEntry = source.entry(of: id)
        if let sourceHandle = sourceEntry.handle {
            let key = source.keyOfHandle[Int(sourceHandle)]
            let outside = source.readOutsideSection[Int(sourceHandle)]
            if let handle = entry.handle, keyOfHandle[Int(handle)] == key, readOutsideSection[Int(handle)] || !outside { return true }
            record(id, reads: CollectionOfOne(PropertyRead(objectID: key.object, property: key.property)), entry: entry, sectionStart: outside ? .max : 0)
            return true
        }
        if sourceEntry == .noKey {
            if entry != .noKey { record(id, reads: EmptyCollection<PropertyRead>(), entry: entry) }
            return true
        }
        guard sourceEntry == .severalKeys else { return false }
        // The keys read outside a section key first, so that one position splits them.
        let handles = source.several[serial] ?? []
        let outside = handles.filter { source.readOutsideSection[Int($0)] }
        let inSection = handles.filter { !source.readOutsideSection[Int($0)] }
        let reads = (outside + inSection).map { handle in
            let key = source.keyOfHandle[Int(handle)]
            return PropertyRead(objectID: key.object, property: key.property)
        }
        record(id, reads: reads, entry: entry, sectionStart: outside.count)
        return true
    }

    /// Takes a commit in which every written object of ``entity`` is a row whose entry is
    /// copied from `source` (``adoptEntry(of:entry:from:)``), and every deleted one is
    /// forgotten (``remove(_:)``): the commit of a search that leaves alone the rows it does
    /// not show. Changes nothing and returns `false` when `staysOut` rejects a written
    /// object, the commit wrote a key some evaluation here may have read (a property that
    /// some key names, or an ordered relationship's order), or `source` holds the entry of
    /// a removed object for a written one.
    ///
    /// - Parameters:
    ///   - changes: The commit.
    ///   - source: The index whose entries to copy, read in place.
    ///   - staysOut: Whether a written object of ``entity``, with what the commit wrote of
    ///     it, is a row the engine does not show and the commit cannot show. It must not
    ///     reach this index.
    /// - Returns: Whether the commit was taken.
    /// - Complexity: O(w + k) for w written objects and k deleted ones, plus the cost of
    ///   copying each entry.
    mutating func leaveExcludedRows(
        writtenIn changes: GraphChanges, from source: borrowing DependencyIndex, where staysOut: (ObjectID, ChangedProperties) -> Bool
    ) -> Bool {
        let entity = entity
        // The entries and positions the copies change, asked for while the checks run.
        for id in changes.updated.keys where id.entity === entity {
            crossKey.prefetchElements(at: CollectionOfOne(id.entitySerial))
            positions.prefetchElements(at: CollectionOfOne(id.entitySerial))
        }
        // One pass: every written object of the entity stays out, and no write is of a key
        // some evaluation here may have read (its dependents are the caller's to list, once).
        if hasCrossReads && !changes.moves.isEmpty { return false }
        for (id, properties) in changes.updated {
            if hasCrossReads && mayBeKeyed(id, properties) { return false }
            if id.entity === entity {
                guard staysOut(id, properties), source.entry(of: id).removedHandle == nil else { return false }
            }
        }
        for id in changes.deleted where id.entity === entity { remove(id) }
        var ownReadsAdded = false
        for id in changes.updated.keys where id.entity === entity {
            if !ownReadsAdded {
                recordOwnReads(of: source)
                ownReadsAdded = true
            }
            let copied = adoptEntry(of: id, entry: entry(of: id), from: source)
            assert(copied, "internal inconsistency: the entry of \(id) was not copied")
        }
        return true
    }

    /// Adds the own properties that `source`'s evaluations read to those read here (an
    /// engine that copies the source's entries with ``adoptEntry(of:entry:from:)`` re-evaluates
    /// an object on a write to any of them, as the source does).
    ///
    /// - Complexity: O(1) when this index has every bit of the source's; O(p) for the
    ///   source's p own reads otherwise.
    mutating func recordOwnReads(of source: borrowing DependencyIndex) {
        recordOwnReads(source.ownReadBits)
        if source.ownReads.count > ownReads.count || source.ownReadBits.nonzeroBitCount != source.ownReads.count {
            ownReads.formUnion(source.ownReads)
        }
    }

    /// Forgets the reads of an object that no longer exists or is no longer evaluated (of
    /// any entity: others are ignored). It may be recorded again later.
    ///
    /// - Complexity: O(1) amortized when it read one key of another object (its entry is
    ///   left stale); O(d) for the d dependents of each key when it read several.
    mutating func remove(_ id: ObjectID) {
        guard id.entity === entity else { return }
        let serial = id.entitySerial
        guard serial < crossKey.count else { return }
        let previous = crossKey[serial]
        if let handle = previous.handle {
            crossKey[serial] = .removed(from: handle)
            staleCounts[Int(handle)] += 1
            pairCount -= 1
            tidy(handle)
        } else if previous == .severalKeys {
            for handle in several[serial] ?? [] { removeDependent(serial, of: handle) }
            several[serial] = nil
            crossKey[serial] = .noKey
        }
    }

    /// Calls `body` with the serial of each object whose evaluation read `property` of
    /// `object`.
    ///
    /// - Complexity: O(d) for d such objects.
    func forEachDependent(of object: ObjectID, _ property: PropertyIndex, _ body: (Int) -> Void) {
        forEachDependent(of: object, property) { serial, _ in body(serial) }
    }

    /// Calls `body` with the serial of each object whose evaluation read `property` of
    /// `object`, and whether only section keys read it (no evaluation read it outside one).
    ///
    /// - Complexity: O(d) for d such objects.
    private func forEachDependent(of object: ObjectID, _ property: PropertyIndex, _ body: (Int, Bool) -> Void) {
        guard mayBeKeyed(object, property), let handle = handles[DependencyKey(object: object, property: property)] else { return }
        let list = Int(handle)
        let sectionOnly = !readOutsideSection[list]
        if staleCounts[list] == 0 {
            for serial in dependentSerials[list] { body(Int(serial), sectionOnly) }
        } else {
            let stale = Entry.removed(from: handle)
            for serial in dependentSerials[list] where crossKey[Int(serial)] != stale { body(Int(serial), sectionOnly) }
        }
    }

    /// The one key of other objects the last evaluation of `id` read, or `nil` when it read
    /// none or several (or the object is not evaluated).
    ///
    /// - Complexity: O(1).
    @inline(__always)
    func onlyKey(of id: ObjectID) -> DependencyKey? {
        guard id.entity === entity else { return nil }
        return key(ofEntry: entry(of: id))
    }

    /// The entry of an object whose last evaluation read exactly one key of other objects,
    /// `key`: what ``entry(of:)`` returns for such an object. `nil` when no evaluation read
    /// `key`.
    ///
    /// - Complexity: One hash of the key.
    func entry(ofOnlyKey key: DependencyKey) -> Entry? {
        handles[key].map(Entry.one)
    }

    /// The key an entry names, or `nil` when it names none or several (``entry(of:)``).
    ///
    /// - Complexity: O(1).
    func key(ofEntry entry: Entry) -> DependencyKey? {
        entry.handle.map { keyOfHandle[Int($0)] }
    }

    /// Whether the reads of a section key's evaluation of `id` (own reads aside) are all of
    /// `key`, the one key of other objects the object's entry names (``key(ofEntry:)``):
    /// then recording them changes nothing.
    ///
    /// Static, so that a caller holding the index in a class's property need not copy it.
    ///
    /// - Parameters:
    ///   - reads: The section key's reads.
    ///   - id: The evaluated object.
    ///   - key: The one key its entry names, or `nil` when it names none or several.
    /// - Complexity: O(r) for r reads.
    static func reads(_ reads: [PropertyRead], of id: ObjectID, areAllOf key: DependencyKey?) -> Bool {
        guard let key else { return false }
        for read in reads where read.objectID != id {
            guard read.objectID == key.object && read.property == key.property else { return false }
        }
        return true
    }

    /// The serials of the objects whose evaluation read what a commit wrote of other objects
    /// (a property of an updated object that is not deleted, or an ordered relationship
    /// whose members moved), with repeats.
    ///
    /// - Parameter changes: What the commit changed.
    /// - Returns: The serials, in no particular order.
    /// - Complexity: O(w + d) for w written properties and d dependents; a written property
    ///   no key names costs no hash.
    func dependents(ofWritesIn changes: GraphChanges) -> [UInt32] {
        let dependents = dependentsBySection(ofWritesIn: changes)
        return dependents.serials + dependents.sectionOnly
    }

    /// The serials of the objects whose evaluation read what a commit wrote of other objects,
    /// as ``dependents(ofWritesIn:)``, in two lists: those of keys some evaluation read
    /// outside a section key, and those of keys only section keys read (whose predicate
    /// results and sort keys the writes leave alone). A serial may be in both.
    ///
    /// - Parameter changes: What the commit changed.
    /// - Returns: The two lists, with repeats, in no particular order, and the written key
    ///   that only section keys read when exactly one such key has dependents.
    /// - Complexity: O(w + d) for w written properties and d dependents.
    func dependentsBySection(ofWritesIn changes: GraphChanges) -> CommitDependents {
        var result = CommitDependents()
        guard hasCrossReads else { return result }
        for (id, properties) in changes.updated {
            // Whether the object was deleted too is asked only of a write some evaluation
            // read (a hash of its ID each), not of every write.
            properties.forEachIndex { property in
                if mayBeKeyed(id, property) && !changes.deleted.contains(id) { addDependents(of: id, property, to: &result) }
            }
        }
        for move in changes.moves {
            guard let property = move.owner.entity.index(of: move.relationship) else { continue }
            addDependents(of: move.owner, property, to: &result)
        }
        return result
    }

    /// Appends the live dependents of `property` of `object` to the list of `result` they
    /// belong in (``dependentsBySection(ofWritesIn:)``).
    ///
    /// - Complexity: O(d) for d dependents.
    private func addDependents(of object: ObjectID, _ property: PropertyIndex, to result: inout CommitDependents) {
        guard mayBeKeyed(object, property) else { return }
        let key = DependencyKey(object: object, property: property)
        guard let handle = handles[key] else { return }
        let list = Int(handle)
        let sectionOnly = !readOutsideSection[list]
        if sectionOnly {
            result.sectionOnlyKeyCount += 1
            result.sectionOnlyKey = key
        }
        // Appended straight into the result: a closure that captured the lists would check
        // exclusive access to them at every append.
        if staleCounts[list] == 0 {
            if sectionOnly {
                result.sectionOnly.append(contentsOf: dependentSerials[list])
            } else {
                result.serials.append(contentsOf: dependentSerials[list])
            }
        } else {
            let stale = Entry.removed(from: handle)
            for serial in dependentSerials[list] where crossKey[Int(serial)] != stale {
                if sectionOnly { result.sectionOnly.append(serial) } else { result.serials.append(serial) }
            }
        }
    }

    /// The number of objects whose evaluation read `property` of `object`.
    func dependentCount(of object: ObjectID, _ property: PropertyIndex) -> Int {
        guard mayBeKeyed(object, property) else { return 0 }
        return handles[DependencyKey(object: object, property: property)].map {
            dependentSerials[Int($0)].count - Int(staleCounts[Int($0)])
        } ?? 0
    }

    /// Whether any evaluation read a property of another object.
    var hasCrossReads: Bool { pairCount > 0 }

    /// What the last evaluation of the object with this serial read of other objects
    /// (nothing once it is removed).
    func crossReads(ofSerial serial: Int) -> [DependencyKey] {
        guard serial < crossKey.count else { return [] }
        let entry = crossKey[serial]
        if let handle = entry.handle { return [keyOfHandle[Int(handle)]] }
        if entry == .severalKeys { return (several[serial] ?? []).map { keyOfHandle[Int($0)] } }
        return []
    }

    // MARK: - Storage

    /// Whether some key may name `property` of `object`: `false` spares hashing a key of a
    /// written object no evaluation reads (most writes of a commit).
    @inline(__always)
    private func mayBeKeyed(_ object: ObjectID, _ property: PropertyIndex) -> Bool {
        let entity = ObjectIdentifier(object.entity)
        let bit: UInt64 = 1 << min(UInt64(property.rawValue), Self.lastPropertyBit)
        for entry in keyedEntities where entry.entity == entity { return entry.properties & bit != 0 }
        return false
    }

    /// Whether some key may name one of `properties` of `object` (``mayBeKeyed(_:_:)`` for
    /// each of them, with one look at the entity).
    private func mayBeKeyed(_ object: ObjectID, _ properties: ChangedProperties) -> Bool {
        let entity = ObjectIdentifier(object.entity)
        for entry in keyedEntities where entry.entity == entity {
            var written: UInt64 = 0
            properties.forEachIndex { written |= 1 << min(UInt64($0.rawValue), Self.lastPropertyBit) }
            return entry.properties & written != 0
        }
        return false
    }

    /// Notes that a key names a property of an object of its entity (``mayBeKeyed(_:_:)``).
    private mutating func noteKeyed(_ key: DependencyKey) {
        let entity = ObjectIdentifier(key.object.entity)
        let bit: UInt64 = 1 << min(UInt64(key.property.rawValue), Self.lastPropertyBit)
        if let position = keyedEntities.firstIndex(where: { $0.entity == entity }) {
            keyedEntities[position].properties |= bit
        } else {
            keyedEntities.append((entity, bit))
        }
    }

    private mutating func intern(_ key: DependencyKey) -> Int32 {
        // A direct-mapped cache in front of the hash table: a fetch interns one key per
        // object, and a few related objects serve them all.
        let line = (key.object.entitySerial &* 31 &+ Int(key.property.rawValue)) & (Self.cacheSize - 1)
        if line < cache.count, let (cached, handle) = cache[line], cached == key { return handle }
        let handle = internInTable(key)
        if cache.isEmpty { cache = Array(repeating: nil, count: Self.cacheSize) }
        cache[line] = (key, handle)
        return handle
    }

    private mutating func internInTable(_ key: DependencyKey) -> Int32 {
        if let handle = handles[key] { return handle }
        let handle: Int32
        if let reused = freeHandles.popLast() {
            handle = reused
            keyOfHandle[Int(handle)] = key
            readOutsideSection[Int(handle)] = false
        } else {
            handle = Int32(keyOfHandle.count)
            keyOfHandle.append(key)
            dependentSerials.append([])
            staleCounts.append(0)
            readOutsideSection.append(false)
        }
        handles[key] = handle
        noteKeyed(key)
        return handle
    }

    /// Frees a handle that no live object depends on (forgetting the stale entries left in
    /// its dependents), or compacts its dependents when stale entries outnumber live ones.
    ///
    /// - Complexity: O(1), or O(d) for its d dependents when it frees or compacts.
    private mutating func tidy(_ handle: Int32) {
        guard handle >= 0 else { return }
        let list = Int(handle)
        let count = dependentSerials[list].count
        let stale = Int(staleCounts[list])
        if count == stale {
            for serial in dependentSerials[list] { crossKey[Int(serial)] = .noKey }
            staleCounts[list] = 0
            if !cache.isEmpty { cache = [] }
            handles[keyOfHandle[list]] = nil
            dependentSerials[list] = []
            freeHandles.append(handle)
        } else if stale > count - stale {
            compact(handle)
        }
    }

    /// Drops the stale entries of a handle's dependents; their objects' marks become
    /// ``noKey``.
    ///
    /// - Complexity: O(d) for the handle's d dependents.
    private mutating func compact(_ handle: Int32) {
        let list = Int(handle)
        let stale = Entry.removed(from: handle)
        let entries = dependentSerials[list]
        var live: [UInt32] = []
        live.reserveCapacity(entries.count - Int(staleCounts[list]))
        for serial in entries {
            if crossKey[Int(serial)] == stale {
                crossKey[Int(serial)] = .noKey
            } else {
                positions[Int(serial)] = UInt32(live.count)
                live.append(serial)
            }
        }
        assert(live.count == entries.count - Int(staleCounts[list]), "internal inconsistency: the stale count of \(keyOfHandle[list]) is wrong")
        dependentSerials[list] = live
        staleCounts[list] = 0
    }

    /// Drops the stale entry of a removed object from the dependents of `handle`, the one
    /// its entry names (``Entry/removedHandle``), before the object is recorded again.
    ///
    /// - Complexity: O(1) (O(d) for the handle's d dependents if its position is not known).
    private mutating func dropStaleEntry(of serial: Int, handle: Int32) {
        let list = Int(handle)
        guard let position = position(of: serial, in: list) else {
            requirementFailure("internal inconsistency: removed serial \(serial) missing from the dependents of \(keyOfHandle[list])")
        }
        takeOut(at: position, of: list)
        staleCounts[list] -= 1
        crossKey[serial] = .noKey
    }

    private mutating func makeRoom(for serial: Int) {
        guard serial >= crossKey.count else { return }
        let count = max(serial + 1, capacityHint, crossKey.count * 2)
        capacityHint = 0
        crossKey.append(contentsOf: repeatElement(Entry.noKey, count: count - crossKey.count))
        positions.append(contentsOf: repeatElement(0, count: count - positions.count))
    }

    /// Appends an object to a handle's dependents, noting where.
    ///
    /// - Complexity: O(1) amortized.
    private mutating func append(_ serial: Int, to handle: Int32) {
        positions[serial] = UInt32(dependentSerials[Int(handle)].count)
        dependentSerials[Int(handle)].append(UInt32(serial))
    }

    /// Where an object is in the dependents of a handle: O(1) when ``positions`` is right
    /// (always, for an object of one key), otherwise found by a search from the end.
    ///
    /// - Complexity: O(1), or O(d) for the list's d entries.
    private func position(of serial: Int, in list: Int) -> Int? {
        let hint = Int(positions[serial])
        if hint < dependentSerials[list].count && dependentSerials[list][hint] == UInt32(serial) { return hint }
        return dependentSerials[list].lastIndex(of: UInt32(serial))
    }

    /// Takes the entry at `position` out of a handle's dependents by moving the last entry
    /// into its place (whose position it notes).
    ///
    /// - Complexity: O(1).
    private mutating func takeOut(at position: Int, of list: Int) {
        let last = dependentSerials[list].removeLast()
        if position < dependentSerials[list].count {
            dependentSerials[list][position] = last
            positions[Int(last)] = UInt32(position)
        }
    }

    /// Removes one live entry from a handle's dependents by moving the last entry into its
    /// place.
    ///
    /// - Complexity: O(1) for an object that read only this key; O(d) for the handle's d
    ///   dependents otherwise.
    private mutating func removeDependent(_ serial: Int, of handle: Int32) {
        let list = Int(handle)
        guard let position = position(of: serial, in: list) else {
            requirementFailure("internal inconsistency: serial \(serial) missing from the dependents of \(keyOfHandle[list])")
        }
        takeOut(at: position, of: list)
        pairCount -= 1
        tidy(handle)
    }

    /// Gives every dependent list exactly the capacity it needs, after a fetch filled them
    /// by appending.
    ///
    /// - Complexity: O(p) for p recorded pairs.
    mutating func shrinkToFit() {
        for handle in dependentSerials.indices where dependentSerials[handle].capacity > dependentSerials[handle].count {
            let list = dependentSerials[handle]
            dependentSerials[handle] = [UInt32](unsafeUninitializedCapacity: list.count) { buffer, initialized in
                initialized = buffer.initialize(fromContentsOf: list)
            }
        }
    }

    #if FRK_INVARIANT_CHECKS
        /// Checks that the forward and reverse indexes agree, stale entries included.
        func _checkInvariants() {
            var count = 0
            for (key, handle) in handles {
                let list = Int(handle)
                require(keyOfHandle[list] == key, "internal inconsistency: handle \(handle) names another key")
                let serials = dependentSerials[list]
                require(Set(serials).count == serials.count, "internal inconsistency: a dependent of \(key) listed twice")
                var stale = 0
                for serial in serials {
                    if crossKey[Int(serial)] == .removed(from: handle) {
                        stale += 1
                    } else {
                        require(crossReads(ofSerial: Int(serial)).contains(key), "internal inconsistency: serial \(serial) listed under \(key) it did not read")
                    }
                }
                require(stale == Int(staleCounts[list]), "internal inconsistency: \(stale) stale dependents of \(key), \(staleCounts[list]) counted")
                require(serials.count > stale, "internal inconsistency: no live dependent of \(key)")
                require(stale <= serials.count - stale, "internal inconsistency: more stale than live dependents of \(key)")
                count += serials.count - stale
            }
            for key in handles.keys {
                require(mayBeKeyed(key.object, key.property), "internal inconsistency: \(key) is interned but filtered out")
            }
            for handle in freeHandles {
                require(dependentSerials[Int(handle)].isEmpty && staleCounts[Int(handle)] == 0, "internal inconsistency: free handle \(handle) has dependents")
            }
            var forward = several.values.reduce(0) { $0 + $1.count }
            require(positions.count == crossKey.count, "internal inconsistency: \(positions.count) positions for \(crossKey.count) entries")
            for (serial, entry) in crossKey.enumerated() where entry != .noKey {
                // An object of one key (or one removed, still listed) is where its position says.
                if let handle = entry.handle ?? entry.removedHandle {
                    let list = dependentSerials[Int(handle)]
                    let position = Int(positions[serial])
                    require(position < list.count && list[position] == UInt32(serial), "internal inconsistency: serial \(serial) is not at its position")
                }
                if entry.handle != nil {
                    forward += 1
                } else if let named = entry.removedHandle {
                    require(
                        Int(named) < keyOfHandle.count && handles[keyOfHandle[Int(named)]] == named
                            && dependentSerials[Int(named)].contains(UInt32(serial)),
                        "internal inconsistency: removed serial \(serial) marked stale under handle \(named) that does not list it")
                } else {
                    require(several[serial] != nil, "internal inconsistency: serial \(serial) marked as reading several keys without them")
                }
            }
            require(count == forward && count == pairCount, "internal inconsistency: \(forward) reads, \(count) reverse entries, \(pairCount) counted")
        }
    #else
        @inline(__always)
        func _checkInvariants() {}
    #endif
}

/// The objects whose evaluation read what one commit wrote of other objects
/// (``DependencyIndex/dependentsBySection(ofWritesIn:)``), by entity serial.
struct CommitDependents {
    /// The dependents of written keys that some evaluation read outside a section key,
    /// with repeats.
    var serials: [UInt32] = []
    /// The dependents of written keys that only section keys read, with repeats.
    var sectionOnly: [UInt32] = []
    /// How many times a written key that only section keys read added its dependents to
    /// ``sectionOnly`` (a key that the commit wrote twice, as a property and as an ordered
    /// relationship's moves, counts twice).
    var sectionOnlyKeyCount = 0
    /// The last such key: the only one when ``sectionOnlyKeyCount`` is 1, and then
    /// ``sectionOnly`` lists each of its dependents once.
    var sectionOnlyKey: DependencyKey?
}
