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
///   column indexed by the object's ``ObjectID/entitySerial``. The (object, property) pairs
///   read are interned as small handles; most objects read exactly one (`item.location?.name`),
///   kept inline in the column. Objects that read several keep them in a side table.
/// - The reverse index holds, per handle, the serials of the objects whose evaluation read
///   it: a write there re-evaluates exactly those objects. Adding a dependent is O(1);
///   removing one (a deleted or re-parented object) scans its key's list, O(d) for d
///   dependents — a few microseconds for 10,000, which keeps the index at about 8 bytes per
///   evaluated object that reads one related object (none for a request that reads no
///   other object).
struct DependencyIndex {
    /// The entity of the evaluated objects.
    let entity: EntityDescription
    /// The own properties some evaluation read.
    private(set) var ownReads: Set<PropertyIndex> = []
    /// Bit `i` is set when property `i` (below 64) is in ``ownReads``.
    private var ownReadBits: UInt64 = 0
    /// Per serial: the handle of the one key the object's evaluation read of other objects,
    /// ``noKey`` or ``severalKeys``.
    private var crossKey: [Int32] = []
    /// The handles read by objects that read several keys, by serial.
    private var several: [Int: [Int32]] = [:]
    /// The handle of each interned key.
    private var handles: [DependencyKey: Int32] = [:]
    /// The key of each handle (stale for free handles).
    private var keyOfHandle: [DependencyKey] = []
    /// Per handle: the serials of the objects whose evaluation read its key.
    private var dependentSerials: [[UInt32]] = []
    private var freeHandles: [Int32] = []
    /// Recently interned keys and their handles, by a hash of the key; emptied whenever a
    /// handle is freed.
    private var cache: [(DependencyKey, Int32)?] = []
    private static var cacheSize: Int { 256 }
    /// The number of (object, key) pairs recorded.
    private var pairCount = 0
    /// How many serials to make room for once the first object reads another object.
    private var capacityHint = 0

    private static var noKey: Int32 { -1 }
    private static var severalKeys: Int32 { -2 }

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
    /// property `i` (the split form of ``ObjectGraph/trackReads(of:ownProperties:appendingTo:_:)``).
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
    /// - Complexity: O(r) for r reads.
    mutating func record<Reads: Sequence<PropertyRead>>(_ id: ObjectID, reads: Reads) {
        assert(id.entity === entity, "internal inconsistency: \(id) is not of the evaluated entity")
        let serial = id.entitySerial
        var single = Self.noKey
        var many: [Int32] = []
        for read in reads {
            if read.objectID == id {
                // A bit per low property index spares a set lookup per read.
                let raw = read.property.rawValue
                if raw < 64 {
                    if ownReadBits & 1 << raw == 0 {
                        ownReadBits |= 1 << raw
                        ownReads.insert(read.property)
                    }
                } else if !ownReads.contains(read.property) {
                    ownReads.insert(read.property)
                }
                continue
            }
            let handle = intern(DependencyKey(object: read.objectID, property: read.property))
            if many.isEmpty {
                if single == Self.noKey {
                    single = handle
                } else if single != handle {
                    many = [single, handle]
                }
            } else if !many.contains(handle) {
                many.append(handle)
            }
        }
        let previous = serial < crossKey.count ? crossKey[serial] : Self.noKey
        if many.isEmpty && previous == single {
            releaseIfUnused(single)
            return
        }
        if many.isEmpty && previous == Self.noKey {
            // The common case of a fetch: one key read, none before; no arrays made.
            makeRoom(for: serial)
            dependentSerials[Int(single)].append(UInt32(serial))
            pairCount += 1
            crossKey[serial] = single
            return
        }
        let old: [Int32] = previous == Self.noKey ? [] : previous == Self.severalKeys ? several[serial] ?? [] : [previous]
        let new: [Int32] = many.isEmpty ? (single == Self.noKey ? [] : [single]) : many
        for handle in old where !new.contains(handle) {
            removeDependent(serial, of: handle)
        }
        if !new.isEmpty { makeRoom(for: serial) }
        switch new.count {
        case 0:
            if previous == Self.severalKeys { several[serial] = nil }
            if serial < crossKey.count { crossKey[serial] = Self.noKey }
        case 1:
            let handle = new[0]
            if previous == Self.severalKeys { several[serial] = nil }
            if !old.contains(handle) {
                dependentSerials[Int(handle)].append(UInt32(serial))
                pairCount += 1
            }
            crossKey[serial] = handle
        default:
            for handle in new where !old.contains(handle) {
                dependentSerials[Int(handle)].append(UInt32(serial))
                pairCount += 1
            }
            several[serial] = new
            crossKey[serial] = Self.severalKeys
        }
        for handle in new { releaseIfUnused(handle) }
    }

    /// Records the reads of the first evaluation of `id` since the index was made empty (a
    /// fetch): nothing to replace.
    ///
    /// - Complexity: O(r) for r reads.
    mutating func recordFirst<Reads: Sequence<PropertyRead>>(_ id: ObjectID, reads: Reads) {
        record(id, reads: reads)
    }

    /// Forgets the reads of an object that no longer exists (of any entity: others are
    /// ignored).
    ///
    /// - Complexity: O(1) when it read one key of another object.
    mutating func remove(_ id: ObjectID) {
        guard id.entity === entity else { return }
        let serial = id.entitySerial
        guard serial < crossKey.count else { return }
        let previous = crossKey[serial]
        if previous >= 0 {
            removeDependent(serial, of: previous)
        } else if previous == Self.severalKeys {
            for handle in several[serial] ?? [] { removeDependent(serial, of: handle) }
            several[serial] = nil
        }
        crossKey[serial] = Self.noKey
    }

    /// Calls `body` with the serial of each object whose evaluation read `property` of
    /// `object`.
    ///
    /// - Complexity: O(d) for d such objects.
    func forEachDependent(of object: ObjectID, _ property: PropertyIndex, _ body: (Int) -> Void) {
        guard let handle = handles[DependencyKey(object: object, property: property)] else { return }
        for serial in dependentSerials[Int(handle)] { body(Int(serial)) }
    }

    /// The number of objects whose evaluation read `property` of `object`.
    func dependentCount(of object: ObjectID, _ property: PropertyIndex) -> Int {
        handles[DependencyKey(object: object, property: property)].map { dependentSerials[Int($0)].count } ?? 0
    }

    /// Whether any evaluation read a property of another object.
    var hasCrossReads: Bool { pairCount > 0 }

    /// What the last evaluation of the object with this serial read of other objects.
    func crossReads(ofSerial serial: Int) -> [DependencyKey] {
        guard serial < crossKey.count else { return [] }
        let handle = crossKey[serial]
        if handle >= 0 { return [keyOfHandle[Int(handle)]] }
        if handle == Self.severalKeys { return (several[serial] ?? []).map { keyOfHandle[Int($0)] } }
        return []
    }

    // MARK: - Storage

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
        } else {
            handle = Int32(keyOfHandle.count)
            keyOfHandle.append(key)
            dependentSerials.append([])
        }
        handles[key] = handle
        return handle
    }

    /// Frees a handle that no object depends on.
    private mutating func releaseIfUnused(_ handle: Int32) {
        guard handle >= 0, dependentSerials[Int(handle)].isEmpty else { return }
        if !cache.isEmpty { cache = [] }
        handles[keyOfHandle[Int(handle)]] = nil
        dependentSerials[Int(handle)] = []
        freeHandles.append(handle)
    }

    private mutating func makeRoom(for serial: Int) {
        guard serial >= crossKey.count else { return }
        let count = max(serial + 1, capacityHint, crossKey.count * 2)
        capacityHint = 0
        crossKey.append(contentsOf: repeatElement(Self.noKey, count: count - crossKey.count))
    }

    /// Removes one entry from a handle's dependents by moving the last entry into its place.
    ///
    /// - Complexity: O(d) for the handle's d dependents.
    private mutating func removeDependent(_ serial: Int, of handle: Int32) {
        let list = Int(handle)
        guard let position = dependentSerials[list].lastIndex(of: UInt32(serial)) else {
            preconditionFailure("internal inconsistency: serial \(serial) missing from the dependents of \(keyOfHandle[list])")
        }
        let last = dependentSerials[list].removeLast()
        if position < dependentSerials[list].count { dependentSerials[list][position] = last }
        pairCount -= 1
        releaseIfUnused(handle)
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
        /// Checks that the forward and reverse indexes agree.
        func _checkInvariants() {
            var count = 0
            for (key, handle) in handles {
                precondition(keyOfHandle[Int(handle)] == key, "internal inconsistency: handle \(handle) names another key")
                let serials = dependentSerials[Int(handle)]
                precondition(!serials.isEmpty, "internal inconsistency: empty dependent list of \(key)")
                precondition(Set(serials).count == serials.count, "internal inconsistency: a dependent of \(key) listed twice")
                for serial in serials {
                    precondition(crossReads(ofSerial: Int(serial)).contains(key), "internal inconsistency: serial \(serial) listed under \(key) it did not read")
                }
                count += serials.count
            }
            var forward = several.values.reduce(0) { $0 + $1.count }
            for (serial, handle) in crossKey.enumerated() where handle != Self.noKey {
                if handle >= 0 { forward += 1 } else {
                    precondition(several[serial] != nil, "internal inconsistency: serial \(serial) marked as reading several keys without them")
                }
            }
            precondition(count == forward && count == pairCount, "internal inconsistency: \(forward) reads, \(count) reverse entries, \(pairCount) counted")
        }
    #else
        @inline(__always)
        func _checkInvariants() {}
    #endif
}
