import Foundation
import FetchedResultsKit
import GroceryDudeCore
import Testing

/// Adding and editing an item as a form: name, quantity, note, location and aisle.
@Suite("Grocery app, editing items")
@MainActor
struct GroceryAppEditTests {
    /// Types text into the open form, a key per character.
    private func type(_ text: String, into app: GroceryApp) {
        for character in text { app.press(character == " " ? .space : .character(character)) }
    }

    @Test func addingChoosesQuantityNoteAndLocation() throws {
        let app = GroceryApp()
        app.select(named: "Rice")
        app.press(.control("n"))
        type("Kale", into: app)
        app.press(.tab)
        type("2 bunches", into: app)
        app.press(.tab)
        type("curly", into: app)
        app.press(.tab)
        #expect(screenText(app).contains("Location: ◂ Pantry ▸"), "\(screenText(app))")
        app.press(.left)
        #expect(screenText(app).contains("Location: ◂ Laundry ▸"), "\(screenText(app))")
        app.press(.enter)
        let kale = try #require(app.store.item(named: "Kale"))
        #expect(kale.location?.name == "Laundry")
        #expect(kale.aisle?.name == "Canned & dry", "the aisle follows the row under the cursor")
        #expect(kale.quantity == "2 bunches" && kale.note == "curly")
        #expect(app.visibleScreen.selectedItemID == kale.objectID)
        #expect(screenText(app).contains("Kale · 2 bunches · curly"), "\(screenText(app))")
    }

    @Test func editingMovesAnItemAndUndoMovesItBack() throws {
        let app = GroceryApp()
        app.select(named: "Milk")
        let milk = try #require(app.store.item(named: "Milk"))
        let home = try #require(milk.location?.name)
        app.press(.control("r"))
        #expect(app.prompt?.text == "Milk")
        app.press(.tab)
        type("2 L", into: app)
        app.press(.tab)
        app.press(.tab)
        app.press(.right)
        app.press(.enter)
        #expect(milk.location?.name != home)
        #expect(milk.quantity == "2 L")
        #expect(app.visibleScreen.selectedItemID == milk.objectID, "the cursor follows it to its new section")
        app.undo()
        #expect(milk.location?.name == home && milk.quantity == "")
    }

    @Test func inShopTheAisleComesFirst() throws {
        let app = GroceryApp()
        app.switchTab(to: .shop)
        let id = try #require(app.visibleScreen.selectedItemID)
        let item = try #require(app.store.graph.object(with: id, as: Item.self))
        let aisle = try #require(item.aisle?.name)
        let location = item.location?.name
        app.press(.control("r"))
        app.press(.tab)
        app.press(.tab)
        app.press(.tab)
        #expect(screenText(app).contains("Aisle: ◂ \(aisle) ▸"), "\(screenText(app))")
        app.press(.right)
        app.press(.enter)
        #expect(item.aisle?.name != aisle && item.location?.name == location)
        #expect(app.visibleScreen.selectedItemID == id)
    }

    @Test func aDuplicateNameWarnsBeforeItIsAdded() throws {
        let app = GroceryApp()
        let count = app.store.items.count
        app.press(.control("n"))
        type("milk", into: app)
        app.press(.enter)
        #expect(app.store.items.count == count, "the first Enter warns")
        #expect(app.prompt != nil)
        #expect(screenText(app).contains("Milk is already on the list"), "\(screenText(app))")
        app.press(.enter)
        #expect(app.store.items.count == count + 1, "Enter again adds it anyway")
        #expect(app.prompt == nil)
    }

    @Test func renamingToAnotherItemsNameWarnsToo() throws {
        let app = GroceryApp()
        app.select(named: "Butter")
        app.press(.control("r"))
        for _ in 0..<6 { app.press(.backspace) }
        type("Milk", into: app)
        app.press(.enter)
        #expect(app.store.item(named: "Butter") != nil)
        #expect(screenText(app).contains("Milk is already on the list"))
        app.press(.escape)
        #expect(app.store.item(named: "Butter") != nil)
    }
}
