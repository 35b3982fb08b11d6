import FetchedResultsKit
import GroceryDudeCore
import Testing

/// Ctrl-U and Ctrl-Y: each user action undone and redone, animated, named on the status line.
@Suite("Grocery app, undo and redo")
@MainActor
struct GroceryAppUndoTests {
    /// Checks that every list shows exactly what a fresh fetch would.
    private func expectListsMatchTheGraph(_ app: GroceryApp, sourceLocation: SourceLocation = #_sourceLocation) {
        for kind in ListKind.allCases {
            let list = app.screen(for: kind).list
            #expect(names(list) == referenceNames(app.store, kind: kind, search: ""), sourceLocation: sourceLocation)
        }
    }

    @Test func undoAndRedoADelete() throws {
        let app = GroceryApp()
        app.explain = true
        let prepare = app.screen(for: .prepare)
        app.select(named: "Shampoo")
        let shampoo = try #require(app.store.item(named: "Shampoo"))
        let id = shampoo.objectID
        app.press(.control("d"))
        app.press(.character("y"))
        #expect(shampoo.isDeleted)
        #expect(app.statusLine.contains("deleted Shampoo (Ctrl-U undoes)"))
        let batches = prepare.batchCount
        app.press(.control("u"))
        #expect(app.statusLine == "animated 1 change · undid Delete Shampoo", "\(app.statusLine)")
        let back = try #require(app.store.item(named: "Shampoo"))
        #expect(back.objectID == id, "the same item comes back")
        #expect(back.location?.name == "Bathroom" && back.aisle?.name == "Toiletries")
        #expect(prepare.batchCount == batches + 1, "the row animates back")
        #expect(prepare.marked == [id])
        #expect(prepare.selectedItemID == id, "the cursor is on the item that came back")
        #expect(screenText(app).contains(">*[ ] Shampoo"))
        expectListsMatchTheGraph(app)
        app.press(.control("y"))
        #expect(app.statusLine == "animated 1 change · redid Delete Shampoo", "\(app.statusLine)")
        #expect(app.store.item(named: "Shampoo") == nil)
        expectListsMatchTheGraph(app)
        app.press(.control("y"))
        #expect(app.statusLine == "nothing to redo")
    }

    @Test func undoARenameAndAToggle() throws {
        let app = GroceryApp()
        app.explain = true
        app.select(named: "Butter")
        let butter = try #require(app.store.item(named: "Butter"))
        app.toggleSelected()
        #expect(butter.listed)
        app.renameSelected(to: "Salted butter")
        app.press(.control("u"))
        #expect(butter.name == "Butter")
        #expect(app.statusLine.contains("undid Rename Butter to Salted butter"), "\(app.statusLine)")
        #expect(app.statusLine.hasPrefix("animated"))
        #expect(app.visibleScreen.selectedItemID == butter.objectID)
        app.press(.control("u"))
        #expect(!butter.listed)
        #expect(app.statusLine.contains("undid List Butter"), "\(app.statusLine)")
        app.press(.control("u"))
        #expect(app.statusLine == "nothing to undo")
        app.press(.control("y"))
        app.press(.control("y"))
        #expect(butter.listed && butter.name == "Salted butter")
        #expect(app.statusLine.contains("redid Rename Butter to Salted butter"), "\(app.statusLine)")
        expectListsMatchTheGraph(app)
    }

    @Test func aNewActionAfterAnUndoForgetsTheRedo() throws {
        let app = GroceryApp()
        app.select(named: "Eggs")
        app.toggleSelected()
        app.undo()
        app.add(name: "Scones")
        app.redo()
        #expect(app.statusLine == "nothing to redo")
        app.undo()
        #expect(app.statusLine.contains("undid Add Scones"), "\(app.statusLine)")
        #expect(app.store.item(named: "Scones") == nil)
    }

    @Test func undoAfterASearchDrivenEdit() throws {
        let app = GroceryApp()
        app.type("jam")
        let search = try #require(app.searchScreen)
        app.press(.down)
        let jam = try #require(search.selectedItemID.flatMap { app.store.graph.object(with: $0, as: Item.self) })
        let was = jam.listed
        app.press(.enter)
        #expect(jam.listed != was)
        let batches = search.batchCount
        app.press(.control("u"))
        #expect(jam.listed == was)
        #expect(app.searchText == "jam", "the search stays")
        #expect(search.batchCount == batches + 1, "the results animate")
        #expect(app.statusLine.contains("undid \(was ? "Unlist" : "List") \(jam.name)"), "\(app.statusLine)")
        #expect(names(search.list) == referenceNames(app.store, kind: .prepare, search: "jam"))
        expectListsMatchTheGraph(app)
    }

    /// Imports are batches, not undo steps. Undo then reaches the user's actions before the
    /// import: the import only added other members to the lists those actions changed.
    @Test func undoAfterAnImport() async throws {
        let app = GroceryApp()
        app.select(named: "Cheddar")
        let cheddar = try #require(app.store.item(named: "Cheddar"))
        app.toggleSelected()
        await runImport(app, count: 40)
        #expect(app.store.items.count == 82)
        app.undo()
        #expect(!cheddar.listed, "the toggle before the import is undone")
        #expect(app.store.items.count == 82, "the import stays")
        #expect(app.statusLine.contains("undid List Cheddar"), "\(app.statusLine)")

        app.add(name: "Scones")
        await runImport(app, count: 40)
        app.undo()
        #expect(app.store.item(named: "Scones") == nil, "the add before the import is undone")
        #expect(app.store.items.count == 122, "both imports stay")
        #expect(app.statusLine.contains("undid Add Scones"), "\(app.statusLine)")
        expectListsMatchTheGraph(app)
    }
}
