import Foundation

/// Where the groceries are kept: a store directory, or nowhere.
public enum StorageLocation: Sendable, Hashable, CustomStringConvertible {
    /// Only in memory: the sample list, forgotten on quit.
    case inMemory
    /// The store in this directory (created when missing).
    case directory(URL)

    /// The directory name under the data home: `grocery-dude`.
    public static let directoryName = "grocery-dude"

    /// Decides where the list is kept.
    ///
    /// `--store` and `--in-memory` decide alone. Otherwise an interactive session keeps the
    /// list in `$XDG_DATA_HOME/grocery-dude` (an unset, empty or relative `XDG_DATA_HOME`
    /// counts as `$HOME/.local/share`, as the XDG Base Directory specification says), and
    /// everything else — scripts, the tour, a run without a terminal on CI — keeps nothing.
    ///
    /// - Parameters:
    ///   - storage: What the command line said.
    ///   - interactive: Whether the app runs on a terminal.
    ///   - environment: The process environment (`XDG_DATA_HOME`, `HOME`).
    /// - Returns: The location.
    public static func resolve(
        _ storage: CommandLineOptions.Storage, interactive: Bool,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> StorageLocation {
        switch storage {
        case .inMemory: return .inMemory
        case .directory(let path): return .directory(URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL)
        case .automatic:
            guard interactive else { return .inMemory }
            return .directory(dataHome(environment: environment).appendingPathComponent(directoryName, isDirectory: true))
        }
    }

    /// `$XDG_DATA_HOME`, or `$HOME/.local/share` when it is unset, empty or relative.
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: The directory.
    public static func dataHome(environment: [String: String]) -> URL {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return URL(fileURLWithPath: data, isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".local", isDirectory: true)
            .appendingPathComponent("share", isDirectory: true)
    }

    /// `in memory`, or the directory's path.
    public var description: String {
        switch self {
        case .inMemory: "in memory"
        case .directory(let url): url.path
        }
    }
}
