import Foundation
import GroceryDudeCore
import Testing

@Suite("Frame renderer")
struct FrameRendererTests {
    static let sample = Frame(
        tabs: ["Prepare", "Shop"], activeTab: 0, summary: "3 items · 1 listed",
        body: [
            .header(title: "Fridge", count: 2),
            .row(name: "Butter", listed: false, selected: true, marked: false),
            .row(name: "Milk", listed: true, selected: false, marked: true),
            .header(title: "Pantry", count: 1),
            .row(name: "A very long name that cannot fit in the list column at all", listed: false, selected: false, marked: false),
        ],
        indexTitles: ["F", "P"], currentIndexTitle: 0, searchLine: "search: x", statusLine: "animated 1 change")

    @Test func plainFrameLayout() {
        let lines = FrameRenderer(size: TerminalSize(width: 40, height: 10)).render(Self.sample)
        #expect(lines == [
            " Grocery Dude  [Prepare]  Shop 3 items… ",
            "────────────────────────────────────────",
            "── Fridge (2) ───────────────────────[F]",
            "> [ ] Butter                          P ",
            " *[x] Milk                              ",
            "── Pantry (1) ───────────────────────   ",
            "  [ ] A very long name that cannot f…   ",
            "────────────────────────────────────────",
            "search: x                               ",
            "animated 1 change                       ",
        ])
    }

    /// With the last tab active the title still keeps a space before the summary, however
    /// narrow the terminal.
    @Test(arguments: [40, 45, 50, 80])
    func theSummaryNeverTouchesTheActiveLastTab(width: Int) {
        var frame = Self.sample
        frame.activeTab = 1
        frame.summary = "9 left to get"
        let title = FrameRenderer(size: TerminalSize(width: width, height: 10)).render(frame)[0]
        #expect(title.count == width)
        #expect(title.hasPrefix(" Grocery Dude   Prepare  [Shop] "), "\(title)")
        if width >= 46 { #expect(title.hasSuffix(" 9 left to get "), "\(title)") }
    }

    @Test(arguments: [TerminalSize(width: 40, height: 10), TerminalSize(width: 80, height: 24), TerminalSize(width: 57, height: 13)])
    func everyLineFillsTheWidth(size: TerminalSize) {
        let lines = FrameRenderer(size: size).render(Self.sample)
        #expect(lines.count == size.height)
        for line in lines { #expect(line.count == size.width, "\(line)") }
        #expect(FrameRenderer.bodyHeight(for: size) == size.height - 5)
    }

    @Test func bodyLinesBeyondTheHeightAreDropped() {
        var frame = Self.sample
        frame.body = Array(repeating: .row(name: "Row", listed: false, selected: false, marked: false), count: 50)
        let lines = FrameRenderer(size: TerminalSize(width: 40, height: 10)).render(frame)
        #expect(lines.count == 10)
        #expect(lines.filter { $0.contains("Row") }.count == 5)
    }

    @Test(arguments: [TerminalSize(width: 30, height: 6), TerminalSize(width: 39, height: 40), TerminalSize(width: 100, height: 9)])
    func tooSmallSaysWhatItNeeds(size: TerminalSize) {
        let lines = FrameRenderer(size: size).render(Self.sample)
        #expect(lines.count == size.height)
        let text = lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(text.contains("terminal too small"))
        #expect(text.contains("(need 40×10,"))
        #expect(text.contains("have \(size.width)×\(size.height))"))
        for line in lines { #expect(line.count <= size.width) }
    }

    @Test func tinyTerminalsDoNotCrash() {
        for (width, height) in [(1, 1), (0, 0), (5, 2), (2, 30)] {
            let lines = FrameRenderer(size: TerminalSize(width: width, height: height)).render(Self.sample)
            #expect(lines.count == max(1, height))
        }
    }

    @Test func styledFramesAddColoursButKeepTheText() {
        let plain = FrameRenderer(size: TerminalSize(width: 40, height: 10)).render(Self.sample)
        let styled = FrameRenderer(size: TerminalSize(width: 40, height: 10), styled: true).render(Self.sample)
        #expect(styled.joined().contains("\u{1B}["))
        #expect(!plain.joined().contains("\u{1B}"))
        let stripped = styled.map(Self.strippingStyles)
        #expect(stripped == plain)
    }

    static func strippingStyles(_ text: String) -> String {
        var result = ""
        var inEscape = false
        for character in text {
            if inEscape {
                if character == "m" { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}
