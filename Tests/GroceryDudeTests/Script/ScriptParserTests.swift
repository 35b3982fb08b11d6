import Foundation
import GroceryDudeCore
import Testing

@Suite("Script parser")
struct ScriptParserTests {
    @Test func everyCommand() throws {
        let script = """
            # a comment
            key down
            key PageUp
            key ctrl-n
            type peanut butter

            toggle
            tab
            tab shop
            tab Prepare
            escape
            select Milk
            add Oat milk
            rename Oat drink
            delete
            import 5000
            import-fail 200
            frame
            size 100 30
            say Hello there
              quit
            """
        let lines = try ScriptParser.parse(script)
        #expect(lines.map(\.command) == [
            .key(.down), .key(.pageUp), .key(.control("n")), .type("peanut butter"), .toggle, .tab(nil), .tab(.shop),
            .tab(.prepare), .escape, .select("Milk"), .add("Oat milk"), .rename("Oat drink"), .delete,
            .importItems(count: 5000, failing: false), .importItems(count: 200, failing: true), .frame,
            .size(TerminalSize(width: 100, height: 30)), .say("Hello there"), .quit,
        ])
        #expect(lines.map(\.number) == [2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21])
    }

    @Test func windowsLineEndings() throws {
        let lines = try ScriptParser.parse("toggle\r\nframe\r\n")
        #expect(lines.map(\.command) == [.toggle, .frame])
    }

    @Test func emptyScript() throws {
        #expect(try ScriptParser.parse("").isEmpty)
        #expect(try ScriptParser.parse("\n# only a comment\n\n").isEmpty)
    }

    @Test(arguments: [
        ("jump 3", "unknown command \"jump\""),
        ("key sideways", "unknown key \"sideways\""),
        ("key", "unknown key \"\""),
        ("type", "\"type\" needs text"),
        ("add   ", "\"add\" needs text"),
        ("rename", "\"rename\" needs text"),
        ("select", "\"select\" needs text"),
        ("toggle twice", "\"toggle\" takes no argument"),
        ("frame 2", "\"frame\" takes no argument"),
        ("import lots", "\"import\" needs a number"),
        ("import -5", "\"import\" needs a number"),
        ("import 99999999", "\"import\" needs a number"),
        ("import-fail", "\"import-fail\" needs a number"),
        ("size 80", "\"size\" needs a width and a height"),
        ("size 0 20", "\"size\" needs a width and a height"),
        ("size wide tall", "\"size\" needs a width and a height"),
        ("tab groceries", "\"tab\" takes prepare, shop or nothing"),
    ])
    func malformedLinesNameTheirNumber(line: String, problem: String) {
        let script = "# tour\nframe\n\n\(line)\nframe\n"
        #expect {
            try ScriptParser.parse(script)
        } throws: { error in
            guard let error = error as? ScriptError else { return false }
            return error.line == 4 && error.text == line.trimmingCharacters(in: .whitespaces)
                && error.problem.contains(problem) && error.description.hasPrefix("line 4 (")
        }
    }

    @Test func theFirstMalformedLineIsReported() {
        #expect(throws: ScriptError.self) { try ScriptParser.parse("frame\nbad one\nbad two") }
        do {
            _ = try ScriptParser.parse("frame\nbad one\nbad two")
        } catch {
            #expect(error.line == 2)
        }
    }

    @Test func theTourParses() throws {
        let tour = try ScriptParser.parse(Tour.script)
        #expect(tour.contains { $0.command == .frame })
        #expect(tour.contains { if case .importItems = $0.command { true } else { false } })
    }

    @Test func commandLineOptions() throws {
        #expect(try CommandLineOptions.parse([]) == CommandLineOptions(mode: .automatic))
        #expect(try CommandLineOptions.parse(["--tour"]) == CommandLineOptions(mode: .tour))
        #expect(try CommandLineOptions.parse(["--help"]) == CommandLineOptions(mode: .help))
        #expect(try CommandLineOptions.parse(["--script", "a.txt"]) == CommandLineOptions(mode: .script(path: "a.txt")))
        #expect(throws: ScriptError.self) { try CommandLineOptions.parse(["--script"]) }
        #expect(throws: ScriptError.self) { try CommandLineOptions.parse(["--script", "a", "b"]) }
        #expect(throws: ScriptError.self) { try CommandLineOptions.parse(["--colour"]) }
    }

    @Test func storageOptions() throws {
        #expect(try CommandLineOptions.parse(["--store", "/tmp/list"]) == CommandLineOptions(storage: .directory("/tmp/list")))
        #expect(try CommandLineOptions.parse(["--in-memory"]) == CommandLineOptions(storage: .inMemory))
        #expect(
            try CommandLineOptions.parse(["--in-memory", "--script", "a.txt"])
                == CommandLineOptions(mode: .script(path: "a.txt"), storage: .inMemory))
        #expect(
            try CommandLineOptions.parse(["--tour", "--store", "d"]) == CommandLineOptions(mode: .tour, storage: .directory("d")))
        #expect(throws: ScriptError.self) { try CommandLineOptions.parse(["--store"]) }
        #expect(throws: ScriptError.self) { try CommandLineOptions.parse(["--store", "d", "--in-memory"]) }
        #expect(throws: ScriptError.self) { try CommandLineOptions.parse(["--tour", "--script", "a"]) }
    }

    @Test func subcommandsParse() throws {
        #expect(try CommandLineOptions.parse(["list"]) == CommandLineOptions(mode: .subcommand(.list)))
        #expect(try CommandLineOptions.parse(["add", "Oat milk"]) == CommandLineOptions(mode: .subcommand(.add(name: "Oat milk"))))
        #expect(try CommandLineOptions.parse(["tick", "Milk"]) == CommandLineOptions(mode: .subcommand(.tick(name: "Milk"))))
        #expect(try CommandLineOptions.parse(["delete", "Milk"]) == CommandLineOptions(mode: .subcommand(.delete(name: "Milk"))))
        #expect(
            try CommandLineOptions.parse(["--store", "d", "add", "Milk"])
                == CommandLineOptions(mode: .subcommand(.add(name: "Milk")), storage: .directory("d")))
        #expect(
            try CommandLineOptions.parse(["tick", "Milk", "--store", "d"])
                == CommandLineOptions(mode: .subcommand(.tick(name: "Milk")), storage: .directory("d")))
        #expect(Subcommand.add(name: "Milk").author == "grocery-dude add")
    }

    @Test func subcommandMistakesSaySo() throws {
        func problem(_ arguments: [String]) -> String? {
            do {
                _ = try CommandLineOptions.parse(arguments)
                return nil
            } catch {
                return error.problem
            }
        }
        #expect(problem(["add"]) == "add needs a NAME")
        #expect(problem(["tick", "--store", "d"]) == "tick needs a NAME")
        #expect(problem(["delete", " "]) == "delete needs a NAME")
        #expect(problem(["add", "Oat", "milk"]) == "add takes one NAME; quote a name with spaces (\"Oat milk\")")
        #expect(problem(["list", "Milk"]) == "list takes no NAME")
        #expect(problem(["list", "--tour"]) == "--tour cannot be combined with list")
        #expect(problem(["--tour", "list"]) == "list cannot be combined with --tour")
        #expect(problem(["add", "Milk", "--in-memory"]) == "add cannot be combined with --in-memory: it changes a kept list")
        #expect(problem(["fetch"]) == "unknown option fetch")
    }

    @Test func undoAndRedoParse() throws {
        #expect(try ScriptParser.parse("undo\nredo").map(\.command) == [.undo, .redo])
        #expect(throws: ScriptError.self) { try ScriptParser.parse("undo 2") }
    }
}
