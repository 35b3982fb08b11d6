import Foundation

// The reads every controller shares (``SectionedResults``), forwarded to the engine.
extension ResultsController {
    /// The graph the controller observes.
    public var graph: ObjectGraph { engine.graph }

    /// Told about each change of the results, in Core Data's order. Weak.
    public var delegate: (any ResultsControllerDelegate<Object>)? {
        get { engine.delegate }
        set { engine.delegate = newValue }
    }

    /// Whether ``performFetch()`` ran.
    public var hasFetched: Bool { engine.hasFetched }

    /// The objects of the results in order; empty before ``performFetch()``. Observable.
    ///
    /// The results change only when the controller hears of a commit: between an
    /// `ObjectGraph.delete(_:)` and its commit, a deleted object is still listed at its
    /// place, and its `GraphObject.isDeleted` answers `true` (as with Core Data). The same
    /// holds for every other way of reading the results.
    ///
    /// - Complexity: O(n) the first time after a change, O(1) after that.
    public var fetchedObjects: [Object] { engine.fetchedObjects }

    /// The number of objects in the results.
    public var numberOfObjects: Int { engine.numberOfObjects }

    /// The value of a total over every row of the results (inside the request's window):
    /// one of the request's ``FetchRequest/totals``, kept current with each commit, or any
    /// other, computed from the rows when asked. Observable, with the sections.
    ///
    /// - Parameter total: The total.
    /// - Returns: Its value.
    /// - Complexity: O(1) for a total of the request (amortized for a minimum or maximum);
    ///   O(n) for another.
    public func total<Value>(_ total: Total<Object, Value>) -> Value { engine.value(of: total, section: nil) }

    /// The object at an index path. Traps, with a message naming the path and the counts,
    /// when no row is there; ``object(ifPresentAt:)`` does not.
    ///
    /// - Parameter indexPath: A section and row of the current results.
    /// - Returns: The object.
    /// - Complexity: O(log n).
    public func object(at indexPath: IndexPath) -> Object { engine.object(at: indexPath) }

    /// The object at an index path, or `nil` when no row is there.
    ///
    /// - Parameter indexPath: A section and row.
    /// - Returns: The object, or `nil`.
    /// - Complexity: O(log n).
    public func object(ifPresentAt indexPath: IndexPath) -> Object? { engine.object(ifPresentAt: indexPath) }

    /// The index path of an object, or `nil` when it is not in the results.
    ///
    /// - Parameter object: The object.
    /// - Returns: Its index path, or `nil`.
    /// - Complexity: O(log n).
    public func indexPath(for object: Object) -> IndexPath? { engine.indexPath(for: object) }

    /// The index path of the object with this ID, or `nil` when it is not in the results.
    ///
    /// - Parameter objectID: The object's ID.
    /// - Returns: Its index path, or `nil`.
    /// - Complexity: O(log n).
    public func indexPath(forObjectID objectID: ObjectID) -> IndexPath? { engine.indexPath(forObjectID: objectID) }

    /// The sections of the results, in order (one section named "" when there is no section
    /// key and there are results). Observable.
    ///
    /// - Complexity: O(s) for s visible sections.
    public var sections: [ResultsSection<Object>] { engine.sections }

    /// The index title of a section with this name: the ``sectionIndexTitleProvider``'s, or
    /// by default the capitalized first letter of the name (`nil` for an empty name).
    ///
    /// - Parameter sectionName: The section's name.
    /// - Returns: Its title in a section index, or `nil` for none.
    /// - Complexity: O(1), plus the cost of a ``sectionIndexTitleProvider``.
    public func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        engine.sectionIndexTitle(forSectionName: sectionName)
    }

    /// The titles of the section index: each section's index title, in order, without
    /// repeats.
    ///
    /// - Complexity: O(s) for s visible sections.
    public var sectionIndexTitles: [String] { engine.sectionIndexTitles }

    /// The section a tap on a section index title jumps to: the first section whose index
    /// title is `title`.
    ///
    /// - Parameters:
    ///   - title: A title from ``sectionIndexTitles``.
    ///   - titleIndex: The title's position in ``sectionIndexTitles``; used when no section
    ///     has `title` (the nearest section before it).
    /// - Returns: A section position.
    /// - Complexity: O(s) for s visible sections.
    public func section(forSectionIndexTitle title: String, at titleIndex: Int) -> Int {
        engine.section(forSectionIndexTitle: title, at: titleIndex)
    }

    /// A stable string that names the object at an index path, for state restoration: the
    /// object ID's URI form, valid for the graph's whole life.
    ///
    /// - Parameter indexPath: A section and row.
    /// - Returns: The identifier, or `nil` when no row is there.
    /// - Complexity: O(log n).
    public func restorationIdentifier(forObjectAt indexPath: IndexPath) -> String? {
        engine.restorationIdentifier(forObjectAt: indexPath)
    }

    /// The index path of the object a restoration identifier names.
    ///
    /// - Parameter identifier: A string from ``restorationIdentifier(forObjectAt:)``.
    /// - Returns: The object's index path now, or `nil` when the identifier is malformed or
    ///   from another graph, or the object is gone or not in the results.
    /// - Complexity: O(log n) plus the identifier's length.
    public func indexPath(forRestorationIdentifier identifier: String) -> IndexPath? {
        engine.indexPath(forRestorationIdentifier: identifier)
    }

    /// The identities of the current results, as a `Sendable` value.
    ///
    /// - Complexity: O(n) for n visible rows.
    public var snapshot: ResultsSnapshot { engine.snapshot }

    /// Subscribes to the controller's changes: one ``ResultsChangeSet`` per change of the
    /// results, from now on, until the controller is deinitialized or the consumer stops
    /// iterating.
    ///
    /// - Parameter bufferingPolicy: What the stream keeps while the consumer is busy
    ///   (``SectionedResults/changes()`` keeps every change set).
    /// - Returns: An asynchronous sequence of `Sendable` change sets.
    /// - Complexity: O(1); each later change of the results then costs O(*c*) more to
    ///   deliver to the stream, for its *c* section and row changes.
    public func changes(
        bufferingPolicy: AsyncStream<ResultsChangeSet>.Continuation.BufferingPolicy
    ) -> AsyncStream<ResultsChangeSet> {
        engine.changes(bufferingPolicy: bufferingPolicy)
    }
}
