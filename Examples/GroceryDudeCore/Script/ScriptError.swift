/// Why a script could not be played. Reported with the line number, before anything runs.
public struct ScriptError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line number, counting from 1; 0 when the script could not be read at all.
    public var line: Int
    /// The line's text as written.
    public var text: String
    /// What is wrong with it.
    public var problem: String

    /// Makes an error.
    ///
    /// - Parameters:
    ///   - line: The line number, from 1 (0 for the whole script).
    ///   - text: The line's text.
    ///   - problem: What is wrong.
    public init(line: Int, text: String, problem: String) {
        self.line = line
        self.text = text
        self.problem = problem
    }

    /// `line 7 ("jmup 3"): unknown command "jmup" (commands: …)`.
    public var description: String {
        line == 0 ? problem : "line \(line) (\"\(text)\"): \(problem)"
    }
}
