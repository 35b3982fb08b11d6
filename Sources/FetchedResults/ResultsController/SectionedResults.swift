import Foundation
import Observation

/// The live, sectioned results that every controller offers for reading: the results of a
/// ``ResultsController``, of a ``SearchController`` and of an ``OrderedResultsController``.
///
/// Write code that shows "any controller's rows" against this protocol: a list adapter,
/// a ``ResultsControllerDelegate`` (whose callbacks name the controller through it), a test
/// helper that renders the sections.
///
/// ```swift
/// func render(_ results: some SectionedResults<Item>) -> [[String]] {
///     results.sections.map { section in section.objects.map(\.name) }
/// }
/// ```
///
/// Every conforming type is a final class of this module; each offers, besides these reads,
/// only what it can honour: a ``ResultsController``'s request is settable, a
/// ``SearchController``'s follows its ``SearchController/searchText``, an
/// ``OrderedResultsController`` sets its predicate and section key but never sort keys.
///
/// A conforming controller is `Observable`: ``sections`` and ``fetchedObjects`` are tracked,
/// and each change of the results notifies them. It is confined to the isolation domain of
/// its graph.
public protocol SectionedResults<Object>: AnyObject, Observable {
    /// The type of object in the results.
    associatedtype Object: GraphObject

    /// The graph the controller observes.
    var graph: ObjectGraph { get }

    /// What the controller's results are: the entity, predicate, sort keys, section key and
    /// window they follow.
    var request: FetchRequest<Object> { get }

    /// Told about each change of the results, in Core Data's order. Weak.
    var delegate: (any ResultsControllerDelegate<Object>)? { get set }

    /// Whether the controller holds results: a ``ResultsController`` or an
    /// ``OrderedResultsController`` once its `performFetch()` ran, a ``SearchController``
    /// always (it fetches when it is created, from its base's rows).
    var hasFetched: Bool { get }

    /// The objects of the results in order, inside the request's window; empty before the
    /// controller fetched. Observable.
    ///
    /// - Complexity: O(n) the first time after a change, O(1) after that.
    var fetchedObjects: [Object] { get }

    /// The number of objects in the results.
    var numberOfObjects: Int { get }

    /// The value of a total over every row of the results (inside the request's window):
    /// one of the request's ``FetchRequest/totals``, kept current with each commit, or any
    /// other, computed from the rows when asked. Observable, with the sections.
    ///
    /// - Parameter total: The total.
    /// - Returns: Its value.
    /// - Complexity: O(1) for a total of the request (amortized for a minimum or maximum);
    ///   O(n) for another.
    func total<Value>(_ total: Total<Object, Value>) -> Value

    /// The object at an index path. Traps, with a message naming the path and the counts,
    /// when no row is there (as Core Data's controller does); ``object(ifPresentAt:)`` does
    /// not.
    ///
    /// - Parameter indexPath: A section and row of the current results.
    /// - Returns: The object.
    /// - Complexity: O(log n).
    func object(at indexPath: IndexPath) -> Object

    /// The object at an index path, or `nil` when no row is there.
    ///
    /// - Parameter indexPath: A section and row.
    /// - Returns: The object, or `nil`.
    /// - Complexity: O(log n).
    func object(ifPresentAt indexPath: IndexPath) -> Object?

    /// The index path of an object, or `nil` when it is not in the results.
    ///
    /// - Parameter object: The object.
    /// - Returns: Its index path, or `nil`.
    /// - Complexity: O(log n).
    func indexPath(for object: Object) -> IndexPath?

    /// The index path of the object with this ID, or `nil` when it is not in the results.
    ///
    /// - Parameter objectID: The object's ID.
    /// - Returns: Its index path, or `nil`.
    /// - Complexity: O(log n).
    func indexPath(forObjectID objectID: ObjectID) -> IndexPath?

    /// The sections of the results, in order (one section named "" when the request has no
    /// section key and there are results). Observable.
    ///
    /// - Complexity: O(s) for s visible sections.
    var sections: [ResultsSection<Object>] { get }

    /// The index title of a section with this name.
    ///
    /// - Parameter sectionName: The section's name.
    /// - Returns: Its title in a section index, or `nil` for none.
    func sectionIndexTitle(forSectionName sectionName: String) -> String?

    /// The titles of the section index: each section's index title, in order, without
    /// repeats.
    ///
    /// - Complexity: O(s) for s visible sections.
    var sectionIndexTitles: [String] { get }

    /// The section a tap on a section index title jumps to: the first section whose index
    /// title is `title`.
    ///
    /// - Parameters:
    ///   - title: A title from ``sectionIndexTitles``.
    ///   - titleIndex: The title's position in ``sectionIndexTitles``; used when no section
    ///     has `title` (the nearest section before it).
    /// - Returns: A section position.
    /// - Complexity: O(s) for s visible sections.
    func section(forSectionIndexTitle title: String, at titleIndex: Int) -> Int

    /// A stable string that names the object at an index path, for state restoration: the
    /// object ID's URI form, valid for the graph's whole life.
    ///
    /// - Parameter indexPath: A section and row.
    /// - Returns: The identifier, or `nil` when no row is there.
    /// - Complexity: O(log n).
    func restorationIdentifier(forObjectAt indexPath: IndexPath) -> String?

    /// The index path of the object a restoration identifier names.
    ///
    /// - Parameter identifier: A string from ``restorationIdentifier(forObjectAt:)``.
    /// - Returns: The object's index path now, or `nil` when the identifier is malformed or
    ///   from another graph, or the object is gone or not in the results.
    /// - Complexity: O(log n) plus the identifier's length.
    func indexPath(forRestorationIdentifier identifier: String) -> IndexPath?

    /// The identities of the current results, as a `Sendable` value.
    ///
    /// - Complexity: O(n) for n visible rows.
    var snapshot: ResultsSnapshot { get }

    /// Subscribes to the controller's changes: one ``ResultsChangeSet`` per change of the
    /// results, from now on, until the controller is deinitialized or the consumer stops
    /// iterating.
    ///
    /// - Parameter bufferingPolicy: What the stream keeps while the consumer is busy.
    /// - Returns: An asynchronous sequence of `Sendable` change sets.
    func changes(bufferingPolicy: AsyncStream<ResultsChangeSet>.Continuation.BufferingPolicy) -> AsyncStream<ResultsChangeSet>
}

extension SectionedResults {
    /// Subscribes to the controller's changes, keeping every change set while the consumer
    /// is busy: ``changes(bufferingPolicy:)`` with `.unbounded`.
    ///
    /// - Returns: An asynchronous sequence of `Sendable` change sets.
    /// - Complexity: O(1); each later change of the results then costs O(*c*) more to
    ///   deliver to the stream, for its *c* section and row changes.
    public func changes() -> AsyncStream<ResultsChangeSet> {
        changes(bufferingPolicy: .unbounded)
    }
}
