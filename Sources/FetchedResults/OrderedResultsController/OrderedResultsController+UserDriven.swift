import Foundation
import ObjectGraph

/// A change the list view made itself (a drag, a swipe to delete), applied to the rows before
/// the rest of its commit.
enum UserEdit {
    /// A row dropped elsewhere: its keys place it at the drop position among the rows.
    case move(ObjectID, keys: RowKeys)
    /// A row the user deleted or removed from the list.
    case remove(ObjectID)
}

extension OrderedResultsController {
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
    /// - Throws: ``OrderedResultsError``: `.noRow`, `.invalidDestination`,
    ///   `.sectionKeyNotWritable` for a drag into another section without a writable key,
    ///   `.ownerDeleted`; nothing changed. `.commitFailed` when the commit throws: the
    ///   relationship and the section key are written back, and the app should reload its
    ///   view (it shows a drag the graph does not have).
    /// - Complexity: O(n) for n members: the graph writes the relationship as a whole.
    public func moveRow(from source: IndexPath, to destination: IndexPath, author: String? = nil) throws(OrderedResultsError) {
        require(hasFetched, "OrderedResultsController.moveRow(from:to:): call performFetch() first")
        let counts = index.visibleSections.map(\.count)
        guard let moved = object(ifPresentAt: source) else { throw .noRow(at: source, counts: counts) }
        guard !owner.isDeleted else { throw .ownerDeleted(ownerID) }
        let crossing = destination.count == 2 && destination[0] != source[0]
        guard destination.count == 2, counts.indices.contains(destination[0]), destination[1] >= 0,
              destination[1] <= counts[destination[0]] - (crossing ? 0 : 1)
        else { throw .invalidDestination(destination, counts: counts) }
        if source == destination {
            // Nothing moves; the commit every user-driven change makes still happens.
            do {
                try graph.commit(author: author)
            } catch {
                throw .commitFailed(error)
            }
            return
        }
        let writer = _request.sectionKey?.writer
        if crossing, writer == nil {
            throw .sectionKeyNotWritable(sectionKey: _request.sectionKey?.name ?? "none")
        }
        let id = moved.objectID
        guard labels[id] != nil else { throw .notAMember(id) }

        // The rows around the drop position, the dragged row left out.
        let section = destination[0]
        func row(_ row: Int) -> ObjectID {
            let skipsSource = !crossing && row >= source[1]
            guard let id = index.id(at: IndexPath(indexes: [section, skipsSource ? row + 1 : row])) else {
                requirementFailure("internal inconsistency: no row \(row) in section \(section) around a drop")
            }
            return id
        }
        let above = destination[1] > 0 ? row(destination[1] - 1) : nil
        let below = destination[1] < counts[section] - (crossing ? 0 : 1) ? row(destination[1]) : nil
        guard let anchor = above ?? below, let anchorKeys = index.keys(of: anchor) else {
            requirementFailure("internal inconsistency: a drop with no row around it")
        }
        let targetValue = index.visibleSections[section].value
        let keys = RowKeys(section: targetValue, sort: [anchorKeys.sort[0], .int(above == nil ? -1 : 1)])

        // The graph: the relationship, and the section key across sections.
        let old = members(owner)
        var list = old
        guard let from = list.firstIndex(where: { $0 === moved }) else { throw .notAMember(id) }
        list.remove(at: from)
        guard let anchorPosition = list.firstIndex(where: { $0.objectID == anchor }) else {
            requirementFailure("internal inconsistency: a shown row is not a member")
        }
        list.insert(moved, at: above == nil ? anchorPosition : anchorPosition + 1)
        owner[keyPath: relationship] = list
        var restoreSection: (() -> Void)?
        if crossing, let writer {
            restoreSection = writer.save(moved)
            writer.copy(moved, object(with: anchor))
        }
        try commitUserEdit(.move(id, keys: keys), author: author) {
            self.owner[keyPath: self.relationship] = old
            restoreSection?()
        }
    }

    /// Moves a member, given as an object, to a row: ``moveRow(from:to:author:)`` from its
    /// current index path, for drag-and-drop APIs that hand over the dragged object.
    ///
    /// - Parameters:
    ///   - member: The member to move.
    ///   - destination: Its index path after the move, as for ``moveRow(from:to:author:)``.
    ///   - author: The commit's author tag.
    /// - Throws: ``OrderedResultsError/notAMember(_:)`` when the object is not a member of
    ///   this controller's relationship (it belongs to another owner's, or to none) or the
    ///   predicate hides it; the errors of ``moveRow(from:to:author:)`` otherwise. Nothing
    ///   changes when it throws, but for `.commitFailed`.
    /// - Complexity: O(n) for n members, as ``moveRow(from:to:author:)``.
    public func moveObject(_ member: Member, to destination: IndexPath, author: String? = nil) throws(OrderedResultsError) {
        require(hasFetched, "OrderedResultsController.moveObject(_:to:): call performFetch() first")
        guard labels[member.objectID] != nil, let source = index.indexPath(of: member.objectID) else {
            throw .notAMember(member.objectID)
        }
        try moveRow(from: source, to: destination, author: author)
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
    /// - Throws: ``OrderedResultsError``: `.noRow` or `.ownerDeleted`, and nothing changed;
    ///   `.commitFailed` when the commit throws: the relationship is written back, the
    ///   deletion stays pending in the graph (as every pending change does), and the app
    ///   should reload its view.
    /// - Complexity: O(n) for n members: the graph writes the relationship as a whole.
    public func deleteRow(at indexPath: IndexPath, author: String? = nil) throws(OrderedResultsError) {
        let member = try rowForRemoval(at: indexPath)
        // Out of the relationship first: one without an inverse would hold a deleted object.
        let old = members(owner)
        owner[keyPath: relationship] = old.filter { $0 !== member }
        graph.delete(member)
        try commitUserEdit(.remove(member.objectID), author: author) {
            self.owner[keyPath: self.relationship] = old
        }
    }

    /// Removes a row's object from the relationship (it stays in the graph), as
    /// ``deleteRow(at:author:)`` does for a deletion: a playlist's "remove from playlist".
    ///
    /// - Parameters:
    ///   - indexPath: The row's index path, in the controller's current coordinates.
    ///   - author: The commit's author tag.
    /// - Throws: ``OrderedResultsError``: `.noRow` or `.ownerDeleted`, and nothing changed;
    ///   `.commitFailed` when the commit throws: the relationship is written back and the app
    ///   should reload its view.
    /// - Complexity: O(n) for n members: the graph writes the relationship as a whole.
    public func removeRow(at indexPath: IndexPath, author: String? = nil) throws(OrderedResultsError) {
        let member = try rowForRemoval(at: indexPath)
        let old = members(owner)
        owner[keyPath: relationship] = old.filter { $0 !== member }
        try commitUserEdit(.remove(member.objectID), author: author) {
            self.owner[keyPath: self.relationship] = old
        }
    }

    /// The member at a row the user removes, after checking the request.
    private func rowForRemoval(at indexPath: IndexPath) throws(OrderedResultsError) -> Member {
        require(hasFetched, "OrderedResultsController: call performFetch() before a user-driven change")
        guard let member = object(ifPresentAt: indexPath) else {
            throw .noRow(at: indexPath, counts: index.visibleSections.map(\.count))
        }
        guard !owner.isDeleted else { throw .ownerDeleted(ownerID) }
        guard labels[member.objectID] != nil else { throw .notAMember(member.objectID) }
        return member
    }

    /// Commits the graph with `edit` marked as shown; on failure undoes the writes with
    /// `undo` and throws.
    private func commitUserEdit(_ edit: UserEdit, author: String?, undo: () -> Void) throws(OrderedResultsError) {
        userEdit = edit
        let committed: GraphChanges?
        do {
            committed = try graph.commit(author: author)
        } catch {
            userEdit = nil
            undo()
            throw .commitFailed(error)
        }
        if committed == nil, userEdit != nil {
            // The writes cancelled out and no commit reached the controller: show the edit.
            apply(GraphChanges())
        }
    }

    /// Applies a user's edit to the rows without delivering it: the view shows it already.
    func applyDisplayed(_ edit: UserEdit) {
        let change: ResultsIndex<ObjectID>.Change
        switch edit {
        case .move(let id, let keys): change = .init(id: id, keys: keys, reportsUpdate: false)
        case .remove(let id): change = .init(id: id, keys: nil, reportsUpdate: false)
        }
        guard index.contains(change.id) else { return }
        let shown = index.apply([change])
        assert(shown.insertedSections.isEmpty && shown.deletedSections.count <= 1,
               "internal inconsistency: a user's edit changed sections other than the one it emptied")
        if let emptied = shown.deletedSections.first { displayedEmptySection = emptied }
        withObservableMutation {
            generation += 1
            cachedObjects = nil
        }
    }
}
