import Foundation

extension FetchPredicate {
    /// A predicate that runs a Foundation `Predicate`, as `#Predicate` builds it.
    ///
    /// ```swift
    /// let request = FetchRequest(Item.self, predicate: FetchPredicate(#Predicate<Item> { $0.quantity > 2 }))
    /// ```
    ///
    /// The controller records what the predicate reads while it evaluates, across
    /// relationships too, so its dependencies are exact as for any other predicate.
    ///
    /// - Parameters:
    ///   - predicate: The Foundation predicate.
    ///   - whenEvaluationFails: Whether an object is included when evaluating the predicate
    ///     throws (a force-unwrap of `nil`, a failed cast); by default it is excluded.
    /// - Complexity: O(1).
    public init(_ predicate: Predicate<Object>, whenEvaluationFails: Bool = false) {
        self.init { object in
            do {
                return try predicate.evaluate(object)
            } catch {
                return whenEvaluationFails
            }
        }
    }
}

extension FetchRequest {
    /// Creates a request whose predicate is a Foundation `Predicate`.
    ///
    /// ```swift
    /// let request = FetchRequest(Item.self, predicate: #Predicate<Item> { $0.listed }, sortedBy: [SortKey(\.name)])
    /// ```
    ///
    /// - Parameters:
    ///   - entity: The type of object fetched.
    ///   - predicate: Which objects are included; an object whose evaluation throws is
    ///     excluded.
    ///   - sortKeys: The keys rows sort by inside a section.
    ///   - sectionKey: What rows are grouped by, or `nil`.
    ///   - fetchLimit: The most rows, or `nil`.
    ///   - fetchOffset: Leading rows skipped.
    /// - Complexity: O(1).
    public init(
        _ entity: Object.Type = Object.self,
        predicate: Predicate<Object>,
        sortedBy sortKeys: [SortKey<Object>] = [],
        sectionKey: SectionKey<Object>? = nil,
        fetchLimit: Int? = nil,
        fetchOffset: Int = 0
    ) {
        self.init(
            entity, predicate: FetchPredicate(predicate), sortedBy: sortKeys, sectionKey: sectionKey,
            fetchLimit: fetchLimit, fetchOffset: fetchOffset)
    }
}
