import Foundation
@testable import GraphStore
import ObjectGraph
import Testing
import TestSupport

private let shared = GraphStore.Options(sharing: .shared)

/// Opens a store shared with others on `directory`.
private func openShared(_ directory: TemporaryDirectory, options: GraphStore.Options = shared) throws -> GraphStore {
    try GraphStore.open(at: directory.url, schema: storeSchema, options: options)
}

/// Collects what a graph publishes.
private final class Heard {
    var changes: [GraphChanges] = []
    var observation: GraphObservation?

    init(_ graph: ObjectGraph) {
        observation = graph.addObserver { [unowned self] in self.changes.append($0) }
    }

    var external: [GraphChanges] { changes.filter(\.isExternal) }
}

extension ObjectGraph {
    /// This graph's object with the ID another graph of the same store gives `object`.
    func same(_ object: GraphObject) -> GraphObject? {
        objectID(forURIRepresentation: object.objectID.uriRepresentation).flatMap { self.object(with: $0) }
    }
}

/// Commits; returns why the commit failed, if it did.
private func commitFailure(_ graph: ObjectGraph, author: String) -> CommitError? {
    do {
        try graph.commit(author: author)
        return nil
    } catch {
        return error
    }
}

@Suite("GraphStore: one store directory, many stores (processes)")
struct GraphStoreSharingTests {
    @Test func aCommitReachesTheOtherStoreAsAnExternalCommitWithItsAuthor() throws {
        let directory = TemporaryDirectory()
        let a = try openShared(directory)
        let b = try openShared(directory)
        let heard = Heard(b.graph)
        let shelf = a.graph.insert(Shelf())
        shelf.name = "Fridge"
        let milk = a.graph.insert(Product())
        milk.name = "Milk"
        milk.shelf = shelf
        try a.graph.commit(author: "window 1")
        #expect(try b.refresh() == 1)
        #expect(dump(b.graph) == dump(a.graph))
        #expect(heard.changes.count == 1)
        let changes = try #require(heard.changes.first)
        #expect(changes.isExternal)
        #expect(changes.author == "window 1")
        #expect(Set(changes.inserted.map(\.uriRepresentation)) == [shelf.objectID.uriRepresentation, milk.objectID.uriRepresentation])
        #expect(try b.refresh() == 0)

        // And back, with an update: the changed properties are named.
        let milkInB = try #require(b.graph.same(milk) as? Product)
        milkInB.count = 3
        try b.graph.commit(author: "window 2")
        let heardInA = Heard(a.graph)
        #expect(try a.refresh() == 1)
        #expect(milk.count == 3)
        #expect(heardInA.changes.first?.updated[milk.objectID]?.names == ["count"])
        #expect(heardInA.changes.first?.author == "window 2")
        a.close()
        b.close()
    }

    @Test func aCommitAppliesTheOthersCommitsFirstAndPublishesThemBeforeItsOwn() throws {
        let directory = TemporaryDirectory()
        let a = try openShared(directory)
        let b = try openShared(directory)
        let bread = a.graph.insert(Product())
        bread.name = "Bread"
        try a.graph.commit(author: "a")
        let heard = Heard(b.graph)
        let jam = b.graph.insert(Product())
        jam.name = "Jam"
        try b.graph.commit(author: "b")
        #expect(heard.changes.map(\.author) == ["a", "b"])
        #expect(heard.changes.map(\.isExternal) == [true, false])
        // Both inserted serial 0 of Product: b's object moved to the next serial when a's
        // commit arrived, and its ID is final now.
        #expect(jam.objectID.uriRepresentation != bread.objectID.uriRepresentation)
        #expect(heard.changes[1].inserted == [jam.objectID])
        try a.refresh()
        #expect(dump(a.graph) == dump(b.graph))
        let reopened = try openShared(directory)
        #expect(dump(reopened.graph) == dump(a.graph))
        for store in [a, b, reopened] { store.close() }
    }

    @Test func bothChangingOneAttributeIsAConflictThatKeepsTheLocalChangePending() throws {
        let directory = TemporaryDirectory()
        let a = try openShared(directory)
        let milk = a.graph.insert(Product())
        milk.name = "Milk"
        try a.graph.commit()
        let b = try openShared(directory)
        let milkInB = try #require(b.graph.same(milk) as? Product)
        milk.name = "Whole milk"
        try a.graph.commit()
        milkInB.name = "Oat milk"
        milkInB.count = 2
        let error = #expect(throws: CommitError.self) { try b.graph.commit() }
        guard case .persistenceFailed(let cause)? = error, case .conflict(let conflicts)? = cause as? GraphStoreError else {
            Issue.record("expected a conflict, got \(String(describing: error))")
            return
        }
        #expect(conflicts == [StoreConflict(objectID: milkInB.objectID, property: "name", reason: .bothChanged)])
        #expect(b.graph.hasChanges)
        #expect(milkInB.name == "Oat milk")
        // Nothing was applied: rolling back and refreshing shows a's name.
        b.graph.rollback()
        try b.refresh()
        #expect(milkInB.name == "Whole milk")
        #expect(dump(b.graph) == dump(a.graph))
        a.close()
        b.close()
    }

    @Test func aPropertyWrittenAndSetBackIsNoConflict() throws {
        let directory = TemporaryDirectory()
        let a = try openShared(directory)
        let milk = a.graph.insert(Product())
        milk.name = "Milk"
        try a.graph.commit()
        let b = try openShared(directory)
        let milkInB = try #require(b.graph.same(milk) as? Product)
        milk.name = "Whole milk"
        try a.graph.commit()
        milkInB.name = "x"
        milkInB.name = "Milk"
        milkInB.count = 7
        try b.graph.commit()
        try a.refresh()
        #expect(milk.name == "Whole milk")
        #expect(milk.count == 7)
        #expect(dump(a.graph) == dump(b.graph))
        a.close()
        b.close()
    }

    @Test func differentPropertiesAndDifferentMembersMerge() throws {
        let directory = TemporaryDirectory()
        let a = try openShared(directory)
        let shelf = a.graph.insert(Shelf())
        shelf.name = "Pantry"
        let tag = a.graph.insert(Tag())
        try a.graph.commit()
        let b = try openShared(directory)
        let shelfInB = try #require(b.graph.same(shelf) as? Shelf)
        // a: renames the shelf and puts a new product on it; b: puts another one on it.
        shelf.name = "Larder"
        let rice = a.graph.insert(Product())
        rice.name = "Rice"
        rice.shelf = shelf
        rice.tags.insert(tag)
        try a.graph.commit()
        let beans = b.graph.insert(Product())
        beans.name = "Beans"
        beans.shelf = shelfInB
        try b.graph.commit()
        try a.refresh()
        #expect(Set(shelf.products.map(\.name)) == ["Rice", "Beans"])
        #expect(shelfInB.name == "Larder")
        #expect(dump(a.graph) == dump(b.graph))
        let reopened = try openShared(directory)
        #expect(dump(reopened.graph) == dump(a.graph))
        for store in [a, b, reopened] { store.close() }
    }

    /// A pending insert moves out of the way of a serial another store commits; objects
    /// restored from the others' commits past it keep theirs. (A store whose pending insert
    /// held serial 1 once moved the other stores' object 3 along with it, and its next
    /// commit wrote changes to an object the store did not have.)
    @Test func objectsCommittedElsewhereKeepTheirSerialsWhenAPendingInsertMoves() throws {
        let directory = TemporaryDirectory()
        let a = try openShared(directory)
        a.graph.insert(Product()).name = "first"
        try a.graph.commit()
        let b = try openShared(directory)
        let c = try openShared(directory)
        b.graph.insert(Product()).name = "from b"
        let fromC = c.graph.insert(Product())
        fromC.name = "from c"
        // a commits serial 3 and leaves 1 and 2 unused (inserted and deleted before the commit).
        let unused = [a.graph.insert(Product()), a.graph.insert(Product())]
        let third = a.graph.insert(Product())
        third.name = "from a"
        for product in unused { a.graph.delete(product) }
        try a.graph.commit()
        #expect(third.objectID.uriRepresentation.lastPathComponent == "p3")
        // b commits serial 1, after a's serial 3; c, whose pending insert holds serial 1,
        // applies both and then commits.
        try b.graph.commit()
        try c.graph.commit()
        let thirdInC = try #require(c.graph.same(third) as? Product)
        #expect(thirdInC.name == "from a")
        thirdInC.name = "renamed in c"
        try c.graph.commit()
        for store in [a, b] { try store.refresh() }
        #expect(dump(a.graph) == dump(c.graph))
        #expect(dump(b.graph) == dump(c.graph))
        let reopened = try openShared(directory)
        #expect(reopened.openReport.isClean, "\(reopened.openReport)")
        #expect(dump(reopened.graph) == dump(c.graph))
        #expect(reopened.graph.objects(of: Product.self).map(\.name).sorted() == ["first", "from b", "from c", "renamed in c"])
        for store in [a, b, c, reopened] { store.close() }
    }

    @Test func theSameMemberMovedByBothIsAConflict() throws {
        let directory = TemporaryDirectory()
        let a = try openShared(directory)
        let fridge = a.graph.insert(Shelf())
        let pantry = a.graph.insert(Shelf())
        let milk = a.graph.insert(Product())
        try a.graph.commit()
        let b = try openShared(directory)
        milk.shelf = fridge
        try a.graph.commit()
        let milkInB = try #require(b.graph.same(milk) as? Product)
        milkInB.shelf = try #require(b.graph.same(pantry) as? Shelf)
        let error = #expect(throws: CommitError.self) { try b.graph.commit() }
        guard case .persistenceFailed(let cause)? = error, case .conflict(let conflicts)? = cause as? GraphStoreError else {
            Issue.record("expected a conflict, got \(String(describing: error))")
            return
        }
        #expect(conflicts.contains(StoreConflict(objectID: milkInB.objectID, property: "shelf", reason: .bothChanged)))
        a.close()
        b.close()
    }

    @Test func deletedElsewhereAndDeletedHereAreConflicts() throws {
        let directory = TemporaryDirectory()
        let a = try openShared(directory)
        let milk = a.graph.insert(Product())
        let bread = a.graph.insert(Product())
        try a.graph.commit()
        let b = try openShared(directory)
        a.graph.delete(milk)
        bread.name = "Rye"
        try a.graph.commit()
        let milkInB = try #require(b.graph.same(milk) as? Product)
        let breadInB = try #require(b.graph.same(bread) as? Product)
        milkInB.name = "Oat"
        b.graph.delete(breadInB)
        let error = #expect(throws: CommitError.self) { try b.graph.commit() }
        guard case .persistenceFailed(let cause)? = error, case .conflict(let conflicts)? = cause as? GraphStoreError else {
            Issue.record("expected a conflict, got \(String(describing: error))")
            return
        }
        #expect(Set(conflicts) == [
            StoreConflict(objectID: milkInB.objectID, property: nil, reason: .deletedElsewhere),
            StoreConflict(objectID: breadInB.objectID, property: "name", reason: .deletedHere),
        ])
        b.graph.rollback()
        try b.refresh()
        #expect(dump(b.graph) == dump(a.graph))
        a.close()
        b.close()
    }

    @Test func anExternalCommitConflictsWithAnUndoStepItTouches() throws {
        let directory = TemporaryDirectory()
        let a = try openShared(directory)
        let undo = GraphUndoManager()
        a.graph.undoManager = undo
        let milk = a.graph.insert(Product())
        try a.graph.commit(actionName: "Add")
        milk.name = "Milk"
        try a.graph.commit(actionName: "Rename")
        let b = try openShared(directory)
        (try #require(b.graph.same(milk) as? Product)).name = "Oat"
        try b.graph.commit()
        try a.refresh()
        #expect(milk.name == "Oat")
        #expect(throws: UndoError.self) { try undo.undo() }
        #expect(milk.name == "Oat")
        a.close()
        b.close()
    }

    @Test func aCompactionElsewhereIsFollowedWithoutReloading() throws {
        let directory = TemporaryDirectory()
        let a = try openShared(directory)
        let b = try openShared(directory)
        // The journals of the last four compactions are kept (the default).
        var workload = StoreWorkload(seed: 41)
        /// Edits until a commit changes something.
        func commitAnEdit(_ graph: ObjectGraph) throws {
            repeat { workload.edit(graph) } while try graph.commit() == nil
        }
        for _ in 0..<20 { try commitAnEdit(a.graph) }
        try a.compact()
        for _ in 0..<5 { try commitAnEdit(a.graph) }
        let heard = Heard(b.graph)
        #expect(try b.refresh() == 25)
        #expect(heard.external.count == 25)
        #expect(dump(b.graph) == dump(a.graph))
        // b compacts; a follows.
        try commitAnEdit(b.graph)
        try b.compact()
        try commitAnEdit(b.graph)
        #expect(try a.refresh() == 2)
        #expect(dump(b.graph) == dump(a.graph))
        // Two compactions behind: the journal in between is read from where the compaction
        // kept it.
        let c = try openShared(directory)
        try a.compact()
        try commitAnEdit(a.graph)
        try a.compact()
        try commitAnEdit(a.graph)
        #expect(try c.refresh() == 2)
        #expect(dump(c.graph) == dump(a.graph))
        // More compactions behind than are kept: reopen, nothing lost.
        for _ in 0..<6 {
            try commitAnEdit(a.graph)
            try a.compact()
        }
        let error = #expect(throws: GraphStoreError.self) { try c.refresh() }
        guard case .mustReopen? = error else {
            Issue.record("expected mustReopen, got \(String(describing: error))")
            return
        }
        for store in [a, b, c] { store.close() }
        let reopened = try openShared(directory)
        #expect(dump(reopened.graph) == dump(a.graph))
        reopened.close()
    }

    @Test func aTornTailIsLeftToTheNextWriterAndCutByIt() throws {
        let directory = TemporaryDirectory()
        let a = try openShared(directory)
        let b = try openShared(directory)
        let milk = a.graph.insert(Product())
        milk.name = "Milk"
        try a.graph.commit()
        // A writer died half-way through a record: its first bytes are in the file.
        let end = try #require(a.journalEnd)
        let file = try PosixFileSystem().openFile(directory.url.path + "/journal", create: false)
        let garbage: [UInt8] = [0x12, 0x34, 0x56, 0x78, 0x40, 0x00, 0x02, 1, 2, 3]
        try garbage.withUnsafeBytes { try file.write($0, at: end) }
        file.close()
        // A reader applies what is whole and waits for the rest.
        #expect(try b.refresh() == 1)
        #expect(try b.refresh() == 0)
        // The next writer cuts it and goes on.
        let bread = b.graph.insert(Product())
        bread.name = "Bread"
        try b.graph.commit()
        #expect(try a.refresh() == 1)
        #expect(dump(a.graph) == dump(b.graph))
        for store in [a, b] { store.close() }
        let reopened = try openShared(directory)
        #expect(reopened.openReport.isClean, "\(reopened.openReport)")
        #expect(dump(reopened.graph) == dump(b.graph))
        reopened.close()
    }

    @Test func exclusiveAndSharedOpensExcludeEachOther() throws {
        let directory = TemporaryDirectory()
        let a = try openShared(directory)
        #expect(throws: GraphStoreError.self) { try GraphStore.open(at: directory.url, schema: storeSchema) }
        a.close()
        let exclusive = try GraphStore.open(at: directory.url, schema: storeSchema)
        #expect(throws: GraphStoreError.self) { try openShared(directory) }
        #expect(try exclusive.refresh() == 0)
        exclusive.close()
    }

    /// Random commits from three stores on one directory, with edits left pending while the
    /// others commit, conflicts, rollbacks, compactions and relaunches: every store converges
    /// to the same graph as a fresh open.
    @Test(arguments: testSeeds(count: 4))
    func randomCommitsFromThreeStoresConverge(seed: UInt64) throws {
        let directory = TemporaryDirectory()
        var stores = try (0..<3).map { _ in try openShared(directory, options: GraphStore.Options(compactionFactor: 2, minimumCompactionBytes: 16 << 10, sharing: .shared)) }
        var workloads = (0..<3).map { StoreWorkload(seed: seed &+ UInt64($0)) }
        var rng = SeededGenerator(seed: seed)
        var conflicts = 0
        for step in 0..<400 {
            let which = Int.random(in: 0..<3, using: &rng)
            let store = stores[which]
            switch Int.random(in: 0..<20, using: &rng) {
            case 0 where !store.graph.hasChanges:
                try store.compact()
            case 1:
                // A relaunch loses what was pending, as quitting without saving does.
                store.close()
                stores[which] = try openShared(directory, options: GraphStore.Options(compactionFactor: 2, minimumCompactionBytes: 16 << 10, sharing: .shared))
                #expect(stores[which].openReport.isClean, "seed \(seed) step \(step): \(stores[which].openReport)")
            case 2...3 where !store.graph.hasChanges:
                try store.refresh()
            case 4...11:
                // Edits stay pending while the other stores commit.
                for _ in 0..<Int.random(in: 1...3, using: &rng) { workloads[which].edit(store.graph) }
            default:
                if let failure = commitFailure(store.graph, author: "store \(which)") {
                    if case .persistenceFailed(let cause) = failure {
                        guard case .conflict = cause as? GraphStoreError else { throw cause }
                        conflicts += 1
                    }
                    store.graph.rollback()
                    try store.refresh()
                }
            }
        }
        for store in stores {
            store.graph.rollback()
            try store.refresh()
        }
        let expected = dump(stores[0].graph)
        for (index, store) in stores.enumerated() {
            #expect(dump(store.graph) == expected, "seed \(seed): store \(index) differs")
            #expect(store.graph.hasChanges == false)
        }
        for store in stores { store.close() }
        let reopened = try openShared(directory)
        #expect(reopened.openReport.isClean, "seed \(seed): \(reopened.openReport)")
        #expect(dump(reopened.graph) == expected, "seed \(seed): a fresh open differs")
        reopened.close()
        #expect(conflicts > 0, "seed \(seed): the workload made no conflict")
    }
}

