/// Mixes 64 bits with a hash table's seed: the SplitMix64 finalizer (two multiplies, three
/// shifts). Used by ``ObjectID`` and ``GraphObject`` for the hashes of sets and dictionaries.
@inlinable
@inline(__always)
internal func _mixHash(_ value: UInt64, seed: Int) -> Int {
    var z = value ^ UInt64(truncatingIfNeeded: seed)
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int(truncatingIfNeeded: z ^ (z >> 31))
}
