import Foundation

/// How one Unicode scalar folds under each combination of ``TextComparisonOptions``.
///
/// Folding a scalar, in this order:
/// 1. canonical decomposition (NFD), so precomposed and decomposed spellings compare equal;
/// 2. with `[d]`: a scalar that decomposes into a base below U+0510 (Latin, Greek, Cyrillic,
///    Armenian) becomes that base alone; a grapheme-extending scalar (combining marks,
///    variation selectors, emoji skin-tone modifiers, ZWNJ) is dropped;
/// 3. with `[c]`: every scalar that changes under case folding or lowercasing becomes the
///    lowercase of its uppercase, repeated until stable (`ß` → `ss`, `ẞ` → `ss`, `ﬁ` → `fi`,
///    `ς` → `σ`, `İ` → `i̇`, `K` → `k`), then the result is decomposed again.
///
/// The scalars U+0080..<U+3100 (Latin through kana) are folded once into a table on first
/// use; others are folded on the fly.
enum ScalarFolding {
    /// The folding of one scalar under one mode.
    struct Fold {
        /// The UTF-8 bytes of the folded scalars; empty when the scalar is dropped.
        var bytes: ArraySlice<UInt8>
        /// Whether the fold is more than one scalar (a match may not end inside it).
        var isExpansion: Bool
        /// Whether the source scalar extends the grapheme before it (a match may not end
        /// just before it when it is kept).
        var isExtend: Bool
    }

    /// The first scalar value the table does not hold.
    static let tableEnd: UInt32 = 0x3100

    /// The lazily built table of folds for U+0080..<``tableEnd``.
    private static let table = Table()

    /// The fold of `scalar` (not ASCII) under `options`.
    ///
    /// - Complexity: O(1) for scalars in the table; otherwise a Foundation normalization.
    static func fold(_ scalar: Unicode.Scalar, _ options: TextComparisonOptions) -> Fold {
        assert(scalar.value >= 0x80, "ASCII is folded inline")
        if scalar.value < tableEnd {
            return table.fold(scalar.value, options)
        }
        let computed = compute(scalar)
        let mode = Int(options.rawValue)
        return Fold(
            bytes: computed.modes[mode][...],
            isExpansion: computed.expansion[mode],
            isExtend: computed.isExtend
        )
    }

    /// Whether a scalar extends the grapheme before it for the purpose of match boundaries.
    static func isExtend(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isGraphemeExtend || scalar.properties.isEmojiModifier
    }

    /// Folds one scalar under all four modes (index = `TextComparisonOptions.rawValue`).
    static func compute(_ scalar: Unicode.Scalar) -> (modes: [[UInt8]], expansion: [Bool], isExtend: Bool) {
        let extend = isExtend(scalar)
        let decomposed = decompose(scalar)
        var modes: [[UInt8]] = []
        var expansion: [Bool] = []
        for raw in UInt8(0)...3 {
            let options = TextComparisonOptions(rawValue: raw)
            var scalars: [Unicode.Scalar]
            if options.contains(.diacriticInsensitive) {
                if extend {
                    scalars = []
                } else if decomposed.count > 1 || decomposed.first != scalar, let base = decomposed.first, base.value < 0x510 {
                    scalars = [base]
                } else {
                    scalars = decomposed
                }
            } else {
                scalars = decomposed
            }
            if options.contains(.caseInsensitive) {
                scalars = scalars.flatMap(caseFold).flatMap(decompose)
                if options.contains(.diacriticInsensitive) {
                    scalars.removeAll(where: isExtend)
                }
            }
            var bytes: [UInt8] = []
            for folded in scalars { bytes.append(contentsOf: UTF8.encode(folded)!) }
            modes.append(bytes)
            expansion.append(scalars.count > 1)
        }
        return (modes, expansion, extend)
    }

    /// The canonical decomposition of one scalar.
    static func decompose(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        if scalar.value < 0xC0 { return [scalar] }
        return Array(String(Character(scalar)).decomposedStringWithCanonicalMapping.unicodeScalars)
    }

    /// The case fold of one scalar: the lowercase of its uppercase, for scalars that change
    /// under case folding or lowercasing; the scalar itself otherwise (so `ı` stays `ı`).
    static func caseFold(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        // Repeat until stable: `ẞ` lowercases to `ß`, which folds on to `ss`.
        var scalars = [scalar]
        for _ in 0..<3 {
            var changed = false
            scalars = scalars.flatMap { scalar -> [Unicode.Scalar] in
                let properties = scalar.properties
                guard properties.changesWhenCaseFolded || properties.changesWhenLowercased else { return [scalar] }
                let folded = properties.uppercaseMapping.unicodeScalars.flatMap { $0.properties.lowercaseMapping.unicodeScalars }
                if folded != [scalar] { changed = true }
                return folded
            }
            if !changed { break }
        }
        return scalars
    }

    /// The table of folds for U+0080..<``tableEnd``: one byte range and flags per scalar and mode.
    private final class Table: Sendable {
        /// The folded bytes of every scalar and mode, back to back.
        let bytes: [UInt8]
        /// `offsets[4 * i + mode] ..< offsets[4 * i + mode + 1]` is the fold of scalar `0x80 + i`.
        let offsets: [UInt32]
        /// Bit `mode` set: the fold is an expansion; bit 4 set: the scalar is extending.
        let flags: [UInt8]

        init() {
            var bytes: [UInt8] = []
            var offsets: [UInt32] = [0]
            var flags: [UInt8] = []
            let count = Int(ScalarFolding.tableEnd - 0x80)
            bytes.reserveCapacity(count * 8)
            offsets.reserveCapacity(count * 4 + 1)
            flags.reserveCapacity(count)
            for value in UInt32(0x80)..<ScalarFolding.tableEnd {
                guard let scalar = Unicode.Scalar(value) else {
                    // Surrogate code points are not scalars; they never occur in a String.
                    for _ in 0..<4 { offsets.append(UInt32(bytes.count)) }
                    flags.append(0)
                    continue
                }
                let computed = ScalarFolding.compute(scalar)
                var flag: UInt8 = computed.isExtend ? 0b1_0000 : 0
                for mode in 0..<4 {
                    bytes.append(contentsOf: computed.modes[mode])
                    offsets.append(UInt32(bytes.count))
                    if computed.expansion[mode] { flag |= 1 << UInt8(mode) }
                }
                flags.append(flag)
            }
            self.bytes = bytes
            self.offsets = offsets
            self.flags = flags
        }

        func fold(_ value: UInt32, _ options: TextComparisonOptions) -> Fold {
            let index = Int(value - 0x80)
            let mode = Int(options.rawValue)
            let start = Int(offsets[4 * index + mode])
            let end = Int(offsets[4 * index + mode + 1])
            let flag = flags[index]
            return Fold(
                bytes: bytes[start..<end],
                isExpansion: flag & (1 << UInt8(mode)) != 0,
                isExtend: flag & 0b1_0000 != 0
            )
        }
    }
}
