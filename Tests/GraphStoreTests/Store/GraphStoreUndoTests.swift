import Foundation
@testable import GraphStore
import ObjectGraph
import Testing
import TestSupport

final class UndoFolder: GraphObject {
    @Attribute var name = ""
    @Relationship(inverse: \UndoNote.folder, deleteRule: .cascade) var notes: [UndoNote]
}

final class UndoNote: GraphObject {
    @Attribute var text = ""
    @Attribute var stars = 0
    @Relationship var folder: UndoFolder?
    @Relationship(inverse: \UndoLabel.notes) var labels: Set<UndoLabel>
}

final class UndoLabel: GraphObject {
    @Attribute var title = ""
    @Relationship var notes: Set<UndoNote>
}

let undoSchema = try! StoreSchema([UndoFolder.self, UndoNote.self, UndoLabel.self])

/// Everything the graph holds, object by object in serial order, IDs and order included.
func undoDump(_ graph: ObjectGraph) -> [String] {
    func ids(_ objects: [GraphObject], ordered: Bool) -> String {
        let names = objects.map { "\($0.objectID)" }
        return "[" + (ordered ? names : names.sorted()).joined(separator: ",") + "]"
    }
    var lines: [String] = []
    for folder in graph.objects(of: UndoFolder.self) {
        lines.append("\(folder.objectID) \(folder.name) \(ids(folder.notes, ordered: true))")
    }
    for note in graph.objects(of: UndoNote.self) {
        lines.append("\(note.objectID) \(note.text)|\(note.stars) folder=\(note.folder.map { "\($0.objectID)" } ?? "-") \(ids(Array(note.labels), ordered: false))")
    }
    for label in graph.objects(of: UndoLabel.self) {
        lines.append("\(label.objectID) \(label.title) \(ids(Array(label.notes), ordered: false))")
    }
    return lines
}

/// Undo and redo are commits like any other: the store replays them to the same graph.
@Suite("GraphStore: undo and redo across reopening")
struct GraphStoreUndoTests {
    static let path = "/store"

    static func open(_ fileSystem: SimulatedFileSystem, _ recovery: GraphStore.Recovery = .refuse) throws -> GraphStore {
        try GraphStore.open(
            path: path, schema: undoSchema, options: GraphStore.Options(recovery: recovery, compactionFactor: nil),
            fileSystem: fileSystem)
    }

    /// The issue's reproduction: an undone delete survives a relaunch, and so do later edits
    /// of the object it brought back.
    @Test func undoneDeleteSurvivesReopening() throws {
        let fileSystem = SimulatedFileSystem()
        let store = try Self.open(fileSystem)
        let undo = GraphUndoManager(levelsOfUndo: 10)
        store.graph.undoManager = undo
        let eggs = store.graph.insert(UndoNote())
        eggs.text = "Eggs"
        try store.graph.commit()
        store.graph.delete(eggs)
        try store.graph.commit()
        try undo.undo()
        let back = try #require(store.graph.objects(of: UndoNote.self).first)
        back.stars = 3
        try store.graph.commit()
        let expected = undoDump(store.graph)
        store.close()
        let reopened = try Self.open(fileSystem)
        #expect(undoDump(reopened.graph) == expected)
        #expect(reopened.openReport.isClean, "\(reopened.openReport)")
        reopened.close()
    }

    /// A redone insert keeps its serial too.
    @Test func redoneInsertSurvivesReopening() throws {
        let fileSystem = SimulatedFileSystem()
        let store = try Self.open(fileSystem)
        let undo = GraphUndoManager(levelsOfUndo: 10)
        store.graph.undoManager = undo
        let folder = store.graph.insert(UndoFolder())
        folder.name = "Inbox"
        let note = store.graph.insert(UndoNote())
        note.text = "Milk"
        folder.notes.append(note)
        try store.graph.commit()
        try undo.undo()
        try undo.redo()
        let expected = undoDump(store.graph)
        #expect(expected.count == 2)
        store.close()
        let reopened = try Self.open(fileSystem)
        #expect(undoDump(reopened.graph) == expected)
        #expect(reopened.openReport.isClean, "\(reopened.openReport)")
        reopened.close()
    }

    /// Random commits, undo, redo and single-commit groups; at random points the store is
    /// closed and reopened, compacted, or loses power. The reopened graph is the graph in
    /// memory (every durable commit), IDs and order included, and the report is clean.
    ///
    /// Undo groups span one commit each here: groups of several commits depend on undo
    /// fixes made elsewhere (a group that edits then deletes an object).
    @Test(arguments: testSeeds(count: 6))
    func randomUndoRedoReopens(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let fileSystem = SimulatedFileSystem()
        var store = try Self.open(fileSystem)
        var undo = GraphUndoManager(levelsOfUndo: 20)
        store.graph.undoManager = undo
        func reopen(_ why: String, candidates: [[String]]) throws {
            store.close()
            store = try Self.open(fileSystem)
            let state = undoDump(store.graph)
            #expect(candidates.contains(state), "seed \(seed), after \(why): \(store.openReport)\(difference(state, candidates.last))")
            #expect(store.openReport.isClean && store.openReport.damage.isEmpty, "seed \(seed), after \(why): \(store.openReport)")
            undo = GraphUndoManager(levelsOfUndo: 20)
            store.graph.undoManager = undo
        }
        for step in 0..<160 {
            let graph = store.graph
            let before = undoDump(graph)
            let crashes = fileSystem.crashCount
            let operation = Int.random(in: 0..<10, using: &rng)
            // A crash during an undo or redo leaves no state in memory to compare with (the
            // step is rolled back): crashes come during commits and compactions, the same
            // write path an undo's commit takes.
            let crash = (operation < 4 || operation == 7) && Int.random(in: 0..<6, using: &rng) == 0
            if crash { fileSystem.scheduleCrash(afterOperations: Int.random(in: 0..<4, using: &rng), seed: seed &+ UInt64(step)) }
            var attempted = before
            do {
                switch operation {
                case 0, 1, 2, 3:
                    let grouped = Bool.random(using: &rng)
                    if grouped { undo.beginUndoGrouping() }
                    for _ in 0..<Int.random(in: 1...3, using: &rng) { Self.edit(graph, &rng) }
                    try graph.commit(actionName: "step \(step)")
                    if grouped { undo.endUndoGrouping() }
                case 4, 5: if undo.canUndo { try undo.undo() }
                case 6: if undo.canRedo { try undo.redo() }
                case 7: try store.compact()
                case 8: try reopen("reopening at step \(step)", candidates: [before])
                default:
                    _ = fileSystem.simulatePowerLoss(seed: seed &+ UInt64(step))
                    try reopen("a power loss at step \(step)", candidates: [before])
                }
            } catch {
                // Only a crash makes a step fail; what it tried to commit is still pending.
                #expect(fileSystem.crashCount > crashes, "seed \(seed), step \(step): \(error)")
                attempted = undoDump(graph)
                if undo.groupingLevel > 0 { undo.endUndoGrouping() }
                graph.rollback()
            }
            if fileSystem.crashCount > crashes {
                // The step's commit may or may not have reached the disk.
                try reopen("a crash at step \(step) (operation \(operation))", candidates: [before, attempted, undoDump(graph)])
            } else if crash {
                fileSystem.cancelScheduledCrash()
            }
            #expect(!graph.hasChanges || store.graph !== graph, "seed \(seed), step \(step)")
        }
        try reopen("the last step", candidates: [undoDump(store.graph)])
        store.close()
    }

    /// One random edit: inserts, attribute and to-one changes, to-many and ordered to-many
    /// changes, deletions (a folder's cascade to its notes).
    static func edit(_ graph: ObjectGraph, _ rng: inout SeededGenerator) {
        let folders = graph.objects(of: UndoFolder.self)
        let notes = graph.objects(of: UndoNote.self)
        let labels = graph.objects(of: UndoLabel.self)
        switch Int.random(in: 0..<11, using: &rng) {
        case 0:
            let folder = graph.insert(UndoFolder())
            folder.name = "folder \(Int.random(in: 0..<100, using: &rng))"
        case 1, 2:
            let note = graph.insert(UndoNote())
            note.text = "note \(Int.random(in: 0..<1000, using: &rng))"
            if let folder = folders.randomElement(using: &rng) {
                folder.notes.insert(note, at: Int.random(in: 0...folder.notes.count, using: &rng))
            }
        case 3: if let note = notes.randomElement(using: &rng) { note.stars = Int.random(in: 0..<6, using: &rng) }
        case 4: notes.randomElement(using: &rng)?.folder = folders.randomElement(using: &rng)
        case 5:
            if let folder = folders.randomElement(using: &rng), folder.notes.count > 1 {
                folder.notes = folder.notes.shuffled(using: &rng)
            }
        case 6:
            if labels.count < 5 {
                let label = graph.insert(UndoLabel())
                label.title = "label \(Int.random(in: 0..<100, using: &rng))"
            }
        case 7:
            if let note = notes.randomElement(using: &rng), let label = labels.randomElement(using: &rng) {
                if note.labels.contains(label) { note.labels.remove(label) } else { note.labels.insert(label) }
            }
        case 8: if let note = notes.randomElement(using: &rng) { graph.delete(note) }
        case 9: if let folder = folders.randomElement(using: &rng) { graph.delete(folder) }
        default: if let label = labels.randomElement(using: &rng) { graph.delete(label) }
        }
    }
}
