import Foundation

/// The `grocery-dude` command: reads the options, opens the groceries where they are kept,
/// and runs the app interactively, a script, the tour, or a subcommand (`list`, `add NAME`…).
///
/// Exit statuses: 0 when the app, script or subcommand ran to its end; 1 when a subcommand
/// names no item of the list, or its change was refused; 2 for a bad option, an unreadable
/// script or a malformed script line (reported with its line number on standard error before
/// anything is played); 3 when the store is open in a process that does not share it; 4
/// when it cannot be opened (see ``StoreOpenError``).
@MainActor
public enum GroceryDudeCommand {
    /// Runs the command.
    ///
    /// - Parameters:
    ///   - arguments: The arguments, without the program name.
    ///   - environment: The environment, for `XDG_DATA_HOME` and `HOME`.
    ///   - output: Receives each line for standard output; `print` by default.
    ///   - errors: Receives each line for standard error.
    /// - Returns: The exit status.
    public static func run(
        arguments: [String],
        environment: [String: String] = ProcessInfo.processInfo.environment,
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
        let scripted = StorageLocation.resolve(options.storage, interactive: false, environment: environment)
        switch options.mode {
        case .help:
            output(CommandLineOptions.usage)
            return 0
        case .subcommand(let subcommand):
            let location = StorageLocation.resolve(options.storage, interactive: true, environment: environment)
            return run(subcommand, at: location, output: output, errors: errors)
        case .tour:
            return await play(Tour.script, named: "tour", location: scripted, explain: true, output: output, errors: errors)
        case .script(let path):
            let text: String
            do {
                text = try readScript(at: path)
            } catch {
                errors("grocery-dude: cannot read script \(path): \(error.localizedDescription)")
                return 2
            }
            return await play(
                text, named: path, location: scripted, explain: options.explain, output: output, errors: errors)
        case .automatic:
            if RawTerminal.isInteractive {
                let location = StorageLocation.resolve(options.storage, interactive: true, environment: environment)
                let opened: Opened
                do {
                    opened = try open(location, errors: errors)
                } catch {
                    errors("grocery-dude: \(error)")
                    return error.exitStatus
                }
                let session = InteractiveSession(
                    makeApp: { size in opened.makeApp(size: size, explain: options.explain) },
                    willEnd: { app in opened.finish(app, errors: errors) })
                if await session.run() { return 0 }
                opened.store.close()
            }
            return await play(Tour.script, named: "tour", location: scripted, explain: true, output: output, errors: errors)
        }
    }

    /// Builds an app over the sample groceries in memory, at a terminal size (the benchmarks'
    /// app).
    ///
    /// - Parameter size: The terminal size to draw frames for.
    /// - Returns: A new app.
    public static func makeApp(size: TerminalSize) -> GroceryApp {
        GroceryApp(store: GroceryStore(), size: size)
    }

    /// The groceries, opened where they are kept, and what the app should start with.
    struct Opened {
        let store: GroceryStore
        let location: StorageLocation
        let notice: GroceryStore.OpenNotice?
        let cursor: SavedCursor?

        /// The app over the groceries, with the saved cursor restored and the damage notice
        /// (if any) on the status line; `explain` turns on the library's wording.
        @MainActor
        func makeApp(size: TerminalSize, explain: Bool) -> GroceryApp {
            let app = GroceryApp(store: store, size: size)
            app.explain = explain
            if let cursor { app.restore(cursor) }
            if let notice {
                app.status = notice.status
                app.notice = notice.panel
            }
            return app
        }

        /// Saves the cursor and closes the store, at the end of a run.
        @MainActor
        func finish(_ app: GroceryApp, errors: (String) -> Void) {
            if case .directory(let directory) = location {
                do {
                    try app.savedCursor().save(in: directory)
                } catch {
                    errors("grocery-dude: could not save the cursor: \(error.localizedDescription)")
                }
            }
            store.close()
        }
    }

    /// Opens the groceries at a location: the sample list in memory, or the store in a
    /// directory (writing the damage report, if any, to `errors`).
    static func open(_ location: StorageLocation, errors: (String) -> Void) throws(StoreOpenError) -> Opened {
        switch location {
        case .inMemory:
            return Opened(store: GroceryStore(), location: location, notice: nil, cursor: nil)
        case .directory(let directory):
            let (store, notice) = try GroceryStore.open(at: directory)
            for line in notice?.details ?? [] { errors(line) }
            let cursor = store.wasSeeded ? nil : SavedCursor.load(from: directory)
            return Opened(store: store, location: location, notice: notice, cursor: cursor)
        }
    }

    /// Parses and plays a script; a malformed line stops everything before it starts.
    private static func play(
        _ text: String, named name: String, location: StorageLocation, explain: Bool, output: @escaping (String) -> Void,
        errors: @escaping (String) -> Void
    ) async -> Int32 {
        let script: [ScriptLine]
        do {
            script = try ScriptParser.parse(text)
        } catch {
            errors("grocery-dude: \(name): \(error)")
            return 2
        }
        let opened: Opened
        do {
            opened = try open(location, errors: errors)
        } catch {
            errors("grocery-dude: \(error)")
            return error.exitStatus
        }
        let app = opened.makeApp(size: .script, explain: explain)
        await ScriptPlayer(app: app, output: output).play(script)
        opened.finish(app, errors: errors)
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
