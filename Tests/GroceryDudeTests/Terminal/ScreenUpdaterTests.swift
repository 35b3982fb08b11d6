import GroceryDudeCore
import Testing

@Suite("Screen updates")
struct ScreenUpdaterTests {
    @Test func theFirstFrameIsWholeAndAnUnchangedOneWritesNothing() {
        var updater = ScreenUpdater()
        let frame = ["title", "row 1", "row 2", "status"]
        let first = updater.update(to: frame)
        #expect(first.hasPrefix("\u{1B}[H") && first.hasSuffix("\u{1B}[J"))
        #expect(frame.allSatisfy { first.contains($0) })
        #expect(updater.update(to: frame) == "")
    }

    @Test func onlyTheLinesThatDifferAreWritten() {
        var updater = ScreenUpdater()
        _ = updater.update(to: ["title", "> row 1", "  row 2", "status"])
        let text = updater.update(to: ["title", "  row 1", "> row 2", "status"])
        #expect(text == "\u{1B}[2;1H  row 1\u{1B}[0m\u{1B}[K\u{1B}[3;1H> row 2\u{1B}[0m\u{1B}[K")
    }

    @Test func aResizeOrAnInvalidationRedrawsWhole() {
        var updater = ScreenUpdater()
        _ = updater.update(to: ["a", "b"])
        #expect(updater.update(to: ["a", "b", "c"]).hasSuffix("\u{1B}[J"))
        updater.invalidate()
        let again = updater.update(to: ["a", "b", "c"])
        #expect(again.hasPrefix("\u{1B}[H") && again.contains("a") && again.contains("c"))
    }
}
