/// Which objects a fetch request includes: a closure, or one built from key paths with the
/// static functions below and combined with `&&`, `||` and `!`.
///
/// A predicate is evaluated once per object when the controller fetches, and again only when
/// a property it read changes: the controller records every property the predicate reads
/// (across relationships too), so a predicate may read anything reachable from the object.
///
/// ```swift
/// let shoppingList: FetchPredicate<Item> = .equal(\.listed, true) && .greater(\.quantity, 0)
/// let fridge = FetchPredicate<Item> { $0.location?.name == "Fridge" }
/// ```
public struct FetchPredicate<Object: GraphObject> {
    let isIncluded: (Object) -> Bool

    /// Creates a predicate from a closure.
    ///
    /// - Parameter isIncluded: Returns whether the object belongs to the results. It must be
    ///   deterministic: it may read the object and the objects it reaches, nothing else that
    ///   changes.
    /// - Complexity: O(1).
    public init(_ isIncluded: @escaping (Object) -> Bool) {
        self.isIncluded = isIncluded
    }

    /// Whether `object` satisfies the predicate.
    ///
    /// - Parameter object: The object to test.
    /// - Returns: `true` when the object belongs to the results.
    /// - Complexity: The cost of the predicate: each closure it combines runs at most once.
    public func evaluate(_ object: Object) -> Bool {
        isIncluded(object)
    }

    /// A predicate that every object satisfies.
    public static var all: FetchPredicate { FetchPredicate { _ in true } }

    /// Objects whose value at `keyPath` equals `value`.
    ///
    /// - Parameters:
    ///   - keyPath: The value to compare.
    ///   - value: The value it must equal.
    /// - Returns: The predicate.
    /// - Complexity: O(1).
    public static func equal<Value: Equatable>(_ keyPath: KeyPath<Object, Value>, _ value: Value) -> FetchPredicate {
        FetchPredicate { $0[keyPath: keyPath] == value }
    }

    /// Objects whose value at `keyPath` differs from `value`.
    ///
    /// - Parameters:
    ///   - keyPath: The value to compare.
    ///   - value: The value it must differ from.
    /// - Returns: The predicate.
    /// - Complexity: O(1).
    public static func notEqual<Value: Equatable>(_ keyPath: KeyPath<Object, Value>, _ value: Value) -> FetchPredicate {
        FetchPredicate { $0[keyPath: keyPath] != value }
    }

    /// Objects whose value at `keyPath` is less than `value`.
    ///
    /// - Parameters:
    ///   - keyPath: The value to compare.
    ///   - value: The bound, excluded.
    /// - Returns: The predicate.
    /// - Complexity: O(1).
    public static func less<Value: Comparable>(_ keyPath: KeyPath<Object, Value>, _ value: Value) -> FetchPredicate {
        FetchPredicate { $0[keyPath: keyPath] < value }
    }

    /// Objects whose value at `keyPath` is at most `value`.
    ///
    /// - Parameters:
    ///   - keyPath: The value to compare.
    ///   - value: The bound, included.
    /// - Returns: The predicate.
    /// - Complexity: O(1).
    public static func lessOrEqual<Value: Comparable>(_ keyPath: KeyPath<Object, Value>, _ value: Value) -> FetchPredicate {
        FetchPredicate { $0[keyPath: keyPath] <= value }
    }

    /// Objects whose value at `keyPath` is greater than `value`.
    ///
    /// - Parameters:
    ///   - keyPath: The value to compare.
    ///   - value: The bound, excluded.
    /// - Returns: The predicate.
    /// - Complexity: O(1).
    public static func greater<Value: Comparable>(_ keyPath: KeyPath<Object, Value>, _ value: Value) -> FetchPredicate {
        FetchPredicate { $0[keyPath: keyPath] > value }
    }

    /// Objects whose value at `keyPath` is at least `value`.
    ///
    /// - Parameters:
    ///   - keyPath: The value to compare.
    ///   - value: The bound, included.
    /// - Returns: The predicate.
    /// - Complexity: O(1).
    public static func greaterOrEqual<Value: Comparable>(_ keyPath: KeyPath<Object, Value>, _ value: Value) -> FetchPredicate {
        FetchPredicate { $0[keyPath: keyPath] >= value }
    }

    /// Objects whose value at `keyPath` is one of `values`.
    ///
    /// - Parameters:
    ///   - keyPath: The value to look up.
    ///   - values: The accepted values.
    /// - Returns: The predicate.
    /// - Complexity: O(1).
    public static func isIn<Value: Hashable>(_ keyPath: KeyPath<Object, Value>, _ values: Set<Value>) -> FetchPredicate {
        FetchPredicate { values.contains($0[keyPath: keyPath]) }
    }

    /// Objects whose string at `keyPath` contains `text` under `comparison` (`CONTAINS[cd]`
    /// for `.caseDiacriticInsensitive`). `text` is folded once, here.
    ///
    /// - Parameters:
    ///   - keyPath: The string to search.
    ///   - text: The text to find; an empty text matches every object.
    ///   - comparison: How characters compare.
    /// - Returns: The predicate.
    /// - Complexity: O(m) in the length of `text`, folded once here; evaluating folds the
    ///   object's string, O(n) in its length.
    public static func contains(
        _ keyPath: KeyPath<Object, String>, _ text: String, _ comparison: StringComparison = .caseDiacriticInsensitive
    ) -> FetchPredicate {
        let needle = comparison == .localizedStandard ? StringComparison.caseDiacriticInsensitive.fold(text) : comparison.fold(text)
        let fold = comparison == .localizedStandard ? StringComparison.caseDiacriticInsensitive : comparison
        return FetchPredicate { needle.isEmpty || fold.fold($0[keyPath: keyPath]).contains(needle) }
    }

    /// Objects whose string at `keyPath` begins with `prefix` under `comparison`
    /// (`BEGINSWITH[cd]` for `.caseDiacriticInsensitive`).
    ///
    /// - Parameters:
    ///   - keyPath: The string to test.
    ///   - prefix: The prefix.
    ///   - comparison: How characters compare.
    /// - Returns: The predicate.
    /// - Complexity: O(m) in the length of `prefix`, folded once here; evaluating folds the
    ///   object's string, O(n) in its length.
    public static func beginsWith(
        _ keyPath: KeyPath<Object, String>, _ prefix: String, _ comparison: StringComparison = .caseDiacriticInsensitive
    ) -> FetchPredicate {
        let fold = comparison == .localizedStandard ? StringComparison.caseDiacriticInsensitive : comparison
        let needle = fold.fold(prefix)
        return FetchPredicate { fold.fold($0[keyPath: keyPath]).hasPrefix(needle) }
    }

    /// Objects that satisfy both predicates; `rhs` is evaluated only when `lhs` holds.
    ///
    /// - Complexity: O(1); evaluating costs what the operands cost.
    public static func && (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate {
        FetchPredicate { lhs.isIncluded($0) && rhs.isIncluded($0) }
    }

    /// Objects that satisfy either predicate; `rhs` is evaluated only when `lhs` fails.
    ///
    /// - Complexity: O(1); evaluating costs what the operands cost.
    public static func || (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate {
        FetchPredicate { lhs.isIncluded($0) || rhs.isIncluded($0) }
    }

    /// Objects that do not satisfy the predicate.
    ///
    /// - Complexity: O(1); evaluating costs what the operand costs.
    public static prefix func ! (predicate: FetchPredicate) -> FetchPredicate {
        FetchPredicate { !predicate.isIncluded($0) }
    }
}

@available(*, unavailable)
extension FetchPredicate: Sendable {}
