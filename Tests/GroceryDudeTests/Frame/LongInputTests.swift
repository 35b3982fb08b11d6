import Foundation
import FetchedResultsKit
import GroceryDudeCore
import Testing

/// Long input scrolls so the end of what the user types stays visible.
@Suite("Long input")
@MainActor
struct LongInputTests {
    @Test func aLongSearchKeepsItsEndVisible() throws {
        let app = GroceryApp(size: TerminalSize(width: 50, height: 14))
        let text = "a long search that goes past the right edge of the screen xyzzy"
        for character in text { app.press(character == " " ? .space : .character(character)) }
        let line = app.render()[app.size.height - 2]
        #expect(line.contains("xyzzy"), "\(line)")
        #expect(line.count <= 50)
    }

    @Test(arguments: [Key.control("n"), .control("r")])
    func aLongNameKeepsItsEndVisible(key: Key) throws {
        let app = GroceryApp(size: TerminalSize(width: 50, height: 14))
        app.press(key)
        for character in "Extra virgin olive oil from the little shop round the corner END" {
            app.press(character == " " ? .space : .character(character))
        }
        let line = app.render()[app.size.height - 2]
        #expect(line.contains("END_"), "\(line)")
        #expect(line.count <= 50)
    }
}
