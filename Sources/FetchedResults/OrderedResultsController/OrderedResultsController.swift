import Foundation
import Observation

/// Keeps the members of one object's ordered to-many relationship as a list, in the
/// relationship's order — optionally filtered and split into sections — and reports each
/// commit's changes as a batch a list view accepts: a hand-ordered list (a playlist, a
/// shopping list in aisle order).
///
/// ```swift
/// let controller = OrderedResultsController(
///     graph: graph, owner: list, relationship: \ShoppingList.items,
///     predicate: .equal(\.listed, true), sectionKey: SectionKey(writable: \.aisle))
/// controller.performFetch()
/// controller.delegate = listAdapter
/// ```
///
/// It offers the reads of ``SectionedResults`` — sections, ``object(at:)``,
/// ``indexPath(for:)``, restoration, the delegate, the change stream and Observation work as
/// they do for a ``ResultsController`` — but its rows keep the relationship's order inside
/// each section instead of following sort keys. A reorder of the relationship in the graph
/// arrives as row moves, never as deletes and inserts.
///
/// Each member carries an order label, an integer increasing along the relationship with
/// gaps between neighbours; the label is the rows' sort key, so positions stay O(log n). A
/// commit relabels only the members that moved or arrived, between their new neighbours
/// (a neighbourhood is spread out again when a gap runs out), so moving k members of an
/// n-member relationship costs O(k log n), whatever n.
///
/// The user's own edits go through ``moveRow(from:to:author:)``, ``deleteRow(at:author:)``
/// and ``removeRow(at:author:)``: they write and commit the graph, and what the controller
/// delivers for that commit is relative to the list *with the user's edit already shown*,
/// so a view is never told to perform the drag it just performed. See the article
/// “Hand-ordered lists” in the FetchedResults documentation.
///
/// What it shows of the members is settable — ``predicate``, ``sectionKey`` and
/// ``displayedKeys`` — and the ``request`` they make is read-only: rows follow the
/// relationship, so there are no sort keys and no fetch window to set. Search the list by
/// setting ``predicate`` (a `SearchController` filters a ``ResultsController`` only).
///
/// A controller is confined to the isolation domain of its graph (not `Sendable`).
public final class OrderedResultsController<Owner: GraphObject, Member: GraphObject>: SectionedResults {
    /// The engine that holds the rows; this controller forwards every read to it.
    let engine: OrderedResultsEngine<Owner, Member>

    /// Creates a controller. It holds no results until ``performFetch()``.
    ///
    /// - Parameters:
    ///   - graph: The graph the owner lives in (`precondition`).
    ///   - owner: The object whose relationship to show.
    ///   - relationship: An ordered to-many relationship of the owner (`[Member]`,
    ///     `precondition`).
    ///   - predicate: Which members are shown; `nil` shows all.
    ///   - sectionKey: What rows are grouped by, or `nil` for one section. Declare it with
    ///     ``SectionKey/init(writable:ascending:title:)`` to let a drag move a row into
    ///     another section.
    ///   - displayedKeys: The member properties the cells display; a write to a member then
    ///     refreshes its row only when it changes one of them. `nil` refreshes on every write.
    ///   - totals: The totals kept for each section and for every row (``Total``), read with
    ///     ``total(_:)`` and `ResultsSection.total(_:)`.
    /// - Complexity: O(p) for p properties of the owner's entity.
    public init(
        graph: ObjectGraph,
        owner: Owner,
        relationship: ReferenceWritableKeyPath<Owner, [Member]>,
        predicate: FetchPredicate<Member>? = nil,
        sectionKey: SectionKey<Member>? = nil,
        displayedKeys: [PartialKeyPath<Member>]? = nil,
        totals: [AnyTotal<Member>] = []
    ) {
        engine = OrderedResultsEngine(
            graph: graph, owner: owner, relationship: relationship, predicate: predicate, sectionKey: sectionKey,
            displayedKeys: displayedKeys, totals: totals)
        engine.controller = self
    }

    /// The object whose relationship the controller shows.
    public var owner: Owner { engine.owner }

    /// The ordered to-many relationship shown, such as `\Playlist.songs`.
    public var relationship: ReferenceWritableKeyPath<Owner, [Member]> { engine.relationship }

    /// What the rows follow, as a request over the member entity: the ``predicate``, the
    /// ``sectionKey`` and the ``displayedKeys``, never sort keys or a fetch window (rows keep
    /// the relationship's order). Read-only: set those three properties instead.
    public var request: FetchRequest<Member> { engine._request }

    /// Which members are shown; `nil` shows all. Setting it on a fetched controller
    /// re-evaluates every member and reports the difference as one change (an animated
    /// filter), never a reload.
    ///
    /// - Complexity: Setting it costs O(n log n) for n members.
    public var predicate: FetchPredicate<Member>? {
        get { engine._request.predicate }
        set {
            var request = engine._request
            request.predicate = newValue
            engine.replaceRequest(with: request)
        }
    }

    /// What rows are grouped by, or `nil` for one section. Setting it on a fetched
    /// controller re-evaluates every member and reports the difference as one change.
    ///
    /// - Complexity: Setting it costs O(n log n) for n members.
    public var sectionKey: SectionKey<Member>? {
        get { engine._request.sectionKey }
        set {
            var request = engine._request
            request.sectionKey = newValue
            engine.replaceRequest(with: request)
        }
    }

    /// The member properties the cells display: a write to a member refreshes its row only
    /// when it changes one of them; `nil` refreshes on every write. Setting it on a fetched
    /// controller re-evaluates every member.
    ///
    /// - Complexity: Setting it costs O(n log n) for n members.
    public var displayedKeys: [PartialKeyPath<Member>]? {
        get { engine._request.displayedKeys }
        set {
            var request = engine._request
            request.displayedKeys = newValue
            engine.replaceRequest(with: request)
        }
    }

    /// Makes the index title of a section from its name; `nil` (the default) titles a
    /// section with the capitalized first letter of its name, and none for an empty name.
    /// Setting it changes the titles of ``sections`` read from then on, and Observation
    /// reports it as a change of ``sections``.
    public var sectionIndexTitleProvider: ((_ sectionName: String) -> String?)? {
        get { engine.sectionIndexTitleProvider }
        set { engine.withObservableMutation { engine.sectionIndexTitleProvider = newValue } }
    }

    /// Reads the relationship's members, labels them in order, evaluates them and starts
    /// observing the graph. Calling it again starts from scratch without reporting a change.
    ///
    /// - Complexity: O(n log n) for n members.
    public func performFetch() {
        engine.performFetch()
    }

    /// Moves a row where the user dragged it: reorders the relationship (and, across
    /// sections, gives the member the target section's key value), commits the graph, and
    /// delivers that commit relative to the list *with the drag already shown*.
    ///
    /// Call it when the view reports a finished drag (`tableView(_:moveRowAt:to:)`), with
    /// the view's index paths, from the view's event handling rather than from inside a
    /// delegate or graph observer callback (a commit made there is delivered later, after
    /// other commits). The index paths must be the controller's current coordinates: flush
    /// the app's `ChangeAccumulator` before a drag starts, so the view and the controller
    /// agree.
    /// The view is not told to move the row again. The graph has one transaction, so the
    /// commit takes every pending change with it (as a Core Data `save()` does): other
    /// changes committed with it (pending writes of another part of the app) are delivered
    /// relative to what the view now shows. A drag that ends where it started moves nothing
    /// and still commits.
    /// A drag that empties its section leaves that section on screen, so the delivery
    /// deletes it.
    ///
    /// In the relationship the row lands right after the row above its drop position in
    /// the target section, or right before the row below it when dropped first; members the
    /// predicate hides keep their places.
    ///
    /// - Parameters:
    ///   - source: The row's index path before the drag.
    ///   - destination: Its index path after the drag, as the view reports it (in the target
    ///     section, counting the rows without the dragged one).
    ///   - author: The commit's author tag.
    /// - Throws: ``OrderedResultsError``: `.notFetched`, `.noRow`, `.invalidDestination`,
    ///   `.sectionKeyNotWritable` for a drag into another section without a writable key,
    ///   `.ownerDeleted`; nothing changed. `.commitFailed` when the commit throws: the
    ///   relationship and the section key are written back, and the app should reload its
    ///   view (it shows a drag the graph does not have).
    /// - Complexity: O(n) for n members: the graph writes the relationship as a whole.
    public func moveRow(from source: IndexPath, to destination: IndexPath, author: String? = nil) throws(OrderedResultsError) {
        try engine.moveRow(from: source, to: destination, author: author)
    }

    /// Moves a member, given as an object, to a row: ``moveRow(from:to:author:)`` from its
    /// current index path, for drag-and-drop APIs that hand over the dragged object.
    ///
    /// - Parameters:
    ///   - member: The member to move.
    ///   - destination: Its index path after the move, as for ``moveRow(from:to:author:)``.
    ///   - author: The commit's author tag.
    /// - Throws: ``OrderedResultsError/notFetched`` before the first fetch;
    ///   ``OrderedResultsError/notAMember(_:)`` when the object is not a member of
    ///   this controller's relationship (it belongs to another owner's, or to none) or the
    ///   predicate hides it; the errors of ``moveRow(from:to:author:)`` otherwise. Nothing
    ///   changes when it throws, but for `.commitFailed`.
    /// - Complexity: O(n) for n members, as ``moveRow(from:to:author:)``.
    public func moveObject(_ member: Member, to destination: IndexPath, author: String? = nil) throws(OrderedResultsError) {
        try engine.moveObject(member, to: destination, author: author)
    }

    /// Deletes the object of a row the user deleted (a swipe to delete), commits the graph,
    /// and delivers that commit relative to the list *without the row*.
    ///
    /// The app removes the row from its view itself, as a view's delete action expects
    /// (`deleteRows(at:)`); a row that was the last of its section leaves an empty section
    /// on screen, which the delivery deletes. Index paths are the controller's current
    /// coordinates: flush the app's `ChangeAccumulator` first.
    ///
    /// - Parameters:
    ///   - indexPath: The row's index path.
    ///   - author: The commit's author tag.
    /// - Throws: ``OrderedResultsError``: `.notFetched`, `.noRow` or `.ownerDeleted`, and nothing changed;
    ///   `.commitFailed` when the commit throws: the relationship is written back, the
    ///   deletion stays pending in the graph (as every pending change does), and the app
    ///   should reload its view.
    /// - Complexity: O(n) for n members: the graph writes the relationship as a whole.
    public func deleteRow(at indexPath: IndexPath, author: String? = nil) throws(OrderedResultsError) {
        try engine.deleteRow(at: indexPath, author: author)
    }

    /// Removes a row's object from the relationship (it stays in the graph), as
    /// ``deleteRow(at:author:)`` does for a deletion: a playlist's "remove from playlist".
    ///
    /// - Parameters:
    ///   - indexPath: The row's index path, in the controller's current coordinates.
    ///   - author: The commit's author tag.
    /// - Throws: ``OrderedResultsError``: `.notFetched`, `.noRow` or `.ownerDeleted`, and nothing changed;
    ///   `.commitFailed` when the commit throws: the relationship is written back and the app
    ///   should reload its view.
    /// - Complexity: O(n) for n members: the graph writes the relationship as a whole.
    public func removeRow(at indexPath: IndexPath, author: String? = nil) throws(OrderedResultsError) {
        try engine.removeRow(at: indexPath, author: author)
    }

    /// The engine's observation of the graph, for a benchmark that hands it commits itself.
    package var observation: GraphObservation? {
        get { engine.observation }
        set { engine.observation = newValue }
    }

    /// Brings the rows up to date with one commit, as the engine's graph observer does.
    ///
    /// - Parameter changes: The commit.
    /// - Complexity: As ``OrderedResultsEngine/apply(_:)``.
    package func apply(_ changes: GraphChanges) {
        engine.apply(changes)
    }
}

@available(*, unavailable)
extension OrderedResultsController: Sendable {}
