/// The shape of a relationship: how many objects it holds and whether their order matters.
public enum RelationshipKind: Sendable, Hashable {
    /// At most one object (`T?`).
    case toOne
    /// A set of objects (`Set<T>`).
    case toMany
    /// An ordered list of distinct objects (`[T]`); reordering it is reported as moves.
    case orderedToMany
}

/// What deleting an object does to the objects one of its relationships holds.
public enum DeleteRule: Sendable, Hashable {
    /// Remove the deleted object from the related objects' inverse (the default).
    case nullify
    /// Delete the related objects too.
    case cascade
    /// Refuse the deletion while the relationship holds any object: ``ObjectGraph/commit(author:)``
    /// throws ``CommitError/deleteDenied(_:relationship:)``.
    case deny
}
