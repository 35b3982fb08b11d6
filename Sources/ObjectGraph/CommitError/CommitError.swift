/// Why ``ObjectGraph/commit(author:)`` or ``ObjectGraph/apply(_:author:)`` refused to
/// commit. When one is thrown, every pending change is still pending (a batch's changes are
/// rolled back).
public enum CommitError: Error, CustomStringConvertible {
    /// An object's ``GraphObject/validateForCommit()`` threw `error`.
    case validationFailed(ObjectID, any Error)
    /// A deleted object's `.deny` relationship still holds objects.
    case deleteDenied(ObjectID, relationship: String)
    /// A property of a deleted object was set after it was deleted. The property setters
    /// stop such a write where it is made (`precondition`), so a commit no longer meets one.
    case writeToDeletedObject(ObjectID)
    /// A relationship of a live object holds a deleted object.
    case relationshipToDeletedObject(ObjectID, relationship: String, target: ObjectID)
    /// A relationship holds an object of another graph.
    case objectFromAnotherGraph(ObjectID, relationship: String)
    /// A batch names an object that is not in the graph (or is deleted).
    case unknownObject(ObjectID)
    /// A batch names a property the entity does not have, or uses an attribute name for a
    /// relationship or the other way round.
    case unknownProperty(entity: String, name: String)
    /// A batch gives an attribute a value of another type, or a relationship an object of
    /// another entity or the wrong number of objects.
    case typeMismatch(entity: String, property: String)
    /// A batch upsert into an entity without a unique attribute, or without its value.
    case missingUniqueValue(entity: String)
    /// ``ObjectGraph/commit(author:)`` or ``ObjectGraph/rollback()`` was called while a
    /// commit was checking its changes (from ``GraphObject/validateForCommit()``). The inner
    /// commit throws this at once; an inner rollback changes nothing and the outer commit
    /// throws this. Either way every pending change stays pending.
    case commitInProgress
    /// The graph's durable store could not write or sync the commit (`error` says why);
    /// nothing of the commit was published.
    case persistenceFailed(any Error)
    /// The progress handler of ``ObjectGraph/apply(_:author:progress:)`` threw `error`
    /// before the commit was durable: the import stopped and nothing of it was committed,
    /// published or left in the store.
    case cancelled(any Error)
    /// ``ObjectGraph/apply(_:author:)`` was called while the graph had pending changes.
    /// A batch is applied in a commit of its own: commit or roll back the pending changes
    /// first. They stay pending, untouched.
    case pendingChanges

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .validationFailed(let id, let error): "\(id) failed validation: \(error)"
        case .deleteDenied(let id, let relationship): "\(id) cannot be deleted while \(relationship) holds objects (delete rule .deny)"
        case .writeToDeletedObject(let id): "\(id) was written to after it was deleted"
        case .relationshipToDeletedObject(let id, let relationship, let target): "\(id).\(relationship) holds the deleted object \(target)"
        case .objectFromAnotherGraph(let id, let relationship): "\(id).\(relationship) holds an object of another graph"
        case .unknownObject(let id): "no object \(id) in the graph"
        case .unknownProperty(let entity, let name): "\(entity) has no property \(name) of that kind"
        case .typeMismatch(let entity, let property): "the value for \(entity).\(property) has the wrong type"
        case .missingUniqueValue(let entity): "an upsert into \(entity) needs a value for its unique attribute"
        case .commitInProgress: "commit() or rollback() was called while a commit was validating its changes"
        case .persistenceFailed(let error): "the commit could not be made durable: \(error)"
        case .cancelled(let error): "the import was cancelled by its progress handler: \(error)"
        case .pendingChanges: "a batch cannot be applied while the graph has pending changes: commit or roll back first"
        }
    }
}
