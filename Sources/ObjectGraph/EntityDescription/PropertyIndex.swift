/// The position of an attribute or relationship in its entity, in declaration order.
///
/// Read tracking records `(ObjectID, PropertyIndex)` pairs and ``ChangedProperties`` answers
/// `contains(_:)` for an index with one bit test; ``EntityDescription`` maps an index to its
/// name and back.
public struct PropertyIndex: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The zero-based position among the entity's `@Attribute` and `@Relationship` properties.
    public let rawValue: Int

    /// Creates an index from its position.
    ///
    /// - Parameter rawValue: The zero-based position in the entity's ``EntityDescription/properties``.
    /// - Complexity: O(1).
    @inlinable
    public init(_ rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Orders indexes by position.
    ///
    /// - Complexity: O(1).
    @inlinable
    public static func < (lhs: PropertyIndex, rhs: PropertyIndex) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// The position, as a number.
    public var description: String { "#\(rawValue)" }
}
