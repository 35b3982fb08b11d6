import Foundation
import Testing
import TestSupport

/// The ListUpdates module keeps its unchecked memory techniques in `Sources/ListUpdates/Unsafe`,
/// behind documented types and functions, so that a reader finds all of them, and their
/// invariants, in one place (`Unsafe/UnsafeTechniques.swift` lists them).
@Suite("ListUpdates: unsafe code in one place")
struct ListUpdatesUnsafeConfinementTests {
    /// The package's `Sources` folder, found from this file's path.
    private static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")
    private static let module = sources.appendingPathComponent("ListUpdates")
    private static let unsafeFolder = module.appendingPathComponent("Unsafe")

    /// The spellings of the techniques: raw pointers and buffers (byte views included: this
    /// module has no exception), unretained references, manual and temporary memory, raw and
    /// unaligned loads and stores, memory functions, and the uses the compiler checks in debug
    /// builds only.
    private static let techniques = [
        "Unsafe", "Unmanaged", "takeUnretainedValue", "unsafeBitCast", "withUnsafe", "load(fromByteOffset", "load(as:",
        "loadUnaligned", "storeBytes", "copyMemory", "assumingMemoryBound", "bindMemory", "malloc(", "realloc(", "free(",
        ".allocate(", "deallocate(", "memcmp", "memcpy", "memmove", "memset", "unowned(unsafe)", "@exclusivity(unchecked)",
        "unsafeUninitializedCapacity", "unsafelyUnwrapped", "unsafeDowncast",
    ]

    /// The code lines (not comments, string literals blanked) of every Swift file of the
    /// module outside `Unsafe/`, each with its path relative to the module's folder.
    private static func codeLinesOutsideUnsafeFolder() throws -> [(file: String, number: Int, line: Substring)] {
        let files = try #require(FileManager.default.enumerator(at: module, includingPropertiesForKeys: nil))
        let modulePath = module.standardizedFileURL.path + "/"
        let literal = try Regex(#""[^"]*""#)
        var lines: [(String, Int, Substring)] = []
        for case let url as URL in files where url.pathExtension == "swift" {
            let path = url.standardizedFileURL.path
            guard !path.hasPrefix(unsafeFolder.standardizedFileURL.path + "/") else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                lines.append((String(path.dropFirst(modulePath.count)), number + 1, Substring(line.replacing(literal, with: "\"\""))))
            }
        }
        return lines
    }

    private static func inventory() throws -> String {
        try String(contentsOf: unsafeFolder.appendingPathComponent("UnsafeTechniques.swift"), encoding: .utf8)
    }

    @Test func noUncheckedMemoryTechniqueOutsideTheUnsafeFolder() throws {
        let lines = try Self.codeLinesOutsideUnsafeFolder()
        #expect(lines.count > 2000)
        var offenders: [String] = []
        for (file, number, line) in lines where Self.techniques.contains(where: { line.contains($0) }) {
            offenders.append("\(file):\(number): \(line.trimmingCharacters(in: .whitespaces))")
        }
        #expect(offenders.isEmpty, "move these behind a type of Sources/ListUpdates/Unsafe:\n\(offenders.joined(separator: "\n"))")
    }

    /// Uses the compiler checks in debug builds only: each is counted in the inventory, file
    /// by file, with what makes it sound (a new use fails until it is listed there).
    @Test func everyUseCheckedOnlyInDebugBuildsIsCountedInTheInventory() throws {
        let uses = try debugCheckedUses(in: Self.codeLinesOutsideUnsafeFolder(), missingFrom: Self.inventory())
        #expect(uses.missing.isEmpty, "count these in Unsafe/UnsafeTechniques.swift, with their invariants: \(uses.missing)")
    }

    /// Every file of the folder is named in the inventory.
    @Test func theInventoryNamesEveryFileOfTheFolder() throws {
        let inventory = try Self.inventory()
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.unsafeFolder.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count >= 4)
        let unnamed = files.filter { $0 != "UnsafeTechniques.swift" && !inventory.contains($0) }.sorted()
        #expect(unnamed.isEmpty, "describe these in Unsafe/UnsafeTechniques.swift: \(unnamed)")
    }
}
