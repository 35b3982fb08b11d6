import Foundation
import FetchedResultsKit
import GroceryDudeCore
import Testing

@Suite("Grocery app")
@MainActor
struct GroceryAppTests {
    @Test func toggledItemReachesTheHiddenShopViewByReload() {
        let app = GroceryApp()
        app.explain = true
        let shop = app.screen(for: .shop)
        let reloads = shop.reloadCount
        app.select(named: "Butter")
        app.toggleSelected()
        #expect(app.statusLine.contains("listed Butter"))
        #expect(app.statusLine.contains("animated 1 change"))
        #expect(shop.reloadCount == reloads, "a hidden screen is not touched until it shows")
        app.switchTab(to: .shop)
        #expect(shop.reloadCount == reloads + 1)
        #expect(app.statusLine.contains("reloaded"))
        #expect(screenText(app).contains("> [x] Butter") || screenText(app).contains("  [x] Butter"))
        #expect(screenText(app).contains("── Dairy (3)"))
    }

    /// A location's header says how many of its items are still to get, and the Shop title
    /// how many in all: listing an item raises both at once, from the controllers' totals.
    @Test func headersAndTheTitleCountWhatIsStillToGet() throws {
        let app = GroceryApp()
        let prepare = app.screen(for: .prepare)
        app.select(named: "Cheddar")
        let section = try #require(prepare.selectedIndexPath?.section)
        let toGet = prepare.toGetCounts[section]
        let title = app.frame().summary
        app.toggleSelected()
        let listedNow = prepare.toGetCounts[section]
        #expect(listedNow == toGet + 1)
        #expect(screenText(app).contains("── \(prepare.sectionNames[section]) (\(prepare.rowCounts[section]) · \(listedNow) to get)"))
        #expect(app.frame().summary != title)
        app.switchTab(to: .shop)
        #expect(app.frame().summary.hasPrefix("\(app.screen(for: .shop).list.toGetCount) left to get"))
    }

    @Test func aVisibleChangeAnimatesAndMarksTheRow() throws {
        let app = GroceryApp()
        let prepare = app.screen(for: .prepare)
        app.select(named: "Cheddar")
        let id = try #require(prepare.selectedItemID)
        let batches = prepare.batchCount
        app.toggleSelected()
        #expect(prepare.batchCount == batches + 1)
        #expect(prepare.marked == [id])
        #expect(screenText(app).contains(">*[x] Cheddar"))
        app.press(.down)
        #expect(prepare.marked.isEmpty)
        #expect(screenText(app).contains("  [x] Cheddar"))
    }

    @Test func searchNarrowsRowsAndKeepsSections() throws {
        let app = GroceryApp()
        app.explain = true
        app.type("JAM")
        let search = try #require(app.searchScreen)
        #expect(search.sectionNames == ["Fridge", "Pantry"])
        #expect(search.totalRows == 2)
        let text = screenText(app)
        #expect(text.contains("── Fridge (1)") && text.contains("── Pantry (1)"))
        #expect(text.contains("Strawberry jam") && text.contains("Apricot jam"))
        #expect(!text.contains("Butter"))
        #expect(text.contains("name CONTAINS[cd] \"JAM\""))
        app.type("x")
        #expect(search.totalRows == 0)
        #expect(screenText(app).contains("no item matches \"JAMx\""))
        app.backspace()
        #expect(search.totalRows == 2)
        #expect(app.statusLine.contains("animated"))
    }

    @Test func searchIgnoresCaseAndDiacritics() throws {
        let app = GroceryApp()
        app.type("creme")
        let search = try #require(app.searchScreen)
        #expect(search.totalRows == 1)
        #expect(screenText(app).contains("Crème fraîche"))
    }

    @Test func togglingInSearchResultsUpdatesBothLists() throws {
        let app = GroceryApp()
        app.explain = true
        app.type("jam")
        app.select(named: "Strawberry jam")
        app.toggleSelected()
        let id = try #require(app.store.item(named: "Strawberry jam")?.objectID)
        #expect(app.screen(for: .shop).list.indexPath(of: id) != nil)
        #expect(app.statusLine.contains("Prepare, Shop: reload owed (hidden)"))
        app.escape()
        #expect(app.searchScreen == nil)
        #expect(app.statusLine.contains("reloaded"))
        #expect(app.visibleScreen.selectedItemID == id, "the cursor stays on the item found")
        #expect(screenText(app).contains(">*[x] Strawberry jam") || screenText(app).contains("> [x] Strawberry jam"))
        app.switchTab(to: .shop)
        #expect(screenText(app).contains("Strawberry jam"))
    }

    @Test func deletingInSearchResultsUpdatesBothLists() throws {
        let app = GroceryApp()
        app.explain = true
        let milk = try #require(app.store.item(named: "Milk")?.objectID)
        app.type("mil")
        app.select(named: "Milk")
        app.deleteSelected()
        #expect(app.statusLine.hasPrefix("animated 1 change · deleted Milk"))
        #expect(app.screen(for: .prepare).list.indexPath(of: milk) == nil)
        #expect(app.screen(for: .shop).list.indexPath(of: milk) == nil)
        app.escape()
        #expect(!screenText(app).contains("Milk"))
    }

    @Test func addRenameDeleteFromTheKeyboard() throws {
        let app = GroceryApp()
        app.select(named: "Rice")
        app.press(.control("n"))
        #expect(app.prompt?.purpose == .add)
        for character in "Kale" { app.press(.character(character)) }
        #expect(screenText(app).contains("New item: Kale_"))
        app.press(.enter)
        let kale = try #require(app.store.item(named: "Kale"))
        #expect(kale.location?.name == "Pantry" && kale.aisle?.name == "Canned & dry" && !kale.listed)
        #expect(app.visibleScreen.selectedItemID == kale.objectID)

        app.press(.control("r"))
        #expect(app.prompt?.text == "Kale")
        for _ in 0..<4 { app.press(.backspace) }
        app.type("Zucchini")
        app.press(.enter)
        #expect(kale.name == "Zucchini")
        #expect(app.visibleScreen.selectedItemID == kale.objectID)

        app.press(.control("r"))
        app.press(.escape)
        #expect(app.prompt == nil && kale.name == "Zucchini")

        let count = app.store.items.count
        app.press(.control("d"))
        #expect(app.store.items.count == count, "Ctrl-D asks first")
        app.press(.character("y"))
        #expect(app.store.items.count == count - 1)
        #expect(kale.isDeleted)
    }

    @Test func addingInShopListsTheItem() throws {
        let app = GroceryApp()
        app.switchTab(to: .shop)
        app.add(name: "Baguette")
        let baguette = try #require(app.store.item(named: "Baguette"))
        #expect(baguette.listed)
        #expect(screenText(app).contains("Baguette"))
    }

    @Test func emptyNamesAreRefusedAndNothingChanges() throws {
        let app = GroceryApp()
        let count = app.store.items.count
        app.add(name: "   ")
        #expect(app.store.items.count == count)
        #expect(app.statusLine.contains("an item needs a name"))
        #expect(!app.store.graph.hasChanges)
        app.select(named: "Milk")
        app.renameSelected(to: "")
        #expect(app.store.item(named: "Milk") != nil)
        #expect(app.statusLine.contains("an item needs a name"))
    }

    @Test func commandsWithoutASelectionSaySo() {
        let app = GroceryApp(store: GroceryStore(seeded: false))
        app.toggleSelected()
        #expect(app.statusLine.contains("no item is selected"))
        app.deleteSelected()
        app.press(.control("r"))
        #expect(app.prompt == nil)
        #expect(screenText(app).contains("no items: press Ctrl-N"))
        app.select(named: "Nothing")
        #expect(app.statusLine.contains("no item is called"))
    }

    @Test func cursorKeys() throws {
        let app = GroceryApp()
        let screen = app.visibleScreen
        #expect(screen.cursor == 0)
        app.press(.down)
        app.press(.down)
        #expect(screen.cursor == 2)
        app.press(.up)
        #expect(screen.cursor == 1)
        app.press(.pageDown)
        #expect(screen.cursor == 1 + FrameRenderer.bodyHeight(for: app.size))
        app.press(.end)
        #expect(screen.cursor == screen.totalRows - 1)
        app.press(.pageDown)
        #expect(screen.cursor == screen.totalRows - 1)
        app.press(.home)
        #expect(screen.cursor == 0)
        app.press(.pageUp)
        #expect(screen.cursor == 0)
        app.press(.right)
        #expect(screen.selectedIndexPath == IndexPath(row: 0, section: 1))
        app.press(.right)
        app.press(.left)
        #expect(screen.selectedIndexPath == IndexPath(row: 0, section: 1))
        #expect(app.frame().currentIndexTitle == 1)
        #expect(app.frame().indexTitles == ["B", "F", "L", "P"])
        app.press(.right)
        #expect(app.frame().currentIndexTitle == 1, "Fridge shares the F entry")
        app.press(.left)
        app.press(.tab)
        #expect(app.activeTab == .shop)
        app.press(.control("q"))
        #expect(app.isFinished)
    }

    /// Left and Right jump to the previous or next section and bring its header to the top
    /// line, as a section index does; the last sections, which cannot scroll that far, show
    /// as far down as the list goes.
    @Test func leftAndRightBringTheSectionHeaderToTheTop() throws {
        let app = GroceryApp(size: TerminalSize(width: 60, height: 12))
        let screen = app.visibleScreen
        /// A Prepare header: its location, its rows and how many of them are still to get.
        func header(_ section: Int) -> Frame.Line {
            let toGet = screen.toGetCounts[section]
            return .header(title: screen.sectionNames[section], count: screen.rowCounts[section], detail: toGet > 0 ? "\(toGet) to get" : "")
        }
        app.press(.right)
        var body = app.frame().body
        #expect(body.first == header(1), "\(body)")
        app.press(.right)
        body = app.frame().body
        #expect(body.first == header(2), "\(body)")
        app.press(.left)
        body = app.frame().body
        #expect(body.first == header(1), "\(body)")
        app.press(.down)
        body = app.frame().body
        #expect(body.first == header(1), "a cursor move does not scroll")
    }

    @Test func theCursorStaysVisibleWhenScrolling() {
        let app = GroceryApp()
        for _ in 0..<30 {
            app.press(.down)
            #expect(app.frame().body.contains { if case .row(_, _, _, _, true, _) = $0 { true } else { false } })
        }
    }

    @Test func importCommitsEverythingInOneCommit() async throws {
        let app = GroceryApp()
        app.explain = true
        var commits = 0
        let observation = app.store.graph.addObserver { _ in commits += 1 }
        let before = app.store.items.count
        let events = await runImport(app, count: 40)
        #expect(commits == 1)
        #expect(app.store.items.count == before + 40)
        #expect(events.filter { if case .progress = $0 { true } else { false } }.count == 4)
        #expect(app.importProgress == nil)
        #expect(app.statusLine.contains("imported 40 items, 1 commit"))
        #expect(app.statusLine.contains("reloaded"))
        observation.cancel()
    }

    @Test func aFailedImportCommitsNothing() async throws {
        let app = GroceryApp()
        var commits = 0
        let observation = app.store.graph.addObserver { _ in commits += 1 }
        let before = app.store.items.count
        let prepareRows = app.screen(for: .prepare).totalRows
        await runImport(app, count: 40, failingAt: 20)
        #expect(commits == 0)
        #expect(app.store.items.count == before)
        #expect(!app.store.graph.hasChanges)
        #expect(app.screen(for: .prepare).totalRows == prepareRows)
        #expect(app.statusLine.contains("import failed after 20 of 40 items, nothing committed"))
        observation.cancel()
    }

    @Test func oneImportAtATime() async {
        let app = GroceryApp()
        let first = app.beginImport(count: 10)
        #expect(first != nil)
        #expect(app.beginImport(count: 10) == nil)
        #expect(app.statusLine.contains("importing"))
        app.press(.control("o"))
        #expect(app.takeRequestedImport() == nil)
        if let first { for await event in first { app.apply(event) } }
        app.press(.control("o"))
        #expect(app.takeRequestedImport() == app.keyboardImportCount)
        #expect(app.takeRequestedImport() == nil)
    }

    @Test func tooSmallTerminal() {
        let app = GroceryApp(size: TerminalSize(width: 20, height: 5))
        let lines = app.render()
        #expect(lines.count == 5)
        #expect(lines.joined(separator: " ").contains("terminal too small"))
        app.press(.down)
        app.toggleSelected()
        app.size = TerminalSize(width: 60, height: 15)
        #expect(app.render().count == 15)
    }
}

@Suite("Grocery app, search in Shop")
@MainActor
struct GroceryAppShopSearchTests {
    @Test func unlistingInShopResultsCountsTheLiveList() throws {
        let app = GroceryApp()
        app.explain = true
        app.switchTab(to: .shop)
        app.type("m")
        app.select(named: "Milk")
        app.toggleSelected()
        #expect(screenText(app).contains("listed == TRUE AND name CONTAINS[cd] \"m\""))
        #expect(screenText(app).contains("[✓] Milk"), "ticked off, Milk stays in the results until a refresh")
        #expect(app.frame().summary == "8 left to get · 1 ticked")
        app.press(.control("l"))
        #expect(screenText(app).contains("of 8 (Esc clears)"), "Shop now holds 8 listed items, though its screen is hidden")
        #expect(screenText(app).contains("no listed item matches \"m\""))
        app.escape()
        #expect(!screenText(app).contains("[x] Milk"))
        #expect(app.statusLine.hasPrefix("reloaded (target not visible)"))
    }
}

/// Marks land on the rows a batch changed, at their positions after it, when one commit
/// changes a row and inserts or deletes rows before it in the same section.
@Suite("Grocery app, marks")
@MainActor
struct GroceryAppMarkTests {
    @Test(arguments: [false, true])
    func aChangedRowIsMarkedWhereItEndsUp(deleteAbove: Bool) throws {
        let app = GroceryApp(size: TerminalSize(width: 80, height: 30))
        let store = app.store
        let shampoo = try #require(store.item(named: "Shampoo"))
        let floss = try #require(store.item(named: "Dental floss"))
        let bathroom = shampoo.location
        var added: Item?
        try store.commit {
            if deleteAbove {
                store.graph.delete(floss)
            } else {
                let new = store.graph.insert(Item())
                new.name = "Aftershave"
                new.location = bathroom
                added = new
            }
            shampoo.note = "the mild one"
        }
        // Any command flushes what the lists accumulated; this one also selects the row.
        app.select(named: "Shampoo")
        let screen = app.visibleScreen
        var expected: Set<ObjectID> = [shampoo.objectID]
        if let added { expected.insert(added.objectID) }
        #expect(screen.marked == expected)
        #expect(screen.refusedBatch == nil)
        #expect(screenText(app).contains(">*[ ] Shampoo · the mild one"), "\(screenText(app))")
    }
}
