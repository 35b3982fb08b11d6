import Foundation
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The built `grocery-dude` on a pseudo-terminal, driven as a person at a terminal would drive
/// it. Every wait has a generous deadline and only waits for output or a process state; no
/// test asserts how long anything took.
final class TerminalRun: @unchecked Sendable {
    // `output` is guarded by its own mutex; the rest is written once in `init`.
    let process = Process()
    let master: Int32
    let slave: Int32
    private let output = OutputBuffer()

    /// The bytes the app wrote, guarded by their mutex.
    final class OutputBuffer: Sendable {
        let bytes = Mutex<[UInt8]>([])
    }

    /// Where the app keeps its list (`XDG_DATA_HOME`): a fresh temporary directory (removed
    /// with the run) unless given.
    let dataHome: URL
    private let ownsDataHome: Bool

    /// Starts the app on a new pseudo-terminal.
    ///
    /// - Parameters:
    ///   - arguments: The app's arguments.
    ///   - dataHome: `XDG_DATA_HOME` for the app; a new temporary directory when `nil`.
    init(width: UInt16 = 80, height: UInt16 = 20, arguments: [String] = [], dataHome: URL? = nil) throws {
        ownsDataHome = dataHome == nil
        self.dataHome = try dataHome ?? makeTemporaryDirectory()
        // posix_openpt and friends are not imported; use the Linux interface they wrap.
        let getNumber: UInt = 0x8004_5430  // TIOCGPTN
        let setLock: UInt = 0x4004_5431  // TIOCSPTLCK
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, setLock, &unlock) == 0, ioctl(master, getNumber, &number) == 0 else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSDebugDescriptionErrorKey: "no pseudo-terminal"])
        }
        slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else { throw CocoaError(.fileReadUnknown) }
        var size = winsize(ws_row: height, ws_col: width, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        process.executableURL = try GroceryDudeBinaryTests.executable()
        process.arguments = arguments
        // Interactive runs keep the list under XDG_DATA_HOME: never the real home folder.
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = self.dataHome.path
        process.environment = environment
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.standardInput = terminal
        process.standardOutput = terminal
        process.standardError = FileHandle.nullDevice
        let master = master
        let reader = Thread { [output] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(master, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return }
                output.bytes.withLock { $0 += buffer[0..<count] }
            }
        }
        reader.start()
        try process.run()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGCONT)
            process.terminate()
            process.waitUntilExit()
        }
        close(slave)
        close(master)
        if ownsDataHome { try? FileManager.default.removeItem(at: dataHome) }
    }

    /// Everything the app wrote so far, as text.
    var text: String { output.bytes.withLock { String(decoding: $0, as: UTF8.self) } }

    /// How many bytes the app wrote so far.
    var byteCount: Int { output.bytes.withLock { $0.count } }

    /// What the app wrote after its first `offset` bytes, as text.
    func text(after offset: Int) -> String {
        output.bytes.withLock { String(decoding: $0.dropFirst(offset), as: UTF8.self) }
    }

    /// Sends bytes as typed keys.
    func type(_ bytes: [UInt8]) {
        var bytes = bytes
        _ = write(master, &bytes, bytes.count)
    }

    /// Waits until `condition` holds; records an issue and returns `false` after 30 s.
    @discardableResult
    func wait(_ what: String, sourceLocation: SourceLocation = #_sourceLocation, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while !condition() {
            if Date() > deadline {
                let seen = String(text.suffix(600)).debugDescription
                Issue.record(
                    "timed out waiting for \(what); pid \(process.processIdentifier) state \(state.map(String.init) ?? "gone"), last output: \(seen)",
                    sourceLocation: sourceLocation)
                return false
            }
            usleep(5_000)
        }
        return true
    }

    /// Waits for the process to end.
    @discardableResult
    func waitForExit(sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        wait("the app to exit", sourceLocation: sourceLocation) { !process.isRunning }
    }

    /// The process state letter from `/proc/PID/stat` (`T` when stopped).
    var state: Character? {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(close, offsetBy: 2)...].first
    }

    /// Whether the terminal is in its ordinary (cooked, echoing) mode.
    var isCooked: Bool {
        var attributes = termios()
        guard tcgetattr(slave, &attributes) == 0 else { return false }
        return attributes.c_lflag & tcflag_t(ECHO | ICANON) == tcflag_t(ECHO | ICANON)
    }

    static let enterScreen = "\u{1B}[?1049h"
    static let leaveScreen = "\u{1B}[?1049l"
    static let showCursor = "\u{1B}[?25h"
    static let endOfWholeFrame = "\u{1B}[J"
}

@Suite("grocery-dude on a terminal", .serialized)
struct GroceryDudeTerminalTests {
    /// Starts the app and waits for its first whole frame.
    private func start() throws -> TerminalRun {
        let run = try TerminalRun()
        run.wait("the first frame") { run.text.contains(" Grocery Dude ") && run.text.contains(TerminalRun.endOfWholeFrame) }
        #expect(!run.isCooked, "the app runs in raw mode")
        return run
    }

    /// What the app wrote after its first whole frame and before it put the terminal back.
    private func afterFirstFrame(_ text: String) -> Substring {
        guard let first = text.range(of: TerminalRun.endOfWholeFrame) else { return "" }
        let rest = text[first.upperBound...]
        let end = rest.range(of: "\u{1B}[0m" + TerminalRun.showCursor)?.lowerBound ?? rest.endIndex
        return rest[..<end]
    }

    @Test(arguments: [SIGTERM, SIGHUP, SIGINT])
    func aSignalPutsTheTerminalBack(signal: Int32) throws {
        let run = try start()
        kill(run.process.processIdentifier, signal)
        try #require(run.waitForExit())
        let tail = run.text[(run.text.range(of: TerminalRun.enterScreen)?.upperBound ?? run.text.startIndex)...]
        #expect(tail.contains(TerminalRun.showCursor), "the cursor shows again")
        #expect(tail.contains(TerminalRun.leaveScreen), "the alternate screen is left")
        #expect(run.isCooked, "echo and line editing are back")
        #expect(run.process.terminationReason == .uncaughtSignal && run.process.terminationStatus == signal,
                "the app ends by the signal, as its parent expects")
    }

    @Test func ctrlZSuspendsAndContinuingRedraws() throws {
        let run = try start()
        let before = run.byteCount
        run.type([0x1A])
        try #require(run.wait("the app to put the terminal back and stop") {
            run.state == "T" && run.text(after: before).contains(TerminalRun.leaveScreen)
                && run.text(after: before).contains(TerminalRun.showCursor)
        })
        #expect(run.isCooked, "a suspended app leaves the terminal as it found it")
        let stopped = run.byteCount
        kill(run.process.processIdentifier, SIGCONT)
        run.wait("a whole redraw") {
            let again = run.text(after: stopped)
            return again.contains(TerminalRun.enterScreen) && again.contains(" Grocery Dude ")
                && again.contains(TerminalRun.endOfWholeFrame)
        }
        #expect(!run.isCooked, "raw mode again")
        run.type(Array("\u{11}".utf8))  // Ctrl-Q
        try #require(run.waitForExit())
        #expect(run.process.terminationStatus == 0)
        #expect(run.isCooked)
    }

    @Test func keysThatChangeNothingWriteNothingAndAMoveRewritesTwoRows() throws {
        let run = try start()
        run.type(Array("\u{1B}[A".utf8))  // Up, on the first row already: nothing changes
        run.type(Array("\u{1B}[A\u{1B}[B".utf8))  // Up again, then Down
        run.wait("the cursor to move") { afterFirstFrame(run.text).contains(";1H") }
        run.type(Array("\u{11}".utf8))  // Ctrl-Q
        try #require(run.waitForExit())
        let update = afterFirstFrame(run.text)
        #expect(!update.contains("Grocery Dude"), "the title line did not change")
        #expect(!update.contains(TerminalRun.endOfWholeFrame), "no whole frame")
        #expect(update.components(separatedBy: ";1H").count - 1 == 2, "\(update.debugDescription)")
    }

    @Test func aRelaunchShowsTheSameListWithTheCursorOnTheSameItem() throws {
        let dataHome = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dataHome) }
        let first = try TerminalRun(dataHome: dataHome)
        first.wait("the first frame") { first.text.contains(" Grocery Dude ") && first.text.contains(TerminalRun.endOfWholeFrame) }
        // Bathroom: Dental floss, Hand soap, Shampoo…; Down, Down, Enter lists Shampoo.
        first.type(Array("\u{1B}[B\u{1B}[B\r".utf8))
        first.wait("the item to be listed") { first.text.contains("listed Shampoo") }
        first.type(Array("\u{11}".utf8))  // Ctrl-Q
        try #require(first.waitForExit())
        let store = dataHome.appendingPathComponent("grocery-dude")
        #expect(FileManager.default.fileExists(atPath: store.appendingPathComponent("journal").path), "the list is kept under XDG_DATA_HOME")
        #expect(FileManager.default.fileExists(atPath: store.appendingPathComponent("grocery-dude-cursor.json").path))

        let second = try TerminalRun(dataHome: dataHome)
        second.wait("the first frame") { second.text.contains(" Grocery Dude ") && second.text.contains(TerminalRun.endOfWholeFrame) }
        #expect(second.text.contains("42 items · 10 listed"), "the change was kept")
        #expect(second.text.contains("> [x] Shampoo"), "the cursor is on Shampoo again: \(second.text.debugDescription)")
        second.type(Array("\u{11}".utf8))
        try #require(second.waitForExit())
    }
}
