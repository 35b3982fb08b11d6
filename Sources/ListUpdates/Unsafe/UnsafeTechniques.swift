// Every memory technique of the ListUpdates module that the compiler does not check, and the
// invariant that makes each one sound. The rest of the module reaches raw memory only through
// the types and functions of this folder (a test, the ListUpdates `UnsafeConfinementTests`,
// keeps it so).
//
// | technique                                        | where                                   | invariant upheld by |
// | ------------------------------------------------ | --------------------------------------- | ------------------- |
// | an array's elements read and written without bounds or uniqueness checks | `UncheckedMutableElements`, `Array.withUncheckedMutableElements(_:)` (UncheckedMutableElements.swift) | a view is used only inside the call; positions are below the array's count (checked in debug builds) |
// | the longest increasing subsequence's search in temporary allocations | `LongestIncreasingSubsequence.mark` (LongestIncreasingSubsequence.swift) | every index is below the count each buffer holds; entries are written before they are read, and the values initialized are deinitialized |
// | the treap's split and merge recursions on the node buffer | `splitInPlace`, `mergeInPlace` (ChangeAccumulator.TokenForest+InPlace.swift) | the node array does not grow during a recursion; node indexes are the forest's own, -1 tested first |
// | the identifier table's insertion loop on its slot buffer, and `UUID`/`Int` identifiers hashed and compared by their bits | `insertDistinct`, `hash(_:seed:)`, `equal(_:_:)`, `words(of:)` (SectionedDiff.IdentifierTable+Bits.swift) | slots come from `home` and `slot(after:)`, and the table is at most two thirds full; a bit cast runs only where `ID.self` is the type cast to |
//
// Checked in debug builds only: `unsafeDowncast`, `unsafelyUnwrapped` and
// `unsafeUninitializedCapacity` are not used in this module.
