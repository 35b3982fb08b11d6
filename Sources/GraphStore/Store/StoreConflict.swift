import ObjectGraph

/// A change another process committed to a store opened ``GraphStore/Sharing/shared`` that
/// this graph's pending changes also make: what ``GraphStoreError/conflict(_:)`` lists.
///
/// **The rule.** A commit applies what other processes committed first. Their changes merge
/// with this graph's pending ones when they touch different properties, or, for a to-many
/// relationship, different members (two processes adding items to one list both keep their
/// item). When both changed the same attribute or to-one relationship, when the other
/// process deleted an object this graph writes to, or when it changed an object this graph
/// deletes, the local commit throws and keeps its changes pending: neither side's committed
/// or pending change is dropped silently. (Core Data calls this its error merge policy.)
public struct StoreConflict: Sendable, Hashable, CustomStringConvertible {
    /// Why a change conflicts.
    public enum Reason: Sendable, Hashable {
        /// Both changed the property: an attribute, a to-one or ordered relationship, or the
        /// same member of a to-many relationship.
        case bothChanged
        /// The other process deleted the object; this graph has pending writes to it.
        case deletedElsewhere
        /// This graph deletes the object; the other process changed (or deleted) it.
        case deletedHere

        init(_ conflict: ExternalConflict) {
            switch conflict {
            case .bothChanged: self = .bothChanged
            case .deletedElsewhere: self = .deletedElsewhere
            case .deletedHere: self = .deletedHere
            }
        }
    }

    /// The object both changed.
    public var objectID: ObjectID
    /// The property both changed; `nil` when the other process deleted the object.
    public var property: String?
    /// Why the changes conflict.
    public var reason: Reason

    /// Makes a conflict.
    ///
    /// - Parameters:
    ///   - objectID: The object.
    ///   - property: The property, or `nil` for a deletion.
    ///   - reason: Why.
    /// - Complexity: O(1).
    public init(objectID: ObjectID, property: String?, reason: Reason) {
        self.objectID = objectID
        self.property = property
        self.reason = reason
    }

    /// Names the object, the property and the reason.
    public var description: String {
        let subject = property.map { "\(objectID).\($0)" } ?? "\(objectID)"
        switch reason {
        case .bothChanged: return "\(subject) was changed here and by another process"
        case .deletedElsewhere: return "\(subject) was deleted by another process and written here"
        case .deletedHere: return "\(subject) was deleted here and changed by another process"
        }
    }
}
