import FetchedResults
import FetchedResultsTesting
import Foundation
import ListUpdates
import Observation
import Synchronization
import Testing

/// A committed list of six entries in two aisles: a0 (A), b1 (B), a2 (A), b3 (B), a4 (A),
/// x5 (A, not listed), and a second list with two entries.
private func makeList() throws -> (ObjectGraph, ShoppingList, [Entry], ShoppingList) {
    let graph = ObjectGraph()
    let list = graph.insert(ShoppingList())
    let other = graph.insert(ShoppingList())
    let entries = ["a0", "b1", "a2", "b3", "a4", "x5"].map { name in
        let entry = graph.insert(Entry())
        entry.name = name
        entry.aisle = name == "b1" || name == "b3" ? "B" : "A"
        entry.listed = name != "x5"
        return entry
    }
    list.entries = entries
    other.entries = ["o0", "o1"].map { name in
        let entry = graph.insert(Entry())
        entry.name = name
        return entry
    }
    _ = try graph.commit()
    return (graph, list, entries, other)
}

private func path(_ section: Int, _ row: Int) -> IndexPath { IndexPath(row: row, section: section) }

private func names(_ controller: some SectionedResults<Entry>) -> [[String]] {
    controller.sections.map { $0.objects.map(\.name) }
}

@Suite("OrderedResultsController surface")
struct OrderedResultsControllerSurfaceTests {
    @Test func rowsFollowTheRelationshipInsideEachSection() throws {
        let (graph, list, entries, _) = try makeList()
        let controller = OrderedResultsController(
            graph: graph, owner: list, relationship: \.entries, predicate: .equal(\.listed, true), sectionKey: SectionKey(\.aisle))
        controller.performFetch()
        #expect(controller.hasFetched)
        #expect(names(controller) == [["a0", "a2", "a4"], ["b1", "b3"]])
        #expect(controller.sections.map(\.name) == ["A", "B"])
        #expect(controller.object(at: path(1, 1)) === entries[3])
        #expect(controller.object(ifPresentAt: path(1, 2)) == nil)
        #expect(controller.object(ifPresentAt: path(2, 0)) == nil)
        #expect(controller.indexPath(for: entries[4]) == path(0, 2))
        #expect(controller.indexPath(for: entries[5]) == nil)
        let identifier = try #require(controller.restorationIdentifier(forObjectAt: path(0, 1)))
        #expect(controller.indexPath(forRestorationIdentifier: identifier) == path(0, 1))
        #expect(controller.numberOfObjects == 5)
    }

    /// A user-driven change before the first fetch throws, naming the cause, and changes
    /// nothing (it stopped the program).
    @Test func userDrivenChangesBeforeTheFetchThrow() throws {
        let (graph, list, entries, _) = try makeList()
        let controller = OrderedResultsController(graph: graph, owner: list, relationship: \.entries)
        func isNotFetched(_ error: any Error) -> Bool {
            if case .notFetched? = error as? OrderedResultsError { true } else { false }
        }
        #expect { try controller.moveRow(from: path(0, 0), to: path(0, 1)) } throws: { isNotFetched($0) }
        #expect { try controller.moveObject(entries[0], to: path(0, 1)) } throws: { isNotFetched($0) }
        #expect { try controller.deleteRow(at: path(0, 0)) } throws: { isNotFetched($0) }
        #expect { try controller.removeRow(at: path(0, 0)) } throws: { isNotFetched($0) }
        #expect(list.entries.map(\.name) == ["a0", "b1", "a2", "b3", "a4", "x5"])
        #expect(!graph.hasChanges)
        #expect("\(OrderedResultsError.notFetched)".contains("performFetch()"))
    }

    @Test func aReorderInTheGraphArrivesAsOneMove() throws {
        let (graph, list, entries, _) = try makeList()
        let controller = OrderedResultsController(graph: graph, owner: list, relationship: \.entries)
        controller.performFetch()
        let (simulator, accumulator, delegate) = makeSimulatedView(of: controller)
        list.entries = [entries[4]] + entries.filter { $0 !== entries[4] }
        _ = try graph.commit()
        #expect(delegate.objectChanges == [[.move(entries[4].objectID, from: path(0, 4), to: path(0, 0), contentChanged: false)]])
        accumulator.flush()
        #expect(simulator.failures.isEmpty)
        #expect(simulator.sections == renderedEntries(controller))
        #expect(names(controller) == [["a4", "a0", "b1", "a2", "b3", "x5"]])
    }

    /// A relationship without an inverse keeps an entry deleted since it was pinned: the
    /// controller hides it, a fresh fetch does too, and undoing the deletion shows it again.
    /// (The controller once listed the deleted entry at its next fetch, and stopped the
    /// program at the undo: "internal inconsistency: 2 order labels for 3 members".)
    @Test func anEntryDeletedWhileAListWithoutAnInverseHoldsItIsHiddenUntilTheUndo() throws {
        let graph = ObjectGraph()
        let board = graph.insert(Pinboard())
        let entries = ["Milk", "Eggs", "Rice"].map { name in
            let entry = graph.insert(Entry())
            entry.name = name
            return entry
        }
        board.pinned = entries
        try graph.commit()
        let undo = GraphUndoManager()
        graph.undoManager = undo
        let controller = OrderedResultsController(graph: graph, owner: board, relationship: \.pinned)
        controller.performFetch()
        graph.delete(entries[1])
        try graph.commit()
        #expect(board.pinned.count == 3)
        #expect(controller.fetchedObjects.map(\.name) == ["Milk", "Rice"])
        let fresh = OrderedResultsController(graph: graph, owner: board, relationship: \.pinned)
        fresh.performFetch()
        #expect(fresh.fetchedObjects.map(\.name) == ["Milk", "Rice"])
        try undo.undo()
        #expect(controller.fetchedObjects.map(\.name) == ["Milk", "Eggs", "Rice"])
        #expect(fresh.fetchedObjects.map(\.name) == ["Milk", "Eggs", "Rice"])
    }

    @Test func insertsRemovalsAndDeletionsAreDelivered() throws {
        let (graph, list, entries, other) = try makeList()
        let controller = OrderedResultsController(graph: graph, owner: list, relationship: \.entries, sectionKey: SectionKey(\.aisle))
        controller.performFetch()
        let (simulator, accumulator, delegate) = makeSimulatedView(of: controller)
        defer { withExtendedLifetime(delegate) {} }
        let fresh = graph.insert(Entry())
        fresh.name = "n"
        fresh.aisle = "C"
        list.entries.insert(fresh, at: 2)
        graph.delete(entries[1])
        entries[3].list = other
        other.entries[0].list = list
        _ = try graph.commit()
        accumulator.flush()
        #expect(simulator.failures.isEmpty)
        #expect(simulator.sections == renderedEntries(controller))
        #expect(names(controller) == [["a0", "a2", "a4", "x5", "o0"], ["n"]])
        #expect(renderedEntries(controller) == referenceEntries(list.entries, where: { _ in true }, sectioned: true))
    }

    @Test func aSameSectionDragIsNotDeliveredAgain() throws {
        let (graph, list, _, _) = try makeList()
        let controller = OrderedResultsController(
            graph: graph, owner: list, relationship: \.entries, predicate: .equal(\.listed, true), sectionKey: SectionKey(\.aisle))
        controller.performFetch()
        let (simulator, accumulator, delegate) = makeSimulatedView(of: controller)
        try controller.moveRow(from: path(0, 2), to: path(0, 0))
        #expect(delegate.objectChanges.isEmpty, "the view already shows the drag")
        #expect(!accumulator.hasPendingChanges)
        #expect(names(controller) == [["a4", "a0", "a2"], ["b1", "b3"]])
        // Among the members, the hidden x5 stays last; a4 lands just before a0.
        #expect(list.entries.map(\.name) == ["a4", "a0", "b1", "a2", "b3", "x5"])
        #expect(simulator.failures.isEmpty)
    }

    @Test func aDragIntoAnotherSectionWritesTheSectionKey() throws {
        let (graph, list, entries, _) = try makeList()
        let controller = OrderedResultsController(
            graph: graph, owner: list, relationship: \.entries, predicate: .equal(\.listed, true),
            sectionKey: SectionKey(writable: \.aisle))
        controller.performFetch()
        let (simulator, accumulator, delegate) = makeSimulatedView(of: controller)
        // The view performs the drag of a2 to the end of aisle B itself.
        var shown = simulator.sections
        let row = shown[0].rows.remove(at: 1)
        shown[1].rows.append(row)
        try simulator.apply(ListChanges(movedRows: [.init(from: path(0, 1), to: path(1, 2))]), newState: shown)
        try controller.moveRow(from: path(0, 1), to: path(1, 2))
        #expect(entries[2].aisle == "B")
        #expect(names(controller) == [["a0", "a4"], ["b1", "b3", "a2"]])
        // Its aisle shows in the cell, so the row is refreshed where it now is; it is not moved.
        #expect(delegate.objectChanges == [[.update(entries[2].objectID, at: path(1, 2), newIndexPath: path(1, 2))]])
        accumulator.flush()
        #expect(simulator.failures.isEmpty)
        #expect(simulator.sections == renderedEntries(controller))
    }

    @Test func aDragThatEmptiesASectionDeletesItOnScreen() throws {
        let (graph, list, entries, _) = try makeList()
        list.entries = [entries[0], entries[1]]
        _ = try graph.commit()
        let controller = OrderedResultsController(graph: graph, owner: list, relationship: \.entries, sectionKey: SectionKey(writable: \.aisle))
        controller.performFetch()
        let (simulator, accumulator, delegate) = makeSimulatedView(of: controller)
        defer { withExtendedLifetime(delegate) {} }
        var shown = simulator.sections
        let row = shown[1].rows.remove(at: 0)
        shown[0].rows.insert(row, at: 0)
        try simulator.apply(ListChanges(movedRows: [.init(from: path(1, 0), to: path(0, 0))]), newState: shown)
        #expect(simulator.sections.map(\.rows.count) == [2, 0])
        try controller.moveRow(from: path(1, 0), to: path(0, 0))
        accumulator.flush()
        #expect(simulator.failures.isEmpty)
        #expect(simulator.sections == renderedEntries(controller))
        #expect(names(controller) == [["b1", "a0"]])
    }

    @Test func aSwipeToDeleteIsNotDeliveredAgainButOtherChangesAre() throws {
        let (graph, list, entries, _) = try makeList()
        let controller = OrderedResultsController(graph: graph, owner: list, relationship: \.entries, sectionKey: SectionKey(\.aisle))
        controller.performFetch()
        let (simulator, accumulator, delegate) = makeSimulatedView(of: controller)
        defer { withExtendedLifetime(delegate) {} }
        // Someone else's pending write is committed with the user's deletion.
        entries[0].name = "renamed"
        var shown = simulator.sections
        shown[1].rows.remove(at: 0)
        try simulator.apply(ListChanges(deletedRows: [path(1, 0)]), newState: shown)
        try controller.deleteRow(at: path(1, 0))
        #expect(entries[1].isDeleted)
        accumulator.flush()
        #expect(simulator.failures.isEmpty)
        #expect(simulator.sections == renderedEntries(controller))
    }

    @Test func aDragThatEndsWhereItStartedStillCommits() throws {
        let (graph, list, entries, _) = try makeList()
        let controller = OrderedResultsController(graph: graph, owner: list, relationship: \.entries, sectionKey: SectionKey(\.aisle))
        controller.performFetch()
        let (simulator, accumulator, delegate) = makeSimulatedView(of: controller)
        defer { withExtendedLifetime(delegate) {} }
        // Another part of the app left a write pending; a drag commits it, even a drag that
        // moves nothing, as every user-driven change does.
        entries[0].name = "renamed"
        let before = names(controller)
        try controller.moveRow(from: path(0, 0), to: path(0, 0))
        #expect(!graph.hasChanges)
        #expect(names(controller) == before)
        #expect(controller.object(at: path(0, 0)).name == "renamed")
        accumulator.flush()
        #expect(simulator.failures.isEmpty)
        #expect(simulator.sections == renderedEntries(controller))
        // With nothing pending, it commits nothing and delivers nothing.
        try controller.moveRow(from: path(0, 0), to: path(0, 0))
        #expect(accumulator.pendingChanges.isEmpty)
    }

    @Test func removingARowKeepsTheObject() throws {
        let (graph, list, entries, _) = try makeList()
        let controller = OrderedResultsController(graph: graph, owner: list, relationship: \.entries)
        controller.performFetch()
        let (simulator, accumulator, delegate) = makeSimulatedView(of: controller)
        var shown = simulator.sections
        shown[0].rows.remove(at: 3)
        try simulator.apply(ListChanges(deletedRows: [path(0, 3)]), newState: shown)
        try controller.removeRow(at: path(0, 3))
        #expect(!entries[3].isDeleted && entries[3].list == nil)
        #expect(delegate.objectChanges.isEmpty)
        accumulator.flush()
        #expect(simulator.sections == renderedEntries(controller))
    }

    @Test func badUserDrivenChangesThrowAndChangeNothing() throws {
        let (graph, list, entries, other) = try makeList()
        let controller = OrderedResultsController(
            graph: graph, owner: list, relationship: \.entries, predicate: .equal(\.listed, true), sectionKey: SectionKey(\.aisle))
        controller.performFetch()
        let before = renderedEntries(controller)
        #expect(throws: OrderedResultsError.self) { try controller.moveRow(from: path(0, 3), to: path(0, 0)) }
        #expect(throws: OrderedResultsError.self) { try controller.moveRow(from: path(2, 0), to: path(0, 0)) }
        #expect(throws: OrderedResultsError.self) { try controller.moveRow(from: path(0, 0), to: path(0, 3)) }
        #expect(throws: OrderedResultsError.self) { try controller.moveRow(from: path(0, 0), to: path(1, 3)) }
        #expect(throws: OrderedResultsError.self) { try controller.moveRow(from: path(0, 0), to: path(-1, 0)) }
        #expect(throws: OrderedResultsError.self) { try controller.deleteRow(at: path(1, 2)) }
        do {
            try controller.moveRow(from: path(0, 0), to: path(1, 0))
            Issue.record("a drag across a read-only section key was accepted")
        } catch {
            #expect(error.description.contains("not writable"))
        }
        do {
            try controller.moveObject(other.entries[0], to: path(0, 0))
            Issue.record("a member of another list was moved")
        } catch {
            guard case .notAMember(let id) = error else { throw error }
            #expect(id == other.entries[0].objectID)
        }
        #expect(throws: OrderedResultsError.self) { try controller.moveObject(entries[5], to: path(0, 0)) }
        #expect(!graph.hasChanges)
        #expect(renderedEntries(controller) == before)
        #expect(list.entries == entries)
    }

    @Test func aFailedCommitUndoesTheDrag() throws {
        let (graph, list, entries, _) = try makeList()
        let controller = OrderedResultsController(graph: graph, owner: list, relationship: \.entries, sectionKey: SectionKey(writable: \.aisle))
        controller.performFetch()
        let before = renderedEntries(controller)
        let doomed = graph.insert(Entry())
        graph.delete(doomed)
        _ = try graph.commit()
        // A relationship that holds a deleted object makes the next commit throw.
        let deleted = entries[5]
        graph.delete(deleted)
        _ = try graph.commit()
        graph.insert(Pinboard()).pinned = [deleted]
        do {
            try controller.moveRow(from: path(0, 0), to: path(1, 1))
            Issue.record("the commit should have failed")
        } catch {
            guard case .commitFailed = error else { throw error }
        }
        #expect(entries[0].aisle == "A")
        #expect(list.entries.map(\.name) == ["a0", "b1", "a2", "b3", "a4"])
        #expect(renderedEntries(controller) == before.map { section in
            EntrySection(id: section.id, rows: section.rows.filter { $0.id != deleted.objectID })
        })
    }

    @Test func deletingTheOwnerEmptiesTheList() throws {
        let (graph, list, _, _) = try makeList()
        let controller = OrderedResultsController(graph: graph, owner: list, relationship: \.entries, sectionKey: SectionKey(\.aisle))
        controller.performFetch()
        let (simulator, accumulator, delegate) = makeSimulatedView(of: controller)
        defer { withExtendedLifetime(delegate) {} }
        graph.delete(list)
        _ = try graph.commit()
        accumulator.flush()
        #expect(controller.sections.isEmpty)
        #expect(simulator.sections.isEmpty)
        #expect(throws: OrderedResultsError.self) { try controller.moveRow(from: path(0, 0), to: path(0, 1)) }
    }

    @Test func aRelationshipWithoutInverseIsFollowedToo() throws {
        let (graph, _, entries, _) = try makeList()
        let board = graph.insert(Pinboard())
        board.pinned = [entries[0], entries[2], entries[4]]
        _ = try graph.commit()
        let controller = OrderedResultsController(graph: graph, owner: board, relationship: \.pinned)
        controller.performFetch()
        let (simulator, accumulator, delegate) = makeSimulatedView(of: controller)
        defer { withExtendedLifetime(delegate) {} }
        board.pinned = [entries[3], entries[4], entries[0]]
        _ = try graph.commit()
        accumulator.flush()
        #expect(simulator.failures.isEmpty)
        #expect(names(controller) == [["b3", "a4", "a0"]])
        try controller.moveRow(from: path(0, 2), to: path(0, 0))
        #expect(board.pinned.map(\.name) == ["a0", "b3", "a4"])
        #expect(!accumulator.hasPendingChanges)
    }

    @Test func manyInsertionsIntoOneGapRelabelItsNeighbourhood() throws {
        let (graph, list, entries, _) = try makeList()
        let controller = OrderedResultsController(graph: graph, owner: list, relationship: \.entries)
        controller.performFetch()
        let (simulator, accumulator, delegate) = makeSimulatedView(of: controller)
        defer { withExtendedLifetime(delegate) {} }
        // Each insertion lands just after a0, halving the same gap: it runs out after about 20.
        for round in 0..<60 {
            let entry = graph.insert(Entry())
            entry.name = "n\(round)"
            list.entries.insert(entry, at: 1)
            _ = try graph.commit()
            if round % 7 == 0 { accumulator.flush() }
        }
        accumulator.flush()
        #expect(simulator.failures.isEmpty)
        #expect(simulator.sections == renderedEntries(controller))
        #expect(controller.fetchedObjects.map(\.name) == list.entries.map(\.name))
        #expect(controller.fetchedObjects.count == entries.count + 60)
    }

    @Test func changesArriveAsAnAsyncSequenceAndThroughObservation() async throws {
        let (graph, list, entries, _) = try makeList()
        let controller = OrderedResultsController(graph: graph, owner: list, relationship: \.entries)
        controller.performFetch()
        var iterator = controller.changes().makeAsyncIterator()
        let changed = Mutex(0)
        withObservationTracking { _ = controller.sections } onChange: { changed.withLock { $0 += 1 } }
        list.entries.swapAt(0, 5)
        _ = try graph.commit()
        let change = try #require(await iterator.next())
        #expect(change.changes.movedRows.count == 2)
        #expect(changed.withLock { $0 } == 1)
        withObservationTracking { _ = controller.fetchedObjects } onChange: { changed.withLock { $0 += 1 } }
        try controller.moveRow(from: path(0, 0), to: path(0, 5))
        #expect(changed.withLock { $0 } == 2, "a user-driven drag changes the observable rows")
        #expect(controller.fetchedObjects.last === entries[5])
    }

    @Test func changingTheRequestAnimatesTheDifference() throws {
        let (graph, list, _, _) = try makeList()
        let controller = OrderedResultsController(graph: graph, owner: list, relationship: \.entries)
        controller.performFetch()
        let (simulator, accumulator, delegate) = makeSimulatedView(of: controller)
        defer { withExtendedLifetime(delegate) {} }
        controller.predicate = .equal(\.listed, true)
        controller.sectionKey = SectionKey(\.aisle)
        accumulator.flush()
        #expect(simulator.failures.isEmpty)
        #expect(simulator.sections == renderedEntries(controller))
        #expect(names(controller) == [["a0", "a2", "a4"], ["b1", "b3"]])
    }

    /// What an ordered controller shows is set through what it can honour — predicate,
    /// section key, displayed keys — and the request they make is read-only, with no sort
    /// keys and no window. (Before, `request` had a setter that trapped on sort keys; that a
    /// request can no longer be assigned is a compile-time fact no test can show.)
    @Test func predicateSectionKeyAndDisplayedKeysMakeItsRequest() throws {
        let (graph, list, entries, _) = try makeList()
        let controller = OrderedResultsController(graph: graph, owner: list, relationship: \.entries)
        controller.performFetch()
        let (simulator, accumulator, delegate) = makeSimulatedView(of: controller)
        defer { withExtendedLifetime(delegate) {} }
        controller.sectionKey = SectionKey(\.aisle)
        controller.predicate = .equal(\.listed, true)
        controller.displayedKeys = [\Entry.aisle]
        let request = controller.request
        #expect(request.predicate != nil && request.sectionKey != nil && request.displayedKeys?.count == 1)
        #expect(request.sortKeys.isEmpty && request.fetchLimit == nil && request.fetchOffset == 0)
        accumulator.flush()
        #expect(simulator.failures.isEmpty)
        #expect(simulator.sections == renderedEntries(controller))
        #expect(names(controller) == [["a0", "a2", "a4"], ["b1", "b3"]])

        // The displayed keys hold: a write to another property refreshes no row.
        let delivered = delegate.objectChanges.count
        entries[0].name = "a0 renamed"
        _ = try graph.commit()
        #expect(delegate.objectChanges.count == delivered)

        controller.predicate = nil
        controller.sectionKey = nil
        accumulator.flush()
        #expect(simulator.failures.isEmpty)
        // Row identities only: the renamed row's cell was, by design, not refreshed.
        #expect(simulator.sections.map { $0.rows.map(\.id) } == renderedEntries(controller).map { $0.rows.map(\.id) })
        #expect(names(controller) == [["a0 renamed", "b1", "a2", "b3", "a4", "x5"]])
    }
}

@Suite("OrderedResultsController displayed keys")
struct OrderedResultsControllerDisplayedKeysTests {
    @Test func onlyWritesToDisplayedKeysRefreshRows() throws {
        let (graph, list, entries, _) = try makeList()
        let controller = OrderedResultsController(graph: graph, owner: list, relationship: \.entries, displayedKeys: [\Entry.name])
        controller.performFetch()
        let (simulator, accumulator, delegate) = makeSimulatedView(of: controller)
        entries[2].listed = false
        _ = try graph.commit()
        #expect(delegate.objectChanges.isEmpty, "listed is not displayed and not filtered on")
        entries[2].name = "renamed"
        _ = try graph.commit()
        #expect(delegate.objectChanges == [[.update(entries[2].objectID, at: path(0, 2), newIndexPath: path(0, 2))]])
        accumulator.flush()
        #expect(simulator.failures.isEmpty)
        #expect(simulator.rowIDs == renderedEntries(controller).map { $0.rows.map(\.id) })
    }
}
