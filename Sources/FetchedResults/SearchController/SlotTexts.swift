import Foundation

/// The folded search strings of a search controller's rows, packed in one buffer in the
/// order of the rows, so a narrowing search reads them in one sequential pass. An entry is
/// named by its row's position in the order (called its slot here).
///
/// Valid only for the index built with it (a text change rebuilds both); a commit, which
/// moves rows between slots, retires it and the next text change reads the per-object store
/// instead. It also keeps each slot's rank in the base order, when the text change knew
/// them, so a broadening merges rows by comparing integers.
struct SlotTexts {
    /// The folded bytes of every slot, one after the other.
    private(set) var bytes: [UInt8] = []
    /// Where each slot's bytes end in `bytes`; a slot's bytes start where the previous end.
    private(set) var ends: [Int32] = []
    /// Slots whose folding restricts where a match may start or end (marks a match may not
    /// split); they are tested with the full ``FoldedText``.
    private(set) var irregular: Set<Int32> = []
    /// The base rank of each slot's row, or `nil` when unknown.
    private(set) var ranks: [Int32]?

    /// Creates an empty list; `ranked` says whether the ranks will be known.
    init(ranked: Bool) {
        ranks = ranked ? [] : nil
    }

    /// Makes room for `count` slots of about `averageLength` bytes.
    mutating func reserveCapacity(_ count: Int, averageLength: Int) {
        ends.reserveCapacity(count)
        ranks?.reserveCapacity(count)
        bytes.reserveCapacity(count * averageLength)
    }

    /// The number of slots.
    var count: Int { ends.count }

    /// Appends the next slot's folding and its row's base rank (ignored when unranked).
    mutating func append(_ text: FoldedText, rank: Int32) {
        ranks?.append(rank)
        if text.boundaries != nil { irregular.insert(Int32(ends.count)) }
        bytes.append(contentsOf: text.bytes)
        ends.append(Int32(bytes.count))
    }

    /// Appends the bytes of a folding without match boundaries as the next slot.
    mutating func append(regular bytes: UncheckedElements<UInt8>, rank: Int32) {
        ranks?.append(rank)
        self.bytes.append(contentsOf: bytes)
        ends.append(Int32(self.bytes.count))
    }

    /// Appends the folding of slot `slot` of `other` as the next slot, with its row's base
    /// rank (ignored when unranked).
    mutating func append(slot: Int32, of other: SlotTexts, rank: Int32) {
        ranks?.append(rank)
        if !other.irregular.isEmpty && other.irregular.contains(slot) { irregular.insert(Int32(ends.count)) }
        let start = slot == 0 ? 0 : Int(other.ends[Int(slot) - 1])
        bytes.append(contentsOf: other.bytes[start..<Int(other.ends[Int(slot)])])
        ends.append(Int32(bytes.count))
    }

    /// Whether slot `slot`'s folding contains `needle` (`true` for an empty needle), or
    /// `nil` when the slot is irregular and must be tested with its ``FoldedText``.
    ///
    /// - Complexity: O(n) typically, in the slot's length.
    @inline(__always)
    func contains(slot: Int32, _ needle: FoldedText) -> Bool? {
        if !irregular.isEmpty && irregular.contains(slot) { return nil }
        let m = needle.bytes.count
        if m == 0 { return true }
        let start = slot == 0 ? 0 : Int(ends[Int(slot) - 1])
        let n = Int(ends[Int(slot)]) - start
        if m > n { return false }
        return bytes.withUncheckedElements { hay in
            needle.bytes.withUncheckedElements { pattern in
                FoldedText.regularBytes(hay, start: start, count: n, contain: pattern)
            }
        }
    }
}
