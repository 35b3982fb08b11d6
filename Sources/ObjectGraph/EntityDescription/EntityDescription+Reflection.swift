@_spi(Reflection) import Swift
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a wrapper's initializer reports about itself while a prototype is being built.
@usableFromInline
internal struct _CapturedProperty {
    /// The wrapper's type (`Attribute<V>` or `Relationship<V>`), checked against reflection.
    var storageType: any Any.Type
    /// The wrapped value's type.
    var valueType: any Any.Type
    /// The `name:` given to the wrapper, if any.
    var name: String?
    var isUnique: Bool
    var relationship: _CapturedRelationship?
    /// Reads and writes the storage, given its offset.
    var operations: _PropertyOperations

    @usableFromInline
    init(
        storageType: any Any.Type,
        valueType: any Any.Type,
        name: String?,
        isUnique: Bool,
        relationship: _CapturedRelationship?,
        operations: _PropertyOperations
    ) {
        self.storageType = storageType
        self.valueType = valueType
        self.name = name
        self.isUnique = isUnique
        self.relationship = relationship
        self.operations = operations
    }
}

/// What a relationship wrapper declares.
@usableFromInline
internal struct _CapturedRelationship {
    var kind: RelationshipKind
    var deleteRule: DeleteRule
    var destination: GraphObject.Type
    /// The inverse as declared: a key path to the destination's wrapped property.
    var inverse: (any AnyKeyPath & Sendable)?

    @usableFromInline
    init(kind: RelationshipKind, deleteRule: DeleteRule, destination: GraphObject.Type, inverse: (any AnyKeyPath & Sendable)?) {
        self.kind = kind
        self.deleteRule = deleteRule
        self.destination = destination
        self.inverse = inverse
    }
}

/// Collects what the wrappers of one prototype report while its initializer runs.
///
/// Only the thread building a prototype records: `state.thread` says which. `active` is a
/// cheap flag that every wrapper initializer reads; `state` is guarded by its mutex.
@usableFromInline
internal enum _EntityCapture {
    struct State {
        var thread: pthread_t?
        var entries: [_CapturedProperty] = []
    }

    @usableFromInline
    static let active = Atomic<Int>(0)
    static let state = _Locked(State())

    /// Whether some thread is building a prototype (checked by every wrapper initializer).
    @inlinable
    static var isActive: Bool { active.load(ordering: .relaxed) != 0 }

    /// Records a wrapper, if the current thread is building a prototype.
    @usableFromInline
    static func record(_ property: @autoclosure () -> _CapturedProperty) {
        state.withLock { state in
            guard let thread = state.thread, pthread_equal(thread, pthread_self()) != 0 else { return }
            state.entries.append(property())
        }
    }

    /// Runs `body` (which makes the prototype) and returns what its wrappers reported.
    static func capture<T>(_ body: () -> T) -> (T, [_CapturedProperty]) {
        state.withLock { $0 = State(thread: pthread_self()) }
        active.add(1, ordering: .relaxed)
        let result = body()
        active.subtract(1, ordering: .relaxed)
        let entries = state.withLock { state in
            defer { state = State() }
            return state.entries
        }
        return (result, entries)
    }
}

/// Marks the storage of `@Attribute` and `@Relationship`, so reflection can tell them apart
/// from other stored properties.
@usableFromInline
internal protocol _GraphPropertyStorage {}

/// The process-wide table of entity descriptions, one per class, built on first use.
///
/// `descriptions` is guarded by its mutex. `builder` serializes building (the prototype's
/// initializer runs under it) and holds the next entity number.
internal enum _EntityRegistry {
    static let descriptions = _Locked<[ObjectIdentifier: EntityDescription]>([:])
    static let builder = _Locked<Int>(0)

    /// The description of a class, built from a prototype on first use.
    static func description(for type: GraphObject.Type) -> EntityDescription {
        let key = ObjectIdentifier(type)
        if let known = descriptions.withLock({ $0[key] }) { return known }
        return builder.withLock { nextNumber in
            if let known = descriptions.withLock({ $0[key] }) { return known }
            require(nextNumber < 1 << ObjectID.entityBits, "too many entity classes in one process")
            let built = build(type, number: nextNumber)
            nextNumber += 1
            descriptions.withLock { $0[key] = built }
            return built
        }
    }

    /// Builds a description: the wrappers report their options while a prototype is made,
    /// reflection names them and finds their offsets.
    private static func build(_ type: GraphObject.Type, number: Int) -> EntityDescription {
        let (prototype, captured) = _EntityCapture.capture { type.init() }
        var children: [(label: String, type: any Any.Type)] = []
        var mirror: Mirror? = Mirror(reflecting: prototype)
        while let current = mirror {
            for child in current.children where child.value is any _GraphPropertyStorage {
                children.append((child.label ?? "", Swift.type(of: child.value)))
            }
            mirror = current.superclassMirror
        }
        require(
            children.count == captured.count
                && zip(children, captured).allSatisfy { $0.type == $1.storageType },
            "\(type): every @Attribute and @Relationship must be initialized in declaration order by init() (give each an initial value)"
        )
        var offsets: [String: Int] = [:]
        // `.classType` (raw value 1) is a mutable static in the standard library; spell it out.
        let reflected = _forEachField(of: type, options: _EachFieldOptions(rawValue: 1)) { name, offset, _, _ in
            offsets[String(cString: name)] = offset
            return true
        }
        require(reflected, "\(type): its stored properties cannot be reflected")
        var properties: [PropertyDescription] = []
        var accessors: [_PropertyAccessor] = []
        for (index, (child, capture)) in zip(children, captured).enumerated() {
            guard let offset = offsets[child.label] else {
                requirementFailure("internal inconsistency: no offset for \(type).\(child.label)")
            }
            let declared = child.label.hasPrefix("_") ? String(child.label.dropFirst()) : child.label
            let relationship = capture.relationship.map { relationship in
                RelationshipDescription(
                    kind: relationship.kind,
                    deleteRule: relationship.deleteRule,
                    destinationName: relationship.destination.entityName,
                    declaresInverse: relationship.inverse != nil
                )
            }
            properties.append(
                PropertyDescription(
                    name: capture.name ?? declared,
                    index: PropertyIndex(index),
                    isUnique: capture.isUnique,
                    relationship: relationship
                )
            )
            accessors.append(_PropertyAccessor(offset: offset, operations: capture.operations))
        }
        require(Set(properties.map(\.name)).count == properties.count, "\(type): two properties share a name")
        require(properties.filter(\.isUnique).count <= 1, "\(type): at most one attribute can be unique")
        return EntityDescription(
            name: type.entityName,
            objectType: type,
            number: number,
            properties: properties,
            accessors: accessors,
            declaredInverses: captured.map { $0.relationship?.inverse },
            destinations: captured.map { $0.relationship?.destination },
            valueTypes: captured.map(\.valueType)
        )
    }
}
