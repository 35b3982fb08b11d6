import Foundation

/// How a string key compares, decided once when the key is extracted.
///
/// A controller folds each string when it reads it (when the object is fetched or the
/// attribute changes), so comparisons during sorting and updates compare folded strings
/// and never call Foundation.
public enum StringComparison: Sendable, Hashable, CaseIterable {
    /// Compares the strings as they are (Swift's `<`).
    case exact
    /// Ignores case: "apple" and "Apple" compare equal (Core Data's `[c]`).
    case caseInsensitive
    /// Ignores case and diacritics: "Éclair" and "eclair" compare equal (Core Data's `[cd]`).
    case caseDiacriticInsensitive
    /// The order of the Finder and of `localizedStandardCompare(_:)`: case and diacritics are
    /// ignored and runs of digits compare as numbers, so "File 2" sorts before "File 10".
    case localizedStandard

    /// The folded form of `text` under this comparison: two strings compare under this
    /// comparison as their folded forms compare with Swift's `<`.
    ///
    /// - Parameter text: The string to fold.
    /// - Returns: The folded string.
    /// - Complexity: O(length of `text`).
    public func fold(_ text: String) -> String {
        switch self {
        case .exact:
            return text
        case .caseInsensitive:
            return Self.foldCase(text, diacritics: false)
        case .caseDiacriticInsensitive:
            return Self.foldCase(text, diacritics: true)
        case .localizedStandard:
            return Self.naturalNumbers(Self.foldCase(text, diacritics: true))
        }
    }

    /// Lower-cases (and strips diacritics from) `text`; ASCII text takes a fast path that
    /// does not call Foundation.
    private static func foldCase(_ text: String, diacritics: Bool) -> String {
        let utf8 = text.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) {
            guard utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return text }
            return String(unsafeUninitializedCapacity: utf8.count) { buffer in
                for (index, byte) in utf8.enumerated() {
                    buffer[index] = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
                }
                return utf8.count
            }
        }
        let options: String.CompareOptions = diacritics
            ? [.caseInsensitive, .diacriticInsensitive, .widthInsensitive] : [.caseInsensitive]
        return text.folding(options: options, locale: nil)
    }

    /// Rewrites every run of ASCII digits so that plain comparison orders the runs by their
    /// numeric value: leading zeros are dropped and the run is prefixed by its length, one
    /// digit for lengths up to 8, otherwise "9" and the length in two digits (runs of up to
    /// 99 digits order exactly).
    private static func naturalNumbers(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count + 4)
        var digits: [UInt8] = []
        func flush() {
            guard !digits.isEmpty else { return }
            var significant = digits.drop { $0 == 0x30 }
            if significant.isEmpty { significant = [0x30] }
            let length = min(significant.count, 99)
            if length <= 8 {
                result.append(0x30 + UInt8(length))
            } else {
                result.append(0x39)
                result.append(0x30 + UInt8(length / 10))
                result.append(0x30 + UInt8(length % 10))
            }
            result.append(contentsOf: significant)
            digits.removeAll(keepingCapacity: true)
        }
        for byte in text.utf8 {
            if byte >= 0x30 && byte <= 0x39 {
                digits.append(byte)
            } else {
                flush()
                result.append(byte)
            }
        }
        flush()
        return String(decoding: result, as: UTF8.self)
    }
}
