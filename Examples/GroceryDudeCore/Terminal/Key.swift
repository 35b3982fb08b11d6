/// A key the app reacts to, decoded from terminal input or named in a script.
public enum Key: Sendable, Hashable, CustomStringConvertible {
    /// An arrow key.
    case up, down, left, right
    /// A paging key.
    case pageUp, pageDown, home, end
    /// An editing or whitespace key (Shift-Tab decodes as Tab).
    case tab, enter, escape, backspace, delete, space
    /// A printable character other than space.
    case character(Character)
    /// A letter typed with the Control key held (`control("n")` is Ctrl-N).
    case control(Character)

    /// The keys a script may name with `key NAME`, by name.
    public static let named: [String: Key] = [
        "up": .up, "down": .down, "left": .left, "right": .right,
        "pageup": .pageUp, "pagedown": .pageDown, "home": .home, "end": .end,
        "tab": .tab, "enter": .enter, "escape": .escape, "backspace": .backspace, "delete": .delete,
        "space": .space,
    ]

    /// Decodes a key name from a script: one of ``named``, `ctrl-X` for a control letter, or a
    /// single printable character.
    ///
    /// - Parameter name: The name, case-insensitive for the named keys.
    /// - Returns: The key, or `nil` when the name means nothing.
    public init?(name: String) {
        let lowered = name.lowercased()
        if let key = Self.named[lowered] {
            self = key
        } else if lowered.hasPrefix("ctrl-"), lowered.count == 6, let letter = lowered.last, letter.isLetter, letter.isASCII {
            self = .control(letter)
        } else if name.count == 1, let character = name.first, !character.isWhitespace {
            self = .character(character)
        } else {
            return nil
        }
    }

    /// The key's name as a script writes it.
    public var description: String {
        switch self {
        case .character(let character): String(character)
        case .control(let letter): "ctrl-\(letter)"
        default: Self.named.first { $0.value == self }.map(\.key) ?? "?"
        }
    }
}
