/// Plays a script against the app and prints what a terminal would have shown, as plain
/// text: each `frame` command prints the whole screen under a header line naming the frame and
/// the script line, `say` prints a caption, and an import prints its progress lines.
///
/// The output depends only on the script: no colours, no timing, and imports run to their end
/// before the next command.
@MainActor
public final class ScriptPlayer {
    /// The app the script drives.
    public let app: GroceryApp
    private let output: (String) -> Void
    private var frameCount = 0

    /// Makes a player.
    ///
    /// - Parameters:
    ///   - app: The app to drive; a seeded one at the script size by default.
    ///   - output: Receives each printed line, without its newline.
    public init(app: GroceryApp = GroceryApp(), output: @escaping (String) -> Void) {
        self.app = app
        self.output = output
    }

    /// Plays the commands in order, stopping at `quit` or when the app finishes.
    ///
    /// - Parameter script: The parsed script.
    public func play(_ script: [ScriptLine]) async {
        for line in script {
            if app.isFinished { return }
            switch line.command {
            case .key(let key):
                app.press(key)
                // Ctrl-O asks for an import, which the player runs to its end as `import` does.
                if let count = app.takeRequestedImport() { await runImport(count: count, failingAt: nil) }
            case .type(let text): app.type(text)
            case .toggle: app.toggleSelected()
            case .tab(let kind): app.switchTab(to: kind)
            case .escape: app.escape()
            case .select(let name): app.select(named: name)
            case .add(let name): app.add(name: name)
            case .rename(let name): app.renameSelected(to: name)
            case .delete: app.deleteSelected()
            case .undo: app.undo()
            case .redo: app.redo()
            case .importItems(let count, let failing):
                await runImport(count: count, failingAt: failing ? count / 2 : nil)
            case .frame: printFrame(line: line.number)
            case .size(let size): app.size = size
            case .say(let text): output("# \(text)")
            case .quit: return
            }
        }
    }

    private func runImport(count: Int, failingAt: Int?) async {
        guard let events = app.beginImport(count: count, failingAt: failingAt) else { return }
        for await event in events {
            app.apply(event)
            if case .progress = event { output("  \(app.statusLine)") }
        }
    }

    private func printFrame(line: Int) {
        frameCount += 1
        output("[frame \(frameCount) · script line \(line) · \(app.size)]")
        for text in app.render(styled: false) {
            var trimmed = Substring(text)
            while trimmed.last == " " { trimmed.removeLast() }
            output(String(trimmed))
        }
        output("")
    }
}
