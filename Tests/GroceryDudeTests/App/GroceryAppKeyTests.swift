import FetchedResultsKit
import GroceryDudeCore
import Testing

/// The keys as a shopper presses them: the bugs a person hit in a real terminal.
@Suite("Grocery app, keys a shopper presses")
@MainActor
struct GroceryAppKeyTests {
    /// Presses the keys a terminal sends for `text` (Space for a space).
    private func typeKeys(_ app: GroceryApp, _ text: String) {
        for character in text { app.press(character == " " ? .space : .character(character)) }
    }

    @Test func spaceTypesASpaceWhileSearching() throws {
        let app = GroceryApp()
        let iceCream = try #require(app.store.item(named: "Vanilla ice cream"))
        #expect(!iceCream.listed)
        typeKeys(app, "ice cream")
        #expect(app.searchText == "ice cream")
        #expect(!iceCream.listed, "Space typed a space; it did not toggle the item under the cursor")
        #expect(screenText(app).contains("name CONTAINS[cd] \"ice cream\""))
        #expect(app.visibleScreen.selectedItemID == iceCream.objectID)
        app.press(.enter)
        #expect(iceCream.listed, "Enter toggles the selected item, in the results too")
        #expect(app.searchText == "ice cream")
    }

    @Test func spaceStillTogglesWhenNoSearchIsTyped() throws {
        let app = GroceryApp()
        app.select(named: "Butter")
        let butter = try #require(app.store.item(named: "Butter"))
        let was = butter.listed
        app.press(.space)
        #expect(butter.listed != was)
        #expect(app.searchText.isEmpty)
        app.press(.enter)
        #expect(butter.listed == was)
    }

    @Test func deleteAsksFirstAndAnyOtherKeyKeepsTheItem() throws {
        let app = GroceryApp()
        app.select(named: "Hand soap")
        let soap = try #require(app.store.item(named: "Hand soap"))
        let count = app.store.items.count
        app.press(.delete)
        #expect(!soap.isDeleted, "Delete asks before it deletes")
        #expect(app.prompt?.purpose == .confirmDelete)
        #expect(screenText(app).contains("Delete \"Hand soap\"?"))
        app.press(.delete)
        #expect(!soap.isDeleted && app.prompt == nil, "a second Delete answers no")
        #expect(app.statusLine.contains("kept Hand soap"))
        // Holding Ctrl-D: ask, keep, ask, keep; nothing is deleted.
        for _ in 0..<8 { app.press(.control("d")) }
        #expect(app.store.items.count == count)
        app.press(.control("d"))
        app.press(.character("y"))
        #expect(soap.isDeleted)
        #expect(app.store.items.count == count - 1)
        #expect(app.statusLine.contains("deleted Hand soap"))
    }

    @Test func deleteNeverEditsTheSearchText() throws {
        let app = GroceryApp()
        typeKeys(app, "soap")
        let soap = try #require(app.store.item(named: "Hand soap"))
        app.press(.delete)
        #expect(app.searchText == "soap")
        app.press(.escape)
        #expect(!soap.isDeleted && app.prompt == nil)
        #expect(app.searchText == "soap", "Escape answered the question; the search stays")
    }

    @Test func keysDoNothingWhileTheTerminalIsTooSmall() throws {
        let app = GroceryApp(size: TerminalSize(width: 30, height: 5))
        let before = app.store.items.map { ($0.name, $0.listed) }.sorted { $0.0 < $1.0 }
        let keys: [Key] = [
            .space, .enter, .down, .end, .right, .tab, .character("m"), .backspace, .delete, .control("d"),
            .character("y"), .control("n"), .character("x"), .enter, .control("r"), .control("o"), .escape,
        ]
        for key in keys { app.press(key) }
        #expect(app.store.items.map { ($0.name, $0.listed) }.sorted { $0.0 < $1.0 }.elementsEqual(before) { $0 == $1 })
        #expect(app.activeTab == .prepare && app.searchText.isEmpty && app.prompt == nil)
        #expect(app.visibleScreen.cursor == 0)
        #expect(app.takeRequestedImport() == nil)
        app.size = TerminalSize(width: 60, height: 15)
        app.press(.down)
        #expect(app.visibleScreen.cursor == 1, "keys act again once the terminal is large enough")
        app.size = TerminalSize(width: 30, height: 5)
        app.press(.control("q"))
        #expect(app.isFinished, "quitting works at any size")
    }
}
