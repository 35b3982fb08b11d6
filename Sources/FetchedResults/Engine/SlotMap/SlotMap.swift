import ObjectGraph

/// An identifier a ``ResultsIndex`` can keep, and may number densely.
protocol RowIdentifier: Hashable, Comparable {
    /// A small non-negative number, unique among the identifiers one index holds, that the
    /// index uses to find a row's slot in a plain column; `nil` when the identifier has none
    /// (it is then found in a hash table).
    var denseNumber: Int? { get }
}

extension ObjectID: RowIdentifier {
    /// The object's ``ObjectID/entitySerial``: a controller's rows are all of one entity.
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

    /// Maps an identifier to a slot and returns its previous slot.
    @discardableResult
    mutating func updateValue(_ slot: Int32, forKey id: ID) -> Int32? {
        let old = self[id]
        self[id] = slot
        return old
    }
}
