import Foundation
import Testing

/// Rules about the library's sources that no compiler checks.
@Suite("Source rules")
struct SourceRulesTests {
    /// The package's `Sources` folder, found from this file's path.
    private static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// An optimized build drops the message of `precondition` and `preconditionFailure`, so
    /// the library states its preconditions through `require` and `requirementFailure`,
    /// whose messages survive (each module's `Requirements.swift`).
    @Test func preconditionsKeepTheirMessagesInReleaseBuilds() throws {
        let files = try #require(FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil))
        var offenders: [String] = []
        var checked = 0
        for case let url as URL in files where url.pathExtension == "swift" && url.lastPathComponent != "Requirements.swift" {
            checked += 1
            let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                if line.contains("precondition(") || line.contains("preconditionFailure(") {
                    offenders.append("\(url.lastPathComponent):\(number + 1)")
                }
            }
        }
        #expect(checked > 100)
        #expect(offenders.isEmpty, "use require(_:_:) / requirementFailure(_:): \(offenders)")
    }
}
