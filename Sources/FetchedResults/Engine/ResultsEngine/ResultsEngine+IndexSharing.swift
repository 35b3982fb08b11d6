/// How an engine shares its index with engines that show exactly its rows (a search whose
/// text is empty), so that neither copies it.
///
/// A follower holds the source's index itself, order tree included. Before a commit changes
/// the source's index in place, the source takes it back from every follower that still
/// holds it (its columns are then held once, and change without a copy), and hands the
/// changed index back afterwards, with the commit's diff and what undoes it (the old keys
/// of the rows it changed). A follower that changes its rows (a new search text) builds an
/// index of its own and stops following; a source that replaces its index (a new request, a
/// new fetch) leaves its followers the old one, which is then theirs alone.
///
/// A follower's results still change only when it hears of the commit, as every
/// controller's do: it delivers the source's diff as its own then. Until then (while the
/// source's delegate, or an observer registered between the two, runs), the shared index is
/// ahead of what the follower's delegate heard; a read of the follower in that window
/// (``settleSharedIndex()``) first gives it an index of its own at the state before the
/// commit, built from the shared one and the undo (O(n), paid only by such a read), and the
/// follower then hears of the commit as a controller with an index of its own.
struct IndexSharing<Object: GraphObject> {
    /// A follower, held weakly.
    struct Follower {
        weak var controller: ResultsEngine<Object>?
    }

    /// A commit the source applied to the shared index that the follower has yet to hear of.
    struct PendingCommit {
        /// The commit's changes of the rows, for the follower to deliver as its own.
        var diff: IndexDiff<ObjectID>
        /// The changes that take the index back to its state before the commit: each changed
        /// row with its old keys (`nil` for a row the commit inserted).
        var undo: [ResultsIndex<ObjectID>.Change]
    }

    /// The engines that may hold this engine's index (a source's list).
    var followers: [Follower] = []
    /// The engine whose index this one holds while it follows one (a follower's).
    weak var source: ResultsEngine<Object>?
    /// The commit the source applied to the shared index, until this follower hears of it
    /// (a follower's).
    var pending: PendingCommit?
}

extension ResultsEngine {
    /// Starts holding `source`'s index, which must hold exactly the rows this controller
    /// shows, in the same order and window: this controller follows the source's commits
    /// until its index is replaced.
    ///
    /// - Parameter source: The controller whose index to share.
    /// - Complexity: O(f) for f followers of `source`.
    func follow(_ source: ResultsEngine<Object>) {
        index = source.index
        sharing.source = source
        sharing.pending = nil
        source.sharing.followers.removeAll { $0.controller == nil || $0.controller === self }
        source.sharing.followers.append(.init(controller: self))
    }

    /// Whether this controller holds its source's index (it follows the source).
    var followsSource: Bool {
        guard let source = sharing.source else { return false }
        return index.tree.root === source.index.tree.root
    }

    /// Takes the index back from every follower that holds it, before it changes in place;
    /// forgets the followers that no longer hold it. A follower that has yet to hear of the
    /// previous commit settles first (``settleSharedIndex()``): it keeps the state its
    /// delegate heard of.
    ///
    /// - Returns: The followers that held it, to give it back to with
    ///   ``returnIndex(to:diff:undo:)``.
    /// - Complexity: O(f) for f followers (plus a settling follower's O(n)).
    func takeIndexFromFollowers() -> [ResultsEngine<Object>] {
        guard !sharing.followers.isEmpty else { return [] }
        var holders: [ResultsEngine<Object>] = []
        sharing.followers.removeAll { follower in
            guard let controller = follower.controller, controller.sharing.source === self,
                  controller.index.tree.root === index.tree.root else { return true }
            if controller.sharing.pending != nil {
                controller.settleSharedIndex()
                return true
            }
            holders.append(controller)
            return false
        }
        for holder in holders {
            // An empty index holds none of the shared storage; the follower holds it again
            // before any code of its own runs.
            holder.index = ResultsIndex(ascending: [])
        }
        return holders
    }

    /// What undoes `updates` on this engine's index: each changed row with its keys now.
    ///
    /// - Complexity: O(k) for k changes.
    func undoing(_ updates: [ResultsIndex<ObjectID>.Change]) -> [ResultsIndex<ObjectID>.Change] {
        var seen: Set<ObjectID> = []
        seen.reserveCapacity(updates.count)
        var undo: [ResultsIndex<ObjectID>.Change] = []
        undo.reserveCapacity(updates.count)
        for update in updates where seen.insert(update.id).inserted {
            undo.append(.init(id: update.id, keys: index.keys(of: update.id), reportsUpdate: false))
        }
        return undo
    }

    /// Gives the changed index back to the followers that held it, with the changes to
    /// deliver when they hear of the commit and what undoes them.
    ///
    /// - Complexity: O(f) for f followers.
    func returnIndex(to holders: [ResultsEngine<Object>], diff: IndexDiff<ObjectID>, undo: [ResultsIndex<ObjectID>.Change]) {
        for holder in holders {
            holder.index = index
            holder.sharing.pending = .init(diff: diff, undo: undo)
        }
    }

    /// Before a read from outside: when this follower holds its source's index ahead of the
    /// commit it has yet to hear of, takes an index of its own at the state before that
    /// commit and stops following, so that what it shows is what its delegate heard of.
    ///
    /// - Complexity: O(1) when nothing is pending; O(n) for n rows otherwise.
    @inline(__always)
    final func settleSharedIndex() {
        if sharing.pending != nil { settlePendingCommit() }
    }

    private func settlePendingCommit() {
        guard let pending = sharing.pending else { return }
        sharing.pending = nil
        guard followsSource else { return }
        sharing.source = nil
        var own = index
        // A tree of its own: the shared one changes in place.
        own.tree = OrderTree(sorted: index.tree.slotsInOrder())
        _ = own.apply(pending.undo)
        own._checkInvariants()
        index = own
    }

    /// Delivers, as this follower's own, the changes its source applied to the shared index
    /// in this commit; names the sections that entered as the source does.
    ///
    /// - Complexity: O(s) for s sections that entered, plus the delivery.
    func deliverSourceChanges() {
        let diff = sharing.pending?.diff ?? IndexDiff()
        sharing.pending = nil
        if totals != nil { followSourceTotals() }
        guard !diff.isEmpty || totalsChanged else {
            totals?.isSettled = false
            return
        }
        if let source = sharing.source {
            for section in diff.insertedSections where sectionNames[section.value] == nil {
                if let name = source.sectionNames[section.value] { sectionNames[section.value] = name }
            }
        }
        deliver(diff)
    }
}
