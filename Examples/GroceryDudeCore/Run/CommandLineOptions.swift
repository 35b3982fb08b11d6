/// What the command line asked for: what to run, and where the list is kept.
public struct CommandLineOptions: Sendable, Hashable {
    /// What to run.
    public enum Mode: Sendable, Hashable {
        /// Run interactively when stdin and stdout are terminals, the tour otherwise.
        case automatic
        /// Play the script in this file (`-` for standard input).
        case script(path: String)
        /// Play the built-in tour, even on a terminal.
        case tour
        /// Print the usage.
        case help
        /// Run a one-shot command on the kept list (`list`, `add NAME`…) and exit.
        case subcommand(Subcommand)
    }

    /// Where the list is kept, as the command line says (see ``StorageLocation`` for the
    /// place this resolves to).
    public enum Storage: Sendable, Hashable {
        /// The default: the store under `$XDG_DATA_HOME` when interactive (and for the
        /// subcommands), memory otherwise.
        case automatic
        /// `--store PATH`: the store in this directory, in every mode.
        case directory(String)
        /// `--in-memory`: keep nothing.
        case inMemory
    }

    /// What to run.
    public var mode: Mode
    /// Where the list is kept.
    public var storage: Storage
    /// `--explain`: the status line also says what the library decided (animated or reloaded
    /// and why, which hidden lists owe a reload). The tour always explains.
    public var explain: Bool

    /// Makes options.
    ///
    /// - Parameters:
    ///   - mode: What to run.
    ///   - storage: Where the list is kept.
    ///   - explain: Whether the status line explains the library's decisions.
    public init(mode: Mode = .automatic, storage: Storage = .automatic, explain: Bool = false) {
        self.mode = mode
        self.storage = storage
        self.explain = explain
    }

    /// The usage text.
    public static let usage = """
        usage: grocery-dude [--script FILE | --tour | --help] [--store DIR | --in-memory] [--explain]
               grocery-dude list | add NAME | tick NAME | delete NAME [--store DIR]

          (no option)     interactive on a terminal; the scripted tour otherwise
          list            print the list, section by section (home locations), [x] = listed
          add NAME        add NAME to the shopping list (quote a name with spaces)
          tick NAME       tick NAME off the shopping list, or put it back on
          delete NAME     delete NAME
                          these four change the kept list (the one the app shows, or --store
                          DIR's) and exit: 0 when done, 1 when no item is called NAME
          --script FILE   play FILE (- reads standard input) and print each frame as text
          --tour          play the built-in tour and print each frame as text
          --store DIR     keep the list in the store in DIR (created when missing), in every
                          mode, scripts and the tour too
          --in-memory     keep nothing: start from the sample list, forget it on quit
          --explain       the status line also says what the library decided: animated or
                          reloaded and why, which hidden lists owe a reload (the tour always
                          explains; without it the status line says "Shop list updated")

        storage: on a terminal the list is kept in $XDG_DATA_HOME/grocery-dude/
          (~/.local/share/grocery-dude/ when XDG_DATA_HOME is unset); every change is on
          disk before the screen shows it. The first launch starts from the sample list.
          Any number of grocery-dude windows and commands can use one list at once and stay
          in step: a change saved in one shows in the others at once, animated, and the
          status line says where it came from ("Milk added by grocery-dude add"); a change
          to an item another window changed meanwhile is not saved, and says so.
          Quitting saves the cursor (in the store's directory, file \(SavedCursor.fileName));
          the next launch shows the same item. Without a terminal (scripts, the tour, CI)
          nothing is kept unless --store is given. A damaged store is repaired: what is
          intact is kept, the damaged files are kept beside it, and a report says what was
          lost. A note above the list says what a damaged or interrupted list lost, in items
          and changes, until Esc closes it. Exit status 3: the store is open in a program that does not share it; 4: it cannot be
          opened (not a Grocery Dude store, unreadable).

        keys: arrows, Page Up/Down, Home/End move (Left/Right jump between sections and
          bring the section's header to the top); Enter lists or unlists the item (Space
          too, unless a search is being typed: then Space types a space); in Shop, Enter
          ticks an item off: it stays, struck through ([✓]), until Ctrl-L refreshes the
          list or you leave Shop, and the title says how many items are left to get;
          Tab switches Prepare/Shop; typing searches (name CONTAINS[cd]), Backspace edits,
          Esc clears; Ctrl-N adds and Ctrl-R edits an item in a form: name, quantity, note,
          location and aisle (Tab or Up/Down move between fields, Left/Right or a letter
          choose the location or aisle, Enter saves, Esc cancels; a name already on the
          list is warned about first, and Enter again saves it anyway);
          Ctrl-D or Delete asks to delete (y deletes, any other key keeps the item);
          Ctrl-U undoes the last change (list, add, edit, delete) and Ctrl-Y redoes it;
          Ctrl-O imports 5000 items in the background (an import cannot be undone);
          Ctrl-Z suspends (so undo is Ctrl-U, not Ctrl-Z); Ctrl-Q or Ctrl-C quits.
          While the terminal is too small, only Ctrl-Q, Ctrl-C (and resizing) do anything.

        script commands, one per line (# starts a comment):
          \(ScriptParser.syntax.joined(separator: "\n  "))
        """

    /// Parses the arguments (without the program name).
    ///
    /// - Parameter arguments: The arguments, in any order.
    /// - Returns: The options.
    /// - Throws: ``ScriptError`` (line 0) saying what is wrong.
    /// - Complexity: O(n) for n arguments.
    public static func parse(_ arguments: [String]) throws(ScriptError) -> CommandLineOptions {
        func fail(_ problem: String) -> ScriptError { ScriptError(line: 0, text: "", problem: problem) }
        var options = CommandLineOptions()
        var modeOption: String?
        var storageOption: String?
        func setMode(_ mode: Mode, _ option: String) throws(ScriptError) {
            if let modeOption { throw fail("\(option) cannot be combined with \(modeOption)") }
            modeOption = option
            options.mode = mode
        }
        func setStorage(_ storage: Storage, _ option: String) throws(ScriptError) {
            if let storageOption { throw fail("\(option) cannot be combined with \(storageOption)") }
            storageOption = option
            options.storage = storage
        }
        var index = 0
        while index < arguments.count {
            let option = arguments[index]
            index += 1
            func value(_ name: String) throws(ScriptError) -> String {
                guard index < arguments.count, !arguments[index].isEmpty else { throw fail("\(option) needs \(name)") }
                defer { index += 1 }
                return arguments[index]
            }
            switch option {
            case "--help", "-h": try setMode(.help, option)
            case "--tour": try setMode(.tour, option)
            case "--script": try setMode(.script(path: try value("exactly one FILE")), option)
            case "--store": try setStorage(.directory(try value("a directory")), option)
            case "--in-memory": try setStorage(.inMemory, option)
            case "--explain": options.explain = true
            default:
                if modeOption == "--script" && !option.hasPrefix("-") { throw fail("--script needs exactly one FILE") }
                let inSubcommand = if case .subcommand = options.mode { true } else { false }
                if let takesName = Subcommand.words[option], !inSubcommand {
                    var name = ""
                    if takesName {
                        guard index < arguments.count, !arguments[index].hasPrefix("-"),
                              !arguments[index].allSatisfy(\.isWhitespace)
                        else { throw fail("\(option) needs a NAME") }
                        name = arguments[index]
                        index += 1
                    }
                    if let subcommand = Subcommand.named(option, name: name) { try setMode(.subcommand(subcommand), option) }
                    continue
                }
                if case .subcommand(let subcommand) = options.mode, !option.hasPrefix("-") {
                    if subcommand == .list { throw fail("list takes no NAME") }
                    throw fail("\(subcommand.word) takes one NAME; quote a name with spaces (\"Oat milk\")")
                }
                throw fail("unknown option \(option)")
            }
        }
        if case .subcommand(let subcommand) = options.mode, let storageOption, options.storage == .inMemory {
            throw fail("\(subcommand.word) cannot be combined with \(storageOption): it changes a kept list")
        }
        return options
    }
}
