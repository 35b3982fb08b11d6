import GroceryDudeCore
import Testing

@Suite("Key decoding")
struct KeyDecoderTests {
    /// Decodes chunks as separate reads, then lets the input go quiet (an Escape alone is
    /// only known to be the Escape key once nothing follows it).
    private func decode(_ chunks: [UInt8]...) -> [Key] {
        decode(chunks)
    }

    private func decode(_ chunks: [[UInt8]]) -> [Key] {
        var decoder = KeyDecoder()
        return chunks.flatMap { decoder.keys(from: $0) } + decoder.flush()
    }

    /// Every key sequence a terminal sends for one key, with the key it means.
    private static let sequences: [(bytes: [UInt8], key: Key)] = {
        var table: [(String, Key)] = []
        for (final, key) in [("A", Key.up), ("B", .down), ("C", .right), ("D", .left), ("H", .home), ("F", .end)] {
            table += [("\u{1B}[" + final, key), ("\u{1B}O" + final, key), ("\u{1B}[1;5" + final, key)]
        }
        for (code, key) in [("1", Key.home), ("7", .home), ("4", .end), ("8", .end), ("3", .delete), ("5", .pageUp), ("6", .pageDown)] {
            table += [("\u{1B}[" + code + "~", key), ("\u{1B}[" + code + ";2~", key)]
        }
        table += [("\u{1B}[Z", .tab), ("é", .character("é")), ("€", .character("€")), ("🍓", .character("🍓"))]
        return table.map { (Array($0.0.utf8), $0.1) }
    }()

    @Test func everySplitPointOfEveryKeySequence() {
        let before: [UInt8] = Array("a".utf8)
        let after: [UInt8] = Array("b".utf8)
        for (sequence, key) in Self.sequences {
            let input = before + sequence + after
            for split in 0...input.count {
                let keys = decode(Array(input[..<split]), Array(input[split...]))
                #expect(keys == [.character("a"), key, .character("b")], "\(sequence) split at \(split)")
            }
            // And one byte per read.
            #expect(decode(input.map { [$0] }) == [.character("a"), key, .character("b")], "\(sequence) byte by byte")
        }
    }

    @Test func aBurstOfDownsReadInChunksOf256Bytes() {
        let burst = Array(String(repeating: "\u{1B}[B", count: 400).utf8)
        let chunks = stride(from: 0, to: burst.count, by: 256).map { Array(burst[$0..<min($0 + 256, burst.count)]) }
        #expect(decode(chunks) == Array(repeating: Key.down, count: 400))
    }

    @Test func anEscapeThatEndsAReadWaitsForWhatFollows() {
        var decoder = KeyDecoder()
        #expect(decoder.keys(from: [0x1B]) == [])
        #expect(decoder.hasPending)
        #expect(decoder.keys(from: Array("[A".utf8)) == [.up])
        #expect(!decoder.hasPending)
        #expect(decoder.keys(from: [0x1B]) == [])
        #expect(decoder.flush() == [.escape], "nothing followed: it was the Escape key")
        #expect(decoder.flush() == [])
    }

    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func arrowsInBothForms() {
        #expect(decode(bytes("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D")) == [.up, .down, .right, .left])
        #expect(decode(bytes("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD")) == [.up, .down, .right, .left])
    }

    @Test func pageAndEditingKeys() {
        #expect(decode(bytes("\u{1B}[5~\u{1B}[6~\u{1B}[3~")) == [.pageUp, .pageDown, .delete])
        #expect(decode(bytes("\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}[7~\u{1B}[8~\u{1B}OH\u{1B}OF"))
            == [.home, .end, .home, .end, .home, .end, .home, .end])
        #expect(decode(bytes("\u{1B}[Z")) == [.tab])
    }

    @Test func modifiersAreIgnored() {
        #expect(decode(bytes("\u{1B}[1;5A\u{1B}[5;2~")) == [.up, .pageUp])
    }

    @Test func escapeAlone() {
        #expect(decode([0x1B]) == [.escape])
        #expect(decode([0x1B, UInt8(ascii: "x")]) == [.escape, .character("x")])
        #expect(decode([0x1B, 0x1B]) == [.escape, .escape])
    }

    @Test func unknownSequencesAreDroppedWhole() {
        #expect(decode(bytes("\u{1B}[99~a\u{1B}[Qb")) == [.character("a"), .character("b")])
        #expect(decode(bytes("\u{1B}[12")) == [])
    }

    @Test func controlAndWhitespaceKeys() {
        #expect(decode([0x0E, 0x12, 0x04, 0x0F, 0x11, 0x03]) == [
            .control("n"), .control("r"), .control("d"), .control("o"), .control("q"), .control("c"),
        ])
        #expect(decode([0x7F, 0x08, 0x0D, 0x0A, 0x09, 0x20]) == [.backspace, .backspace, .enter, .enter, .tab, .space])
    }

    @Test func utf8Text() {
        #expect(decode(bytes("jé🍓")) == [.character("j"), .character("é"), .character("🍓")])
    }

    @Test func utf8SplitAcrossReads() {
        let strawberry = bytes("🍓")
        #expect(decode(Array(strawberry.prefix(2)), Array(strawberry.dropFirst(2))) == [.character("🍓")])
    }

    @Test func invalidBytesAreSkipped() {
        #expect(decode([0x80, 0xFF, UInt8(ascii: "a")]) == [.character("a")])
    }

    @Test func namesRoundTrip() {
        for (name, key) in Key.named {
            #expect(Key(name: name) == key)
            #expect(key.description == name)
        }
        #expect(Key(name: "PageDown") == .pageDown)
        #expect(Key(name: "ctrl-n") == .control("n"))
        #expect(Key(name: "q") == .character("q"))
        #expect(Key(name: "sideways") == nil)
        #expect(Key(name: "ctrl-") == nil)
        #expect(Key(name: "") == nil)
    }
}
