import Foundation
import Synchronization

/// The graph tags of this process and the identifiers they stand for, so that an
/// ``ObjectID`` (which stores only the tag) can spell its URI.
///
/// A tag is never handed out twice while fresh ones remain (2^20 − 1 of them). After that,
/// the tags of deallocated graphs are handed out again, the longest-freed first, so a
/// process may make any number of graphs over its life; only 2^20 − 1 can be alive at once.
/// A freed tag keeps its graph's identifier until it is reused, so the IDs of a deallocated
/// graph still spell their URIs. The registry holds at most one entry per tag.
internal struct _GraphRegistry {
    /// The identifier of each tag in use or freed and not yet reused.
    var identifiers: [UInt64: UUID] = [:]
    /// The last fresh tag handed out; tags start at 1.
    var lastFreshTag: UInt64 = 0
    /// Tags of deallocated graphs, oldest first from `freedHead`.
    var freed: [UInt64] = []
    var freedHead = 0

    /// Hands out a tag for a new graph: a fresh one below `limit`, else the longest-freed one.
    ///
    /// - Returns: The tag, or `nil` when `limit - 1` graphs are alive.
    mutating func register(_ identifier: UUID, limit: UInt64) -> UInt64? {
        let tag: UInt64
        if lastFreshTag + 1 < limit {
            lastFreshTag += 1
            tag = lastFreshTag
        } else if freedHead < freed.count {
            tag = freed[freedHead]
            freedHead += 1
            if freedHead > 1_024 && freedHead * 2 > freed.count {
                freed.removeFirst(freedHead)
                freedHead = 0
            }
        } else {
            return nil
        }
        identifiers[tag] = identifier
        return tag
    }
}

/// Guarded by its own mutex; nothing else is stored here.
private let graphRegistry = _Locked(_GraphRegistry())

extension ObjectID {
    /// The URI scheme of ``uriRepresentation``.
    public static let uriScheme = "x-objectgraph"

    /// A string form of the ID that names its graph, entity and serial number, such as
    /// `x-objectgraph://6F9619FF-8B86-D011-B42D-00C04FC964FF/Item/p42`.
    ///
    /// Turn it back into an ID with ``ObjectGraph/objectID(forURIRepresentation:)`` on the
    /// same graph.
    public var uriRepresentation: String {
        let graph = graphRegistry.withLock { $0.identifiers[graphTag] }
        guard let graph else { requirementFailure("internal inconsistency: an ObjectID of an unregistered graph") }
        return "\(Self.uriScheme)://\(graph.uuidString)/\(_entity.name)/p\(serial)"
    }

    /// Registers a new graph and returns its tag.
    internal static func registerGraph(identifier: UUID) -> UInt64 {
        let tag = graphRegistry.withLock { $0.register(identifier, limit: 1 << graphBits) }
        guard let tag else {
            requirementFailure("ObjectGraph(): 1,048,575 object graphs are alive in this process, the most it can hold at once")
        }
        return tag
    }

    /// Frees the tag of a deallocated graph, to be handed out again once fresh ones run out.
    internal static func unregisterGraph(tag: UInt64) {
        graphRegistry.withLock { $0.freed.append(tag) }
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
