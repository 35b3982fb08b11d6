import ObjectGraph

/// An engine that shows another engine's rows filtered, with that engine's keys, sections
/// and order (a search over a base controller): a member of that engine's family.
///
/// A family has one graph observer, its source's. Each commit reaches the source first
/// (``ResultsEngine/familyDidCommit(_:)``), which applies it and delivers its own changes,
/// then each derived engine in the order they were created, with what the source found
/// (``DerivedCommit``). A derived engine never observes the graph, and never reads its
/// source during a commit except through that value.
///
/// The protocol has no associated type: a commit's dispatch then looks up no generic
/// metadata at run time (a parameterized existential's is made by demangling, per use).
protocol DerivedResultsEngine: AnyObject {
    /// Brings the engine up to date with a commit its source has applied and delivered, and
    /// delivers its own changes.
    ///
    /// - Parameter commit: The commit, with the source's rows current with it.
    func sourceDidCommit(_ commit: DerivedCommit)

    /// Follows the source's new request, once the source has reloaded for it and before
    /// anyone hears of it; the change waits in ``ResultsEngine/undeliveredDiff`` until the
    /// source has delivered its own (``deliverUndeliveredChange()``).
    func sourceRequestDidChange()

    /// Delivers the change computed but not delivered yet, if any.
    func deliverUndeliveredChange()

    /// Takes an index of its own when it shares its source's, before the source replaces
    /// that index (``ResultsEngine/settleSharedIndex()``).
    func settleSharedIndex()
}

/// What a derived engine receives with each commit: the commit, and the source engine's
/// rows, dependencies and section names, current with it.
struct DerivedCommit {
    /// The commit.
    let changes: GraphChanges
    /// The source's rows and what they read, after the commit.
    let source: SourceRows
    /// What lets the derived engine leave alone the rows it does not show and the commit
    /// cannot show (a folded-text search sets it before it applies the commit), or `nil`.
    var shortcut: ExcludedRowsShortcut?
}

/// The rows, dependencies and section names of an engine whose rows another engine shows,
/// current with a commit.
///
/// A class, made once per commit: the structures it holds have many arrays each, and every
/// copy of a value holding them would count a reference to each.
final class SourceRows {
    /// The source's rows.
    let index: ResultsIndex<ObjectID>
    /// What the source's evaluations read.
    let dependencies: DependencyIndex
    /// The source's section names.
    let sectionNames: [SortValue: String]

    init(index: ResultsIndex<ObjectID>, dependencies: DependencyIndex, sectionNames: [SortValue: String]) {
        self.index = index
        self.dependencies = dependencies
        self.sectionNames = sectionNames
    }

    /// The section value of a fetched object whose evaluation (predicate, sort and section
    /// keys) read exactly one key of other objects, `key`; `nil` when the object is not
    /// fetched or its evaluation read anything else.
    ///
    /// - Complexity: O(1).
    @inline(__always)
    func sectionValue(of id: ObjectID, readingOnly key: DependencyKey?) -> SortValue? {
        guard let key, let slot = index.slots[id], dependencies.onlyKey(of: id) == key else { return nil }
        return index.keys.sectionValues[Int(index.keys.sectionOf[Int(slot)])]
    }

    /// The section-only dependents of a commit (objects whose section key read a written
    /// key, and nothing else of theirs changed) less those a derived engine may leave alone:
    /// rows it does not show, whose keys come from the source, and whose reads the source,
    /// current with this commit, proves unchanged.
    ///
    /// A search's row that its text excludes keeps no keys of its own: a later text that
    /// shows it takes the keys the base holds then. What the search keeps of such a row is
    /// its dependency entry, and that stands when the base, which has evaluated the object
    /// for this commit, finds it read exactly the one key of other objects that the search
    /// recorded for it. Then re-reading its section key would change nothing, and the
    /// commit's cost follows the rows the search shows, not every base row the write
    /// re-sectioned. A row with another reason to be evaluated (already in `pending`) is
    /// kept.
    ///
    /// - Parameters:
    ///   - serials: The section-only dependents, by entity serial.
    ///   - evaluated: The dependents the commit evaluates whole, by entity serial.
    ///   - pending: The objects the commit re-evaluates for other reasons so far.
    ///   - engine: The derived engine.
    /// - Returns: The serials of the dependents that still need their section key read again.
    /// - Complexity: O(d + e) for d section-only dependents and e evaluated ones: a few
    ///   column reads each.
    func sectionRereadsNeeded<Object>(
        _ serials: [UInt32], besides evaluated: [UInt32], _ pending: [ObjectID: UInt8], in engine: ResultsEngine<Object>
    ) -> [UInt32] {
        guard !serials.isEmpty else { return serials }
        // Locals: a call on a class's stored structure may copy it per call.
        let ownIndex = engine.index
        let ownDependencies = engine.dependencies
        let graph = engine.graph
        let entity = Object.entity
        let evaluated = Set(evaluated)
        var needed: [UInt32] = []
        for serial in serials {
            let id = graph.objectID(of: entity, entitySerial: Int(serial))
            guard ownIndex.slots[id] == nil, index.slots[id] != nil,
                  let key = ownDependencies.onlyKey(of: id), dependencies.onlyKey(of: id) == key,
                  evaluated.isEmpty || !evaluated.contains(serial), pending.isEmpty || pending[id] == nil
            else {
                needed.append(serial)
                continue
            }
        }
        return needed
    }
}

extension ResultsEngine {
    /// Receives one commit of the graph for the whole family: this engine applies it and
    /// delivers its changes, then each derived engine, in the order they were created, with
    /// this engine's rows current with the commit. That order is what lets a derived engine
    /// reuse its source's evaluations.
    ///
    /// - Parameter changes: The commit.
    /// - Complexity: This engine's commit, plus each derived engine's.
    final func familyDidCommit(_ changes: GraphChanges) {
        graphDidCommit(changes)
        guard !derivedEngines.isEmpty else { return }
        // Read after this engine's delivery: its delegate may have changed its request.
        let commit = DerivedCommit(
            changes: changes, source: SourceRows(index: index, dependencies: dependencies, sectionNames: sectionNames))
        // The engines there are now: one created during a delivery fetched after this commit.
        let count = derivedEngines.count
        var released = false
        var position = 0
        // A delegate may change this engine's request meanwhile, which drops released engines.
        while position < count && position < derivedEngines.count {
            if let engine = derivedEngines[position].engine {
                engine.sourceDidCommit(commit)
            } else {
                released = true
            }
            position += 1
        }
        if released { derivedEngines.removeAll { $0.engine == nil } }
    }
}
