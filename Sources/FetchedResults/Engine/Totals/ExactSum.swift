/// The exact sum of a multiset of `Double`s, kept as one wide fixed-point integer: adding and
/// removing values in any order never rounds, so a total kept across any sequence of commits
/// equals the same total computed afresh, bit for bit.
///
/// Every finite `Double` is an integer multiple of 2⁻¹⁰⁷⁴ below 2¹⁰²⁴, so the sum of up to
/// 2⁶³ of them is an integer multiple of 2⁻¹⁰⁷⁴ below 2¹⁰⁸⁷: ``limbCount`` 64-bit limbs in
/// two's complement hold it. Infinities and NaNs are counted apart. ``value`` rounds the exact
/// sum once, to within one unit in the last place (to nearest, except that a result in the
/// subnormal range may be rounded twice).
struct ExactSum: Equatable {
    /// Limbs from 2⁻¹⁰⁷⁴ up: 36 × 64 bits cover 2⁻¹⁰⁷⁴ to 2¹²⁰⁰.
    static let limbCount = 36
    /// The sum's fixed-point bits, least significant limb first, two's complement.
    private var limbs = [UInt64](repeating: 0, count: ExactSum.limbCount)
    /// How many +∞, −∞ and NaN values are in the sum.
    private var positiveInfinities = 0
    private var negativeInfinities = 0
    private var nans = 0

    /// Adds `value` (or removes it, when `sign` is −1).
    ///
    /// - Complexity: O(1) amortized (a carry rarely runs past two limbs).
    mutating func add(_ value: Double, times sign: Int = 1) {
        guard value.isFinite else {
            if value.isNaN {
                nans += sign
            } else if value > 0 {
                positiveInfinities += sign
            } else {
                negativeInfinities += sign
            }
            return
        }
        guard value != 0 else { return }
        // value = ±significand × 2^(exponent − 52) for normal numbers, with the implicit bit.
        let bits = value.bitPattern
        let biased = Int((bits >> 52) & 0x7FF)
        var significand = bits & ((1 << 52) - 1)
        // Position of the significand's lowest bit above 2⁻¹⁰⁷⁴.
        let shift: Int
        if biased == 0 {
            shift = 0
        } else {
            significand |= 1 << 52
            shift = biased - 1
        }
        let negative = (value < 0) != (sign < 0)
        let limb = shift / 64
        let offset = UInt64(shift % 64)
        let low = significand << offset
        let high = offset == 0 ? 0 : significand >> (64 - offset)
        carry(low, at: limb, negative: negative)
        if high != 0 { carry(high, at: limb + 1, negative: negative) }
    }

    /// Adds another exact sum (the sum of both multisets).
    ///
    /// - Complexity: O(``limbCount``).
    mutating func add(_ other: ExactSum) {
        var carry = false
        for position in limbs.indices {
            let (partial, first) = limbs[position].addingReportingOverflow(other.limbs[position])
            let (sum, second) = partial.addingReportingOverflow(carry ? 1 : 0)
            limbs[position] = sum
            carry = first || second
        }
        positiveInfinities += other.positiveInfinities
        negativeInfinities += other.negativeInfinities
        nans += other.nans
    }

    /// Adds `bits` (or subtracts them) at limb `start`, carrying (or borrowing) upward.
    private mutating func carry(_ bits: UInt64, at start: Int, negative: Bool) {
        var position = start
        var overflow: Bool
        (limbs[position], overflow) = negative ? limbs[position].subtractingReportingOverflow(bits) : limbs[position].addingReportingOverflow(bits)
        while overflow && position + 1 < limbs.count {
            position += 1
            (limbs[position], overflow) = negative ? limbs[position].subtractingReportingOverflow(1) : limbs[position].addingReportingOverflow(1)
        }
    }

    /// The sum, rounded once: NaN when it holds a NaN or both infinities, an infinity when it
    /// holds one, otherwise the exact sum of the finite values rounded to a `Double`.
    ///
    /// - Complexity: O(``limbCount``).
    var value: Double {
        if nans > 0 || (positiveInfinities > 0 && negativeInfinities > 0) { return .nan }
        if positiveInfinities > 0 { return .infinity }
        if negativeInfinities > 0 { return -.infinity }
        var magnitude = limbs
        let negative = limbs[limbs.count - 1] >> 63 == 1
        if negative {
            // Two's complement negation.
            var carry = true
            for position in magnitude.indices {
                magnitude[position] = ~magnitude[position]
                if carry { (magnitude[position], carry) = magnitude[position].addingReportingOverflow(1) }
            }
        }
        guard let top = magnitude.lastIndex(where: { $0 != 0 }) else { return 0 }
        // The 64 most significant bits, with every lower bit folded into the lowest one (a
        // sticky bit, below the rounding position of a 53-bit significand).
        let leading = magnitude[top].leadingZeroBitCount
        var head = magnitude[top] << UInt64(leading)
        var sticky = false
        if top > 0 {
            if leading > 0 {
                head |= magnitude[top - 1] >> UInt64(64 - leading)
                sticky = magnitude[top - 1] << UInt64(leading) != 0
            } else {
                sticky = magnitude[top - 1] != 0
            }
            if !sticky { sticky = magnitude[..<(top - 1)].contains { $0 != 0 } }
        }
        if sticky { head |= 1 }
        // head × 2^(exponent) with the head's lowest bit at 2^(64·top − leading − 1074).
        let exponent = 64 * top - leading - 1074
        let rounded = Double(head)
        let result = Double(sign: .plus, exponent: exponent, significand: rounded)
        return negative ? -result : result
    }
}
