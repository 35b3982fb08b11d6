import Foundation
@testable import ObjectGraph
import Testing
import TestSupport

/// Everything a graph of the test model holds, object by object with IDs: equal dumps mean
/// equal graphs.
private func dump(_ graph: ObjectGraph) -> [String] {
    func ids(_ objects: [GraphObject], ordered: Bool = false) -> String {
        let names = objects.map { "\($0.objectID)" }
        return (ordered ? names : names.sorted()).joined(separator: ",")
    }
    var lines: [String] = []
    lines += graph.objects(of: Location.self).map { "\($0.objectID) \($0.name) [\(ids(Array($0.items)))]" }
    lines += graph.objects(of: Item.self).map {
        "\($0.objectID) \($0.name) \($0.quantity) \($0.listed) \($0.note ?? "-") \($0.location.map { "\($0.objectID)" } ?? "-") [\(ids(Array($0.tags)))]"
    }
    lines += graph.objects(of: Tag.self).map { "\($0.objectID) \($0.label) [\(ids(Array($0.items)))]" }
    lines += graph.objects(of: Playlist.self).map { "\($0.objectID) \($0.title) [\(ids($0.songs, ordered: true))]" }
    lines += graph.objects(of: Song.self).map { "\($0.objectID) \($0.title) \($0.playlist.map { "\($0.objectID)" } ?? "-")" }
    lines += graph.objects(of: Folder.self).map { "\($0.objectID) \($0.name) [\(ids(Array($0.files)))] [\(ids($0.notes, ordered: true))]" }
    lines += graph.objects(of: File.self).map { "\($0.objectID) \($0.name) \($0.folder.map { "\($0.objectID)" } ?? "-")" }
    lines += graph.objects(of: Note.self).map { "\($0.objectID) \($0.text) \($0.folder.map { "\($0.objectID)" } ?? "-")" }
    return lines
}

/// Random edits over the whole model: every delete rule, every relationship shape.
private struct Edits {
    var rng: SeededGenerator

    mutating func edit(_ graph: ObjectGraph) {
        let locations = graph.objects(of: Location.self)
        let items = graph.objects(of: Item.self)
        let tags = graph.objects(of: Tag.self)
        let lists = graph.objects(of: Playlist.self)
        let songs = graph.objects(of: Song.self)
        let folders = graph.objects(of: Folder.self)
        let files = graph.objects(of: File.self)
        let notes = graph.objects(of: Note.self)
        switch Int.random(in: 0..<18, using: &rng) {
        case 0:
            let item = graph.insert(Item())
            item.name = "item \(Int.random(in: 0..<99, using: &rng))"
            item.location = locations.randomElement(using: &rng)
        case 1: if let item = items.randomElement(using: &rng) { graph.delete(item) }
        case 2: items.randomElement(using: &rng)?.name = "renamed \(Int.random(in: 0..<99, using: &rng))"
        case 3: items.randomElement(using: &rng)?.quantity = Int.random(in: 0..<9, using: &rng)
        case 4: items.randomElement(using: &rng)?.note = Bool.random(using: &rng) ? nil : "n"
        case 5: items.randomElement(using: &rng)?.location = locations.randomElement(using: &rng)
        case 6:
            if let item = items.randomElement(using: &rng), let tag = tags.randomElement(using: &rng) {
                if item.tags.contains(tag) { item.tags.remove(tag) } else { item.tags.insert(tag) }
            }
        case 7: graph.insert(Location()).name = "place \(Int.random(in: 0..<99, using: &rng))"
        case 8: if let location = locations.randomElement(using: &rng) { graph.delete(location) }
        case 9: graph.insert(Tag()).label = "tag \(Int.random(in: 0..<1_000_000, using: &rng))"
        case 10:
            let list = lists.randomElement(using: &rng) ?? graph.insert(Playlist())
            let song = graph.insert(Song())
            song.title = "song \(Int.random(in: 0..<99, using: &rng))"
            list.songs.insert(song, at: Int.random(in: 0...list.songs.count, using: &rng))
        case 11: if let list = lists.randomElement(using: &rng) { list.songs = list.songs.shuffled(using: &rng) }
        case 12: if let song = songs.randomElement(using: &rng) { graph.delete(song) }
        case 13: songs.randomElement(using: &rng)?.playlist = lists.randomElement(using: &rng)
        case 14:
            let folder = folders.randomElement(using: &rng) ?? graph.insert(Folder())
            let file = graph.insert(File())
            file.name = "file \(Int.random(in: 0..<99, using: &rng))"
            file.folder = folder
            if Bool.random(using: &rng) {
                let note = graph.insert(Note())
                note.folder = folder
            }
        case 15:
            // Cascade: a folder's files go with it; its notes (deny) must leave first.
            if let folder = folders.randomElement(using: &rng) {
                for note in folder.notes { note.folder = nil }
                graph.delete(folder)
            }
        case 16: if let file = files.randomElement(using: &rng) { graph.delete(file) }
        default: if let note = notes.randomElement(using: &rng) { graph.delete(note) }
        }
    }
}

extension Edits {
    /// One group's worth of the shapes a single-commit history never makes: some objects
    /// edited (values, their location's name, to-one, to-many and ordered moves) in one
    /// commit, then deleted (with a cascade now and then) in the next, then new objects
    /// inserted where they were; or an object inserted and deleted again (a group that
    /// changes nothing). Commits what it does; returns whether any commit changed something.
    mutating func editThenDeleteThenInsert(_ graph: ObjectGraph) throws -> Bool {
        var changed = false
        if Int.random(in: 0..<5, using: &rng) == 0 {
            let jam = graph.insert(Item())
            jam.name = "passing \(Int.random(in: 0..<99, using: &rng))"
            jam.location = graph.objects(of: Location.self).randomElement(using: &rng)
            changed = try graph.commit() != nil || changed
            graph.delete(jam)
            return try graph.commit() != nil || changed
        }
        let locations = graph.objects(of: Location.self)
        let tags = graph.objects(of: Tag.self)
        let victims = Array(graph.objects(of: Item.self).shuffled(using: &rng).prefix(Int.random(in: 1...2, using: &rng)))
        for item in victims {
            item.quantity = Int.random(in: 0..<9, using: &rng)
            item.name = "edited \(Int.random(in: 0..<99, using: &rng))"
            item.note = Bool.random(using: &rng) ? nil : "edited"
            if Bool.random(using: &rng) { item.location?.name = "renamed \(Int.random(in: 0..<99, using: &rng))" }
            if Bool.random(using: &rng) { item.location = locations.randomElement(using: &rng) }
            if let tag = tags.randomElement(using: &rng) {
                if item.tags.contains(tag) { item.tags.remove(tag) } else { item.tags.insert(tag) }
            }
        }
        let song = graph.objects(of: Song.self).randomElement(using: &rng)
        if let song {
            song.title = "edited \(Int.random(in: 0..<99, using: &rng))"
            if let list = song.playlist, list.songs.count > 1 { list.songs = list.songs.shuffled(using: &rng) }
            if Bool.random(using: &rng) { song.playlist = graph.objects(of: Playlist.self).randomElement(using: &rng) }
        }
        let folder = graph.objects(of: Folder.self).randomElement(using: &rng)
        if let folder {
            folder.name = "edited \(Int.random(in: 0..<99, using: &rng))"
            for file in folder.files { file.name = "edited \(Int.random(in: 0..<99, using: &rng))" }
        }
        changed = try graph.commit() != nil || changed
        for item in victims {
            if Int.random(in: 0..<3, using: &rng) == 0, let location = item.location, !location.isDeleted { graph.delete(location) }
            if !item.isDeleted { graph.delete(item) }
        }
        if let song, !song.isDeleted, Bool.random(using: &rng) { graph.delete(song) }
        if let folder, Bool.random(using: &rng) {
            // A cascade to the files; the notes (deny) leave first.
            for note in folder.notes { note.folder = nil }
            graph.delete(folder)
        }
        changed = try graph.commit() != nil || changed
        for _ in 0..<Int.random(in: 0...2, using: &rng) {
            let item = graph.insert(Item())
            item.name = "inserted \(Int.random(in: 0..<99, using: &rng))"
            item.location = graph.objects(of: Location.self).randomElement(using: &rng)
        }
        if Bool.random(using: &rng), let list = graph.objects(of: Playlist.self).randomElement(using: &rng) {
            let song = graph.insert(Song())
            list.songs.insert(song, at: Int.random(in: 0...list.songs.count, using: &rng))
        }
        return try graph.commit() != nil || changed
    }
}

@Suite("Undo and redo of commits")
struct UndoTests {
    private func makeGraph() throws -> (ObjectGraph, GraphUndoManager) {
        let (graph, _, _, _, _, _) = try groceryGraph()
        let undo = GraphUndoManager()
        graph.undoManager = undo
        return (graph, undo)
    }

    @Test(arguments: testSeeds(count: 12))
    func undoingEverythingRestoresTheStartAndRedoingRestoresTheEnd(seed: UInt64) throws {
        let (graph, undo) = try makeGraph()
        var edits = Edits(rng: SeededGenerator(seed: seed))
        var states = [dump(graph)]
        for _ in 0..<40 {
            for _ in 0..<Int.random(in: 1...3, using: &edits.rng) { edits.edit(graph) }
            guard try graph.commit() != nil else { continue }
            states.append(dump(graph))
        }
        let steps = states.count - 1
        for step in (0..<steps).reversed() {
            try undo.undo()
            #expect(dump(graph) == states[step], "seed \(seed): undo to \(step)")
        }
        #expect(!undo.canUndo)
        for step in 1...max(1, steps) where steps > 0 {
            try undo.redo()
            #expect(dump(graph) == states[step], "seed \(seed): redo to \(step)")
        }
        // Interleaved: undo some, commit something new (redo is cleared), undo it again.
        for _ in 0..<min(5, steps) { try undo.undo() }
        let before = dump(graph)
        edits.edit(graph)
        if try graph.commit() != nil {
            #expect(!undo.canRedo)
            try undo.undo()
            #expect(dump(graph) == before, "seed \(seed): undo of a new commit")
        }
    }

    /// Random groups of commits that edit objects, delete them and insert others, between
    /// ordinary commits: undoing every step gives back each earlier graph exactly (values,
    /// relationships, order, ObjectIDs), down to the start, and redoing every step gives
    /// back each later one, up to the end.
    @Test(arguments: testSeeds(count: 12))
    func undoingGroupsThatEditThenDeleteRestoresEveryEarlierGraph(seed: UInt64) throws {
        let (graph, undo) = try makeGraph()
        var edits = Edits(rng: SeededGenerator(seed: seed))
        // Something to edit: a playlist of songs, a folder of files.
        for _ in 0..<3 { edits.edit(graph) }
        try graph.commit()
        undo.removeAllActions()
        var states = [dump(graph)]
        for _ in 0..<30 {
            var changed: Bool
            if Bool.random(using: &edits.rng) {
                undo.beginUndoGrouping()
                changed = try edits.editThenDeleteThenInsert(graph)
                if Bool.random(using: &edits.rng) {
                    edits.edit(graph)
                    changed = try graph.commit() != nil || changed
                }
                undo.endUndoGrouping()
            } else {
                for _ in 0..<Int.random(in: 1...3, using: &edits.rng) { edits.edit(graph) }
                changed = try graph.commit() != nil
            }
            if changed { states.append(dump(graph)) }
        }
        // Each undo and redo publishes changes as a hand-written commit would: an object is
        // inserted, deleted or updated, never two of them.
        let token = graph.addObserver { changes in
            let inserted = changes.inserted
            #expect(inserted.isDisjoint(with: changes.deleted), "seed \(seed): inserted and deleted")
            #expect(inserted.isDisjoint(with: changes.updated.keys), "seed \(seed): inserted and updated")
            #expect(changes.deleted.isDisjoint(with: changes.updated.keys), "seed \(seed): deleted and updated")
        }
        let steps = states.count - 1
        for step in (0..<steps).reversed() {
            try undo.undo()
            #expect(dump(graph) == states[step], "seed \(seed): undo to \(step)")
        }
        #expect(!undo.canUndo, "seed \(seed)")
        for step in 1...max(1, steps) where steps > 0 {
            try undo.redo()
            #expect(dump(graph) == states[step], "seed \(seed): redo to \(step)")
        }
        #expect(!undo.canRedo, "seed \(seed)")
        withExtendedLifetime(token) {}
    }

    /// Issue 31, point 7: a group that edits objects and then deletes them is undone to the
    /// values from before the group, not to those the deletion found.
    @Test
    func undoingAGroupThatEditsThenDeletesRestoresTheValuesFromBeforeTheGroup() throws {
        let (graph, home, shop, milk, _, _) = try groceryGraph()
        let undo = GraphUndoManager()
        graph.undoManager = undo
        let fresh = graph.insert(Tag())
        fresh.label = "fresh"
        milk.quantity = 1
        home.name = "Fridge"
        try graph.commit()
        let start = dump(graph)
        undo.beginUndoGrouping()
        milk.quantity = 2
        home.name = "Cellar"
        milk.tags.insert(fresh)
        try graph.commit()
        milk.location = shop
        try graph.commit()
        graph.delete(milk)
        graph.delete(home)
        try graph.commit()
        undo.endUndoGrouping()
        let end = dump(graph)
        try undo.undo()
        #expect(milk.quantity == 1 && home.name == "Fridge")
        #expect(milk.location === home && milk.tags.isEmpty && !shop.items.contains(milk))
        #expect(dump(graph) == start)
        try undo.redo()
        #expect(dump(graph) == end)
        try undo.undo()
        #expect(dump(graph) == start)
    }

    /// Issue 31, point 8: the undo of a group that inserts an item and deletes it again
    /// commits nothing, and the step still becomes redoable (and undoable again).
    @Test
    func anUndoThatChangesNothingStillMovesTheStepToTheRedoStack() throws {
        let (graph, undo) = try makeGraph()
        let state = dump(graph)
        undo.beginUndoGrouping()
        let jam = graph.insert(Item())
        jam.name = "Jam"
        try graph.commit()
        graph.delete(jam)
        try graph.commit()
        undo.setActionName("Add and Remove Jam")
        undo.endUndoGrouping()
        #expect(undo.canUndo && undo.undoActionName == "Add and Remove Jam")
        var heard: [GraphChanges] = []
        let token = graph.addObserver { heard.append($0) }
        try undo.undo()
        #expect(dump(graph) == state && heard.isEmpty)
        #expect(!undo.canUndo)
        #expect(undo.canRedo && undo.redoActionName == "Add and Remove Jam")
        try undo.redo()
        #expect(dump(graph) == state && heard.isEmpty)
        #expect(undo.canUndo && !undo.canRedo && undo.undoActionName == "Add and Remove Jam")
        withExtendedLifetime(token) {}
    }

    @Test func undoBringsDeletedObjectsBackWithTheirIDsAndPositions() throws {
        let (graph, undo) = try makeGraph()
        let list = graph.insert(Playlist())
        let songs = (0..<4).map { index -> Song in
            let song = graph.insert(Song())
            song.title = "s\(index)"
            return song
        }
        list.songs = songs
        let folder = graph.insert(Folder())
        let file = graph.insert(File())
        file.folder = folder
        try graph.commit(actionName: "Make")
        let uri = songs[2].objectID.uriRepresentation
        graph.delete(songs[2])
        graph.delete(folder)        // cascades to the file
        try graph.commit(actionName: "Delete")
        #expect(undo.undoActionName == "Delete")
        #expect(songs[2].isDeleted && file.isDeleted)
        try undo.undo()
        #expect(!songs[2].isDeleted && !file.isDeleted)
        #expect(list.songs.map(\.title) == ["s0", "s1", "s2", "s3"])
        #expect(file.folder === folder && folder.files == [file])
        let id = try #require(graph.objectID(forURIRepresentation: uri))
        #expect(graph.object(with: id) === songs[2])
        #expect(undo.redoActionName == "Delete")
        try undo.redo()
        #expect(songs[2].isDeleted && list.songs.map(\.title) == ["s0", "s1", "s3"])
    }

    @Test func anUndoIsOneCommitTaggedAsAnUndo() throws {
        let (graph, undo) = try makeGraph()
        let milk = try #require(graph.objects(of: Item.self).first { $0.name == "Milk" })
        milk.quantity = 3
        try graph.commit()
        var heard: [GraphChanges] = []
        let token = graph.addObserver { heard.append($0) }
        try undo.undo()
        #expect(heard.count == 1)
        #expect(heard.first?.author == GraphUndoManager.undoAuthor)
        #expect(heard.first?.updated[milk.objectID]?.contains("quantity") == true)
        #expect(milk.quantity == 0)
        try undo.redo()
        #expect(heard.last?.author == GraphUndoManager.redoAuthor)
        withExtendedLifetime(token) {}
    }

    @Test func undoWithPendingEditsIsAnError() throws {
        let (graph, undo) = try makeGraph()
        graph.objects(of: Item.self)[0].quantity = 5
        try graph.commit()
        graph.objects(of: Item.self)[1].quantity = 7
        #expect(throws: UndoError.self) { try undo.undo() }
        #expect(graph.objects(of: Item.self)[0].quantity == 5 && graph.hasChanges)
    }

    @Test func stepsPastTheLevelLimitAreDropped() throws {
        let (graph, undo) = try makeGraph()
        undo.levelsOfUndo = 3
        let milk = graph.objects(of: Item.self)[0]
        for quantity in 1...5 {
            milk.quantity = quantity
            try graph.commit()
        }
        for _ in 0..<3 { try undo.undo() }
        #expect(milk.quantity == 2)
        #expect(!undo.canUndo)
        #expect(throws: UndoError.self) { try undo.undo() }
    }

    @Test func groupingMakesOneStepOfSeveralCommits() throws {
        let (graph, undo) = try makeGraph()
        let milk = graph.objects(of: Item.self)[0]
        undo.beginUndoGrouping()
        milk.quantity = 1
        try graph.commit()
        milk.name = "Oat milk"
        try graph.commit()
        undo.setActionName("Edit Milk")
        undo.endUndoGrouping()
        #expect(undo.undoActionName == "Edit Milk")
        try undo.undo()
        #expect(milk.quantity == 0 && milk.name == "Milk")
        #expect(!undo.canUndo)
    }

    @Test func importsAndOtherAuthorsAreNotRecordedAndConflictsAreRefused() throws {
        let (graph, undo) = try makeGraph()
        undo.nonUndoableAuthors = ["sync"]
        let milk = graph.objects(of: Item.self)[0]
        let eggs = graph.objects(of: Item.self)[1]
        milk.quantity = 2
        eggs.quantity = 4
        try graph.commit(actionName: "Quantities")
        // Another author changes eggs' quantity: undoing the step would overwrite it.
        eggs.quantity = 9
        try graph.commit(author: "sync")
        #expect(undo.undoActionName == "Quantities")
        #expect { try undo.undo() } throws: { error in
            guard case UndoError.conflict(let ids) = error as? UndoError ?? .nothingToUndo else { return false }
            return ids == [eggs.objectID]
        }
        #expect(milk.quantity == 2 && eggs.quantity == 9)
        // A change to another property of the same object does not conflict.
        let (other, otherUndo) = try makeGraph()
        otherUndo.nonUndoableAuthors = ["sync"]
        let bread = other.objects(of: Item.self)[2]
        bread.quantity = 3
        try other.commit()
        bread.name = "Rye"
        try other.commit(author: "sync")
        var batch = GraphBatch()
        batch.insert(Item.self, values: ["name": "Imported"])
        try other.apply(batch)
        try otherUndo.undo()
        #expect(bread.quantity == 0 && bread.name == "Rye")
        #expect(other.objects(of: Item.self).contains { $0.name == "Imported" })
    }

    @Test func aToManyRelationshipConflictsMemberByMember() throws {
        let (graph, undo) = try makeGraph()
        let home = try #require(graph.objects(of: Location.self).first { $0.name == "Home" })
        let added = graph.insert(Item())
        added.name = "Jam"
        added.location = home                 // home.items gains Jam
        try graph.commit(actionName: "Add Jam")
        // An import adds another item to the same location: no conflict with Jam's step.
        var batch = GraphBatch()
        batch.insert(Item.self, values: ["name": "Imported"], relationships: ["location": [.existing(home.objectID)]])
        try graph.apply(batch)
        try undo.undo()
        #expect(added.isDeleted)
        #expect(home.items.map(\.name).sorted() == ["Eggs", "Imported", "Milk"])
        // Moving the very member the step added does conflict.
        try undo.redo()
        let jam = try #require(graph.objects(of: Item.self).first { $0.name == "Jam" })
        undo.nonUndoableAuthors = ["sync"]
        jam.location = nil
        try graph.commit(author: "sync")
        #expect(throws: UndoError.self) { try undo.undo() }
        #expect(!jam.isDeleted && jam.location == nil)
    }

    @Test func aFailedUndoChangesNothingAndKeepsTheStep() throws {
        let graph = ObjectGraph()
        let undo = GraphUndoManager()
        graph.undoManager = undo
        let stock = graph.insert(Stock())
        stock.quantity = 1
        try graph.commit()
        graph.delete(stock)
        try graph.commit()
        // The stock comes back invalid: its validation now refuses it.
        stock.setValueForTesting(-1)
        #expect(throws: UndoError.self) { try undo.undo() }
        #expect(stock.isDeleted && !graph.hasChanges && undo.canUndo)
        stock.setValueForTesting(1)
        try undo.undo()
        #expect(!stock.isDeleted && graph.object(with: stock.objectID) === stock)
    }
}

extension Stock {
    /// Changes the stored quantity of a deleted stock without recording it.
    func setValueForTesting(_ quantity: Int) {
        let index = Stock.entity.indexByName["count"]!
        Stock.entity.accessors[index].store(self, quantity)
    }
}
