/// What the command line asked for.
public enum CommandLineOptions: Sendable, Hashable {
    /// Run interactively when stdin and stdout are terminals, the tour otherwise.
    case automatic
    /// Play the script in this file (`-` for standard input).
    case script(path: String)
    /// Play the built-in tour, even on a terminal.
    case tour
    /// Print the usage.
    case help

    /// The usage text.
    public static let usage = """
        usage: grocery-dude [--script FILE | --tour | --help]

          (no option)     interactive on a terminal; the scripted tour otherwise
          --script FILE   play FILE (- reads standard input) and print each frame as text
          --tour          play the built-in tour and print each frame as text

        keys: arrows, Page Up/Down, Home/End move (Left/Right jump between sections);
          Enter lists or unlists the item (Space too, unless a search is being typed:
          then Space types a space); Tab switches Prepare/Shop; typing searches
          (name CONTAINS[cd]), Backspace edits, Esc clears; Ctrl-N adds, Ctrl-R renames,
          Ctrl-D or Delete asks to delete (y deletes, any other key keeps the item);
          Ctrl-O imports 5000 items in the background; Ctrl-Z suspends; Ctrl-Q quits.
          While the terminal is too small, only Ctrl-Q (and resizing) does anything.

        script commands, one per line (# starts a comment):
          \(ScriptParser.syntax.joined(separator: "\n  "))
        """

    /// Parses the arguments (without the program name).
    ///
    /// - Parameter arguments: The arguments.
    /// - Returns: The options.
    /// - Throws: ``ScriptError`` (line 0) saying what is wrong.
    public static func parse(_ arguments: [String]) throws(ScriptError) -> CommandLineOptions {
        func fail(_ problem: String) -> ScriptError { ScriptError(line: 0, text: "", problem: problem) }
        switch arguments.first {
        case nil: return .automatic
        case "--help", "-h": return .help
        case "--tour":
            guard arguments.count == 1 else { throw fail("--tour takes no argument") }
            return .tour
        case "--script":
            guard arguments.count == 2 else { throw fail("--script needs exactly one FILE") }
            return .script(path: arguments[1])
        case let option?:
            throw fail("unknown option \(option)")
        }
    }
}
