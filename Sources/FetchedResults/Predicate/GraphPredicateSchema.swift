import Foundation
import ObjectGraph

/// Format-predicate entities for `GraphObject` classes, built once from their
/// `EntityDescription`s, with folded text kept per object ID and refreshed at commit.
///
/// Most code needs no schema of its own: ``FormatPredicate/bind(to:variables:)-(Object.Type,_)``
/// and ``FetchRequest/init(_:format:_:sortedBy:sectionKey:fetchLimit:fetchOffset:)`` derive
/// one from the entity. Build one by hand to share it (and its foldings) between many
/// predicates, or to control when foldings are refreshed:
///
/// ```swift
/// let schema = GraphPredicateSchema(Item.self, Location.self)
/// let observation = schema.maintainFoldedText(in: graph)   // refold written names at commit
/// let search = try FormatPredicate("name CONTAINS[cd] %@ AND location.name == 'Fridge'", "milk")
///     .bind(to: schema.entity(for: Item.self))
/// let found = graph.objects(of: Item.self).filter(search.evaluate)
/// ```
///
/// Attributes of type `String`, `Int`, `Double`, `Bool` and `Date` (optional or not) are
/// visible to predicates; attributes of other types are not. Reads go through
/// `GraphObject.value(forKey:)`, so a controller evaluating inside `trackReads` records every
/// (object, property) pair a predicate reads, across relationships. For the fastest
/// evaluation declare a ``PredicateEntity`` by hand with closures such as `{ $0.name }`.
///
/// `[c]`/`[d]` comparisons fold each string once and keep the folding per object ID and
/// attribute; a folding is checked against the current value on every read, so it is never
/// stale, and ``maintainFoldedText(in:)`` refolds written attributes at commit and forgets
/// deleted objects.
///
/// Not `Sendable`: it belongs to the graph's isolation domain.
public final class GraphPredicateSchema {
    /// The entities, by entity name.
    public let entities: [String: PredicateEntity<GraphObject>]
    /// The folded-text stores of string attributes.
    private let folding: GraphFoldedTextStores

    /// Builds entities for the classes predicates may reach.
    ///
    /// - Parameter types: The classes whose objects predicates test. The classes their
    ///   relationships reach, directly or not, are included too.
    /// - Complexity: O(p) for p properties in all: one prototype per class.
    public convenience init(_ types: [GraphObject.Type]) {
        self.init(types, maintainsFoldedTextOnFirstUse: false)
    }

    /// Builds entities for the classes predicates may reach.
    ///
    /// - Parameters:
    ///   - types: The classes whose objects predicates test, and through their
    ///     relationships, the classes they reach.
    ///   - maintainsFoldedTextOnFirstUse: Whether the first folding of an object in a graph
    ///     starts maintaining the foldings with that graph's commits, for as long as a
    ///     predicate bound to the schema lives (the schemas derived for one predicate do).
    init(_ types: [GraphObject.Type], maintainsFoldedTextOnFirstUse: Bool) {
        // Every class a relationship reaches, so that no predicate path leads outside.
        var types = types
        var names: Set<String> = []
        var position = 0
        while position < types.count {
            let description = types[position].entity
            position += 1
            guard names.insert(description.name).inserted else { continue }
            for property in description.properties {
                if let destination = description.destinationType(of: property.index), !names.contains(destination.entity.name) {
                    types.append(destination)
                }
            }
        }
        types = Self.distinct(types)
        // Relationships name their targets and entities share one table of properties, so
        // entities that point at each other form no reference cycle (see PredicateEntityGroup).
        var properties: [String: [String: ErasedProperty]] = [:]
        var unsupported: [String: [String: String]] = [:]
        let folding = GraphFoldedTextStores()
        let maintenance = maintainsFoldedTextOnFirstUse ? folding : nil
        for type in types {
            let description = type.entity
            let prototype = type.init()
            var entityProperties = properties[description.name] ?? [:]
            func register(_ name: String, _ property: ErasedProperty) {
                require(entityProperties[name] == nil, "PredicateEntity \(description.name): property \(name) is declared twice")
                entityProperties[name] = property
            }
            for property in description.properties {
                let name = property.name
                if let relationship = property.relationship {
                    let target = EntityReference.named(relationship.destinationName)
                    switch relationship.kind {
                    case .toOne:
                        register(name, .toOne(target: target, read: { object in
                            unsafeDowncast(object, to: GraphObject.self).value(forKey: name) as? GraphObject
                        }))
                    case .toMany, .orderedToMany:
                        register(name, .toMany(ErasedToMany(
                            target: target,
                            contains: { object, body in
                                Self.objects(in: unsafeDowncast(object, to: GraphObject.self).value(forKey: name)).contains { body($0) }
                            },
                            count: { object in
                                Self.objects(in: unsafeDowncast(object, to: GraphObject.self).value(forKey: name)).count
                            })))
                    }
                    continue
                }
                guard let (kind, isOptional, read) = Self.attribute(named: name, of: prototype) else {
                    unsupported[description.name, default: [:]][name] = String(describing: description.valueType(of: property.index))
                    continue
                }
                var attribute = ErasedAttribute(
                    kind: kind, isOptional: isOptional, read: read, caches: kind == .string ? FoldedTextCaches() : nil)
                if kind == .string {
                    let store = GraphFoldedAttribute(name: name, index: property.index)
                    folding.append(store, entityName: description.name)
                    if let maintenance {
                        attribute.foldedRead = { object, value, options in
                            let object = unsafeDowncast(object, to: GraphObject.self)
                            maintenance.maintain(with: object)
                            return store.folded(object.objectID, value, options: options)
                        }
                    } else {
                        attribute.foldedRead = { object, value, options in
                            store.folded(unsafeDowncast(object, to: GraphObject.self).objectID, value, options: options)
                        }
                    }
                }
                register(name, .attribute(attribute))
            }
            properties[description.name] = entityProperties
        }
        let group = PredicateEntityGroup(properties: properties, unsupportedAttributes: unsupported)
        var entities: [String: PredicateEntity<GraphObject>] = [:]
        for name in names { entities[name] = PredicateEntity<GraphObject>(name, group: group) }
        self.entities = entities
        self.folding = folding
    }

    /// Builds entities for the classes predicates may reach.
    ///
    /// - Parameter types: The classes whose objects predicates test; the classes their
    ///   relationships reach are included too.
    /// - Complexity: O(p) for p properties in all: one prototype per class.
    public convenience init(_ types: GraphObject.Type...) {
        self.init(types)
    }

    /// The classes in order, each once.
    private static func distinct(_ types: [GraphObject.Type]) -> [GraphObject.Type] {
        var seen: Set<ObjectIdentifier> = []
        return types.filter { seen.insert(ObjectIdentifier($0)).inserted }
    }

    /// The entity of a class, typed for its objects.
    ///
    /// A predicate bound to it is a `BoundFormatPredicate<Item>` for `entity(for: Item.self)`,
    /// which ``FetchRequest`` takes as its predicate. Where the context asks for
    /// `PredicateEntity<GraphObject>`, that is what it returns.
    ///
    /// - Parameter type: One of the schema's classes (`precondition`; see
    ///   ``FormatPredicate/bind(to:as:variables:)`` for a binding that throws instead).
    /// - Returns: Its entity, to bind predicates to.
    /// - Complexity: O(1).
    public func entity<Object: GraphObject>(for type: Object.Type) -> PredicateEntity<Object> {
        guard let entity = entityIfPresent(for: type) else {
            requirementFailure("GraphPredicateSchema: \(type.entity.name) is not among the schema's types")
        }
        return entity
    }

    /// The entity of a class, or `nil` when the class is not among the schema's.
    func entityIfPresent<Object: GraphObject>(for type: Object.Type) -> PredicateEntity<Object>? {
        guard let entity = entities[type.entity.name] else { return nil }
        if let typed = entity as? PredicateEntity<Object> { return typed }
        guard let group = entity.group else { requirementFailure("internal inconsistency: a schema entity without a group") }
        // A new handle on the same shared properties and caches.
        return PredicateEntity<Object>(entity.name, group: group)
    }

    /// Keeps the folded text current with a graph's commits: written string attributes
    /// that have foldings are refolded, deleted objects' foldings are dropped.
    ///
    /// - Parameter graph: The graph whose objects predicates test.
    /// - Returns: The observation; maintenance stops when it is cancelled or released.
    /// - Complexity: O(k) per commit of k changes, plus folding the written strings.
    public func maintainFoldedText(in graph: ObjectGraph) -> GraphObservation {
        folding.observe(graph)
    }

    /// Forgets every folding (they are rebuilt by the next comparisons).
    ///
    /// - Complexity: O(n) in the number of foldings held.
    public func removeAllFoldedText() {
        folding.removeAll()
    }

    /// The number of foldings held, over all attributes and options.
    ///
    /// - Complexity: O(n) in the number of objects with foldings.
    public var foldedTextCount: Int {
        folding.count
    }

    /// The kind, optionality and erased read of an attribute, from its prototype value.
    private static func attribute(
        named name: String, of prototype: GraphObject
    ) -> (PredicateAttributeKind, Bool, ErasedRead)? {
        guard let value = prototype.value(forKey: name) else { return nil }
        func object(_ object: AnyObject) -> GraphObject { unsafeDowncast(object, to: GraphObject.self) }
        switch ObjectIdentifier(type(of: value)) {
        case ObjectIdentifier(String.self), ObjectIdentifier(String?.self):
            return (.string, type(of: value) == String?.self, .string { object($0).value(forKey: name) as? String })
        case ObjectIdentifier(Int.self), ObjectIdentifier(Int?.self):
            return (.integer, type(of: value) == Int?.self, .integer { object($0).value(forKey: name) as? Int })
        case ObjectIdentifier(Double.self), ObjectIdentifier(Double?.self):
            return (.double, type(of: value) == Double?.self, .double { object($0).value(forKey: name) as? Double })
        case ObjectIdentifier(Bool.self), ObjectIdentifier(Bool?.self):
            return (.bool, type(of: value) == Bool?.self, .bool { object($0).value(forKey: name) as? Bool })
        case ObjectIdentifier(Date.self), ObjectIdentifier(Date?.self):
            return (.date, type(of: value) == Date?.self, .date { object($0).value(forKey: name) as? Date })
        default:
            return nil
        }
    }

    /// The objects of a to-many relationship value (a set or an array).
    static func objects(in value: Any?) -> [GraphObject] {
        if let array = value as? [GraphObject] { return array }
        guard let sequence = value as? any Sequence else { return [] }
        func collect<Elements: Sequence>(_ elements: Elements) -> [GraphObject] {
            elements.compactMap { $0 as? GraphObject }
        }
        return collect(sequence)
    }
}

@available(*, unavailable)
extension GraphPredicateSchema: Sendable {}

/// The folded-text stores of a schema's string attributes, and what keeps them current.
///
/// Held by the schema and, for a schema derived for one predicate, by the predicate's read
/// closures: it refers to no entity and no schema, so it makes no reference cycle.
final class GraphFoldedTextStores {
    /// The stores by entity name.
    private(set) var stores: [String: [GraphFoldedAttribute]] = [:]
    /// The graph whose commits the stores follow since a first folding, when they follow one
    /// that way (``maintain(with:)``).
    private weak var maintainedGraph: ObjectGraph?
    private var maintenance: GraphObservation?

    func append(_ store: GraphFoldedAttribute, entityName: String) {
        stores[entityName, default: []].append(store)
    }

    /// Starts following the commits of `object`'s graph, unless a live graph is followed
    /// already (objects of a second graph are still folded correctly: foldings are checked
    /// against the current value; only their removal at deletion waits).
    @inline(__always)
    func maintain(with object: GraphObject) {
        guard maintainedGraph == nil else { return }
        startMaintaining(with: object)
    }

    private func startMaintaining(with object: GraphObject) {
        guard let graph = object.graph else { return }
        maintainedGraph = graph
        maintenance = observe(graph)
    }

    /// Refolds written attributes and forgets deleted objects at each commit of `graph`.
    func observe(_ graph: ObjectGraph) -> GraphObservation {
        graph.addObserver { [weak self, weak graph] changes in
            guard let self, let graph else { return }
            self.apply(changes, in: graph)
        }
    }

    /// Refolds written attributes and forgets deleted objects.
    func apply(_ changes: GraphChanges, in graph: ObjectGraph) {
        for id in changes.deleted {
            for store in stores[id.entityName] ?? [] { store.remove(id) }
        }
        for (id, changed) in changes.updated {
            guard let stores = stores[id.entityName] else { continue }
            for store in stores where changed.contains(store.index) {
                store.refresh(id) { graph.object(with: id)?.value(forKey: store.name) as? String }
            }
        }
    }

    func removeAll() {
        for stores in stores.values {
            for store in stores { store.removeAll() }
        }
    }

    var count: Int {
        stores.values.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }
    }
}

@available(*, unavailable)
extension GraphFoldedTextStores: Sendable {}

/// The foldings of one string attribute of one entity, by object ID and options.
final class GraphFoldedAttribute {
    /// The foldings of one object's value, one per option combination used.
    struct Foldings {
        /// The value every folding here was made from.
        var source: String
        var texts: (FoldedText?, FoldedText?, FoldedText?, FoldedText?)

        subscript(mode: Int) -> FoldedText? {
            get {
                switch mode {
                case 0: texts.0
                case 1: texts.1
                case 2: texts.2
                default: texts.3
                }
            }
            set {
                switch mode {
                case 0: texts.0 = newValue
                case 1: texts.1 = newValue
                case 2: texts.2 = newValue
                default: texts.3 = newValue
                }
            }
        }

        var count: Int { (0..<4).reduce(0) { $0 + (self[$1] == nil ? 0 : 1) } }

        /// Refolds every folding held for a new value.
        mutating func refold(_ value: String) {
            source = value
            for mode in 0..<4 where self[mode] != nil {
                self[mode] = FoldedText(value, options: TextComparisonOptions(rawValue: UInt8(mode)))
            }
        }
    }

    let name: String
    let index: PropertyIndex
    private var entries: [ObjectID: Foldings] = [:]

    init(name: String, index: PropertyIndex) {
        self.name = name
        self.index = index
    }

    var count: Int { entries.values.reduce(0) { $0 + $1.count } }

    /// The folding of `value`, the attribute's current value on the object `id`.
    func folded(_ id: ObjectID, _ value: String, options: TextComparisonOptions) -> FoldedText {
        let mode = Int(options.rawValue)
        if let entry = entries[id], entry.source == value, let text = entry[mode] { return text }
        let text = FoldedText(value, options: options)
        if entries[id]?.source == value {
            entries[id]?[mode] = text
        } else {
            var foldings = Foldings(source: value, texts: (nil, nil, nil, nil))
            foldings[mode] = text
            entries[id] = foldings
        }
        return text
    }

    /// Refolds the object's foldings, if it has any, for its new value (read only then).
    func refresh(_ id: ObjectID, _ read: () -> String?) {
        guard entries[id] != nil else { return }
        guard let value = read() else {
            entries[id] = nil
            return
        }
        entries[id]?.refold(value)
    }

    func remove(_ id: ObjectID) {
        entries[id] = nil
    }

    func removeAll() {
        entries.removeAll()
    }
}

@available(*, unavailable)
extension GraphFoldedAttribute: Sendable {}
