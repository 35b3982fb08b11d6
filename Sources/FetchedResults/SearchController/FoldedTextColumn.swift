import Foundation
import ObjectGraph

/// The folded search strings of a search controller's objects, packed in one byte buffer
/// and found by each object's `ObjectID.entitySerial` (a search's objects are
/// all of one entity), so a pass over every folding reads memory in order and a look-up
/// costs no hashing and no reference counting.
///
/// A refolded string is appended at the end of the buffer; the space it leaves behind is
/// reclaimed by compacting the buffer once it is more than half garbage, so writes cost
/// amortized O(length). Foldings with match boundaries (rare: marks a match may not split)
/// are kept whole in a dictionary.
struct FoldedTextColumn {
    /// Where one serial's folding is.
    struct Entry {
        /// The first byte in ``bytes``.
        var start: Int
        /// The byte count, ``absent`` when the serial has no folding, or ``irregular``
        /// when the folding is in ``irregular``.
        var length: Int32
    }

    static var absent: Int32 { -1 }
    static var irregularLength: Int32 { -2 }

    /// The options every folding and needle uses.
    let options: TextComparisonOptions
    /// The entity of every object with a folding (the first one folded; forgetting an
    /// object does not set it); objects of other entities have none.
    private(set) var entity: EntityDescription?
    /// The folded bytes, garbage included.
    private(set) var bytes: [UInt8] = []
    /// Each serial's folding.
    private(set) var entries: [Entry] = []
    /// The foldings with match boundaries, by serial.
    private(set) var irregular: [Int: FoldedText] = [:]
    /// The number of serials with a folding.
    private(set) var count = 0
    /// The bytes of ``bytes`` that a live entry points at.
    private(set) var liveBytes = 0

    /// Creates an empty column for foldings made with `options`.
    init(options: TextComparisonOptions) {
        self.options = options
    }

    /// The folding of an object, or `nil` when it has none; setting `nil` forgets it.
    ///
    /// - Complexity: O(n) in the folding's length; a write is amortized O(n).
    subscript(id: ObjectID) -> FoldedText? {
        get {
            let serial = id.entitySerial
            guard serial < entries.count, id.entity === entity else { return nil }
            let entry = entries[serial]
            switch entry.length {
            case Self.absent: return nil
            case Self.irregularLength: return irregular[serial]
            default:
                return FoldedText(
                    regularBytes: Array(bytes[entry.start..<entry.start + Int(entry.length)]), options: options)
            }
        }
        set {
            let serial = id.entitySerial
            // Only a folding claims the column for its entity: forgetting an object (a
            // search forgets every deleted object, of any entity) claims nothing.
            if entity == nil {
                guard newValue != nil else { return }
                entity = id.entity
            }
            guard id.entity === entity else {
                require(newValue == nil, "internal inconsistency: a search folds objects of two entities")
                return
            }
            if serial >= entries.count {
                guard newValue != nil else { return }
                entries.append(contentsOf: repeatElement(Entry(start: 0, length: Self.absent), count: serial + 1 - entries.count))
            }
            let old = entries[serial]
            switch old.length {
            case Self.absent: break
            case Self.irregularLength:
                irregular.removeValue(forKey: serial)
                count -= 1
            default:
                liveBytes -= Int(old.length)
                count -= 1
            }
            defer { _checkInvariants() }
            guard let newValue else {
                entries[serial] = Entry(start: 0, length: Self.absent)
                return
            }
            require(newValue.options == options, "internal inconsistency: a folding with other options in a search's column")
            count += 1
            if newValue.boundaries != nil {
                irregular[serial] = newValue
                entries[serial] = Entry(start: 0, length: Self.irregularLength)
                return
            }
            entries[serial] = Entry(start: bytes.count, length: Int32(newValue.bytes.count))
            bytes.append(contentsOf: newValue.bytes)
            liveBytes += newValue.bytes.count
            if bytes.count > 4_096 && bytes.count > 2 * liveBytes { compact() }
        }
    }

    /// Rewrites the buffer with the live foldings only, in serial order.
    ///
    /// - Complexity: O(n) for n live bytes and the serials.
    private mutating func compact() {
        var packed: [UInt8] = []
        packed.reserveCapacity(liveBytes * 5 / 4)
        for serial in entries.indices where entries[serial].length >= 0 {
            let entry = entries[serial]
            let start = packed.count
            packed.append(contentsOf: bytes[entry.start..<entry.start + Int(entry.length)])
            entries[serial].start = start
        }
        bytes = packed
    }

    /// Whether an object's folding contains `needle`, or `nil` when it has no folding.
    ///
    /// - Complexity: O(n) typically, in the folding's length.
    @inline(__always)
    func contains(_ id: ObjectID, _ needle: FoldedText) -> Bool? {
        let serial = id.entitySerial
        guard serial < entries.count, id.entity === entity else { return nil }
        let entry = entries[serial]
        switch entry.length {
        case Self.absent: return nil
        case Self.irregularLength: return irregular[serial]?.contains(needle)
        case 0: return false
        default:
            return bytes.withUncheckedElements { hay in
                needle.bytes.withUncheckedElements { pattern in
                    FoldedText.regularBytes(hay, start: entry.start, count: Int(entry.length), contain: pattern)
                }
            }
        }
    }

    /// The serials (of ``entity``'s objects) whose folding contains `needle`, or that have
    /// no folding (the caller must look at those), as a bit per serial: bit `s % 64` of
    /// word `s / 64`, with a set bit for every serial past the column's end.
    ///
    /// - Complexity: O(b + s) for b live bytes and s serials, in one ordered pass.
    func candidates(containing needle: FoldedText) -> [UInt64] {
        var words = [UInt64](repeating: 0, count: entries.count / 64 + 1)
        words[words.count - 1] = ~0 &<< UInt64(entries.count & 63)
        bytes.withUncheckedElements { hay in
            needle.bytes.withUncheckedElements { pattern in
                entries.withUncheckedElements { entries in
                    words.withUncheckedMutableElements { words in
                        for serial in entries.indices {
                            let entry = entries[serial]
                            let hit: Bool
                            switch entry.length {
                            case Self.absent: hit = true
                            case Self.irregularLength: hit = irregular[serial]?.contains(needle) ?? true
                            case 0: hit = false
                            default:
                                hit = FoldedText.regularBytes(hay, start: entry.start, count: Int(entry.length), contain: pattern)
                            }
                            if hit { words[serial &>> 6] |= 1 &<< UInt64(serial & 63) }
                        }
                    }
                }
            }
        }
        return words
    }

    /// Appends an object's folding to `texts` as their next slot, with its row's base rank.
    ///
    /// - Returns: `false`, appending nothing, when the object has no folding.
    /// - Complexity: O(n) in the folding's length.
    @inline(__always)
    func appendFolding(of id: ObjectID, to texts: inout SlotTexts, rank: Int32) -> Bool {
        let serial = id.entitySerial
        guard serial < entries.count, id.entity === entity else { return false }
        let entry = entries[serial]
        switch entry.length {
        case Self.absent: return false
        case Self.irregularLength:
            guard let folded = irregular[serial] else { return false }
            texts.append(folded, rank: rank)
        default:
            bytes.withUncheckedElements {
                texts.append(regular: $0.elements(in: entry.start..<entry.start + Int(entry.length)), rank: rank)
            }
        }
        return true
    }
}

@available(*, unavailable)
extension FoldedTextColumn: Sendable {}
