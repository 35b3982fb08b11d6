import Foundation

// The identifier table's raw paths: its insertion loop on the slot array's buffer, and the
// fast paths of `UUID` and `Int` identifiers, whose bits are hashed and compared directly.
//
// Invariant: the insertion loop's slots are below the slot count (`home` and `slot(after:)`
// return slots of the table), and the table is at most two thirds full, so a probe ends at an
// empty slot; `unsafeBitCast(id, to: UUID.self)` and `to: Int.self` run only on the branch
// where `ID.self` is that very type, so each is the identity.

extension SectionedDiff.IdentifierTable {
    /// Adds an entry for each element, with the values `firstValue`, `firstValue + 1`, …,
    /// without comparing identifiers, as long as no entry with the same stored hash bits
    /// is in the way.
    ///
    /// The loop compares no identifiers, so it is short and the processor overlaps the
    /// table accesses of consecutive elements, which mostly miss the cache for large
    /// tables.
    ///
    /// - Parameters:
    ///   - elements: The elements whose identifiers to add, in order.
    ///   - firstValue: The first element's value; at most `maxValue - elements.count + 1`.
    ///   - hash: The hash of an element's identifier, as `hash(_:seed:)` computes it.
    /// - Returns: `true` when every entry was added; `false` when one met an entry with the
    ///   same stored hash bits (a repeated identifier, or two identifiers whose hashes
    ///   share those bits), and the table then holds an unspecified part of the entries.
    /// - Complexity: Expected O(k) for k elements.
    @inlinable
    mutating func insertDistinct<Element>(_ elements: [Element], firstValue: Int, hash: (Element) -> Int) -> Bool {
        require(
            firstValue >= 0 && firstValue + elements.count - 1 <= Self.maxValue,
            "internal inconsistency: identifier table values from \(firstValue) for \(elements.count) elements")
        return words.withUnsafeMutableBufferPointer { words in
            let slotCount = words.count
            var value = UInt64(firstValue + 1)
            for element in elements {
                let hash = hash(element)
                let tag = Self.tag(hash)
                var slot = Self.home(hash, slotCount: slotCount)
                while true {
                    let word = words[slot]
                    if word == 0 { break }
                    if word & 0xFFFF_FFFF_0000_0000 == tag { return false }
                    slot = Self.slot(after: slot, slotCount: slotCount)
                }
                words[slot] = tag | value
                value += 1
            }
            return true
        }
    }

    /// A hash of `id` for this table.
    ///
    /// For `UUID` and `Int` identifiers, the most common ones, it mixes the identifier's
    /// bits with `seed` (a multiply–xorshift finalizer): equality of those types is
    /// equality of their bits, and the mix costs a few nanoseconds where `Hasher` costs
    /// tens. Every other type uses its own `hashValue`.
    ///
    /// - Parameters:
    ///   - id: The identifier.
    ///   - seed: A random value chosen per diff, so that no input collides by design.
    /// - Returns: The hash, the same for equal identifiers within one diff.
    @inlinable
    static func hash<ID: Hashable>(_ id: ID, seed: UInt64) -> Int {
        if ID.self == UUID.self {
            let halves = words(of: unsafeBitCast(id, to: UUID.self))
            return mix(halves.0, halves.1, seed: seed)
        }
        if ID.self == Int.self {
            return mix(UInt64(truncatingIfNeeded: unsafeBitCast(id, to: Int.self)), 0, seed: seed)
        }
        return id.hashValue
    }

    /// Whether two identifiers are equal: for `UUID`, by comparing two words instead of
    /// sixteen bytes one by one; for every other type, by `==`.
    @inlinable
    static func equal<ID: Hashable>(_ a: ID, _ b: ID) -> Bool {
        if ID.self == UUID.self {
            let x = words(of: unsafeBitCast(a, to: UUID.self))
            let y = words(of: unsafeBitCast(b, to: UUID.self))
            return x.0 == y.0 && x.1 == y.1
        }
        return a == b
    }

    /// The 128 bits of a UUID as two words.
    @inlinable
    static func words(of uuid: UUID) -> (UInt64, UInt64) {
        withUnsafeBytes(of: uuid.uuid) { bytes in
            (bytes.loadUnaligned(as: UInt64.self), bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        }
    }
}
