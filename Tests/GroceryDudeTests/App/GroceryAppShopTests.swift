import Foundation
import FetchedResultsKit
import GroceryDudeCore
import Testing

/// The Shop view as a shopper uses it: ticking items off while walking the aisles.
@Suite("Grocery app, shopping")
@MainActor
struct GroceryAppShopTests {
    /// Ticking an item off in Shop takes it off the list but keeps its row, struck through,
    /// with the cursor on it: a second press puts the same item back instead of ticking the
    /// next one.
    @Test func aTickedItemStaysVisibleAndADoublePressUnticksIt() throws {
        let app = GroceryApp()
        app.switchTab(to: .shop)
        let screen = app.visibleScreen
        let id = try #require(screen.selectedItemID)
        let item = try #require(app.store.graph.object(with: id, as: Item.self))
        let rows = screen.totalRows
        app.press(.enter)
        #expect(!item.listed, "ticking takes it off the list")
        #expect(screen.totalRows == rows, "the ticked row stays")
        #expect(screen.selectedItemID == id, "the cursor stays on it")
        #expect(screenText(app).contains(">*[✓] \(item.name)"), "\(screenText(app))")
        app.press(.enter)
        #expect(item.listed, "the second press puts the same item back")
        #expect(screen.selectedItemID == id)
        #expect(screenText(app).contains("[x] \(item.name)"))
    }

    /// The ticked rows go when the list is refreshed (Ctrl-L) or the view is left.
    @Test(arguments: [false, true])
    func tickedRowsGoOnRefreshOrWhenTheViewIsLeft(leave: Bool) throws {
        let app = GroceryApp()
        app.switchTab(to: .shop)
        let screen = app.visibleScreen
        let rows = screen.totalRows
        let first = try #require(screen.selectedItemID)
        app.press(.enter)
        app.press(.down)
        let second = try #require(screen.selectedItemID)
        app.press(.enter)
        #expect(screen.totalRows == rows)
        if leave {
            app.press(.tab)
            app.press(.tab)
        } else {
            app.press(.control("l"))
        }
        #expect(screen.totalRows == rows - 2)
        #expect(screen.list.indexPath(of: first) == nil && screen.list.indexPath(of: second) == nil)
        #expect(!screenText(app).contains("[✓]"))
    }

    /// After a refresh the cursor is on the next item still to get: the first row after the
    /// ticked ones, not the row that slid into the cursor's old position.
    @Test func aRefreshPutsTheCursorOnTheNextItemToGet() throws {
        let app = GroceryApp()
        app.switchTab(to: .shop)
        let screen = app.visibleScreen
        app.press(.enter)
        app.press(.down)
        app.press(.enter)
        app.press(.down)
        let next = try #require(screen.selectedItemID)
        app.press(.up)
        app.press(.control("l"))
        #expect(screen.selectedItemID == next, "\(screenText(app))")
        #expect(screen.selectedIndexPath == IndexPath(row: 0, section: 0))
    }

    /// Ticking the last rows and refreshing puts the cursor on the last row that stays.
    @Test func aRefreshAfterTickingTheLastRowsSelectsTheLastRowThatStays() throws {
        let app = GroceryApp()
        app.switchTab(to: .shop)
        let screen = app.visibleScreen
        screen.setCursor(screen.totalRows - 3)
        let stays = try #require(screen.selectedItemID)
        app.press(.down)
        app.press(.enter)
        app.press(.down)
        app.press(.enter)
        app.press(.up)
        app.press(.control("l"))
        #expect(screen.selectedItemID == stays, "\(screenText(app))")
    }

    /// Shop's title says how many items are left to get, counting ticked ones as got.
    @Test func theTitleSaysHowManyItemsAreLeftToGet() throws {
        let app = GroceryApp()
        let listed = app.store.items.filter(\.listed).count
        app.switchTab(to: .shop)
        #expect(app.frame().summary == "\(listed) left to get", "\(app.frame().summary)")
        app.press(.enter)
        #expect(app.frame().summary == "\(listed - 1) left to get · 1 ticked", "\(app.frame().summary)")
        app.press(.enter)
        #expect(app.frame().summary == "\(listed) left to get")
        app.press(.enter)
        app.press(.control("l"))
        #expect(app.frame().summary == "\(listed - 1) left to get")
    }

    /// Ticking inside a search in Shop keeps the row too, and the search follows the refresh.
    @Test func aTickedItemStaysInShopSearchResults() throws {
        let app = GroceryApp()
        app.switchTab(to: .shop)
        let name = try #require(app.visibleScreen.selectedItemID.flatMap { app.store.graph.object(with: $0, as: Item.self) }?.name)
        app.type(String(name.prefix(3)))
        let search = try #require(app.searchScreen)
        app.select(named: name)
        let rows = search.totalRows
        app.press(.enter)
        #expect(search.totalRows == rows)
        app.press(.control("l"))
        #expect(search.totalRows == rows - 1)
    }
}
