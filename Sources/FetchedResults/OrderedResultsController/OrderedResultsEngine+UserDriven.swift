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

extension OrderedResultsEngine {
    /// Moves a row where the user dragged it (``OrderedResultsController/moveRow(from:to:author:)``).
    func moveRow(from source: IndexPath, to destination: IndexPath, author: String? = nil) throws(OrderedResultsError) {
        guard hasFetched else { throw .notFetched }
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

    /// Moves a member to a row (``OrderedResultsController/moveObject(_:to:author:)``).
    func moveObject(_ member: Member, to destination: IndexPath, author: String? = nil) throws(OrderedResultsError) {
        guard hasFetched else { throw .notFetched }
        guard labels[member.objectID] != nil, let source = index.indexPath(of: member.objectID) else {
            throw .notAMember(member.objectID)
        }
        try moveRow(from: source, to: destination, author: author)
    }

    /// Deletes the object of a row the user deleted (``OrderedResultsController/deleteRow(at:author:)``).
    func deleteRow(at indexPath: IndexPath, author: String? = nil) throws(OrderedResultsError) {
        let member = try rowForRemoval(at: indexPath)
        // Out of the relationship first: one without an inverse would hold a deleted object.
        let old = members(owner)
        owner[keyPath: relationship] = old.filter { $0 !== member }
        graph.delete(member)
        try commitUserEdit(.remove(member.objectID), author: author) {
            self.owner[keyPath: self.relationship] = old
        }
    }

    /// Removes a row's object from the relationship (``OrderedResultsController/removeRow(at:author:)``).
    func removeRow(at indexPath: IndexPath, author: String? = nil) throws(OrderedResultsError) {
        let member = try rowForRemoval(at: indexPath)
        let old = members(owner)
        owner[keyPath: relationship] = old.filter { $0 !== member }
        try commitUserEdit(.remove(member.objectID), author: author) {
            self.owner[keyPath: self.relationship] = old
        }
    }

    /// The member at a row the user removes, after checking the request.
    private func rowForRemoval(at indexPath: IndexPath) throws(OrderedResultsError) -> Member {
        guard hasFetched else { throw .notFetched }
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
