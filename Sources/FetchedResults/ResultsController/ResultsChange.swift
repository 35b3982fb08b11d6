import Foundation

/// How one object's row changed in a commit, in Core Data's terms and index spaces.
public enum ResultsObjectChange: Sendable, Hashable {
    /// The object entered the results; `at` is its index path **after** the commit.
    case insert(ObjectID, at: IndexPath)
    /// The object left the results; `at` is its index path **before** the commit.
    case delete(ObjectID, at: IndexPath)
    /// The object's row moved from an index path **before** the commit to one **after** it.
    /// When `contentChanged` is true its cell must also be refreshed at the after-position
    /// (after the batch), never reloaded as part of the move.
    ///
    /// The two index paths can be equal when rows around the object moved (unchanged rows
    /// keep their places, so the changed row is the one that moves). Unlike Core Data's
    /// controller, which reports some updates that way, this is always a real move: feed these
    /// events to a `ChangeAccumulator` created with `eventInterpretation: .exact`.
    case move(ObjectID, from: IndexPath, to: IndexPath, contentChanged: Bool)
    /// The object changed and its row kept its place among the rows that stayed: `at` is the
    /// index path **before** the commit, `newIndexPath` the one **after** it.
    case update(ObjectID, at: IndexPath, newIndexPath: IndexPath)

    /// The object the change is about.
    public var objectID: ObjectID {
        switch self {
        case .insert(let id, _), .delete(let id, _), .move(let id, _, _, _), .update(let id, _, _): id
        }
    }
}

/// How a section changed in a commit.
public enum ResultsSectionChange: Sendable, Hashable {
    /// A section appeared; `at` is its position **after** the commit.
    case insert(at: Int, name: String)
    /// A section disappeared; `at` is its position **before** the commit.
    case delete(at: Int, name: String)
}

/// Everything a commit changed in a controller's results, as a `Sendable` value.
///
/// `changes` is a general `ListChanges` (a moved row that changed is both a move source and
/// reconfigured); call `staged()` on it for batches a list view accepts. The section and
/// object changes list the same changes one by one, in the order a Core Data delegate
/// receives them: section deletes, section inserts, row deletes, inserts, moves, updates.
public struct ResultsChangeSet: Sendable, Equatable {
    /// The changes of the commit as one general set of section and row changes.
    public var changes: ListChanges
    /// The sections that disappeared and appeared.
    public var sectionChanges: [ResultsSectionChange]
    /// The object-by-object changes, including rows inside inserted and deleted sections.
    public var objectChanges: [ResultsObjectChange]

    /// Creates a change set.
    ///
    /// - Parameters:
    ///   - changes: The general changes.
    ///   - sectionChanges: The section changes.
    ///   - objectChanges: The object changes.
    /// - Complexity: O(1).
    public init(changes: ListChanges, sectionChanges: [ResultsSectionChange], objectChanges: [ResultsObjectChange]) {
        self.changes = changes
        self.sectionChanges = sectionChanges
        self.objectChanges = objectChanges
    }
}
