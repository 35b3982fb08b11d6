#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The size of a terminal in character cells.
public struct TerminalSize: Sendable, Hashable, CustomStringConvertible {
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int

    /// Makes a size.
    ///
    /// - Parameters:
    ///   - width: Columns.
    ///   - height: Rows.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The size script mode draws frames at unless a script sets another with `size W H`.
    public static let script = TerminalSize(width: 80, height: 20)

    /// The smallest size the app draws its lists in; smaller terminals get a frame that says
    /// so.
    public static let minimum = TerminalSize(width: 40, height: 10)

    /// Whether a frame of this size fits the ``minimum``.
    public var isLargeEnough: Bool { width >= Self.minimum.width && height >= Self.minimum.height }

    /// `80×24`.
    public var description: String { "\(width)×\(height)" }

    /// The size of the terminal open on a file descriptor, from `ioctl(TIOCGWINSZ)`.
    ///
    /// - Parameter descriptor: A file descriptor, standard output by default.
    /// - Returns: The size, or `nil` when the descriptor is not a terminal or reports 0×0.
    public static func current(of descriptor: Int32 = STDOUT_FILENO) -> TerminalSize? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return TerminalSize(width: Int(size.ws_col), height: Int(size.ws_row))
    }
}
