/// Turns the bytes a terminal in raw mode sends into ``Key``s, as a byte stream.
///
/// Understands UTF-8 text, control letters, and the escape sequences of xterm-like terminals
/// for the arrows, Home/End, Page Up/Down, Delete and Shift-Tab, in both their `ESC [` and
/// `ESC O` forms and with modifier parameters (`ESC [1;5A`). Reads split the stream anywhere:
/// a chunk that ends inside a UTF-8 character or an escape sequence keeps its start pending
/// for the next chunk, so a burst of arrow keys read 256 bytes at a time never leaves a stray
/// `[B` behind. An escape byte is the Escape key only once something other than `[` or `O`
/// follows it, or once the input goes quiet and the reader calls ``flush()``. Unknown
/// sequences are dropped whole, never turned into stray characters.
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    /// The longest escape sequence kept pending; a longer one is garbage and is dropped.
    static let maximumSequenceLength = 32

    /// Makes a decoder with nothing pending.
    public init() {}

    /// Whether the last chunk ended inside a key; the reader should call ``flush()`` if no
    /// more input arrives soon (an Escape key press looks like the start of a sequence).
    public var hasPending: Bool { !pending.isEmpty }

    /// Decodes one chunk of input.
    ///
    /// - Parameter bytes: The bytes of one read.
    /// - Returns: The keys they complete, in order; an incomplete key at the end stays pending.
    /// - Complexity: O(n) for n bytes (plus the few pending ones).
    public mutating func keys(from bytes: [UInt8]) -> [Key] {
        let input = pending + bytes
        pending = []
        var keys: [Key] = []
        var index = 0
        while index < input.count {
            let byte = input[index]
            switch byte {
            case 0x1B:
                switch Self.escapeSequence(input, at: index) {
                case .incomplete:
                    pending = Array(input[index...])
                    return keys
                case .complete(let key, let length):
                    if let key { keys.append(key) }
                    index += length
                }
            case 0x0D, 0x0A:
                keys.append(.enter)
                index += 1
            case 0x09:
                keys.append(.tab)
                index += 1
            case 0x7F, 0x08:
                keys.append(.backspace)
                index += 1
            case 0x20:
                keys.append(.space)
                index += 1
            case 0x01...0x1A:
                keys.append(.control(Character(Unicode.Scalar(byte - 1 + UInt8(ascii: "a")))))
                index += 1
            case 0x00..<0x20:
                index += 1
            default:
                let length = Self.utf8Length(leading: byte)
                guard length > 0 else {  // a stray continuation or invalid byte
                    index += 1
                    continue
                }
                guard index + length <= input.count else {
                    pending = Array(input[index...])
                    return keys
                }
                if let text = String(validating: input[index..<index + length], as: UTF8.self), let character = text.first {
                    keys.append(.character(character))
                }
                index += length
            }
        }
        return keys
    }

    /// Ends the pending key because no more input came: a lone escape byte is the Escape key;
    /// the start of a sequence or of a UTF-8 character is dropped.
    ///
    /// - Returns: The keys the pending bytes make (at most one).
    /// - Complexity: O(1).
    public mutating func flush() -> [Key] {
        defer { pending = [] }
        return pending == [0x1B] ? [.escape] : []
    }

    /// What an escape byte starts.
    private enum Sequence {
        /// More bytes are needed to know.
        case incomplete
        /// A key (or `nil` for an unknown sequence) and the bytes it takes.
        case complete(Key?, length: Int)
    }

    /// The key of the escape sequence at `start`, and how many bytes it takes.
    private static func escapeSequence(_ input: [UInt8], at start: Int) -> Sequence {
        guard start + 1 < input.count else { return .incomplete }
        let introducer = input[start + 1]
        guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else {
            return .complete(.escape, length: 1)  // Escape, then whatever follows as its own key
        }
        // Parameters (digits and ';') up to a final byte in 0x40...0x7E.
        var index = start + 2
        var parameters = ""
        while index < input.count, input[index] >= 0x20, input[index] < 0x40 {
            parameters.append(Character(Unicode.Scalar(input[index])))
            index += 1
        }
        guard index < input.count else {
            // Cut by the read: wait for the rest, unless it is already too long to be a key.
            let length = input.count - start
            return length < maximumSequenceLength ? .incomplete : .complete(nil, length: length)
        }
        let final = Character(Unicode.Scalar(input[index]))
        let length = index - start + 1
        let first = parameters.split(separator: ";").first.map(String.init) ?? ""
        let key: Key? =
            switch final {
            case "A": .up
            case "B": .down
            case "C": .right
            case "D": .left
            case "H": .home
            case "F": .end
            case "Z": .tab
            case "~":
                switch first {
                case "1", "7": .home
                case "4", "8": .end
                case "3": .delete
                case "5": .pageUp
                case "6": .pageDown
                default: nil
                }
            default: nil
            }
        return .complete(key, length: length)
    }

    /// The length of the UTF-8 sequence a leading byte starts, or 0 when it starts none.
    private static func utf8Length(leading byte: UInt8) -> Int {
        switch byte {
        case 0x20..<0x80: 1
        case 0xC2..<0xE0: 2
        case 0xE0..<0xF0: 3
        case 0xF0..<0xF5: 4
        default: 0
        }
    }
}
