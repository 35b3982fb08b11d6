import Observation
@testable import ObjectGraph
import Testing

// A review of the bulk-insert changes (deferred inverse lists that outlive a commit, the
// malloc'd object tables, the one-pass insert validation, unretained setters): each test tries
// a path that could read a stale target without flushing, leak or over-release an object,
// or leave a `_pendingSlot` numbering the wrong thing.

/// A shelf that may not be deleted while it holds boxes; boxes relate to it in bulk.
final class ReviewShelf: GraphObject {
    @Attribute var name = ""
    @Relationship(inverse: \ReviewBox.shelf, deleteRule: .deny) var boxes: Set<ReviewBox>
}

/// A box; its validation may look at (or, when told to, write to) its shelf.
final class ReviewBox: GraphObject {
    @Attribute var label = ""
    @Relationship var shelf: ReviewShelf?
    /// Validation writes the shelf's name (a misuse the commit must trap).
    nonisolated(unsafe) static var writeToShelf = false
    /// Validation reads the shelf's boxes (a flush in the middle of the validation pass).
    nonisolated(unsafe) static var readShelfBoxes = false
    /// What the validations saw: whether every shelf said it was inserted, the box counts read.
    nonisolated(unsafe) static var shelvesSeenInserted: [Bool] = []
    nonisolated(unsafe) static var boxCountsSeen: [Int] = []

    override func validateForCommit() throws {
        if label == "bad" { throw InvalidQuantity() }
        guard let shelf else { return }
        Self.shelvesSeenInserted.append(shelf.isInserted)
        if Self.readShelfBoxes { Self.boxCountsSeen.append(shelf.boxes.count) }
        if Self.writeToShelf { shelf.name = "written by \(label)" }
    }
}

/// A tree: `parent` is a to-one whose inverse is a to-many of the same entity.
final class ReviewNode: GraphObject {
    @Attribute var depth = 0
    @Relationship var children: Set<ReviewNode>
    @Relationship(inverse: \ReviewNode.children) var parent: ReviewNode?
}

/// An owner with two to-many relationships that bulk to-one writes fill.
final class ReviewOwner: GraphObject {
    @Relationship var near: Set<ReviewThing>
    @Relationship var far: Set<ReviewThing>
}

/// Related to an owner through either of two to-ones.
final class ReviewThing: GraphObject {
    @Relationship(inverse: \ReviewOwner.near) var nearOwner: ReviewOwner?
    @Relationship(inverse: \ReviewOwner.far) var farOwner: ReviewOwner?
}

/// An object whose validation runs a closure (for misuse checks).
final class ReviewValidator: GraphObject {
    var write: () -> Void = {}
    override func validateForCommit() throws { write() }
}

/// Holds a graph's only strong reference and drops it from an Observation change handler,
/// as user code may while a setter notifies (the exit tests of "Lifetimes").
///
/// `@unchecked Sendable`: an exit test uses it on one thread; the change handler that writes
/// its fields runs synchronously inside the setter, on that thread.
final class GraphDropper: @unchecked Sendable {
    var graph: ObjectGraph?
    weak var weakGraph: ObjectGraph?
    /// Whether the graph was still alive when the handler had dropped the reference.
    var aliveInHandler = false

    func hold(_ graph: ObjectGraph) {
        self.graph = graph
        weakGraph = graph
    }

    /// Drops the graph when what `read` reads changes.
    func dropGraph(whenChanged read: () -> Void) {
        withObservationTracking(read) {
            self.graph = nil
            self.aliveInHandler = self.weakGraph != nil
        }
    }
}

@Suite("Graph review: deferred inverses, tables, validation", .serialized)
struct GraphReviewTests {
    // MARK: Validation pass

    /// A validation that writes an attribute of an inserted target it already validated must
    /// trap; when that target still has a deferred list, its `_pendingSlot` numbers the list,
    /// and `_entryIndex(for:)` took it for a pending entry (another object's) instead.
    @Test func aValidationWriteToAValidatedStaleTargetTraps() async {
        await #expect(processExitsWith: .failure) {
            let graph = ObjectGraph()
            let committed = graph.insert(ReviewShelf())
            try graph.commit()
            committed.name = "pending entry 0"
            let shelf = graph.insert(ReviewShelf())  // validated before its boxes
            for _ in 0..<3 { graph.insert(ReviewBox()).shelf = shelf }
            ReviewBox.writeToShelf = true
            _ = try? graph.commit()
        }
    }

    /// The same misuse through key-value access: the fix belongs in `_entryIndex(for:)`, which
    /// both the attribute setter and `setValue(_:forKey:)` reach.
    @Test func aKeyValueValidationWriteToAValidatedStaleTargetTraps() async {
        await #expect(processExitsWith: .failure) {
            let graph = ObjectGraph()
            let committed = graph.insert(ReviewShelf())
            try graph.commit()
            committed.name = "pending entry 0"
            let shelf = graph.insert(ReviewShelf())
            for _ in 0..<3 { graph.insert(ReviewBox()).shelf = shelf }
            graph.insert(ReviewValidator()).write = { try? shelf.setValue("written", forKey: "name") }
            _ = try? graph.commit()
        }
    }

    /// A validation that inserts an object of the class the pass is on extends the run the
    /// pass copied: the new object is reported inserted but never validated, and keeps its
    /// `_insertedFlag` after the commit (its later writes are then never recorded). Inserting
    /// is a write, which validation must not do: it should trap.
    @Test func aValidationThatInsertsTraps() async {
        await #expect(processExitsWith: .failure) {
            let graph = ObjectGraph()
            let validator = graph.insert(ReviewValidator())
            var made: ReviewValidator?
            validator.write = {
                if made == nil { made = graph.insert(ReviewValidator()) }
            }
            _ = try? graph.commit()
        }
    }

    @Test func validationSeesStaleTargetsInsertedAndAFlushPartWayKeepsTheSlots() throws {
        let graph = ObjectGraph()
        let shelves = [graph.insert(ReviewShelf()), graph.insert(ReviewShelf())]
        let boxes = (0..<6).map { index in
            let box = graph.insert(ReviewBox())
            box.label = "\(index)"
            box.shelf = shelves[index % 2]
            return box
        }
        boxes[5].label = "bad"
        ReviewBox.readShelfBoxes = true
        ReviewBox.shelvesSeenInserted = []
        ReviewBox.boxCountsSeen = []
        defer {
            ReviewBox.readShelfBoxes = false
            ReviewBox.shelvesSeenInserted = []
            ReviewBox.boxCountsSeen = []
        }
        #expect(throws: CommitError.self) { try graph.commit() }
        // The first validation read flushed every list; every shelf still reports inserted.
        #expect(ReviewBox.shelvesSeenInserted == Array(repeating: true, count: 5))
        #expect(ReviewBox.boxCountsSeen == [3, 3, 3, 3, 3])
        #expect(graph._deferredInverses.isEmpty)
        #expect((shelves + boxes).allSatisfy(\.isInserted) && graph.hasChanges)
        graph._checkAllInvariants()

        boxes[5].label = "5"
        ReviewBox.readShelfBoxes = false
        let changes = try #require(try graph.commit())
        #expect(changes.insertedIDs == (shelves.map(\.objectID) + boxes.map(\.objectID)))
        #expect(changes.updated.isEmpty && changes.deleted.isEmpty)
        #expect((shelves + boxes).allSatisfy { !$0.isInserted })
        #expect(shelves[0].boxes == [boxes[0], boxes[2], boxes[4]])
        graph._checkAllInvariants()
    }

    @Test func aFailedValidationKeepsBothTransactionsListsAndRollbackRestoresCommittedOnes() throws {
        let graph = ObjectGraph()
        let old = graph.insert(ReviewShelf())
        let oldBoxes = (0..<3).map { _ in graph.insert(ReviewBox()) }
        for box in oldBoxes { box.shelf = old }
        try graph.commit()
        #expect(graph._deferredInverses.count == 1)

        let new = graph.insert(ReviewShelf())
        let newBoxes = (0..<3).map { _ in graph.insert(ReviewBox()) }
        for box in newBoxes { box.shelf = new }
        newBoxes[1].label = "bad"
        old.name = "renamed"  // a pending entry for the committed stale target
        #expect(graph._deferredInverses.count == 2 && graph._deferredInverses.firstPendingList == 1)
        #expect(throws: CommitError.self) { try graph.commit() }
        #expect(graph._deferredInverses.count == 2)
        #expect(Int(new._pendingSlot) == 2 && Int(old._pendingSlot) == 1)  // a list; a pending entry
        graph._checkInvariants()

        graph.rollback()
        #expect(graph._deferredInverses.isEmpty && !graph.hasChanges)
        #expect(old.name == "" && old.boxes == Set(oldBoxes) && old._pendingSlot == 0)
        #expect(newBoxes.allSatisfy { $0.graph == nil && $0.shelf == nil } && new.graph == nil)
        #expect(new.boxes.isEmpty && new._flags == 0 && new._pendingSlot == 0)
        graph._checkAllInvariants()
    }

    // MARK: Delete rules

    @Test func theDenyRuleSeesDeferredMembersBeforeAndAfterACommit() throws {
        let graph = ObjectGraph()
        let shelf = graph.insert(ReviewShelf())
        let boxes = (0..<3).map { _ in graph.insert(ReviewBox()) }
        for box in boxes { box.shelf = shelf }
        graph.delete(shelf)
        #expect(throws: CommitError.self) { try graph.commit() }
        graph.rollback()

        let again = graph.insert(ReviewShelf())
        for box in (0..<3).map({ _ in graph.insert(ReviewBox()) }) { box.shelf = again }
        try graph.commit()
        #expect(again._flags & GraphObject._staleInverseFlag != 0)
        graph.delete(again)  // a committed stale target: the deny rule must see its boxes
        do throws(CommitError) {
            try graph.commit()
            Issue.record("a shelf holding boxes was deleted")
        } catch {
            guard case .deleteDenied(let id, let relationship) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(id == again.objectID && relationship == "boxes")
        }
        graph.rollback()
        #expect(again.boxes.count == 3 && !again.isDeleted)
        graph._checkAllInvariants()
    }

    @Test func cascadingFromACommittedStaleTargetDeletesAndReleasesTheMembers() throws {
        weak var weakFile: File?
        weak var weakFolder: Folder?
        let graph = ObjectGraph()
        do {
            let folder = graph.insert(Folder())
            let files = (0..<4).map { _ in graph.insert(File()) }
            for file in files { file.folder = folder }
            try graph.commit()
            #expect(graph._deferredInverses.count == 1)
            weakFile = files[2]
            weakFolder = folder
            graph.delete(folder)
            #expect(files.allSatisfy(\.isDeleted) && files.allSatisfy { $0.folder == nil })
            let changes = try #require(try graph.commit())
            #expect(changes.deleted == Set([folder.objectID] + files.map(\.objectID)))
            #expect(graph.count(of: File.self) == 0)
        }
        #expect(weakFile == nil && weakFolder == nil)
        graph._checkAllInvariants()
    }

    @Test func deletingAMemberOfACommittedListRemovesItFromTheTargetOnce() throws {
        let graph = ObjectGraph()
        let shelf = graph.insert(ReviewShelf())
        let boxes = (0..<4).map { _ in graph.insert(ReviewBox()) }
        for box in boxes { box.shelf = shelf }
        try graph.commit()
        weak let weakBox = boxes[1]
        graph.delete(boxes[1])
        let changes = try #require(try graph.commit())
        #expect(changes.deleted == [boxes[1].objectID] && changes.updated[shelf.objectID] != nil)
        #expect(shelf.boxes == [boxes[0], boxes[2], boxes[3]])
        _ = consume boxes
        #expect(weakBox == nil)
        graph._checkAllInvariants()
    }

    // MARK: Inserted and deleted in one transaction

    @Test func anInsertedAndDeletedObjectInsideARunIsLeftOutEverywhere() throws {
        let graph = ObjectGraph()
        let shelf = graph.insert(ReviewShelf())
        let boxes = (0..<5).map { _ in graph.insert(ReviewBox()) }
        for box in boxes { box.shelf = shelf }
        graph.delete(boxes[2])  // flushes; the run keeps its serial
        let late = graph.insert(ReviewBox())
        late.shelf = shelf  // the shelf is not stale any more: a new list
        #expect(graph._insertRuns.count == 2)  // the late box extends the boxes' run
        weak let weakDeleted = boxes[2]
        let deletedID = boxes[2].objectID
        let changes = try #require(try graph.commit())
        let expected = [shelf.objectID] + [0, 1, 3, 4].map { boxes[$0].objectID } + [late.objectID]
        #expect(changes.insertedIDs == expected && changes.inserted == Set(expected))
        #expect(!changes.inserted.contains(deletedID) && changes.deleted.isEmpty)
        #expect(changes.description == "GraphChanges(inserted: 6, deleted: 0, updated: 0, moves: 0)")
        #expect(graph.object(with: deletedID) == nil)
        #expect(shelf.boxes == Set([0, 1, 3, 4].map { boxes[$0] } + [late]))
        _ = consume boxes
        #expect(weakDeleted == nil)
        graph._checkAllInvariants()
    }

    @Test func onlyInsertedAndDeletedObjectsCommitToNothing() throws {
        let graph = ObjectGraph()
        let shelf = graph.insert(ReviewShelf())
        let box = graph.insert(ReviewBox())
        box.shelf = shelf
        graph.delete(shelf)
        graph.delete(box)
        #expect(graph.hasChanges)
        #expect(try graph.commit() == nil)
        #expect(!graph.hasChanges && graph._deletedInserts.isEmpty)
        #expect(box.isDeleted && !box.isInserted && shelf.isDeleted && !shelf.isInserted)
    }

    // MARK: Shapes of the bulk path

    @Test func aTreeOfOneEntityRelatesInBulkAndAcrossCommits() throws {
        let graph = ObjectGraph()
        let root = graph.insert(ReviewNode())
        var level = [root]
        var all = [root]
        for depth in 1...3 {
            var next: [ReviewNode] = []
            for parent in level {
                for _ in 0..<2 {
                    let child = graph.insert(ReviewNode())
                    child.depth = depth
                    child.parent = parent
                    next.append(child)
                }
            }
            all += next
            level = next
        }
        let loop = graph.insert(ReviewNode())
        loop.parent = loop  // its own parent and child
        graph._checkAllInvariants()
        try graph.commit()
        #expect(graph._deferredInverses.count == 8)
        #expect(loop.children == [loop])
        for node in all {
            #expect(node.children.allSatisfy { $0.parent === node && $0.depth == node.depth + 1 })
            #expect(node.children.count == (node.depth < 3 ? 2 : 0))
        }
        // Re-parent a leaf in a later transaction, then roll back.
        let leaf = level[0]
        leaf.parent = root
        #expect(root.children.count == 3)
        graph.rollback()
        #expect(root.children.count == 2 && leaf.parent!.depth == 2)
        graph._checkAllInvariants()
    }

    @Test func aTargetDeferringOneRelationshipGainsAnotherDirectly() throws {
        let graph = ObjectGraph()
        let owner = graph.insert(ReviewOwner())
        let things = (0..<6).map { _ in graph.insert(ReviewThing()) }
        for (index, thing) in things.enumerated() {
            if index % 2 == 0 { thing.nearOwner = owner } else { thing.farOwner = owner }
        }
        #expect(graph._deferredInverses.count == 1)
        graph._checkAllInvariants()
        try graph.commit()
        #expect(owner.far == Set([1, 3, 5].map { things[$0] }))
        #expect(owner.near == Set([0, 2, 4].map { things[$0] }))
        things[0].farOwner = owner
        #expect(owner.far.count == 4 && owner.near.count == 3)
        graph._checkAllInvariants()
    }

    @Test func relationshipsSetBeforeInsertionFlushThenRelate() throws {
        let graph = ObjectGraph()
        let shelf = graph.insert(ReviewShelf())
        let boxes = (0..<3).map { _ in graph.insert(ReviewBox()) }
        for box in boxes { box.shelf = shelf }
        let detached = ReviewBox()
        detached.shelf = shelf  // a detached owner stores plainly
        #expect(shelf.boxes.count == 3)  // flushed; `detached` is not in the graph yet
        graph.insert(detached)  // re-applies the relationship with its inverse
        #expect(shelf.boxes.count == 4 && detached.isInserted)
        try graph.commit()
        graph._checkAllInvariants()
    }

    // MARK: Readers after a commit

    @Test func observersKeyValueReadersAndTrackingReadCommittedStaleTargets() throws {
        let graph = ObjectGraph()
        var counts: [Int] = []
        let shelf = graph.insert(ReviewShelf())
        let observation = graph.addObserver { _ in counts.append(shelf.boxes.count) }
        defer { observation.cancel() }
        for _ in 0..<4 { graph.insert(ReviewBox()).shelf = shelf }
        try graph.commit()
        #expect(counts == [4])

        for _ in 0..<2 { graph.insert(ReviewBox()).shelf = graph.insert(ReviewShelf()) }
        try graph.commit()
        let shelves = graph.objects(of: ReviewShelf.self)
        #expect(shelves.count == 3 && graph._deferredInverses.count == 2)
        #expect((shelves[1].value(forKey: "boxes") as? Set<ReviewBox>)?.count == 1)
        #expect(graph._deferredInverses.isEmpty)

        for _ in 0..<2 { graph.insert(ReviewBox()).shelf = shelves[2] }  // committed: flushes
        let third = graph.insert(ReviewShelf())
        for _ in 0..<3 { graph.insert(ReviewBox()).shelf = third }
        try graph.commit()
        let reader = try #require(PropertyReader(\ReviewShelf.boxes))
        #expect(reader(third).count == 3)
        for _ in 0..<2 { graph.insert(ReviewBox()).shelf = graph.insert(ReviewShelf()) }
        try graph.commit()
        let last = graph.objects(of: ReviewShelf.self).last!
        let (count, reads) = graph.trackReads { last.boxes.count }
        #expect(count == 1 && reads.contains(last.objectID, "boxes"))
        graph._checkAllInvariants()
    }

    @Test func aBatchUpdatesACommittedStaleTarget() throws {
        let graph = ObjectGraph()
        let shelf = graph.insert(ReviewShelf())
        let boxes = (0..<3).map { _ in graph.insert(ReviewBox()) }
        for box in boxes { box.shelf = shelf }
        try graph.commit()

        var batch = GraphBatch()
        batch.insert(ReviewBox.self, values: ["label": "new"], relationships: ["shelf": [.existing(shelf.objectID)]])
        batch.delete(boxes[0].objectID)
        let changes = try #require(try graph.apply(batch))
        #expect(changes.inserted.count == 1 && changes.deleted == [boxes[0].objectID])
        #expect(shelf.boxes.count == 3 && !shelf.boxes.contains(boxes[0]))
        #expect(shelf.boxes.contains { $0.label == "new" })

        // A batch that fails part-way rolls back onto committed lists it did not create.
        let more = (0..<2).map { _ in graph.insert(ReviewBox()) }
        let other = graph.insert(ReviewShelf())
        for box in more { box.shelf = other }
        try graph.commit()
        var failing = GraphBatch()
        failing.update(more[0].objectID, relationships: ["shelf": [.existing(shelf.objectID)]])
        failing.insert(ReviewBox.self, values: ["label": "bad"])
        #expect(throws: CommitError.self) { try graph.apply(failing) }
        #expect(other.boxes == Set(more) && shelf.boxes.count == 3 && more[0].shelf === other)
        graph._checkAllInvariants()
    }

    @Test func anObservedStaleTargetIsNotifiedOfLaterBulkWrites() throws {
        let graph = ObjectGraph()
        let shelf = graph.insert(ReviewShelf())
        for _ in 0..<3 { graph.insert(ReviewBox()).shelf = shelf }
        let fired = Counter()
        withObservationTracking {
            _ = shelf.name  // observed while stale: its list stays
        } onChange: {
            fired.increment()
        }
        #expect(graph._deferredInverses.count == 1)
        withObservationTracking {
            #expect(shelf.boxes.count == 3)
        } onChange: {
            fired.increment()
        }
        graph.insert(ReviewBox()).shelf = shelf  // observed: the general path notifies
        #expect(fired.value == 1 && shelf.boxes.count == 4)
        try graph.commit()
        graph._checkAllInvariants()
    }

    @Test func aBatchDeletesACommittedStaleTargetAndNullifiesItsDeferredMembers() throws {
        let graph = ObjectGraph()
        let home = graph.insert(Location())
        let items = (0..<4).map { _ in graph.insert(Item()) }
        for item in items { item.location = home }
        try graph.commit()
        #expect(graph._deferredInverses.count == 1)
        var batch = GraphBatch()
        batch.delete(home.objectID)
        let changes = try #require(try graph.apply(batch))
        #expect(changes.deleted == [home.objectID])
        #expect(Set(changes.updated.keys) == Set(items.map(\.objectID)))
        #expect(items.allSatisfy { $0.location == nil } && home.items.isEmpty)
        graph._checkAllInvariants()
    }

    @Test func orderedRelationshipsBesideDeferredListsKeepTheirOrder() throws {
        let graph = ObjectGraph()
        let home = graph.insert(Location())
        let playlist = graph.insert(Playlist())
        var songs: [Song] = []
        for index in 0..<6 {
            graph.insert(Item()).location = home  // the bulk path, deferred
            let song = graph.insert(Song())
            song.title = "\(index)"
            song.playlist = playlist  // an ordered inverse: the general path, which flushes
            songs.append(song)
        }
        try graph.commit()
        #expect(playlist.songs == songs && home.items.count == 6)
        songs[0].playlist = nil
        playlist.songs = [songs[2], songs[1]] + songs[3...]
        let changes = try #require(try graph.commit())
        #expect(!changes.moves.isEmpty && songs[0].playlist == nil)
        graph._checkAllInvariants()
    }

    @Test func theUnretainedToOneSetterKeepsAFreshTargetAlive() throws {
        let graph = ObjectGraph()
        let item = graph.insert(Item())
        item.location = Location()  // the only reference is the setter's value
        let first = try #require(item.location)
        #expect(first.graph === graph && first.isInserted && first.items == [item])
        item.location = graph.insert(Location())
        #expect(item.location !== first && first.items.isEmpty)
        let other = graph.insert(Item())
        other.location = Location()  // an inserted owner, a detached target: not the bulk path
        #expect(other.location?.items == [other])
        try graph.commit()
        graph._checkAllInvariants()
    }

    // MARK: Lifetimes

    /// A setter reaches its graph unretained; an Observation change handler it triggers (user
    /// code, run from `willSet`) can drop the graph's last reference, and the setter then goes
    /// on with a freed graph (`_didWrite`, `_checkInvariants`). The graph must outlive the
    /// setter that notifies: checked in a child process, since the use after free may crash.
    @Test func aChangeHandlerThatDropsTheGraphDoesNotFreeItUnderTheSetter() async {
        await #expect(processExitsWith: .success) {
            let holder = GraphDropper()
            let home: Location
            do {
                let graph = ObjectGraph()
                holder.hold(graph)
                home = graph.insert(Location())
                try graph.commit()
            }
            holder.dropGraph { _ = home.name }
            home.name = "Pantry"
            precondition(holder.aliveInHandler, "the graph was freed while its setter ran")
            precondition(holder.weakGraph == nil && home.graph == nil && home.name == "Pantry")
        }
    }

    /// The same through a to-one setter, whose inverse notifies the observed target.
    @Test func aChangeHandlerThatDropsTheGraphDuringARelationshipWriteDoesNotFreeIt() async {
        await #expect(processExitsWith: .success) {
            let holder = GraphDropper()
            let home: Location
            let item: Item
            do {
                let graph = ObjectGraph()
                holder.hold(graph)
                home = graph.insert(Location())
                item = graph.insert(Item())
                try graph.commit()
            }
            holder.dropGraph { _ = home.items }
            item.location = home
            precondition(holder.aliveInHandler, "the graph was freed while its setter ran")
            precondition(holder.weakGraph == nil && item.location == nil && home.items.isEmpty)  // its deinit unlinks them
        }
    }

    @Test func objectsOutlivingTheirGraphWithLingeringListsAreUsableAndFreed() throws {
        weak var weakBox: ReviewBox?
        weak var weakGraph: ObjectGraph?
        let shelf: ReviewShelf
        do {
            let graph = ObjectGraph()
            weakGraph = graph
            shelf = graph.insert(ReviewShelf())
            for index in 0..<5 {
                let box = graph.insert(ReviewBox())
                box.shelf = shelf
                if index == 3 { weakBox = box }
            }
            try graph.commit()
            for _ in 0..<2 { graph.insert(ReviewBox()).shelf = graph.insert(ReviewShelf()) }  // pending lists too
            #expect(graph._deferredInverses.count == 3)
        }
        #expect(weakGraph == nil && weakBox == nil)
        #expect(shelf.graph == nil && shelf._flags & GraphObject._staleInverseFlag == 0)
        #expect(shelf.boxes.isEmpty)
        shelf.name = "kept"
        let box = ReviewBox()
        box.shelf = shelf  // stored plainly: no graph
        #expect(shelf.name == "kept" && box.shelf === shelf && shelf.boxes.isEmpty)
    }

    @Test func everyBulkObjectIsFreedAfterCommitsFlushesAndRollbacks() throws {
        var weakObjects: [Weak] = []
        do {
            let graph = ObjectGraph()
            for round in 0..<4 {
                let shelves = (0..<3).map { _ in graph.insert(ReviewShelf()) }
                let boxes = (0..<12).map { index in
                    let box = graph.insert(ReviewBox())
                    box.shelf = shelves[index % 3]
                    return box
                }
                weakObjects += boxes.map(Weak.init)
                weakObjects += shelves.map(Weak.init)
                switch round {
                case 0: try graph.commit()
                case 1: graph.rollback()
                case 2:
                    _ = shelves[0].boxes
                    try graph.commit()
                default:
                    graph.delete(boxes[1])
                    try graph.commit()
                }
            }
            let live = weakObjects.filter { $0.object != nil }.count
            #expect(live == 3 * 15 - 1)  // every round but the rolled back one, minus a box
            #expect(weakObjects.allSatisfy { $0.object.map(\.relationshipsAreReadable) ?? true })
            graph._checkAllInvariants()
        }
        #expect(weakObjects.allSatisfy { $0.object == nil })
    }
}

/// A weak reference to a graph object, for leak checks.
final class Weak {
    weak var object: GraphObject?
    init(_ object: GraphObject) { self.object = object }
}

extension GraphObject {
    /// Reading the object's relationships succeeds (a crash or trap here means an over-release).
    fileprivate var relationshipsAreReadable: Bool {
        if let box = self as? ReviewBox { return box.shelf.map { $0.boxes.contains(box) } ?? true }
        if let shelf = self as? ReviewShelf { return shelf.boxes.allSatisfy { $0.shelf === shelf } }
        return true
    }
}
