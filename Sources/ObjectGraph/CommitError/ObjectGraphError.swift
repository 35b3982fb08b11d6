/// Errors from looking objects up.
public enum ObjectGraphError: Error, Hashable, CustomStringConvertible {
    /// No object with the ID is in the graph: it is from another graph, was never issued,
    /// or is deleted.
    case objectNotFound(ObjectID)
    /// An object has no attribute or relationship with the name.
    case unknownKey(entity: String, key: String)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .objectNotFound(let id): "no object \(id) in the graph"
        case .unknownKey(let entity, let key): "\(entity) has no property \(key)"
        }
    }
}
