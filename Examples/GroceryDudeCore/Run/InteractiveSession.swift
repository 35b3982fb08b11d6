import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The app on a real terminal: raw keys in, styled frames out, redrawn after every key, every
/// import event and every quarter second (to follow resizes and let marks fade).
@MainActor
public final class InteractiveSession {
    /// What wakes the session.
    enum Event: Sendable {
        case input([UInt8])
        case inputClosed
        case tick
        case importEvent(ImportJob.Event)
    }

    private let terminal = RawTerminal()
    private var decoder = KeyDecoder()
    private var quietTicks = 0

    /// Makes a session; nothing happens until ``run()``.
    public init() {}

    /// Runs until the user quits or standard input closes.
    ///
    /// - Returns: `false` when the terminal could not be put in raw mode (nothing was drawn).
    public func run() async -> Bool {
        guard terminal.enable() else { return false }
        defer { terminal.restore() }
        let app = GroceryApp(size: TerminalSize.current() ?? TerminalSize(width: 80, height: 24))
        app.keyboardImportCount = 5000
        let (events, continuation) = AsyncStream.makeStream(of: Event.self)
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 256)
            while true {
                let count = read(STDIN_FILENO, &buffer, buffer.count)
                if count <= 0 {
                    continuation.yield(.inputClosed)
                    return
                }
                continuation.yield(.input(Array(buffer[0..<count])))
            }
        }
        reader.start()
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(250))
                continuation.yield(.tick)
            }
        }
        defer { ticker.cancel() }

        draw(app)
        for await event in events {
            switch event {
            case .input(let bytes):
                quietTicks = 0
                for key in decoder.keys(from: bytes) { app.press(key) }
                if let count = app.takeRequestedImport(), let stream = app.beginImport(count: count) {
                    Task {
                        for await importEvent in stream { continuation.yield(.importEvent(importEvent)) }
                    }
                }
            case .inputClosed:
                return true
            case .tick:
                quietTicks += 1
                if quietTicks == 4 { app.clearMarks() }
                if let size = TerminalSize.current() { app.size = size }
            case .importEvent(let importEvent):
                app.apply(importEvent)
            }
            if app.isFinished { return true }
            draw(app)
        }
        return true
    }

    private func draw(_ app: GroceryApp) {
        terminal.draw(app.render(styled: true))
    }
}
