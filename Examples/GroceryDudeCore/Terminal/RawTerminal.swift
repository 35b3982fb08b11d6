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

    /// Leaves the alternate screen, shows the cursor and restores the terminal's attributes.
    public func restore() {
        guard isRaw else { return }
        emit("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
        isRaw = false
    }

    /// Draws a frame over the whole screen.
    ///
    /// - Parameter lines: The frame's lines, already styled and no wider than the screen.
    public func draw(_ lines: [String]) {
        var text = "\u{1B}[H"
        for (number, line) in lines.enumerated() {
            text += line + "\u{1B}[0m\u{1B}[K"
            if number < lines.count - 1 { text += "\r\n" }
        }
        text += "\u{1B}[J"
        emit(text)
    }

    /// Writes text to standard output unbuffered.
    private func emit(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
            }
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
