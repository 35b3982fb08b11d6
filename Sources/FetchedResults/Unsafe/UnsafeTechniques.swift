// Every memory technique of the FetchedResults module that the compiler does not check, and
// the invariant that makes each one sound. The rest of the module reaches raw memory and
// cache hints only through the types of this folder (a test, the FetchedResults
// `UnsafeConfinementTests`, keeps it so).
//
// | technique                                        | where                                   | invariant upheld by |
// | ------------------------------------------------ | --------------------------------------- | ------------------- |
// | node fields in memory allocated by hand, read without bounds checks in release builds | `NodeBuffer` (NodeBuffer.swift) | the buffer alone: `count` of `capacity` elements initialized, one owner (noncopyable) |
// | a node's elements borrowed as a collection       | `NodeBuffer.Elements`, `withElements(_:)` | callers use the view only inside the call |
// | a child node read without a retain               | `NodeBuffer.withUnretained(_:_:)`       | the body does not remove the child from its parent |
// | cache hints on node buffers, child nodes, key columns, slot maps, dependency entries and changed objects | `NodeLines`, `Array.prefetchElements`, `ObjectGraph.prefetchObject(with:lines:)` (CacheHints.swift), `NodeBuffer.prefetchObject(at:lines:)` | none needed: a hint never faults and its address is never dereferenced; steps are `FRK_CACHE_LINE_SIZE` |
// | a key comparison borrowed from a column's memory | `Array.orderInPlace(_:_:)` (Array+OrderInPlace.swift) | `RowKeyColumns`: every column holds a value for every slot |
// | a string's first 16 bytes loaded as two words    | `LeadingBytes` (LeadingBytes.swift)     | reads at most the buffer's bytes |
// | `memchr`/`memcmp` over folded bytes              | FoldedText+RawSearch.swift              | callers pass storage they hold for the call |
// | an array's elements indexed without bounds checks, and folded bytes searched in place | `UncheckedElements`, `UncheckedMutableElements`, `Array.withUncheckedElements(_:)` (UncheckedElements.swift) | views are used only inside the call; positions are inside the view (checked in debug builds) |
// | a load's in-place bucketing and radix sort       | ResultsIndex+LoadOrder.swift            | positions are prefix sums of the counts |
// | a load's column permutation, moving elements     | ResultsIndex+Permuted.swift             | the order holds each position of the column |
//
// One technique is an attribute and stays on the declarations it qualifies; it is listed
// here so that this file stays the whole inventory.
//
// `@exclusivity(unchecked)`: fields read and written on every search step or cached text
// look-up, where a dynamic exclusivity check is a runtime call per access. Each is confined
// to its owner's isolation domain, and no access to one is held across a call that could
// reach it again, so the checks could never fire:
// - `OrderTree.Node`: `total`, `slots`, `fences`, `digests`, `counts`, `children`, `firsts`,
//   `childLines` (only the tree's own operations touch them, one statement at a time);
// - `FoldedTextSlot`: `plain`, `caseless`, `accentless`, `both` (a short read or a plain
//   assignment, with no user code in between).
//
// Checked in debug builds only: `unsafeDowncast`, `unsafelyUnwrapped` and
// `unsafeUninitializedCapacity` trap on a wrong class, a `nil` or a wrong count in a debug
// build and trust the code in an optimized one. They stay where they are used, on the
// evaluation and commit paths, and each use is counted here with what makes it sound
// (`FetchedResultsUnsafeConfinementTests` checks the counts):
// - `Predicate/PredicateEntity.swift`: unsafeDowncast ×19, `Predicate/GraphPredicateSchema.swift`:
//   unsafeDowncast ×6, `Engine/ResultsEngine/ResultsEngine+Evaluation.swift`: unsafeDowncast ×3,
//   `Engine/ResultsEngine/ResultsEngine+SectionRename.swift`: unsafeDowncast ×1,
//   `Totals/Total.swift`: unsafeDowncast ×9 — a request's
//   readers (and its totals') are made for one entity's class, and the engine evaluates only objects of that
//   entity (`ObjectGraph.objects(of:)`, a commit's changes filtered by entity, a relationship's
//   destination class);
// - `Engine/ResultsIndex/ResultsIndex+Commit.swift`: unsafelyUnwrapped ×7,
//   `Engine/ResultsIndex/ResultsIndex+SectionMoves.swift`: unsafelyUnwrapped ×7 — a change's
//   `keys` are read only on the branches where `hasKeys` (the predicate included the row) was
//   tested;
// - `TextFolding/FoldedTextSlot.swift`: unsafelyUnwrapped ×8 — each read follows the `if let`
//   that found the slot filled, or the assignment that filled it;
// - `FetchRequest/StringComparison.swift`: unsafeUninitializedCapacity ×1,
//   `Engine/ResultsEngine/DependencyIndex.swift`: unsafeUninitializedCapacity ×1 — the closure
//   writes exactly the count it returns.
