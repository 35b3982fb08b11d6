/// Sees every commit of a graph after its checks passed and before anything is published:
/// the one place a durable store writes (and syncs) a commit, so that no observer, controller
/// or change stream hears of a commit that is not durable.
///
/// If ``graphWillCommit(_:)`` throws, ``ObjectGraph/commit(author:)`` throws
/// ``CommitError/persistenceFailed(_:)`` and the graph is exactly as before the call, every
/// change still pending. The hook must only read the graph.
package protocol CommitHook: AnyObject {
    /// Called once per commit that changes something, inside ``ObjectGraph/commit(author:)``.
    ///
    /// - Parameter commit: The commit; valid only during the call.
    /// - Throws: Any error; the commit then fails and changes nothing.
    func graphWillCommit(_ commit: PendingCommit) throws

    /// Called first in each ``ObjectGraph/commit(author:)`` that has changes, before they are
    /// checked: a store shared with other processes takes its write lock here and applies
    /// what the others committed (``ObjectGraph/beginExternalCommit(author:)``), so that the
    /// commit is checked against the newest state. The default does nothing.
    ///
    /// - Throws: Any error; the commit then fails and changes nothing of its own (what was
    ///   applied from elsewhere stays applied, and is published).
    func graphWillBeginCommit(_ graph: ObjectGraph) throws

    /// Called once the commit begun with ``graphWillBeginCommit(_:)`` is written or has
    /// failed, before anyone hears of it (a store releases its write lock). The default does
    /// nothing.
    func graphDidEndCommit(_ graph: ObjectGraph)
}

extension CommitHook {
    package func graphWillBeginCommit(_ graph: ObjectGraph) throws {}
    package func graphDidEndCommit(_ graph: ObjectGraph) {}
}

/// A commit as its hook sees it: the changes, and read access to the pending state behind
/// them. Valid only during ``CommitHook/graphWillCommit(_:)``.
package struct PendingCommit {
    /// The graph being committed.
    package let graph: ObjectGraph
    /// The changes the commit will publish.
    package let changes: GraphChanges

    /// The action name given to `commit(author:actionName:)`, if any.
    package var actionName: String? { graph._pendingActionName }

    /// Calls `body` with each object the commit inserts, in insertion order.
    ///
    /// - Complexity: O(*i*) for *i* inserted objects.
    package func forEachInserted(_ body: (GraphObject) throws -> Void) rethrows {
        for run in graph._insertRuns {
            for serial in run.start..<run.end {
                if let object = run.entity.objects[serial] { try body(object) }
            }
        }
    }

    /// Calls `body` with each committed object the commit deletes, with its attribute values
    /// as they were before the commit.
    ///
    /// - Complexity: O(*d*) for *d* deleted objects.
    package func forEachDeleted(_ body: (GraphObject) throws -> Void) rethrows {
        for entry in graph._pending where entry.isDeleted { try body(entry.object) }
    }

    /// The objects the commit updates (not inserted, not deleted), with the properties that
    /// changed, in the order of their first write.
    ///
    /// - Complexity: O(*u*) for *u* updated objects.
    package func forEachUpdated(_ body: (GraphObject, ChangedProperties) throws -> Void) rethrows {
        for entry in graph._pending where !entry.isDeleted {
            guard let changed = changes.updated[entry.object.objectID] else { continue }
            try body(entry.object, changed)
        }
    }

    /// For a changed to-many (unordered) relationship of an updated object, the members it
    /// gained and lost since the last commit; `nil` for another kind of property.
    ///
    /// - Complexity: O(*m*) for *m* members gained or lost.
    package func membershipChange(of object: GraphObject, property: PropertyIndex) -> (added: [GraphObject], removed: [GraphObject])? {
        guard object._pendingSlot > 0 else { return nil }
        let entry = graph._pending[Int(object._pendingSlot) - 1]
        return entry.original(property.rawValue)?.membershipChange
    }

    /// Tells the import's progress handler, if any, how many of `total` units the hook has
    /// written (one per object of the commit, say). Call it with 0 first, then as units are
    /// done: the handler hears of a few hundred of the calls at most.
    ///
    /// - Parameters:
    ///   - completed: The units written so far.
    ///   - total: All the units the hook writes.
    /// - Throws: An error that cancels the import, when the handler throws. The hook must
    ///   then undo what it wrote and rethrow the error as it is (the commit then throws
    ///   ``CommitError/cancelled(_:)``); if undoing fails, it throws that failure instead.
    package func reportWritingProgress(completed: Int, total: Int) throws {
        guard graph._importProgress != nil else { return }
        do {
            if completed == 0 {
                try graph._importProgress?.start(.writing, total: total)
            } else {
                try graph._importProgress?.advance(to: completed)
            }
        } catch {
            throw _ImportCancellation(error: error)
        }
    }
}

@available(*, unavailable)
extension PendingCommit: Sendable {}

/// A to-many relationship's change since the last commit, with its element type erased.
internal protocol _MembershipChange {
    var addedMembers: [GraphObject] { get }
    var removedMembers: [GraphObject] { get }
}

extension _MembershipDelta: _MembershipChange {
    var addedMembers: [GraphObject] { Array(added) }
    var removedMembers: [GraphObject] { Array(removed) }
}

extension ObjectGraph {
    /// The hook every commit passes through before it is published; at most one.
    package var commitHook: (any CommitHook)? {
        get { _commitHook }
        set { _commitHook = newValue }
    }

    /// Tells the hook, if any, that a commit begins.
    internal func _beginCommitHook() throws(CommitError) {
        guard let hook = _commitHook else { return }
        let mode = _context._readMode
        _context._readMode = .untracked
        defer { _context._readMode = mode }
        do {
            try hook.graphWillBeginCommit(self)
        } catch {
            throw .persistenceFailed(error)
        }
    }

    /// Calls the hook, if any, with the commit about to be published.
    internal func _runCommitHook(_ changes: GraphChanges) throws(CommitError) {
        guard let hook = _commitHook, !changes.isEmpty else { return }
        // The hook reads inserted objects' relationships whole.
        _flushDeferredInverses()
        let mode = _context._readMode
        _context._readMode = .untracked
        defer { _context._readMode = mode }
        do {
            try hook.graphWillCommit(PendingCommit(graph: self, changes: changes))
        } catch let cancellation as _ImportCancellation {
            throw .cancelled(cancellation.error)
        } catch {
            throw .persistenceFailed(error)
        }
    }
}
