import FetchedResultsKit
import GroceryDudeCore
import Testing

/// What drawing a frame costs: it reads the items it shows and nothing else, however many
/// items there are (the title's counts come from the controllers, not from counting items).
@Suite("Frame cost")
@MainActor
struct FrameCostTests {
    @Test func aFrameReadsOnlyTheItemsItShows() async {
        let app = GroceryApp(size: TerminalSize(width: 80, height: 20))
        await runImport(app, count: 2000)
        app.press(.pageDown)
        let (lines, reads) = app.store.graph.trackReads { app.render() }
        let shown = app.frame().body.filter { if case .row = $0 { true } else { false } }.count
        #expect(lines.count == 20)
        #expect(reads.objectIDs.count <= shown, "read \(reads.objectIDs.count) objects to show \(shown) rows")
        let listed = app.store.items.filter(\.listed).count
        #expect(lines[0].hasSuffix("2042 items · \(listed) listed "), "\(lines[0])")
    }

    @Test func theTitleCountsFollowEveryCommit() throws {
        let app = GroceryApp()
        #expect(app.frame().summary == "42 items · 9 listed")
        app.select(named: "Butter")
        app.toggleSelected()
        #expect(app.frame().summary == "42 items · 10 listed")
        app.type("jam")
        #expect(app.frame().summary == "42 items · 10 listed", "a search does not change the counts")
        app.add(name: "Fig jam")
        #expect(app.frame().summary == "43 items · 10 listed")
    }
}

/// What a toggle costs: the screen re-reads its sections, not every row, so a toggle reads
/// the items it changes and shows, however many items there are.
@Suite("Toggle cost")
@MainActor
struct ToggleCostTests {
    @Test(arguments: [ListKind.prepare, .shop])
    func aToggleReadsOnlyTheItemsItShows(tab: ListKind) async throws {
        let app = GroceryApp(size: TerminalSize(width: 80, height: 20))
        await runImport(app, count: 2000)
        app.switchTab(to: tab)
        app.press(.pageDown)
        let shown = app.frame().body.filter { if case .row = $0 { true } else { false } }.count
        let (_, reads) = app.store.graph.trackReads {
            app.toggleSelected()
            _ = app.render()
        }
        #expect(app.statusLine.contains(tab == .shop ? "got" : "listed"), "\(app.statusLine)")
        #expect(reads.objectIDs.count <= shown + 2, "read \(reads.objectIDs.count) objects to toggle one of \(shown) shown")
    }
}
