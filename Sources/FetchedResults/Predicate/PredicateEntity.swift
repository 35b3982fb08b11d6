import Foundation

/// The value kinds an attribute can have in a format predicate.
public enum PredicateAttributeKind: String, Hashable, Sendable {
    /// `String`: compared with `==`, orderings, the text operators and `[c]`/`[d]`.
    case string
    /// `Int`: compared with numbers.
    case integer
    /// `Double`: compared with numbers.
    case double
    /// `Bool`: compared with `==`/`!=` and `TRUE`/`FALSE`.
    case bool
    /// `Date`: compared with dates given as arguments or variables.
    case date
}

/// What a format predicate may say about one kind of object: its attributes with their
/// value kinds, and its to-one and to-many relationships with their target entities.
///
/// An entity holds one typed read closure per property, so a bound predicate reads values
/// without looking names up per object. String attributes keep a ``FoldedTextCache`` per
/// comparison option, shared by every predicate bound to this entity, so `[c]`/`[d]`
/// searches fold each value once.
///
/// ```swift
/// let location = PredicateEntity<Location>("Location")
///     .attribute("storedIn") { $0.storedIn }
/// let item = PredicateEntity<Item>("Item")
///     .attribute("name") { $0.name }
///     .attribute("quantity") { $0.quantity }
///     .toOne("locationAtHome", location) { $0.locationAtHome }
/// location.toMany("items", item) { $0.items }          // relationships may be cyclic
/// ```
///
/// Not `Sendable`: its caches belong to the isolation domain of the objects it reads.
public class AnyPredicateEntity {
    /// The entity's name (in error messages).
    public let name: String
    var properties: [String: ErasedProperty] = [:]
    /// The shared table of a schema's entities, when this entity was made from one: its
    /// relationships name their targets, which are looked up there (no reference cycles).
    let group: PredicateEntityGroup?

    init(name: String, group: PredicateEntityGroup? = nil) {
        self.name = name
        self.group = group
        if let group { properties = group.properties[name] ?? [:] }
    }

    /// The entity a relationship leads to.
    func entity(_ target: EntityReference) -> AnyPredicateEntity {
        switch target {
        case .entity(let entity):
            return entity
        case .named(let name):
            guard let group else { requirementFailure("internal inconsistency: a named relationship target outside a schema") }
            return group.entity(named: name)
        }
    }

    /// The names of the attributes and relationships, sorted.
    ///
    /// - Complexity: O(p log p) for p properties.
    public var propertyNames: [String] { properties.keys.sorted() }

    /// The value type of an attribute the entity has but predicates cannot compare (a type
    /// other than `String`, `Int`, `Double`, `Bool` and `Date`), for error messages.
    func unsupportedAttributeType(named name: String) -> String? {
        group?.unsupportedAttributes[self.name]?[name]
    }

    /// The kind of the named attribute, or `nil` when it is not an attribute.
    ///
    /// - Parameter name: The attribute's name.
    /// - Returns: The attribute's value kind and whether it is optional.
    /// - Complexity: O(1).
    public func attributeKind(named name: String) -> (kind: PredicateAttributeKind, isOptional: Bool)? {
        if case .attribute(let attribute) = properties[name] { return (attribute.kind, attribute.isOptional) }
        return nil
    }

    /// Forgets every folded text this entity's string attributes cached for `object` (call
    /// it when the object is deleted).
    ///
    /// - Parameter object: The object.
    /// - Complexity: O(a) for a string attributes.
    public func removeFoldedText(for object: AnyObject) {
        for case .attribute(let attribute) in properties.values {
            attribute.caches?.removeValue(for: object)
        }
    }

    /// Forgets every folded text cached by this entity's string attributes.
    ///
    /// - Complexity: O(n) in the number of cached entries.
    public func removeAllFoldedText() {
        for case .attribute(let attribute) in properties.values {
            attribute.caches?.removeAll()
        }
    }

    func register(_ name: String, _ property: ErasedProperty) {
        require(!name.isEmpty && !name.contains("."), "PredicateEntity: a property name must be non-empty and contain no dot")
        require(properties[name] == nil, "PredicateEntity \(self.name): property \(name) is declared twice")
        properties[name] = property
    }
}

@available(*, unavailable)
extension AnyPredicateEntity: Sendable {}

/// The typed face of an entity: declare its properties with read closures.
///
/// See ``AnyPredicateEntity`` for the example and the caching rules.
public final class PredicateEntity<Object: AnyObject>: AnyPredicateEntity {
    /// Creates an entity with no properties.
    ///
    /// - Parameter name: The entity's name (in error messages).
    /// - Complexity: O(1).
    public init(_ name: String) {
        super.init(name: name)
    }

    /// An entity of a schema's shared table.
    init(_ name: String, group: PredicateEntityGroup) {
        super.init(name: name, group: group)
    }

    private func attribute(
        _ name: String, _ kind: PredicateAttributeKind, optional: Bool, _ read: ErasedRead
    ) -> Self {
        register(name, .attribute(ErasedAttribute(
            kind: kind, isOptional: optional, read: read, caches: kind == .string ? FoldedTextCaches() : nil)))
        return self
    }

    /// Declares a string attribute.
    ///
    /// - Parameters:
    ///   - name: The key in format strings.
    ///   - read: Reads the attribute; called once per evaluation, so keep it a plain
    ///     property read.
    /// - Returns: This entity, for chaining.
    /// - Complexity: O(1).
    @discardableResult
    public func attribute(_ name: String, _ read: @escaping (Object) -> String) -> Self {
        attribute(name, .string, optional: false, .string { read(unsafeDowncast($0, to: Object.self)) })
    }

    /// Declares a string attribute whose folded forms the object stores in a
    /// ``FoldedTextSlot`` (faster than the entity's shared cache: no hashing).
    ///
    /// - Parameters:
    ///   - name: The key in format strings.
    ///   - read: Reads the attribute.
    ///   - folding: Returns the object's slot for this attribute.
    /// - Returns: This entity, for chaining.
    /// - Complexity: O(1).
    @discardableResult
    public func attribute(
        _ name: String, _ read: @escaping (Object) -> String, folding: @escaping (Object) -> FoldedTextSlot
    ) -> Self {
        register(name, .attribute(ErasedAttribute(
            kind: .string, isOptional: false, read: .string { read(unsafeDowncast($0, to: Object.self)) },
            caches: FoldedTextCaches(), slot: { folding(unsafeDowncast($0, to: Object.self)) })))
        return self
    }

    /// Declares a string attribute whose object keeps it folded, refreshed on every write
    /// (for example in the attribute's `didSet`): comparisons with the folded text's options
    /// read it directly, with no cache look-up and no check of the raw value; comparisons
    /// with other options use the entity's shared cache.
    ///
    /// ```swift
    /// var name = "" { didSet { foldedName = FoldedText(name, options: [.caseInsensitive, .diacriticInsensitive]) } }
    /// private(set) var foldedName = FoldedText("", options: [.caseInsensitive, .diacriticInsensitive])
    /// entity.attribute("name", { $0.name }, folded: { $0.foldedName })
    /// ```
    ///
    /// - Parameters:
    ///   - name: The key in format strings.
    ///   - read: Reads the attribute.
    ///   - folded: Reads the object's folding of the attribute's current value; it must be
    ///     refreshed whenever the attribute is written.
    /// - Returns: This entity, for chaining.
    /// - Complexity: O(1).
    @discardableResult
    public func attribute(
        _ name: String, _ read: @escaping (Object) -> String, folded: @escaping (Object) -> FoldedText
    ) -> Self {
        register(name, .attribute(ErasedAttribute(
            kind: .string, isOptional: false, read: .string { read(unsafeDowncast($0, to: Object.self)) },
            caches: FoldedTextCaches(), maintained: { folded(unsafeDowncast($0, to: Object.self)) })))
        return self
    }

    /// Declares an optional string attribute whose folded forms the object stores in a
    /// ``FoldedTextSlot``.
    ///
    /// - Parameters:
    ///   - name: The key in format strings.
    ///   - read: Reads the attribute.
    ///   - folding: Returns the object's slot for this attribute.
    /// - Returns: This entity, for chaining.
    /// - Complexity: O(1).
    @discardableResult
    public func attribute(
        _ name: String, _ read: @escaping (Object) -> String?, folding: @escaping (Object) -> FoldedTextSlot
    ) -> Self {
        register(name, .attribute(ErasedAttribute(
            kind: .string, isOptional: true, read: .string { read(unsafeDowncast($0, to: Object.self)) },
            caches: FoldedTextCaches(), slot: { folding(unsafeDowncast($0, to: Object.self)) })))
        return self
    }

    /// Declares an optional string attribute.
    ///
    /// - Parameters:
    ///   - name: The key in format strings.
    ///   - read: Reads the attribute.
    /// - Returns: This entity, for chaining.
    /// - Complexity: O(1).
    @discardableResult
    public func attribute(_ name: String, _ read: @escaping (Object) -> String?) -> Self {
        attribute(name, .string, optional: true, .string { read(unsafeDowncast($0, to: Object.self)) })
    }

    /// Declares an integer attribute.
    ///
    /// - Parameters:
    ///   - name: The key in format strings.
    ///   - read: Reads the attribute.
    /// - Returns: This entity, for chaining.
    /// - Complexity: O(1).
    @discardableResult
    public func attribute(_ name: String, _ read: @escaping (Object) -> Int) -> Self {
        attribute(name, .integer, optional: false, .integer { read(unsafeDowncast($0, to: Object.self)) })
    }

    /// Declares an optional integer attribute.
    ///
    /// - Parameters:
    ///   - name: The key in format strings.
    ///   - read: Reads the attribute.
    /// - Returns: This entity, for chaining.
    /// - Complexity: O(1).
    @discardableResult
    public func attribute(_ name: String, _ read: @escaping (Object) -> Int?) -> Self {
        attribute(name, .integer, optional: true, .integer { read(unsafeDowncast($0, to: Object.self)) })
    }

    /// Declares a floating-point attribute.
    ///
    /// - Parameters:
    ///   - name: The key in format strings.
    ///   - read: Reads the attribute.
    /// - Returns: This entity, for chaining.
    /// - Complexity: O(1).
    @discardableResult
    public func attribute(_ name: String, _ read: @escaping (Object) -> Double) -> Self {
        attribute(name, .double, optional: false, .double { read(unsafeDowncast($0, to: Object.self)) })
    }

    /// Declares an optional floating-point attribute.
    ///
    /// - Parameters:
    ///   - name: The key in format strings.
    ///   - read: Reads the attribute.
    /// - Returns: This entity, for chaining.
    /// - Complexity: O(1).
    @discardableResult
    public func attribute(_ name: String, _ read: @escaping (Object) -> Double?) -> Self {
        attribute(name, .double, optional: true, .double { read(unsafeDowncast($0, to: Object.self)) })
    }

    /// Declares a Boolean attribute.
    ///
    /// - Parameters:
    ///   - name: The key in format strings.
    ///   - read: Reads the attribute.
    /// - Returns: This entity, for chaining.
    /// - Complexity: O(1).
    @discardableResult
    public func attribute(_ name: String, _ read: @escaping (Object) -> Bool) -> Self {
        attribute(name, .bool, optional: false, .bool { read(unsafeDowncast($0, to: Object.self)) })
    }

    /// Declares an optional Boolean attribute.
    ///
    /// - Parameters:
    ///   - name: The key in format strings.
    ///   - read: Reads the attribute.
    /// - Returns: This entity, for chaining.
    /// - Complexity: O(1).
    @discardableResult
    public func attribute(_ name: String, _ read: @escaping (Object) -> Bool?) -> Self {
        attribute(name, .bool, optional: true, .bool { read(unsafeDowncast($0, to: Object.self)) })
    }

    /// Declares a date attribute.
    ///
    /// - Parameters:
    ///   - name: The key in format strings.
    ///   - read: Reads the attribute.
    /// - Returns: This entity, for chaining.
    /// - Complexity: O(1).
    @discardableResult
    public func attribute(_ name: String, _ read: @escaping (Object) -> Date) -> Self {
        attribute(name, .date, optional: false, .date { read(unsafeDowncast($0, to: Object.self)) })
    }

    /// Declares an optional date attribute.
    ///
    /// - Parameters:
    ///   - name: The key in format strings.
    ///   - read: Reads the attribute.
    /// - Returns: This entity, for chaining.
    /// - Complexity: O(1).
    @discardableResult
    public func attribute(_ name: String, _ read: @escaping (Object) -> Date?) -> Self {
        attribute(name, .date, optional: true, .date { read(unsafeDowncast($0, to: Object.self)) })
    }

    /// Declares a to-one relationship.
    ///
    /// - Parameters:
    ///   - name: The key in format strings.
    ///   - target: The related objects' entity.
    ///   - read: Reads the related object.
    /// - Returns: This entity, for chaining.
    /// - Complexity: O(1).
    @discardableResult
    public func toOne<Target: AnyObject>(
        _ name: String, _ target: PredicateEntity<Target>, _ read: @escaping (Object) -> Target?
    ) -> Self {
        register(name, .toOne(target: .entity(target), read: { read(unsafeDowncast($0, to: Object.self)) }))
        return self
    }

    /// Declares a to-many relationship (a set or an ordered array).
    ///
    /// - Parameters:
    ///   - name: The key in format strings.
    ///   - target: The related objects' entity.
    ///   - read: Reads the related objects.
    /// - Returns: This entity, for chaining.
    /// - Complexity: O(1).
    @discardableResult
    public func toMany<Target: AnyObject, Related: Collection<Target>>(
        _ name: String, _ target: PredicateEntity<Target>, _ read: @escaping (Object) -> Related
    ) -> Self {
        register(name, .toMany(ErasedToMany(
            target: .entity(target),
            contains: { object, body in read(unsafeDowncast(object, to: Object.self)).contains { body($0) } },
            count: { read(unsafeDowncast($0, to: Object.self)).count }
        )))
        return self
    }
}

/// A property with its reads erased to `AnyObject`.
enum ErasedProperty {
    case attribute(ErasedAttribute)
    case toOne(target: EntityReference, read: (AnyObject) -> AnyObject?)
    case toMany(ErasedToMany)
}

/// A relationship's target: an entity declared by hand (held strongly, as its declarer
/// wired it), or the name of an entity in the same ``PredicateEntityGroup``.
enum EntityReference {
    case entity(AnyPredicateEntity)
    case named(String)
}

/// The properties of a set of entities whose relationships refer to each other by name.
///
/// A schema's entities point at each other both ways (`Item.location`, `Location.items`);
/// holding the targets strongly would make a cycle that is never freed. Entities made from
/// a group hold the group, the group holds only properties, and a relationship's target is
/// made from the group when a key path crosses it.
final class PredicateEntityGroup {
    let properties: [String: [String: ErasedProperty]]
    /// The attributes predicates cannot compare, by entity name: their names and value types
    /// (for error messages).
    let unsupportedAttributes: [String: [String: String]]

    init(properties: [String: [String: ErasedProperty]], unsupportedAttributes: [String: [String: String]] = [:]) {
        self.properties = properties
        self.unsupportedAttributes = unsupportedAttributes
    }

    /// An entity of the group (a new handle sharing the group's properties and caches).
    func entity(named name: String) -> AnyPredicateEntity {
        AnyPredicateEntity(name: name, group: self)
    }
}

@available(*, unavailable)
extension PredicateEntityGroup: Sendable {}

struct ErasedAttribute {
    var kind: PredicateAttributeKind
    var isOptional: Bool
    var read: ErasedRead
    /// The entity-wide folded-text caches of a string attribute.
    var caches: FoldedTextCaches?
    /// The object's own folded-text storage, when it has one (preferred over `caches`).
    var slot: ((AnyObject) -> FoldedTextSlot)? = nil
    /// The object's own folding, maintained on every write, when it keeps one.
    var maintained: ((AnyObject) -> FoldedText)? = nil
    /// An external store of foldings (the graph adapter's, keyed by object ID): the folding
    /// of the object's current value (given) under the options.
    var foldedRead: ((AnyObject, String, TextComparisonOptions) -> FoldedText)? = nil
}

struct ErasedToMany {
    var target: EntityReference
    /// Whether some related object satisfies the body (stops at the first).
    var contains: (AnyObject, (AnyObject) -> Bool) -> Bool
    var count: (AnyObject) -> Int
}

enum ErasedRead {
    case string((AnyObject) -> String?)
    case integer((AnyObject) -> Int?)
    case double((AnyObject) -> Double?)
    case bool((AnyObject) -> Bool?)
    case date((AnyObject) -> Date?)
}

/// One ``FoldedTextCache`` per option combination, made on first use.
final class FoldedTextCaches {
    private var caches: [FoldedTextCache?] = [nil, nil, nil, nil]

    func cache(for options: TextComparisonOptions) -> FoldedTextCache {
        if let cache = caches[Int(options.rawValue)] { return cache }
        let cache = FoldedTextCache(options: options)
        caches[Int(options.rawValue)] = cache
        return cache
    }

    func removeValue(for object: AnyObject) {
        for cache in caches { cache?.removeValue(for: object) }
    }

    func removeAll() {
        for cache in caches { cache?.removeAll() }
    }
}
