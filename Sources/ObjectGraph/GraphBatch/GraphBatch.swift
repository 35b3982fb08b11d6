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
        /// Consecutive inserts of one class that name the same attributes and one object per
        /// relationship name, kept as columns: an import's common shape.
        case insertRun(InsertRun)
        case upsert(EntityDescription, Values, Relationships, slot: Int)
        case update(ObjectID, Values, Relationships)
        case delete(ObjectID)
    }

    /// Inserts of one class that name the same attributes and relate each named relationship
    /// to one object, stored as rows of values and rows of references instead of a
    /// dictionary per insert (a dictionary of a few values costs some 400 bytes; a row, the
    /// values' own size).
    internal struct InsertRun: Sendable {
        /// The rows a run holds at most, so that an import releases the batch run by run.
        static let capacity = 4096

        let entity: EntityDescription
        /// The attribute names, in the order of each row's values.
        let valueNames: [String]
        /// The relationship names, in the order of each row's references.
        let relationshipNames: [String]
        /// `valueNames.count` values per row.
        var values: [any Sendable] = []
        /// `relationshipNames.count` references per row.
        var targets: [Reference] = []
        /// The batch slot of the first row; row `r` is slot `firstSlot + r`.
        let firstSlot: Int
        /// The number of rows.
        var count = 0

        /// Starts a run with one insert, or returns `nil` when a relationship names other
        /// than one object.
        init?(_ entity: EntityDescription, _ values: Values, _ relationships: Relationships, slot: Int) {
            guard relationships.values.allSatisfy({ $0.count == 1 }) else { return nil }
            self.entity = entity
            self.valueNames = Array(values.keys)
            self.relationshipNames = Array(relationships.keys)
            self.firstSlot = slot
            guard append(entity, values, relationships) else { return nil }
        }

        /// Appends an insert of the run's shape; returns `false`, changing nothing, for any
        /// other insert or when the run is full.
        mutating func append(_ entity: EntityDescription, _ values: Values, _ relationships: Relationships) -> Bool {
            guard entity === self.entity, count < Self.capacity, values.count == valueNames.count,
                relationships.count == relationshipNames.count
            else { return false }
            let valueStart = self.values.count
            for name in valueNames {
                guard let value = values[name] else {
                    self.values.removeSubrange(valueStart...)
                    return false
                }
                self.values.append(value)
            }
            let targetStart = targets.count
            for name in relationshipNames {
                guard let references = relationships[name], references.count == 1 else {
                    self.values.removeSubrange(valueStart...)
                    targets.removeSubrange(targetStart...)
                    return false
                }
                targets.append(references[0])
            }
            count += 1
            return true
        }

        /// Row `row`'s values by attribute name.
        func values(ofRow row: Int) -> Values {
            let start = row * valueNames.count
            return Dictionary(uniqueKeysWithValues: zip(valueNames, values[start..<start + valueNames.count]))
        }
    }

    internal private(set) var operations: [Operation] = []
    internal private(set) var insertions = 0
    /// The number of operations, counting each insert of a run.
    private var operationCount = 0

    /// An empty batch.
    ///
    /// - Complexity: O(1).
    public init() {}

    /// The number of operations.
    public var count: Int { operationCount }

    /// Whether the batch holds no operation.
    public var isEmpty: Bool { operationCount == 0 }

    /// Moves the operations out, leaving the batch empty of them (its ``count`` is then 0),
    /// so that whoever applies them may release each one once applied.
    internal mutating func takeOperations() -> [Operation] {
        defer {
            operations = []
            operationCount = 0
        }
        return operations
    }

    /// Adds an operation.
    private mutating func append(_ operation: Operation) {
        operations.append(operation)
        operationCount += 1
    }

    /// Adds an insert to the last run when it has the same shape, else starts a run, else
    /// (a relationship with other than one object) adds it alone.
    private mutating func appendInsert(_ entity: EntityDescription, _ values: Values, _ relationships: Relationships) {
        defer { operationCount += 1 }
        if case .insertRun = operations.last {
            // Moved out of the array, the run's storage has one owner and grows in place.
            guard case .insertRun(var run) = operations.removeLast() else { requirementFailure("internal inconsistency: the last operation changed") }
            let appended = run.append(entity, values, relationships)
            operations.append(.insertRun(run))
            if appended { return }
        }
        if let run = InsertRun(entity, values, relationships, slot: insertions) {
            operations.append(.insertRun(run))
        } else {
            operations.append(.insert(entity, values, relationships, slot: insertions))
        }
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
        appendInsert(Object.entity, values, relationships)
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
        append(.upsert(Object.entity, values, relationships, slot: insertions))
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
        append(.update(id, values, relationships))
    }

    /// Deletes an object of the graph (after every insert and update of the batch).
    ///
    /// - Parameter id: The object's ID.
    /// - Complexity: Amortized O(1).
    public mutating func delete(_ id: ObjectID) {
        append(.delete(id))
    }
}
