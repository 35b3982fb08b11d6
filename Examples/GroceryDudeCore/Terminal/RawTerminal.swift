#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Puts the terminal on standard input in raw mode (no echo, no line buffering, no signals
/// from Ctrl-C) and on the alternate screen, and puts everything back when restored.
///
/// Only one exists at a time, owned by the interactive session on the main actor.
public final class RawTerminal {
    private var original = termios()
    private var isRaw = false

    /// Whether standard input and standard output are both terminals, so the app can run
    /// interactively.
    public static var isInteractive: Bool {
        isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    }

    /// Makes a terminal controller; nothing changes until ``enable()``.
    public init() {}

    /// Switches to raw mode and the alternate screen, and hides the cursor.
    ///
    /// - Returns: `false` when standard input's attributes cannot be read or set.
    public func enable() -> Bool {
        guard !isRaw else { return true }
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return false }
        var raw = original
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else { return false }
        isRaw = true
        emit("\u{1B}[?1049h\u{1B}[?25l")
        return true
    }

    /// Puts raw mode and the alternate screen back if something else (a shell that stopped
    /// and continued the process) changed the terminal meanwhile.
    public func reassert() {
        guard isRaw else { return }
        var current = termios()
        guard tcgetattr(STDIN_FILENO, &current) == 0,
              current.c_lflag & tcflag_t(ECHO | ICANON) != 0
        else { return }
        isRaw = false
        _ = enable()
    }

    /// Leaves the alternate screen, shows the cursor and restores the terminal's attributes.
    public func restore() {
        guard isRaw else { return }
        emit("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
        isRaw = false
    }

    /// Whether the terminal is in raw mode on the alternate screen now.
    public var isEnabled: Bool { isRaw }

    /// Writes output for the screen (see ``ScreenUpdater``) unbuffered.
    ///
    /// - Parameter text: Styled text and cursor movements.
    public func send(_ text: String) {
        guard !text.isEmpty else { return }
        emit(text)
    }

    /// Writes text to standard output unbuffered, retrying after a signal interrupts it.
    private func emit(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }

    deinit {
        restore()
    }
}

@available(*, unavailable, message: "the raw terminal belongs to the interactive session's actor")
extension RawTerminal: Sendable {}
