import Foundation
import Testing

/// Runs the built `grocery-dude` executable, as CI and the README do.
@Suite("grocery-dude binary")
struct GroceryDudeBinaryTests {
    struct Run {
        var status: Int32
        var output: String
        var errors: String

        /// The printed frames, each as its header line and the number of lines the header names.
        var frames: [[String]] {
            var frames: [[String]] = []
            var remaining = 0
            for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
                if remaining > 0 {
                    frames[frames.count - 1].append(String(line))
                    remaining -= 1
                } else if line.hasPrefix("[frame "), let size = line.split(separator: " ").last,
                          let height = size.split(separator: "×").last.flatMap({ Int($0.dropLast()) }) {
                    frames.append([String(line)])
                    remaining = height
                }
            }
            return frames
        }
    }

    /// The executable next to the test bundle (`.build/<configuration>/grocery-dude`).
    static func executable() throws -> URL {
        var candidates: [URL] = []
        let argument0 = URL(fileURLWithPath: CommandLine.arguments[0])
        candidates.append(argument0.deletingLastPathComponent())
        if let main = Bundle.main.executableURL { candidates.append(main.deletingLastPathComponent()) }
        // A test bundle directory (`Foo.xctest/Contents/MacOS/Foo` on Apple platforms).
        for url in candidates where url.path.contains(".xctest") {
            var bundle = url
            while bundle.pathExtension != "xctest" && bundle.path != "/" { bundle.deleteLastPathComponent() }
            candidates.append(bundle.deletingLastPathComponent())
        }
        candidates.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/debug"))
        for directory in candidates {
            let binary = directory.appendingPathComponent("grocery-dude")
            if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "grocery-dude next to \(candidates.map(\.path))"])
    }

    static func run(arguments: [String], script: String? = nil, stdin: String? = nil) throws -> Run {
        let process = Process()
        process.executableURL = try executable()
        var arguments = arguments
        var scriptURL: URL?
        if let script {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("grocery-\(UUID().uuidString).txt")
            try script.write(to: url, atomically: true, encoding: .utf8)
            scriptURL = url
            arguments += ["--script", url.path]
        }
        defer { if let scriptURL { try? FileManager.default.removeItem(at: scriptURL) } }
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            errors: String(decoding: errorData, as: UTF8.self))
    }

    @Test func aToggledItemAppearsInTheShopView() throws {
        let run = try Self.run(arguments: ["--explain"], script: """
            tab shop
            frame
            tab prepare
            select Butter
            toggle
            frame
            tab shop
            frame
            """)
        #expect(run.status == 0, "\(run.errors)")
        let frames = run.frames
        try #require(frames.count == 3)
        #expect(frames[0][0] == "[frame 1 · script line 2 · 80×20]")
        #expect(frames[0].count == 21)
        #expect(!frames[0].joined().contains("Butter"))
        #expect(frames[1].contains { $0.hasPrefix(">*[x] Butter") })
        #expect(frames[1].contains { $0.hasPrefix("animated 1 change · listed Butter · Shop: reload owed (hidden)") })
        #expect(frames[2].contains { $0.contains("[x] Butter") })
        #expect(frames[2].contains { $0.hasPrefix("── Dairy (3)") })
        #expect(frames[2].contains { $0.hasPrefix("reloaded (target not visible) · showing Shop") })
    }

    @Test func aSearchNarrowsRowsAndKeepsSectionHeaders() throws {
        let run = try Self.run(arguments: [], script: """
            type jam
            frame
            escape
            frame
            """)
        #expect(run.status == 0, "\(run.errors)")
        let frames = run.frames
        try #require(frames.count == 2)
        let rows = frames[0].filter { $0.contains("[ ]") || $0.contains("[x]") }
        #expect(rows.count == 2)
        #expect(frames[0].contains { $0.hasPrefix("── Fridge (1)") })
        #expect(frames[0].contains { $0.hasPrefix("── Pantry (1)") })
        #expect(frames[0].contains { $0.hasPrefix("search: name CONTAINS[cd] \"jam\" → 2 of 42") })
        #expect(frames[1].filter { $0.contains("[ ]") || $0.contains("[x]") }.count > 2)
    }

    @Test func aSmallImportAndAFailedOne() throws {
        let run = try Self.run(arguments: ["--explain"], script: """
            import 40
            frame
            import-fail 40
            frame
            """)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("  importing: built 10 of 40 items (25%)"))
        let frames = run.frames
        try #require(frames.count == 2)
        #expect(frames[0][1].contains("82 items"))
        #expect(frames[0].last?.hasPrefix("reloaded (40 changes exceed 50.0% of 42 displayed rows) · imported 40") == true)
        #expect(frames[1][1].contains("82 items"))
        #expect(frames[1].last == "error: import failed after 20 of 40 items, nothing committed")
    }

    @Test func aMalformedScriptNamesTheLineAndExitsNonZero() throws {
        let run = try Self.run(arguments: [], script: "frame\n# fine\njump 3\nframe\n")
        #expect(run.status == 2)
        #expect(run.errors.contains("line 3 (\"jump 3\"): unknown command \"jump\""))
        #expect(!run.output.contains("[frame"), "nothing is played")
    }

    @Test func aScriptOnStandardInput() throws {
        let run = try Self.run(arguments: ["--script", "-"], stdin: "size 50 12\nframe\n")
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.frames.count == 1)
        #expect(run.frames.first?.count == 13)
    }

    @Test func aMissingScriptAndABadOption() throws {
        let missing = try Self.run(arguments: ["--script", "/nonexistent/tour.txt"])
        #expect(missing.status == 2)
        #expect(missing.errors.contains("cannot read script /nonexistent/tour.txt"))
        let bad = try Self.run(arguments: ["--fast"])
        #expect(bad.status == 2)
        #expect(bad.errors.contains("unknown option --fast"))
        #expect(bad.errors.contains("usage: grocery-dude"))
    }

    @Test func withoutATerminalItPlaysTheTour() throws {
        let run = try Self.run(arguments: [])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.frames.count >= 8)
        #expect(run.output.contains("terminal too small"))
        #expect(run.output.contains("reloaded (5000 changes exceed the limit of 500) · imported 5000 items"))
        #expect(run.output.contains("nothing committed"))
        // Every feature a caption names has a frame that shows it.
        #expect(run.output.contains("Rename to: Oat drink_"))
        #expect(run.output.contains("Delete \"Oat drink\"? y deletes, any other key keeps it"))
        #expect(run.output.contains("deleted Oat drink"))
        #expect(run.output.contains("undid Delete Oat drink"), "the tour shows an undo frame")
        #expect(run.output.contains("redid Delete Oat drink"), "and a redo frame")
        #expect(run.output.contains(">*[ ] Oat drink"), "the undone delete brings the row back, marked, under the cursor")
    }

    @Test func theHelpNamesTheKeys() throws {
        let run = try Self.run(arguments: ["--help"])
        #expect(run.status == 0)
        #expect(run.output.contains("Space types a space"))
        #expect(run.output.contains("Ctrl-D or Delete asks to delete"))
        #expect(run.output.contains("--explain"))
        #expect(run.output.contains("Ctrl-L refreshes"))
        #expect(run.output.contains("quantity, note,"))
        #expect(run.output.contains("Ctrl-Z suspends (so undo is Ctrl-U, not Ctrl-Z)"))
        #expect(run.output.contains("Ctrl-U undoes the last change"))
        #expect(run.output.contains("Ctrl-Y redoes it"))
        #expect(run.output.contains("Ctrl-Q or Ctrl-C quits"))
        #expect(run.output.contains("--store DIR"))
        #expect(run.output.contains("--in-memory"))
        #expect(run.output.contains("$XDG_DATA_HOME/grocery-dude/"))
        #expect(run.output.contains("grocery-dude list | add NAME | tick NAME | delete NAME [--store DIR]"))
        #expect(run.output.contains("windows and commands can use one list at once"))
    }

    @Test func aCommandOnTheStoreOfAnOpenWindowShowsThereAtOnce() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let terminal = try TerminalRun(arguments: ["--store", directory.path])
        terminal.wait("the first frame") { terminal.text.contains(" Grocery Dude ") }
        let add = try Self.run(arguments: ["add", "Oat milk", "--store", directory.path])
        #expect(add.status == 0, "\(add.errors)")
        #expect(add.output == "added Oat milk to the shopping list\n")
        terminal.wait("the window to show the change") { terminal.text.contains("Oat milk added by grocery-dude add") }
        let list = try Self.run(arguments: ["list", "--store", directory.path])
        #expect(list.status == 0, "\(list.errors)")
        #expect(list.output.contains("No location (1)\n  [x] Oat milk\n"), "\(list.output)")
        let tick = try Self.run(arguments: ["tick", "Caviar", "--store", directory.path])
        #expect(tick.status == 1)
        #expect(tick.errors.contains("no item is called \"Caviar\""), "\(tick.errors)")
        terminal.type(Array("\u{11}".utf8))  // Ctrl-Q
        terminal.waitForExit()
    }
}
