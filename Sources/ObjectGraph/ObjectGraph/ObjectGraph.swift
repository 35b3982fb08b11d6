import Foundation
import Observation

/// An in-memory graph of ``GraphObject``s: it inserts, deletes and relates objects, records
/// every write as pending, and publishes one ``GraphChanges`` per ``commit(author:)``.
///
/// ```swift
/// let graph = ObjectGraph()
/// let home = graph.insert(Location())
/// let milk = graph.insert(Item())
/// milk.name = "Milk"
/// milk.location = home          // home.items now holds milk too
/// let changes = try graph.commit(author: "ui")
/// ```
///
/// A graph is confined to one isolation domain (usually the main actor) and is not
/// `Sendable`; work from elsewhere arrives as a ``GraphBatch``. Pending changes are kept in
/// the graph, not in the objects: an object stores only its current values, and the graph
/// keeps the value each property had before the transaction's first write to it.
public final class ObjectGraph {
    /// The context every object of this graph points at.
    internal let _context: _GraphContext

    /// A number for this graph, unique in the process, stored in every ``ObjectID``.
    internal let tag: UInt64

    /// The graph's identity in URIs (``ObjectID/uriRepresentation``).
    public let identifier: UUID

    /// Per-entity state, by the entity's process-wide number.
    @exclusivity(unchecked) internal var _entities: [_GraphEntity?] = []
    /// Per-entity state, by class.
    internal var _entityByType: [ObjectIdentifier: _GraphEntity] = [:]
    /// The entity of the last lookup by class (bulk inserts are usually of one class), and
    /// that class. Unowned: `_entityByType` keeps every entity for the graph's life.
    @exclusivity(unchecked) internal var _lastEntity: _Unretained<_GraphEntity>?
    @exclusivity(unchecked) internal var _lastEntityType: ObjectIdentifier?
    /// Per-entity state, by entity name.
    internal var _entitiesByName: [String: _GraphEntity] = [:]

    /// The committed objects written in the pending transaction, in order of their first
    /// write; an object's `_pendingSlot` is one plus its position here.
    @exclusivity(unchecked) internal var _pending: [_PendingEntry] = []

    /// The objects inserted in the pending transaction, as runs of serials in insertion
    /// order. Their entity tables hold them (`nil` once deleted); an inserted object keeps no
    /// pending entry and no old values: its values are its pending state.
    @exclusivity(unchecked) internal var _insertRuns: [_InsertRun] = []
    /// The objects inserted in the pending transaction and deleted in it too (their entity
    /// tables no longer hold them), kept for commit checks and rollback.
    @exclusivity(unchecked) internal var _deletedInserts: [GraphObject] = []
    /// Members of to-many relationships of inserted objects, not added yet, one list per
    /// object (its `_pendingSlot` is one plus the list's position).
    @exclusivity(unchecked) internal var _deferredInverses = _DeferredInverseLists()
    /// Some object inserted in the pending transaction has ``GraphObject/_mayHoldInvalidTargetsFlag``.
    @exclusivity(unchecked) internal var _insertsMayHoldInvalidTargets = false
    /// A commit is checking its changes (user code may run: `validateForCommit()`).
    @exclusivity(unchecked) internal var _isCommitting = false
    /// `rollback()` was called while `_isCommitting`: the commit in progress fails.
    internal var _rollbackDuringCommit = false
    /// A commit is validating the inserted objects, clearing their `_insertedFlag` as it goes.
    @exclusivity(unchecked) internal var _validatingInserts = false

    /// The objects whose deletion is pending, by ID bits: still registered (readable through
    /// ``registeredObject(with:)``, `isDeleted` answers `true`) until the commit.
    internal var _pendingDeletions: [UInt64: GraphObject] = [:]
    /// The objects deleted by commits whose delivery to the observers has not finished: an
    /// observer that has not heard of the commit yet (a controller) may still list them.
    internal var _undeliveredDeletions: [UInt64: GraphObject] = [:]

    /// The hook every commit passes through before it is published (a durable store).
    internal var _commitHook: (any CommitHook)?
    /// Records commits for undo.
    internal var _undoManager: GraphUndoManager?
    /// The action name given to ``commit(author:actionName:)`` for the commit in progress.
    internal var _pendingActionName: String?
    /// A batch is being applied: its commit is not recorded for undo.
    internal var _applyingBatch = false
    /// The progress handler of the import being applied, if it has one.
    internal var _importProgress: _ImportProgressReporter?

    /// The observers, in registration order.
    internal var _observers: [_Observer] = []
    internal var _nextObserverID = 0
    /// Commits waiting for delivery while an earlier one is being delivered.
    internal var _deliveryQueue: [GraphChanges] = []
    internal var _isDelivering = false
    /// How many commits of `_deliveryQueue` have started their delivery.
    internal var _deliveredCount = 0
    /// The commit made elsewhere being applied (see `Restore/ObjectGraph+ExternalCommit.swift`).
    internal var _external: _ExternalCommit?
    /// Commits made elsewhere, applied at the start of the commit in progress and published
    /// just before it.
    internal var _externalAwaitingPublication: [GraphChanges] = []
    /// Nonzero while observers hear of external commits beside pending changes that are not
    /// theirs: no follow-up commit is made, and `commit()` throws.
    internal var _followUpsSuspended = 0

    // The `@exclusivity(unchecked)` fields are touched on every write and tracked read; why
    // dropping their dynamic checks is sound: `Unsafe/UnsafeTechniques.swift`.

    /// The Observation registrars of the objects read while observed, by object. Kept here,
    /// not in each object, so an object that is never observed does not pay for one.
    internal var _registrars: [ObjectIdentifier: ObservationRegistrar] = [:]

    /// Makes an empty graph.
    ///
    /// A process holds at most 1,048,575 graphs at once; making one more stops the program
    /// with that message (each graph's tag is part of every ``ObjectID``). A graph's tag is
    /// reused once the graph is released.
    ///
    /// - Complexity: O(1) amortized.
    public convenience init() {
        self.init(identifier: UUID())
    }

    /// Makes an empty graph with a given identity: a store reopening a saved graph.
    ///
    /// - Parameter identifier: The graph's ``identifier``, in every ID's URI.
    package init(identifier: UUID) {
        _context = _GraphContext(readMode: .observed)
        self.identifier = identifier
        tag = ObjectID.registerGraph(identifier: identifier)
        _context.graph = self
    }

    deinit {
        _context.graph = nil
        _context._readMode = .detached
        _dropDeferredInverses()
        // Objects refer to each other strongly; break the cycles so they can go away.
        for case let entity? in _entities {
            for case let object? in entity.objects {
                for (_, accessor) in entity.relationships { accessor.setObjects(object, []) }
            }
        }
        for object in _pending.lazy.map(\.object) + _deletedInserts {
            let entity = _entities[object._entityNumber]!
            for (_, accessor) in entity.relationships { accessor.setObjects(object, []) }
        }
        for observer in _observers { observer.finish?() }
        ObjectID.unregisterGraph(tag: tag)
    }

    /// Whether there are writes, inserts or deletes not yet committed.
    public var hasChanges: Bool { !_pending.isEmpty || !_insertRuns.isEmpty || !_deletedInserts.isEmpty }

    // MARK: Inserting and deleting

    /// Inserts an object that is in no graph; the insertion is pending until ``commit(author:)``.
    ///
    /// Relationships set on the object before insertion are applied now, with their inverses.
    ///
    /// - Parameter object: A new object (`precondition`: not in a graph, and not deleted: a
    ///   deleted object cannot be inserted again; insert a new one, or undo the deletion).
    /// - Returns: The same object, for chaining: `let item = graph.insert(Item())`.
    /// - Complexity: O(1) amortized, plus O(*m*) for *m* related objects.
    @inlinable
    @discardableResult
    public func insert<Object: GraphObject>(_ object: Object) -> Object {
        // Inlined, so returning the argument costs the caller no reference count.
        _insertChecked(object)
        return object
    }

    /// ``insert(_:)`` but for returning the object.
    @usableFromInline
    internal func _insertChecked(_ object: GraphObject) {
        // ID bits are 0 exactly while the object points at the detached context (never
        // inserted, or rolled back), a test that reads no global.
        if _slowPath(object._idBits != 0) { _insertFailure(object) }
        assert(object._context === _GraphContext.detached, "internal inconsistency: a detached object with a graph's context")
        require(object._flags & GraphObject._prototypeFlag == 0, "insert(_:): a prototype cannot be inserted")
        _insert(object)
        _checkInvariants(around: object)
    }

    /// Says why ``insert(_:)`` cannot take an object that has an ID.
    @inline(never)
    private func _insertFailure(_ object: GraphObject) -> Never {
        if object.isDeleted {
            requirementFailure(
                "insert(_:): \(object.objectID) was deleted; a deleted object cannot be inserted again (insert a new object, or undo the deletion)")
        }
        if object._context === _context {
            requirementFailure("insert(_:): \(object.objectID) is already in this graph")
        }
        requirementFailure("insert(_:): \(object.objectID) belongs to another graph; an object lives in one graph")
    }

    /// Deletes an object, applying its relationships' delete rules; pending until commit.
    ///
    /// `.nullify` relationships are emptied (removing the object from the inverses),
    /// `.cascade` ones are emptied and their objects deleted, `.deny` ones are left as they
    /// are: the commit throws ``CommitError/deleteDenied(_:relationship:)`` if they still
    /// hold objects then. Deleting a deleted object does nothing.
    ///
    /// - Parameter object: An object of this graph (`precondition`).
    /// - Complexity: O(*m*) for *m* related objects, plus the cascade.
    public func delete(_ object: GraphObject) {
        require(object._context === _context, "delete(_:): the object is not in this graph")
        guard object._flags & GraphObject._deletedFlag == 0 else { return }
        _flushDeferredInverses()
        _delete(object)
        _checkInvariants(around: object)
    }

    // MARK: Looking objects up

    /// The entity of a class, as this graph uses it (registering it if needed).
    ///
    /// - Parameter type: A ``GraphObject`` subclass.
    /// - Returns: Its description.
    /// - Complexity: Expected O(1) once the class is registered. The first call for a class
    ///   registers it and the classes its relationships reach, O(*p*) for their *p* properties.
    public func entity(for type: GraphObject.Type) -> EntityDescription {
        _entity(for: type).description
    }

    /// The object with an ID, if it is in the graph and not deleted.
    ///
    /// - Parameter id: An ID.
    /// - Returns: The object; `nil` when the ID is from another graph, was never issued,
    ///   or its object is deleted (even pending) or its insertion rolled back.
    /// - Complexity: O(1).
    public func object(with id: ObjectID) -> GraphObject? {
        guard id.graphTag == tag else { return nil }
        let number = id._entity.number
        guard number < _entities.count, let entity = _entities[number] else { return nil }
        let serial = id.serial
        guard serial < entity.objects.count else { return nil }
        return entity.objects[serial]
    }

    /// The object with an ID while the graph still holds it: like ``object(with:)``, but an
    /// object whose deletion is pending is returned too (its ``GraphObject/isDeleted`` answers
    /// `true`) until the commit that deletes it has been delivered to every observer.
    ///
    /// This is what lets a results controller keep answering for the rows it lists between
    /// a ``delete(_:)`` and the commit, as Core Data's `registeredObject(for:)` does.
    ///
    /// - Parameter id: An ID.
    /// - Returns: The object, or `nil` when the ID is from another graph, was never issued,
    ///   its deletion is committed and delivered, or its insertion was rolled back.
    /// - Complexity: O(1).
    public func registeredObject(with id: ObjectID) -> GraphObject? {
        if let object = object(with: id) { return object }
        guard id.graphTag == tag, !_pendingDeletions.isEmpty || !_undeliveredDeletions.isEmpty else { return nil }
        return _pendingDeletions[id._bits] ?? _undeliveredDeletions[id._bits]
    }

    /// The object with an ID, as a given class.
    ///
    /// - Parameters:
    ///   - id: An ID.
    ///   - type: The class expected.
    /// - Returns: The object, or `nil` when ``object(with:)`` is `nil` or it is another class.
    /// - Complexity: O(1).
    public func object<Object: GraphObject>(with id: ObjectID, as type: Object.Type) -> Object? {
        object(with: id) as? Object
    }

    /// The object with an ID, which must exist.
    ///
    /// - Parameter id: An ID.
    /// - Returns: The object.
    /// - Throws: ``ObjectGraphError/objectNotFound(_:)`` when the ID is unknown to this
    ///   graph or its object is deleted.
    /// - Complexity: O(1).
    public func existingObject(with id: ObjectID) throws(ObjectGraphError) -> GraphObject {
        guard let object = object(with: id) else { throw .objectNotFound(id) }
        return object
    }

    /// The objects of a class: committed ones and pending inserts, minus deletions (even
    /// pending), in insertion order.
    ///
    /// - Parameter type: A ``GraphObject`` subclass.
    /// - Returns: The objects.
    /// - Complexity: O(*n*) for *n* objects of the class ever inserted.
    public func objects<Object: GraphObject>(of type: Object.Type) -> [Object] {
        guard let entity = _entityByType[ObjectIdentifier(type)] else { return [] }
        var result: [Object] = []
        result.reserveCapacity(entity.liveCount)
        for case let object? in entity.objects { result.append(unsafeDowncast(object, to: Object.self)) }
        return result
    }

    /// The number of objects ``objects(of:)`` returns.
    ///
    /// - Parameter type: A ``GraphObject`` subclass.
    /// - Returns: The count.
    /// - Complexity: O(1).
    public func count<Object: GraphObject>(of type: Object.Type) -> Int {
        _entityByType[ObjectIdentifier(type)]?.liveCount ?? 0
    }
}

@available(*, unavailable, message: "a graph is confined to one isolation domain; send a GraphBatch")
extension ObjectGraph: Sendable {}

extension GraphObject {
    /// The entity number packed in the ID bits.
    internal var _entityNumber: Int {
        Int(truncatingIfNeeded: (_idBits >> ObjectID.serialBits) & (1 << ObjectID.entityBits - 1))
    }

    /// The serial packed in the ID bits.
    internal var _serial: Int {
        Int(truncatingIfNeeded: _idBits & (1 << ObjectID.serialBits - 1))
    }
}
