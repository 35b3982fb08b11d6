import Foundation

/// A fast, reproducible random number generator (SplitMix64) for randomized tests.
///
/// Every randomized test takes a seed, so a failure can be replayed exactly: Swift Testing
/// prints the seed as the test's argument, and `FRK_SEED=<n> swift test --filter <test>`
/// replays one seed (see `testSeeds(count:)`).
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The seeds a randomized test runs with: `count` fixed seeds, or only the seed in the
/// `FRK_SEED` environment variable when it is set, to replay a reported failure.
///
/// - Parameter count: How many seeds to run when `FRK_SEED` is not set.
/// - Returns: The seeds, stable from run to run.
public func testSeeds(count: Int) -> [UInt64] {
    if let text = ProcessInfo.processInfo.environment["FRK_SEED"], let seed = UInt64(text) {
        return [seed]
    }
    var generator = SeededGenerator(seed: 0x5EED_F00D)
    return (0..<count).map { _ in generator.next() % 1_000_000_007 }
}

/// Whether the library was built with `FRK_INVARIANT_CHECKS` (full `_checkInvariants()`).
public var invariantChecksEnabled: Bool {
    #if FRK_INVARIANT_CHECKS
        return true
    #else
        return false
    #endif
}
