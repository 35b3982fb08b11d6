import ObjectGraph

/// An identifier a ``ResultsIndex`` can keep, and may number densely.
protocol RowIdentifier: Hashable, Comparable {
    /// A small non-negative number, unique among the identifiers one index holds, that the
    /// index uses to find a row's slot in a plain column; `nil` when the identifier has none
    /// (it is then found in a hash table).
    var denseNumber: Int? { get }
}

extension ObjectID: RowIdentifier {
    /// The object's `ObjectID.entitySerial`: a controller's rows are all of one entity.
    @inline(__always)
    var denseNumber: Int? { entitySerial }
}

extension Int: RowIdentifier {
    /// The integer itself when it is below a million and not negative.
    @inline(__always)
    var denseNumber: Int? { self >= 0 && self < 1 << 20 ? self : nil }
}

/// The slot of each row of a ``ResultsIndex``, by identifier.
///
/// Identifiers with a ``RowIdentifier/denseNumber`` are found in a column of 4-byte slots
/// indexed by that number (a controller's object IDs: about 4 bytes per object instead of a
/// hash table's 40); others in a dictionary.
struct SlotMap<ID: RowIdentifier> {
    /// The slot of each dense number, or ``absent``.
    private var dense: [Int32] = []
    /// The slots of identifiers without a dense number.
    private var sparse: [ID: Int32] = [:]
    /// The number of identifiers mapped.
    private(set) var count = 0

    private static var absent: Int32 { -1 }

    /// Makes room for `count` identifiers.
    mutating func reserveCapacity(_ count: Int) {
        dense.reserveCapacity(count)
    }

    /// The slot of an identifier, or `nil` when it is not mapped.
    ///
    /// - Complexity: O(1).
    subscript(id: ID) -> Int32? {
        get {
            if let number = id.denseNumber {
                guard number < dense.count else { return nil }
                let slot = dense[number]
                return slot == Self.absent ? nil : slot
            }
            return sparse[id]
        }
        set {
            if let number = id.denseNumber {
                if number >= dense.count {
                    guard newValue != nil else { return }
                    dense.append(contentsOf: repeatElement(Self.absent, count: number + 1 - dense.count))
                }
                let old = dense[number]
                dense[number] = newValue ?? Self.absent
                count += (newValue == nil ? 0 : 1) - (old == Self.absent ? 0 : 1)
            } else {
                let old = sparse.updateValue(newValue ?? 0, forKey: id)
                if newValue == nil { sparse[id] = nil }
                count += (newValue == nil ? 0 : 1) - (old == nil ? 0 : 1)
            }
        }
    }

    /// Asks the processor for the lines that hold the slots of `ids` (a hint that changes
    /// nothing), so that their cache misses overlap before a loop reads them one by one.
    ///
    /// - Complexity: O(k) for k identifiers.
    func prefetch(_ ids: some Sequence<ID>) {
        // A closure, not `\.denseNumber`: a key path to a requirement of a generic identifier
        // is made at run time on every call.
        dense.prefetchElements(at: ids.lazy.compactMap { $0.denseNumber })
    }

    /// Calls `body` with each mapped dense number and its slot, then each identifier
    /// without a number and its slot.
    func forEach(dense: (Int32) -> Void, sparse: (ID, Int32) -> Void) {
        for slot in self.dense where slot != Self.absent { dense(slot) }
        for (id, slot) in self.sparse { sparse(id, slot) }
    }

    /// Maps an identifier to a slot and returns its previous slot.
    @discardableResult
    mutating func updateValue(_ slot: Int32, forKey id: ID) -> Int32? {
        let old = self[id]
        self[id] = slot
        return old
    }
}

/// A dictionary-like view of a ``SlotMap`` with the identifier of each slot, so the map's
/// identifiers can be listed and iterated.
struct SlotMapView<ID: RowIdentifier>: Sequence {
    /// The map.
    var map: SlotMap<ID>
    /// The identifier of each slot.
    let ids: [ID]

    /// The slot of an identifier, or `nil`.
    ///
    /// - Complexity: O(1).
    subscript(id: ID) -> Int32? {
        get { map[id] }
        set { map[id] = newValue }
    }

    /// The number of identifiers mapped.
    var count: Int { map.count }

    /// Makes room for `count` identifiers.
    mutating func reserveCapacity(_ count: Int) { map.reserveCapacity(count) }

    /// Maps an identifier to a slot and returns its previous slot.
    @discardableResult
    mutating func updateValue(_ slot: Int32, forKey id: ID) -> Int32? { map.updateValue(slot, forKey: id) }

    /// The identifiers mapped.
    ///
    /// - Complexity: O(n) for the largest dense number n.
    var keys: [ID] { map(\.key) }

    /// Each identifier with its slot.
    ///
    /// - Complexity: O(n) for the largest dense number n.
    func makeIterator() -> IndexingIterator<[(key: ID, value: Int32)]> {
        var pairs: [(key: ID, value: Int32)] = []
        pairs.reserveCapacity(map.count)
        map.forEach(dense: { slot in pairs.append((ids[Int(slot)], slot)) }, sparse: { id, slot in pairs.append((id, slot)) })
        return pairs.makeIterator()
    }
}
