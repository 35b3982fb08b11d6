/// Reads a script: one command per line, `#` comments and blank lines ignored.
///
/// ```text
/// # Put the jam on the list from the search results.
/// type jam
/// key down
/// toggle
/// escape
/// tab shop
/// frame
/// ```
///
/// The commands are those of ``ScriptCommand``; arguments follow the command after white
/// space. The whole script is checked before anything runs, so a malformed line never leaves
/// a half-played tour behind.
public enum ScriptParser {
    /// The largest import a script may ask for.
    public static let maximumImport = 1_000_000
    /// The largest terminal size a script may set, in each direction.
    public static let maximumSize = 1_000

    /// The commands and the arguments they take, for error messages.
    public static let syntax = [
        "key NAME", "type TEXT", "toggle", "tab [prepare|shop]", "escape", "select NAME", "add NAME",
        "rename NAME", "delete", "undo", "redo", "import N", "import-fail N", "frame", "size W H", "say TEXT", "quit",
    ]

    /// Parses a script.
    ///
    /// - Parameter text: The script.
    /// - Returns: Its commands with their line numbers.
    /// - Throws: ``ScriptError`` for the first malformed line.
    /// - Complexity: O(n) for n characters.
    public static func parse(_ text: String) throws(ScriptError) -> [ScriptLine] {
        var lines: [ScriptLine] = []
        var number = 0
        // "\r\n" is one Character, so Windows line endings split here too.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            number += 1
            let line = String(rawLine).trimmingWhitespace
            if line.isEmpty || line.hasPrefix("#") { continue }
            lines.append(ScriptLine(number: number, command: try command(line, number: number)))
        }
        return lines
    }

    /// Parses one line that is neither blank nor a comment.
    private static func command(_ line: String, number: Int) throws(ScriptError) -> ScriptCommand {
        let name: String
        let argument: String
        if let space = line.firstIndex(where: \.isWhitespace) {
            name = String(line[..<space]).lowercased()
            argument = String(line[space...]).trimmingWhitespace
        } else {
            name = line.lowercased()
            argument = ""
        }
        func fail(_ problem: String) -> ScriptError {
            ScriptError(line: number, text: line, problem: problem)
        }
        func noArgument(_ command: ScriptCommand) throws(ScriptError) -> ScriptCommand {
            guard argument.isEmpty else { throw fail("\"\(name)\" takes no argument") }
            return command
        }
        func text() throws(ScriptError) -> String {
            guard !argument.isEmpty else { throw fail("\"\(name)\" needs text after it") }
            return argument
        }
        func count() throws(ScriptError) -> Int {
            guard let value = Int(argument), value >= 0, value <= maximumImport else {
                throw fail("\"\(name)\" needs a number of items from 0 to \(maximumImport)")
            }
            return value
        }
        switch name {
        case "key":
            guard let key = Key(name: argument) else {
                throw fail("unknown key \"\(argument)\" (keys: \(Key.named.keys.sorted().joined(separator: ", ")), ctrl-x, or one character)")
            }
            return .key(key)
        case "type": return .type(try text())
        case "toggle": return try noArgument(.toggle)
        case "tab":
            switch argument.lowercased() {
            case "": return .tab(nil)
            case "prepare": return .tab(.prepare)
            case "shop": return .tab(.shop)
            default: throw fail("\"tab\" takes prepare, shop or nothing")
            }
        case "escape": return try noArgument(.escape)
        case "select": return .select(try text())
        case "add": return .add(try text())
        case "rename": return .rename(try text())
        case "delete": return try noArgument(.delete)
        case "undo": return try noArgument(.undo)
        case "redo": return try noArgument(.redo)
        case "import": return .importItems(count: try count(), failing: false)
        case "import-fail": return .importItems(count: try count(), failing: true)
        case "frame": return try noArgument(.frame)
        case "size":
            let parts = argument.split(whereSeparator: \.isWhitespace)
            guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
                  (1...maximumSize).contains(width), (1...maximumSize).contains(height)
            else { throw fail("\"size\" needs a width and a height from 1 to \(maximumSize)") }
            return .size(TerminalSize(width: width, height: height))
        case "say": return .say(argument)
        case "quit": return try noArgument(.quit)
        default:
            throw fail("unknown command \"\(name)\" (commands: \(syntax.joined(separator: ", ")))")
        }
    }
}
