import Foundation
import FetchedResultsKit
import GroceryDudeCore
import Testing
import TestSupport

@Suite("Grocery app, random sessions")
@MainActor
struct GroceryAppRandomTests {
    /// Random keys and commands; after each, the visible screen shows exactly the sections
    /// and counts its list holds, every batch the accumulators delivered fitted the counts the
    /// screen displayed (none was refused), every mark names a row the list shows, and no flush
    /// ever had to fall back to a reload because a batch broke a rule or contradicted itself.
    @Test(arguments: testSeeds(count: 8))
    func theVisibleScreenAlwaysMatchesItsList(seed: UInt64) async {
        var rng = SeededGenerator(seed: seed)
        let app = GroceryApp(size: TerminalSize(width: 60, height: 16))
        app.explain = true
        let keys: [Key] = [.up, .down, .pageUp, .pageDown, .home, .end, .left, .right, .tab, .space, .escape, .backspace]
        let words = ["a", "e", "jam", "o", "Mi", "é", "zz", "\"", "%@", "\\"]
        for step in 0..<80 {
            switch Int.random(in: 0..<12, using: &rng) {
            case 0...4: app.press(keys.randomElement(using: &rng)!)
            case 5: app.type(words.randomElement(using: &rng)!)
            case 6: app.add(name: "New \(step)")
            case 7: app.renameSelected(to: "\(words.randomElement(using: &rng)!) \(step)")
            case 8: app.deleteSelected()
            case 9: app.undo()
            case 10: app.redo()
            default: await runImport(app, count: Int.random(in: 1...30, using: &rng))
            }
            let screen = app.visibleScreen
            #expect(screen.sectionNames == screen.list.sectionSummaries.map(\.name), "step \(step)")
            #expect(screen.rowCounts == screen.list.sectionSummaries.map(\.rowCount), "step \(step)")
            #expect(screen.refusedBatch == nil, "step \(step): \(screen.refusedBatch ?? "")")
            #expect(screen.marked.allSatisfy { screen.list.indexPath(of: $0) != nil }, "step \(step)")
            #expect(!app.statusLine.contains("break a rule"), "step \(step): \(app.statusLine)")
            #expect(!app.statusLine.contains("inconsistent"), "step \(step): \(app.statusLine)")
            #expect(app.render().count == 16)
        }
    }
}
