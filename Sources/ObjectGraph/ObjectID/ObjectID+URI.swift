import Foundation
import Synchronization

/// The identifiers of the graphs made in this process, by tag, so that an ``ObjectID``
/// (which stores only the tag) can spell its URI. One entry per graph ever made: 16 bytes.
///
/// Guarded by its own mutex; nothing else is stored here.
private let graphIdentifiers = _Locked<[UInt64: UUID]>([:])

/// The last graph tag handed out; tags start at 1.
private let lastGraphTag = Atomic<UInt64>(0)

extension ObjectID {
    /// The URI scheme of ``uriRepresentation``.
    public static let uriScheme = "x-objectgraph"

    /// A string form of the ID that names its graph, entity and serial number, such as
    /// `x-objectgraph://6F9619FF-8B86-D011-B42D-00C04FC964FF/Item/p42`.
    ///
    /// Turn it back into an ID with ``ObjectGraph/objectID(forURIRepresentation:)`` on the
    /// same graph.
    public var uriRepresentation: String {
        let graph = graphIdentifiers.withLock { $0[graphTag] }
        guard let graph else { preconditionFailure("internal inconsistency: an ObjectID of an unregistered graph") }
        return "\(Self.uriScheme)://\(graph.uuidString)/\(_entity.name)/p\(serial)"
    }

    /// Registers a new graph and returns its tag.
    internal static func registerGraph(identifier: UUID) -> UInt64 {
        let tag = lastGraphTag.add(1, ordering: .relaxed).newValue
        precondition(tag < 1 << graphBits, "too many object graphs made in one process")
        graphIdentifiers.withLock { $0[tag] = identifier }
        return tag
    }
}

extension ObjectGraph {
    /// The ID that a URI made by ``ObjectID/uriRepresentation`` names, if it names an object
    /// that this graph issued.
    ///
    /// The object may since have been deleted: use ``object(with:)`` to look it up.
    ///
    /// - Parameter uri: A string made by ``ObjectID/uriRepresentation``.
    /// - Returns: The ID, or `nil` when the string is malformed, comes from another graph,
    ///   names an entity this graph does not know, or a serial number this graph never issued.
    /// - Complexity: O(length of `uri`).
    public func objectID(forURIRepresentation uri: String) -> ObjectID? {
        let prefix = ObjectID.uriScheme + "://"
        guard uri.hasPrefix(prefix) else { return nil }
        let parts = uri.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let uuid = UUID(uuidString: String(parts[0])), uuid == identifier,
            let entity = _entitiesByName[String(parts[1])],
            parts[2].first == "p",
            parts[2].dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }),
            let serial = Int(parts[2].dropFirst()),
            serial < entity.objects.count
        else { return nil }
        return ObjectID(graphTag: tag, entity: entity.description, serial: serial)
    }
}
