/// Turns the bytes a terminal in raw mode sends into ``Key``s.
///
/// Understands UTF-8 text, control letters, and the escape sequences of xterm-like terminals
/// for the arrows, Home/End, Page Up/Down, Delete and Shift-Tab, in both their `ESC [` and
/// `ESC O` forms and with modifier parameters (`ESC [1;5A`). A chunk that ends in the middle
/// of a UTF-8 character keeps its first bytes for the next chunk. An escape byte that ends a
/// chunk is the Escape key (terminals send a sequence in one write). Unknown sequences are
/// dropped whole, never turned into stray characters.
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    /// Makes a decoder with nothing pending.
    public init() {}

    /// Decodes one chunk of input.
    ///
    /// - Parameter bytes: The bytes of one read.
    /// - Returns: The keys they hold, in order.
    /// - Complexity: O(n) for n bytes.
    public mutating func keys(from bytes: [UInt8]) -> [Key] {
        let input = pending + bytes
        pending = []
        var keys: [Key] = []
        var index = 0
        while index < input.count {
            let byte = input[index]
            switch byte {
            case 0x1B:
                let (key, length) = Self.escapeSequence(input, at: index)
                if let key { keys.append(key) }
                index += length
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

    /// The key of the escape sequence at `start`, and how many bytes it takes.
    private static func escapeSequence(_ input: [UInt8], at start: Int) -> (Key?, Int) {
        guard start + 1 < input.count else { return (.escape, 1) }
        let introducer = input[start + 1]
        guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else {
            return (.escape, 1)  // Escape, then whatever follows as its own key
        }
        // Parameters (digits and ';') up to a final byte in 0x40...0x7E.
        var index = start + 2
        var parameters = ""
        while index < input.count, input[index] >= 0x20, input[index] < 0x40 {
            parameters.append(Character(Unicode.Scalar(input[index])))
            index += 1
        }
        guard index < input.count else { return (nil, input.count - start) }
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
        return (key, length)
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
