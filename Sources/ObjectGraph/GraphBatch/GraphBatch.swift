/// Changes described as plain values, built in any isolation domain and applied to a graph
/// in one commit with ``ObjectGraph/apply(_:author:)``, or with
/// ``ObjectGraph/apply(_:author:progress:)`` for an import that reports its progress.
///
/// A batch is `Sendable`: build it on a background task (from network data, say) and send
/// it to the graph's domain. It names objects by ``ObjectID`` or by the ``Reference`` an
/// earlier ``insert(_:values:relationships:)`` or ``upsert(_:values:relationships:)`` of the
/// same batch returned, and properties by name:
///
/// ```swift
/// var batch = GraphBatch()
/// let dairy = batch.upsert(Tag.self, values: ["label": "dairy"])
/// batch.insert(Item.self, values: ["name": "Milk", "quantity": 2],
///              relationships: ["location": [.existing(homeID)], "tags": [dairy]])
/// batch.delete(staleID)
/// try graph.apply(batch)
/// ```
public struct GraphBatch: Sendable {
    /// An object a batch refers to: one already in the graph, or one the batch inserts.
    public struct Reference: Hashable, Sendable {
        internal enum Target: Hashable, Sendable {
            case existing(ObjectID)
            case inserted(Int)
        }

        internal let target: Target

        /// An object already in the graph.
        ///
        /// - Parameter id: Its ID.
        /// - Returns: A reference to it.
        /// - Complexity: O(1).
        public static func existing(_ id: ObjectID) -> Reference {
            Reference(target: .existing(id))
        }
    }

    /// Attribute values by attribute name; each must have the attribute's type.
    ///
    /// To set an optional attribute to `nil`, give the key a `nil` of the attribute's type in
    /// the literal (`["note": nil as String?]`) or assign one as a value
    /// (`values["note"] = String?.none as any Sendable`). Assigning `nil` through the
    /// dictionary's subscript (`values["note"] = nil`, or `= nil as String?`) removes the key,
    /// and the attribute keeps its value.
    public typealias Values = [String: any Sendable]

    /// Related objects by relationship name: at most one for a to-one relationship, in order
    /// for an ordered one. The objects replace the relationship's current ones.
    public typealias Relationships = [String: [Reference]]

    internal enum Operation: Sendable {
        case insert(EntityDescription, Values, Relationships, slot: Int)
        case upsert(EntityDescription, Values, Relationships, slot: Int)
        case update(ObjectID, Values, Relationships)
        case delete(ObjectID)
    }

    internal private(set) var operations: [Operation] = []
    internal private(set) var insertions = 0

    /// An empty batch.
    ///
    /// - Complexity: O(1).
    public init() {}

    /// The number of operations.
    public var count: Int { operations.count }

    /// Whether the batch holds no operation.
    public var isEmpty: Bool { operations.isEmpty }

    /// Moves the operations out, leaving the batch empty of them (its ``count`` is then 0),
    /// so that whoever applies them may release each one once applied.
    internal mutating func takeOperations() -> [Operation] {
        defer { operations = [] }
        return operations
    }

    /// Inserts a new object.
    ///
    /// - Parameters:
    ///   - type: The object's class.
    ///   - values: Attribute values by name (others keep their initial values).
    ///   - relationships: Related objects by relationship name.
    /// - Returns: A reference to the new object, for other operations of this batch.
    /// - Complexity: Amortized O(1); the values are applied by ``ObjectGraph/apply(_:author:)``.
    @discardableResult
    public mutating func insert<Object: GraphObject>(
        _ type: Object.Type,
        values: Values = [:],
        relationships: Relationships = [:]
    ) -> Reference {
        defer { insertions += 1 }
        operations.append(.insert(Object.entity, values, relationships, slot: insertions))
        return Reference(target: .inserted(insertions))
    }

    /// Updates the object whose unique attribute has the value in `values`, or inserts one.
    ///
    /// The class must declare a unique attribute (`@Attribute(unique: true)`) and `values`
    /// must hold its value.
    ///
    /// - Parameters:
    ///   - type: The object's class.
    ///   - values: Attribute values by name, including the unique attribute's.
    ///   - relationships: Related objects by relationship name.
    /// - Returns: A reference to the object updated or inserted.
    /// - Complexity: Amortized O(1); the values are applied by ``ObjectGraph/apply(_:author:)``.
    @discardableResult
    public mutating func upsert<Object: GraphObject>(
        _ type: Object.Type,
        values: Values,
        relationships: Relationships = [:]
    ) -> Reference {
        defer { insertions += 1 }
        operations.append(.upsert(Object.entity, values, relationships, slot: insertions))
        return Reference(target: .inserted(insertions))
    }

    /// Updates an object of the graph.
    ///
    /// - Parameters:
    ///   - id: The object's ID.
    ///   - values: Attribute values by name.
    ///   - relationships: Related objects by relationship name.
    /// - Complexity: Amortized O(1); the values are applied by ``ObjectGraph/apply(_:author:)``.
    public mutating func update(_ id: ObjectID, values: Values = [:], relationships: Relationships = [:]) {
        operations.append(.update(id, values, relationships))
    }

    /// Deletes an object of the graph (after every insert and update of the batch).
    ///
    /// - Parameter id: The object's ID.
    /// - Complexity: Amortized O(1).
    public mutating func delete(_ id: ObjectID) {
        operations.append(.delete(id))
    }
}
