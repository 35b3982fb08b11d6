import Foundation
import ObjectGraph

/// Why an ``OrderedResultsController`` refused a user-driven change. When one is thrown the
/// graph and the controller are as they were.
public enum OrderedResultsError: Error, CustomStringConvertible {
    /// The controller has not fetched yet: call ``OrderedResultsController/performFetch()``
    /// before a user-driven change.
    case notFetched
    /// No row is at the index path (before the change); `counts` gives the rows per section.
    case noRow(at: IndexPath, counts: [Int])
    /// The destination is not a position a row can be moved to (after the change).
    case invalidDestination(IndexPath, counts: [Int])
    /// The move crosses sections and the section key was not declared writable
    /// (``SectionKey/init(writable:ascending:title:)``); `sectionKey` names the key.
    case sectionKeyNotWritable(sectionKey: String)
    /// The object is not a member of the relationship the controller shows: it belongs to
    /// another owner's relationship, or to none.
    case notAMember(ObjectID)
    /// The owner of the relationship was deleted; the controller shows nothing.
    case ownerDeleted(ObjectID)
    /// The commit of the change failed; the change was undone and is still not in the graph
    /// (other pending changes stay pending, as `ObjectGraph.commit(author:)` leaves them).
    case commitFailed(CommitError)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .notFetched:
            "the controller has not fetched yet; call performFetch() before a user-driven change"
        case .noRow(let path, let counts):
            "no row at \(path.listDescription); the sections have \(counts) rows"
        case .invalidDestination(let path, let counts):
            "a row can not be moved to \(path.listDescription); the sections have \(counts) rows before the move"
        case .sectionKeyNotWritable(let key):
            "a row can not be moved into another section: the section key \(key) is not writable; declare it with SectionKey(writable:)"
        case .notAMember(let id):
            "\(id) is not a member of the relationship this controller shows"
        case .ownerDeleted(let id):
            "the owner \(id) of the relationship was deleted"
        case .commitFailed(let error):
            "the change was undone because its commit failed: \(error)"
        }
    }
}
