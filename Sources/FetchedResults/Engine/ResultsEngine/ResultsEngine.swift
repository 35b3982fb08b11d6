import Foundation
import Observation

/// The machinery behind ``ResultsController``, ``SearchController`` and
/// ``OrderedResultsController``: the results of a request kept in an order-statistic index,
/// the dependencies of every evaluated object, and the delivery of each change.
///
/// Each public controller is a final class that owns one engine and forwards its reads to
/// it; what differs between them (a search filters a base engine's rows, an ordered list
/// keeps a relationship's order) is an internal subclass here, which users can neither see
/// nor override. Observation registers on this object's registrar: a read of a controller's
/// ``sections`` is tracked as a read of its engine's, and a change of the engine's results
/// notifies it.
///
/// After ``performFetch()`` the engine never fetches again to update itself. It keeps each
/// fetched object's extracted keys in an order-statistic tree, records which properties
/// (across relationships too) each object's predicate and keys read, and on every commit
/// re-evaluates exactly the objects whose reads changed, in O(k log n) for k of them.
///
/// An engine is confined to the isolation domain of its graph. It stops observing the graph
/// when it is deinitialized, with the controller that owns it.
class ResultsEngine<Object: GraphObject>: Observable {
    /// The graph the engine observes.
    let graph: ObjectGraph

    /// Told about each change of the results, in Core Data's order.
    weak var delegate: (any ResultsControllerDelegate<Object>)?
    /// The public controller that owns this engine: the one the delegate's callbacks name.
    /// Weak: the controller owns the engine.
    weak var controller: (any SectionedResults<Object>)?
    /// Makes a section's index title from its name, instead of the capitalized first letter.
    var sectionIndexTitleProvider: ((String) -> String?)?

    var _request: FetchRequest<Object> {
        didSet { extractorCache = nil }
    }
    /// The closures of ``_request`` with the object type erased; `nil` until first used after
    /// the request changed.
    var extractorCache: RequestExtractors?
    // Final, so that code reads them in place: a read through a class's overridable getter
    // copies the whole structure (a retain and a release of each of its arrays).
    final var index: ResultsIndex<ObjectID>
    final var dependencies = DependencyIndex(entity: Object.entity)
    /// The engines that share ``index`` with this one, or the one whose index this one shares.
    final var sharing = IndexSharing<Object>()
    /// The engines that show this one's rows filtered (searches over it), held weakly, in
    /// the order they were created: each hears of every commit from this engine, right after
    /// it (``familyDidCommit(_:)``), and of each new request of this one.
    final var derivedEngines: [DerivedEngine] = []
    /// A change computed but not delivered yet (a search's reload for its base's new request,
    /// while the base delivers its own): delivered before any other change of this engine.
    final var undeliveredDiff: IndexDiff<ObjectID>?
    /// Whether a commit that only renames what whole sections are named after may move them
    /// as blocks (``commitSectionRenames(_:key:)``); tests turn it off to compare the two
    /// paths.
    final var movesWholeSections = true
    /// How many commits moved whole sections as blocks that way (for tests).
    final var sectionRenameCommits = 0
    /// How many rows commits left alone by copying their dependency entries from the engine
    /// whose rows this one filters (``ExcludedRowsShortcut``; for tests).
    final var adoptedEntryCount = 0
    /// Whether evaluations read the section and sort keys of the objects the predicate
    /// excludes too, and record their reads (``RequestExtractors/readsKeysOfExcluded``): a
    /// search's do, so that it follows what the keys of the base rows its text excludes
    /// read, and can show them later with the base's keys.
    final let readsKeysOfExcluded: Bool
    package var observation: GraphObservation?
    /// Whether ``performFetch()`` ran.
    var hasFetched = false
    /// Bumped whenever the results change; sections read with an older generation are stale.
    var generation = 0
    var cachedObjects: [Object]?
    /// Names of sections whose name the key's title transform makes from an object.
    var sectionNames: [SortValue: String] = [:]
    /// The properties of the entity that ``FetchRequest/displayedKeys`` resolve to.
    var displayedProperties: Set<PropertyIndex>?
    /// The request's totals (``FetchRequest/totals``), per section and for every row shown;
    /// `nil` when it names none.
    final var totals: ResultsTotals?
    let registrar = ObservationRegistrar()
    /// The key paths Observation is told about, made once: a key path into a generic class
    /// is otherwise instantiated at run time on every use, which dominated small commits.
    let sectionsKeyPath: KeyPath<ResultsEngine<Object>, [ResultsSection<Object>]> = \.sections
    let fetchedObjectsKeyPath: KeyPath<ResultsEngine<Object>, [Object]> = \.fetchedObjects
    let streams = StreamRegistry()

    /// Creates an engine. It holds no results until ``performFetch()``.
    ///
    /// - Parameters:
    ///   - graph: The graph to fetch from and observe.
    ///   - request: What to fetch.
    ///   - readsKeysOfExcluded: Whether evaluations read the keys of excluded objects too
    ///     (``readsKeysOfExcluded``).
    init(graph: ObjectGraph, request: FetchRequest<Object>, readsKeysOfExcluded: Bool = false) {
        self.graph = graph
        self.readsKeysOfExcluded = readsKeysOfExcluded
        _request = request
        index = Self.makeIndex(for: request)
    }

    deinit {
        observation?.cancel()
        streams.finishAll()
    }

    /// An empty index for `request`; a subclass whose rows have another order overrides it.
    func emptyIndex(for request: FetchRequest<Object>) -> ResultsIndex<ObjectID> {
        Self.makeIndex(for: request)
    }

    /// Reads every result again for the current request, without delivering anything; a
    /// subclass whose rows are not the entity's objects overrides it.
    ///
    /// - Complexity: O(n log n) for n objects of the entity.
    func reloadResults() {
        load(graph.objects(of: Object.self))
    }

    /// The totals this engine keeps for its request, reading rows into a table of its own; a
    /// search overrides it to read its base's table.
    ///
    /// - Returns: `nil` when the request names no total.
    func makeTotals() -> ResultsTotals? {
        guard !_request.totals.isEmpty else { return nil }
        // The same totals keep their table, which a search created earlier reads.
        if let totals, totals.ownsInputs, totals.ids == _request.totals.map(\.id) {
            return ResultsTotals(_request, table: totals.table)
        }
        return ResultsTotals(_request)
    }

    static func makeIndex(for request: FetchRequest<Object>) -> ResultsIndex<ObjectID> {
        ResultsIndex(
            ascending: request.sortKeys.map(\.ascending),
            sectionsAscending: request.sectionKey?.ascending ?? true,
            offset: request.fetchOffset,
            limit: request.fetchLimit
        )
    }

    /// Fetches every object of the entity that matches the request, sorts and sections them,
    /// and starts observing the graph. Calling it again re-fetches from scratch without
    /// reporting a change (set ``request`` to animate a change instead).
    ///
    /// Objects inserted but not yet committed are included, as the graph lists them.
    ///
    /// - Complexity: O(n log n) for n objects of the entity.
    func performFetch() {
        fetchWithoutObserving()
        if observation == nil {
            observation = graph.addObserver { [weak self] changes in
                self?.familyDidCommit(changes)
            }
        }
    }

    /// Fetches as ``performFetch()`` does, without observing the graph: an engine that
    /// derives from another hears of commits from that one (``DerivedResultsEngine``).
    ///
    /// - Complexity: O(n log n) for n objects of the entity.
    final func fetchWithoutObserving() {
        let objects = graph.objects(of: Object.self)
        withObservableMutation { load(objects) }
        hasFetched = true
    }

    /// Evaluates every object and rebuilds the index and the dependencies.
    func load(_ objects: [Object]) {
        // A search that shares this index and has yet to hear of the last commit first takes
        // an index of its own, at the state its delegate heard of.
        for derived in derivedEngines { derived.engine?.settleSharedIndex() }
        dependencies = DependencyIndex(entity: Object.entity)
        dependencies.reserveCapacity(objects.count)
        sectionNames = [:]
        displayedProperties = nil
        let request = _request
        let extractors = extractors
        let sortKeyCount = extractors.sort.count
        let displayedKeys = request.displayedKeys
        var rows = ResultsIndex<ObjectID>.LoadColumns(sortKeyCount: sortKeyCount, capacity: objects.count)
        var reads: [PropertyRead] = []
        reads.reserveCapacity(8)
        // Every object runs the same closures, so the own properties they read are kept as
        // one set, collected as bits across the whole fetch; reads of other objects are
        // recorded per object.
        var ownProperties: UInt64 = 0
        totals = makeTotals()
        // Read and unwrapped once: doing either per object would copy the structures.
        let totalReaders = totals?.columnReaders ?? TotalColumnReaders([], layout: TotalsLayout([]))
        let readsTotals = !totalReaders.isEmpty
        let totalsTable = totals?.ownsInputs == true ? totals?.table : nil
        let storesTotals = totalsTable != nil
        // Filled here and handed back after the loop: a local value, written in place.
        var totalColumns = totalsTable?.takeColumns(reservingSerials: objects.count) ?? TotalColumns(layout: TotalsLayout([]), keepsTexts: false)
        for object in objects {
            let id = object.objectID
            let erased: GraphObject = object
            // One by one: an evaluation reads another object or two, and `removeAll(keepingCapacity:)`
            // costs a general range replacement.
            while !reads.isEmpty { reads.removeLast() }
            // The keys go straight into columns: no per-object key array. The closure touches
            // no generic type, so no type metadata is looked up per object.
            // The section key's reads come last (as in `evaluateKeys`).
            var sectionStart = Int.max
            let included = graph.trackReads(of: erased, ownProperties: &ownProperties, appendingTo: &reads) { () -> Bool in
                let start = graph.trackedReadCount
                let included = extractors.predicate?(erased) ?? true
                guard included || extractors.readsKeysOfExcluded else { return false }
                // A plain integer range: `indices` would look up generic metadata per object.
                var column = 0
                while column < sortKeyCount {
                    let value = extractors.sort[column](erased)
                    if included { rows.columns[column].append(value) }
                    column += 1
                }
                // What the totals read, where the sort keys are read, before the section key:
                // straight into the table's columns, or, for a search (which reads its base's
                // table) or a row left out, only for the dependencies.
                if readsTotals {
                    if included && storesTotals {
                        totalReaders.read(erased, serial: id.entitySerial, into: &totalColumns)
                    } else {
                        totalReaders.readForDependencies(erased)
                    }
                }
                if let section = extractors.section {
                    sectionStart = graph.trackedReadCount - start
                    let value = section(erased)
                    if included { rows.sections.append(value) }
                } else if included {
                    rows.sections.append(.null)
                }
                return included
            }
            if included { rows.ids.append(id) }
            dependencies.record(id, reads: reads, sectionStart: sectionStart)
            if displayedProperties == nil, let displayedKeys {
                displayedProperties = resolveDisplayedProperties(displayedKeys, on: object, id: id)
            }
        }
        totalsTable?.columns = totalColumns
        dependencies.recordOwnReads(ownProperties)
        dependencies.shrinkToFit()
        index = Self.makeIndex(for: _request)
        index.load(rows)
        if let sectionKey = request.sectionKey {
            // Every row of a section has the same key, so one row names it.
            for (value, id) in index.firstIDOfEachSection() {
                sectionNames[value] = graph.withoutObservation { sectionKey.sectionName(object(with: id)) }
            }
        }
        computeTotalsAfterLoad()
        generation += 1
        cachedObjects = nil
        _checkInvariants()
    }

    /// The index title of a section: the ``sectionIndexTitleProvider``'s, or by default the
    /// capitalized first letter of its name (`nil` for an empty name). A subclass whose
    /// titles are another engine's overrides it.
    ///
    /// - Parameter sectionName: The section's name.
    /// - Returns: Its title in a section index, or `nil` for none.
    func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        if let sectionIndexTitleProvider { return sectionIndexTitleProvider(sectionName) }
        return sectionName.first.map { String($0).uppercased() }
    }

    // MARK: - Results

    /// The fetched objects in order, inside the `fetchOffset`/`fetchLimit` window; empty
    /// before ``performFetch()``. Observable.
    ///
    /// The results change only when the controller hears of a commit: between a
    /// `ObjectGraph.delete(_:)` and its commit, a deleted object is still listed at its
    /// place, and its `GraphObject.isDeleted` answers `true` (as with Core Data). The same
    /// holds for every other way of reading the results (``sections``, ``object(at:)``,
    /// ``indexPath(for:)``), and for a commit that an observer made during the delivery of
    /// another, until this controller has heard of it.
    ///
    /// - Complexity: O(n) the first time after a change, O(1) after that.
    var fetchedObjects: [Object] {
        registrar.access(self, keyPath: fetchedObjectsKeyPath)
        if let cachedObjects { return cachedObjects }
        let objects = index.visibleIDs.map(object(with:))
        cachedObjects = objects
        return objects
    }

    /// The number of fetched objects inside the window.
    ///
    /// - Complexity: O(1).
    var numberOfObjects: Int { index.visibleCount }

    /// The object with a fetched ID. An object whose deletion is pending (or committed but
    /// not yet delivered to this controller) is still listed, with `isDeleted` true.
    func object(with id: ObjectID) -> Object {
        guard let object = graph.registeredObject(with: id) as? Object else {
            requirementFailure("internal inconsistency: fetched object \(id) is not in the graph")
        }
        return object
    }

    /// The object at an index path. Traps, with a message naming the path and the counts,
    /// when no row is there; ``object(ifPresentAt:)`` does not.
    ///
    /// - Parameter indexPath: A section and row of the current results.
    /// - Returns: The object.
    /// - Complexity: O(log n).
    func object(at indexPath: IndexPath) -> Object {
        guard let object = object(ifPresentAt: indexPath) else {
            let sections = index.visibleSections
            let counts = indexPath.count == 2 && sections.indices.contains(indexPath[0])
                ? "section \(indexPath[0]) has \(sections[indexPath[0]].count) rows"
                : "the results have \(sections.count) sections"
            requirementFailure("object(at:): no object at \(indexPath.listDescription); \(counts)")
        }
        return object
    }

    /// The object at an index path, or `nil` when no row is there.
    ///
    /// - Parameter indexPath: A section and row.
    /// - Returns: The object, or `nil`.
    /// - Complexity: O(log n).
    func object(ifPresentAt indexPath: IndexPath) -> Object? {
        index.id(at: indexPath).map(object(with:))
    }

    /// The index path of an object, or `nil` when it is not in the results (or outside the
    /// window).
    ///
    /// - Parameter object: The object.
    /// - Returns: Its index path, or `nil`.
    /// - Complexity: O(log n).
    func indexPath(for object: Object) -> IndexPath? {
        index.indexPath(of: object.objectID)
    }

    /// The index path of the object with this ID, or `nil` when it is not in the results.
    ///
    /// - Parameter objectID: The object's ID.
    /// - Returns: Its index path, or `nil`.
    /// - Complexity: O(log n).
    func indexPath(forObjectID objectID: ObjectID) -> IndexPath? {
        index.indexPath(of: objectID)
    }
}

@available(*, unavailable)
extension ResultsEngine: Sendable {}

/// The continuations of a controller's change streams.
///
/// `state` (the next subscription number and the open continuations) is guarded by its
/// mutex; a stream's termination handler may run on any thread.
final class StreamRegistry: Sendable {
    private let state = _Locked<(next: Int, continuations: [Int: AsyncStream<ResultsChangeSet>.Continuation])>((0, [:]))

    /// Registers a continuation and returns its number.
    func add(_ continuation: AsyncStream<ResultsChangeSet>.Continuation) -> Int {
        state.withLock { state in
            let number = state.next
            state.next += 1
            state.continuations[number] = continuation
            return number
        }
    }

    /// Forgets a continuation.
    func remove(_ number: Int) {
        let removed = state.withLock { $0.continuations.removeValue(forKey: number) }
        withExtendedLifetime(removed) {}
    }

    /// Yields a value to every open stream (outside the lock).
    func yield(_ value: ResultsChangeSet) {
        let continuations = state.withLock { Array($0.continuations.values) }
        for continuation in continuations { continuation.yield(value) }
    }

    /// Whether any stream is open.
    var isEmpty: Bool { state.withLock { $0.continuations.isEmpty } }

    /// Finishes every stream (outside the lock).
    func finishAll() {
        let continuations = state.withLock { state in
            defer { state.continuations = [:] }
            return Array(state.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}

/// An engine that shows another engine's rows filtered, held weakly by that one. Not
/// generic, so that the source's commit touches no generic metadata to reach it.
struct DerivedEngine {
    weak var engine: (any DerivedResultsEngine)?
}
