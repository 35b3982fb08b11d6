/// Turns successive frames into the least terminal output that shows them: the first frame
/// (and the first after ``invalidate()``) is written whole, later ones write only the lines
/// that differ from what the terminal shows, and an unchanged frame writes nothing.
///
/// A whole frame ends with `ESC [J` (clear to the end of the screen); a partial update moves
/// the cursor to each changed line (`ESC [row;1H`), writes it and clears the rest of the line.
public struct ScreenUpdater: Sendable {
    /// The lines the terminal shows, or `nil` when it must be redrawn whole.
    private var shown: [String]?

    /// Makes an updater for a screen whose content is unknown.
    public init() {}

    /// Forgets what the terminal shows, so the next update writes the whole frame (after a
    /// resize, or when the app comes back from a suspension).
    public mutating func invalidate() {
        shown = nil
    }

    /// The output that changes the screen from the last frame to `lines`.
    ///
    /// - Parameter lines: The new frame, one styled string per terminal line.
    /// - Returns: The text to write; empty when the frame is unchanged.
    /// - Complexity: O(total length of the lines).
    public mutating func update(to lines: [String]) -> String {
        defer { shown = lines }
        guard let shown, shown.count == lines.count else {
            var text = "\u{1B}[H"
            for (number, line) in lines.enumerated() {
                text += line + "\u{1B}[0m\u{1B}[K"
                if number < lines.count - 1 { text += "\r\n" }
            }
            return text + "\u{1B}[J"
        }
        var text = ""
        for number in lines.indices where lines[number] != shown[number] {
            text += "\u{1B}[\(number + 1);1H" + lines[number] + "\u{1B}[0m\u{1B}[K"
        }
        return text
    }
}
