import Foundation

extension SectionedDiff {
    /// An open-addressing hash table (linear probing) from identifiers to small integers, that
    /// stores only part of each identifier's hash and the integer, in one 8-byte word per slot.
    ///
    /// The identifiers themselves stay where they are, in the caller's rows; a probe compares
    /// the stored part of the hash first and asks the caller to compare identifiers only when
    /// it matches. One flat array, allocated once and at most two thirds full, so that a
    /// lookup costs about one cache miss: about three times faster than `Dictionary` for
    /// 100,000 UUIDs, whose keys and values sit in separate arrays and are compared byte by
    /// byte.
    ///
    /// The slot count is not a power of two, so that the table is no larger than it needs to
    /// be (a long diff's time goes largely into touching fresh memory): a hash's home slot is
    /// the high word of `hash × slotCount`, which spreads the hash's high bits evenly over the
    /// slots, and its low 32 bits are the part stored in the slot.
    @usableFromInline
    struct IdentifierTable {
        /// The largest value a slot can hold.
        @usableFromInline static let maxValue = Int(Int32.max) - 1

        /// Per slot: the lower 32 bits of the hash, then the value plus one (0 when empty).
        @usableFromInline var words: [UInt64]

        /// Creates a table for up to `capacity` entries.
        ///
        /// - Parameter capacity: The most entries the caller will add.
        @usableFromInline
        init(capacity: Int) {
            require(capacity <= Self.maxValue, "a diff supports up to \(Self.maxValue) rows on each side")
            words = Array(repeating: 0, count: capacity + capacity / 2 + 8)
        }

        /// The part of a hash stored in a slot, in the slot word's upper half.
        @inlinable
        static func tag(_ hash: Int) -> UInt64 {
            UInt64(truncatingIfNeeded: hash) << 32
        }

        /// The first slot to probe for a hash.
        @inlinable
        static func home(_ hash: Int, slotCount: Int) -> Int {
            Int(truncatingIfNeeded: UInt64(truncatingIfNeeded: hash).multipliedFullWidth(by: UInt64(slotCount)).high)
        }

        /// The slot probed after `slot`.
        @inlinable
        static func slot(after slot: Int, slotCount: Int) -> Int {
            slot + 1 == slotCount ? 0 : slot + 1
        }

        /// Finds the slot of the entry with hash `hash` whose value `isMatch` accepts, or the
        /// empty slot where such an entry goes.
        ///
        /// - Parameters:
        ///   - hash: The identifier's hash value.
        ///   - isMatch: Whether the entry with this value has the identifier being looked up;
        ///     called only for entries whose stored hash bits are the same.
        /// - Returns: The slot, and whether it holds a matching entry.
        /// - Complexity: Expected O(1).
        @inlinable
        func probe(_ hash: Int, _ isMatch: (Int) -> Bool) -> (slot: Int, found: Bool) {
            let tag = Self.tag(hash)
            let slotCount = words.count
            var slot = Self.home(hash, slotCount: slotCount)
            while true {
                let word = words[slot]
                if word == 0 { return (slot, false) }
                if word & 0xFFFF_FFFF_0000_0000 == tag && isMatch(Int(word & 0xFFFF_FFFF) - 1) {
                    return (slot, true)
                }
                slot = Self.slot(after: slot, slotCount: slotCount)
            }
        }

        /// The value of the entry with hash `hash` whose value `isMatch` accepts, or -1.
        ///
        /// - Parameters:
        ///   - hash: The identifier's hash value.
        ///   - isMatch: Whether the entry with this value has the identifier being looked up.
        /// - Returns: The entry's value, or -1 when no entry has the identifier.
        /// - Complexity: Expected O(1).
        @inlinable
        func lookUp(_ hash: Int, _ isMatch: (Int) -> Bool) -> Int {
            let (slot, found) = probe(hash, isMatch)
            return found ? value(at: slot) : -1
        }

        /// The value of the entry in a slot that `probe` found.
        @inlinable
        func value(at slot: Int) -> Int {
            Int(words[slot] & 0xFFFF_FFFF) - 1
        }

        /// Mixes two words and a seed into a hash whose every bit depends on every input bit.
        @inlinable
        static func mix(_ a: UInt64, _ b: UInt64, seed: UInt64) -> Int {
            var z = a ^ seed
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z ^= b
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z = (z ^ (z >> 31)) &* 0xFF51_AFD7_ED55_8CCD
            return Int(truncatingIfNeeded: z ^ (z >> 33))
        }

        /// Stores an entry in a slot that `probe` returned, or replaces the value of the entry
        /// it found there (the hash must be the same).
        ///
        /// - Parameters:
        ///   - value: An integer in `0...maxValue`.
        ///   - hash: The identifier's hash value.
        ///   - slot: The slot `probe` returned for this hash.
        @inlinable
        mutating func store(_ value: Int, hash: Int, at slot: Int) {
            assert(value >= 0 && value <= Self.maxValue, "internal inconsistency: identifier table value \(value)")
            words[slot] = Self.tag(hash) | UInt64(value + 1)
        }
    }
}
