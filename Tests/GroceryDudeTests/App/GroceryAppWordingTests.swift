import Foundation
import FetchedResultsKit
import GroceryDudeCore
import Testing

/// The status line speaks to a shopper; `--explain` (the tour) adds the library's wording.
@Suite("Grocery app, wording")
@MainActor
struct GroceryAppWordingTests {
    @Test func theStatusLineSpeaksToAShopperByDefault() throws {
        let app = GroceryApp()
        app.select(named: "Butter")
        app.toggleSelected()
        #expect(app.statusLine == "listed Butter · Shop list updated", "\(app.statusLine)")
        app.switchTab(to: .shop)
        #expect(app.statusLine == "showing Shop", "\(app.statusLine)")
        app.type("jam")
        #expect(!app.statusLine.contains("animated") && !app.statusLine.contains("reload"), "\(app.statusLine)")
    }

    @Test func explainAddsTheLibrarysWording() throws {
        let app = GroceryApp()
        app.explain = true
        app.select(named: "Butter")
        app.toggleSelected()
        #expect(app.statusLine == "animated 1 change · listed Butter · Shop: reload owed (hidden)", "\(app.statusLine)")
        app.switchTab(to: .shop)
        #expect(app.statusLine == "reloaded (target not visible) · showing Shop", "\(app.statusLine)")
    }

    @Test func explainIsAnOption() throws {
        #expect(try CommandLineOptions.parse(["--explain"]).explain)
        #expect(try !CommandLineOptions.parse([]).explain)
        #expect(CommandLineOptions.usage.contains("--explain"))
    }
}
