/// How a diff treats an identifier that occurs more than once on one side, for the diff forms
/// that take a policy instead of throwing ``ListDiffError``.
///
/// Real data has repeats: a feed that shows the same post twice, a list of placeholders that
/// share an identifier. The throwing forms of ``ListChanges/difference(from:to:)`` report
/// them as programming errors; the forms that take a policy diff any input.
public enum ListDiffDuplicatePolicy: Sendable, Hashable {
    /// The first occurrence of an identifier on each side is the identity; every later
    /// occurrence is a distinct row (or section) with no counterpart by identifier.
    ///
    /// A later occurrence on the old side is deleted and one on the new side is inserted,
    /// except that a row is still matched with the old row that directly follows the last row
    /// matched when their identifiers are equal: a list of repeats that keeps its order has
    /// no changes, and one row of a run of repeats added or removed is one insert or delete.
    /// Every old row is matched at most once, so the changes are valid for any input.
    case firstOccurrenceIsIdentity
}
