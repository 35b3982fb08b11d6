import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The app on a real terminal: raw keys in, styled frames out.
///
/// The session sleeps until something happens — a key, an import event, a resize, a signal,
/// marks that should fade, a change another window or command saved to the list — then
/// handles everything that is already waiting (every buffered key) and draws once, writing
/// only the lines that changed. It never wakes on a timer while idle (following the store
/// looks at its files once a second, and wakes the session only when they changed). Ctrl-Z (or SIGTSTP) puts the terminal back and suspends; SIGCONT redraws.
/// SIGTERM, SIGHUP and SIGINT put the terminal back, let the app save (``init(makeApp:willEnd:)``)
/// and end the process by that signal.
@MainActor
public final class InteractiveSession {
    /// How long input must stay quiet after an escape byte before it is the Escape key.
    nonisolated static let escapeTimeoutMilliseconds: Int32 = 30
    /// How long the marks of the last batch show before they fade.
    static let markLifetime = Duration.seconds(1)
    /// The signals the session handles itself.
    nonisolated static let handledSignals = [SIGTERM, SIGHUP, SIGINT, SIGTSTP, SIGCONT, SIGWINCH]

    private let terminal = RawTerminal()
    private let makeApp: @MainActor (TerminalSize) -> GroceryApp
    private let willEnd: @MainActor (GroceryApp) -> Void
    private var updater = ScreenUpdater()
    private var fadeTask: Task<Void, Never>?

    /// Makes a session; nothing happens until ``run()``.
    ///
    /// - Parameters:
    ///   - makeApp: Builds the app for the terminal's size (see
    ///     ``GroceryDudeCommand/makeApp(size:)``).
    ///   - willEnd: Called once with the app when the session ends — the user quit, input
    ///     closed, or a terminating signal arrived (then before the process ends by it) —
    ///     to save what should outlive the process.
    public init(
        makeApp: @escaping @MainActor (TerminalSize) -> GroceryApp = GroceryDudeCommand.makeApp(size:),
        willEnd: @escaping @MainActor (GroceryApp) -> Void = { _ in }
    ) {
        self.makeApp = makeApp
        self.willEnd = willEnd
    }

    /// Runs until the user quits, standard input closes, or a terminating signal arrives (the
    /// process then ends by that signal once the terminal is restored).
    ///
    /// - Returns: `false` when the terminal could not be put in raw mode (nothing was drawn).
    public func run() async -> Bool {
        guard terminal.enable() else { return false }
        defer { terminal.restore() }
        let app = makeApp(TerminalSize.current() ?? TerminalSize(width: 80, height: 24))
        let inbox = SessionInbox()
        Self.installSignalHandlers(inbox)
        defer {
            for number in Self.handledSignals { signal(number, SIG_DFL) }
        }
        Self.startReader(inbox)
        let following = follow(app, inbox: inbox)
        draw(app)
        await loop(app, inbox: inbox)
        following?.cancel()
        terminal.restore()
        willEnd(app)
        return true
    }

    /// Handles what arrives until the user quits or input closes.
    private func loop(_ app: GroceryApp, inbox: SessionInbox) async {
        for await _ in inbox.wakeUps {
            let batch = inbox.take()
            if let number = batch.terminatingSignal {
                terminal.restore()
                willEnd(app)
                Self.die(by: number)
            }
            if batch.continued { resume(app) }
            if batch.resized, let size = TerminalSize.current() {
                app.size = size
                updater.invalidate()
            }
            // Changes made elsewhere are shown before the keys typed after them.
            if batch.changedElsewhere { app.showChangesElsewhere() }
            for event in batch.importEvents { app.apply(event) }
            if batch.fade { app.clearMarks() }
            var suspend = batch.suspend
            for key in batch.keys {
                if key == .control("z") {
                    suspend = true
                    break  // the keys typed after Ctrl-Z wait for the user to come back
                }
                app.press(key)
                if app.isFinished { return }
            }
            if batch.inputClosed || app.isFinished { return }
            startRequestedImport(app, inbox: inbox)
            draw(app)
            scheduleFade(
                app, inbox: inbox, keepCurrent: batch.keys.isEmpty && batch.importEvents.isEmpty && !batch.changedElsewhere)
            if suspend { self.suspend(app) }
        }
    }

    // MARK: Steps

    private func draw(_ app: GroceryApp) {
        terminal.send(updater.update(to: app.render(styled: true)))
    }

    /// Follows the list's store: applies what other windows and commands save as they save
    /// it (on the main actor, where the graph lives), and wakes the session to show it. A
    /// failure (another process rewrote the files) is told on the status line.
    ///
    /// - Returns: The task to cancel when the session ends, or `nil` when nothing is kept.
    private func follow(_ app: GroceryApp, inbox: SessionInbox) -> Task<Void, Never>? {
        guard app.store.durableStore != nil else { return nil }
        let observation = app.store.graph.addObserver { changes in
            if changes.isExternal { inbox.post { $0.changedElsewhere = true } }
        }
        return Task { @MainActor in
            defer { observation.cancel() }
            do {
                try await app.store.durableStore?.followChanges()
            } catch {
                guard !Task.isCancelled else { return }
                app.stopFollowing(because: error)
                inbox.post { _ in }
            }
        }
    }

    private func startRequestedImport(_ app: GroceryApp, inbox: SessionInbox) {
        guard let count = app.takeRequestedImport(), let stream = app.beginImport(count: count) else { return }
        Task {
            for await event in stream { inbox.post { $0.importEvents.append(event) } }
        }
    }

    /// Lets the marks of the last batch fade a moment after the last command that made them.
    private func scheduleFade(_ app: GroceryApp, inbox: SessionInbox, keepCurrent: Bool) {
        guard app.hasMarks else {
            fadeTask?.cancel()
            fadeTask = nil
            return
        }
        if keepCurrent && fadeTask != nil { return }
        fadeTask?.cancel()
        fadeTask = Task {
            try? await Task.sleep(for: Self.markLifetime)
            if !Task.isCancelled { inbox.post { $0.fade = true } }
        }
    }

    /// Puts the terminal back and stops the process until it is continued.
    private func suspend(_ app: GroceryApp) {
        terminal.restore()
        // SIGSTOP, not SIGTSTP: it stops the process even when its process group is orphaned
        // (SIGTSTP would then be discarded and the app would stay running in a cooked terminal).
        raise(SIGSTOP)
        resume(app)
    }

    /// Back from a suspension: raw mode and the alternate screen again (unless they still
    /// hold), and a whole redraw.
    private func resume(_ app: GroceryApp) {
        if terminal.isEnabled { terminal.reassert() } else { _ = terminal.enable() }
        if let size = TerminalSize.current() { app.size = size }
        updater.invalidate()
        draw(app)
    }

    // MARK: Threads and signals

    /// Ends the process by a signal's default action, as its parent expects.
    private nonisolated static func die(by number: Int32) -> Never {
        signal(number, SIG_DFL)
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, number)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        raise(number)
        exit(128 + number)  // not reached: the default action ends the process
    }

    /// Reads standard input on a thread of its own, decoding keys as a byte stream; an escape
    /// byte that input leaves alone for ``escapeTimeoutMilliseconds`` is the Escape key.
    private nonisolated static func startReader(_ inbox: SessionInbox) {
        let reader = Thread {
            var decoder = KeyDecoder()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                if decoder.hasPending {
                    var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
                    let ready = poll(&descriptor, 1, escapeTimeoutMilliseconds)
                    if ready < 0 && errno == EINTR { continue }
                    if ready == 0 {
                        let keys = decoder.flush()
                        inbox.post { $0.keys += keys }
                        continue
                    }
                }
                let count = read(STDIN_FILENO, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 {
                    inbox.post { $0.inputClosed = true }
                    return
                }
                let keys = decoder.keys(from: Array(buffer[0..<count]))
                if !keys.isEmpty { inbox.post { $0.keys += keys } }
            }
        }
        reader.start()
    }

    /// Routes the signals the session handles to the inbox instead of their default actions.
    ///
    /// Each handler only writes the signal's number to a pipe (async-signal-safe); a thread
    /// reads the pipe and posts to the inbox. (Dispatch signal sources were tried first: with
    /// the signal ignored, one delivered to a thread that does not block it was lost.)
    private nonisolated static func installSignalHandlers(_ inbox: SessionInbox) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        signalPipeWriteEnd = ends[1]
        for number in handledSignals {
            signal(number) { number in
                let saved = errno
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalPipeWriteEnd, &byte, 1)
                errno = saved
            }
        }
        let readEnd = ends[0]
        let thread = Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return }
                let number = Int32(byte)
                inbox.post { batch in
                    switch number {
                    case SIGTSTP: batch.suspend = true
                    case SIGCONT: batch.continued = true
                    case SIGWINCH: batch.resized = true
                    default: batch.terminatingSignal = number
                    }
                }
            }
        }
        thread.start()
    }
}

/// The write end of the pipe the session's signal handlers write to. Set once, before any
/// handler is installed, and only read afterwards (by the handlers).
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1
