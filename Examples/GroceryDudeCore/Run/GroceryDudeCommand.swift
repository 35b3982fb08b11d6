import Foundation

/// The `grocery-dude` command: reads the options and runs the app interactively, a script,
/// or the tour.
///
/// Exit statuses: 0 when the app or script ran to its end, 2 for a bad option, an unreadable
/// script or a malformed script line (reported with its line number on standard error before
/// anything is played).
@MainActor
public enum GroceryDudeCommand {
    /// Runs the command.
    ///
    /// - Parameters:
    ///   - arguments: The arguments, without the program name.
    ///   - output: Receives each line for standard output; `print` by default.
    ///   - errors: Receives each line for standard error.
    /// - Returns: The exit status.
    public static func run(
        arguments: [String],
        output: @escaping (String) -> Void = { print($0) },
        errors: @escaping (String) -> Void = { line in
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    ) async -> Int32 {
        let options: CommandLineOptions
        do {
            options = try CommandLineOptions.parse(arguments)
        } catch {
            errors("grocery-dude: \(error)")
            errors(CommandLineOptions.usage)
            return 2
        }
        switch options {
        case .help:
            output(CommandLineOptions.usage)
            return 0
        case .tour:
            return await play(Tour.script, named: "tour", output: output, errors: errors)
        case .script(let path):
            let text: String
            do {
                text = try readScript(at: path)
            } catch {
                errors("grocery-dude: cannot read script \(path): \(error.localizedDescription)")
                return 2
            }
            return await play(text, named: path, output: output, errors: errors)
        case .automatic:
            if RawTerminal.isInteractive {
                let session = InteractiveSession()
                if await session.run() { return 0 }
            }
            return await play(Tour.script, named: "tour", output: output, errors: errors)
        }
    }

    /// Builds the app and the graph under it: the one place that decides where the groceries
    /// come from (the seeded in-memory store today), for the interactive session, the tour
    /// and scripts alike.
    ///
    /// - Parameter size: The terminal size to draw frames for.
    /// - Returns: A new app.
    public static func makeApp(size: TerminalSize) -> GroceryApp {
        GroceryApp(store: GroceryStore(), size: size)
    }

    /// Parses and plays a script; a malformed line stops everything before it starts.
    private static func play(
        _ text: String, named name: String, output: @escaping (String) -> Void, errors: (String) -> Void
    ) async -> Int32 {
        let script: [ScriptLine]
        do {
            script = try ScriptParser.parse(text)
        } catch {
            errors("grocery-dude: \(name): \(error)")
            return 2
        }
        await ScriptPlayer(app: makeApp(size: .script), output: output).play(script)
        return 0
    }

    private static func readScript(at path: String) throws -> String {
        if path == "-" {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            return String(decoding: data, as: UTF8.self)
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let text = String(data: data, encoding: .utf8) else {
            throw CocoaError(.fileReadInapplicableStringEncoding)
        }
        return text
    }
}
