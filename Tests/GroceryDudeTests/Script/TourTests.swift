import Foundation
import GroceryDudeCore
import Testing

/// The tour shows what its captions promise.
@Suite("Tour")
struct TourTests {
    /// The keys a caption may name, as the caption writes them.
    static let keyWords: [(word: String, key: Key)] = [
        ("Space", .space), ("Enter", .enter), ("Tab", .tab), ("Escape", .escape), ("Left", .left), ("Right", .right),
    ]

    /// Every key a caption names (Space, Enter, Ctrl-R…) is pressed with `key` before the next
    /// caption, and a frame follows the press: no caption describes a key the tour does not
    /// show. Ctrl-Z (suspending) needs a terminal, so a caption may mention it in passing.
    @Test func everyKeyACaptionNamesIsPressedAndShown() throws {
        let lines = try ScriptParser.parse(Tour.script)
        var blocks: [(caption: String, commands: [ScriptCommand])] = []
        for line in lines {
            if case .say(let caption) = line.command {
                blocks.append((caption, []))
            } else if !blocks.isEmpty {
                blocks[blocks.count - 1].commands.append(line.command)
            }
        }
        #expect(blocks.count >= 10)
        for block in blocks {
            var named: [(String, Key)] = []
            for (word, key) in Self.keyWords where block.caption.range(of: "\\b\(word)\\b", options: .regularExpression) != nil {
                named.append((word, key))
            }
            var rest = Substring(block.caption)
            while let range = rest.range(of: "Ctrl-[A-Z]", options: .regularExpression) {
                let letter = Character(rest[range].last!.lowercased())
                if letter != "z" { named.append((String(rest[range]), .control(letter))) }
                rest = rest[range.upperBound...]
            }
            for (word, key) in named {
                let press = block.commands.firstIndex(of: .key(key))
                #expect(press != nil, "the caption \"\(block.caption)\" names \(word), which the tour does not press")
                if let press {
                    #expect(block.commands[press...].contains(.frame), "no frame shows \(word) after \"\(block.caption)\"")
                }
            }
        }
    }
}
