import Foundation
import Testing
import TestSupport

/// The GraphStore module keeps its unchecked memory techniques in `Sources/GraphStore/Unsafe`,
/// behind documented types and functions, so that a reader finds all of them, and their
/// invariants, in one place (`Unsafe/UnsafeTechniques.swift` lists them).
@Suite("GraphStore: unsafe code in one place")
struct GraphStoreUnsafeConfinementTests {
    /// The package's `Sources` folder, found from this file's path.
    private static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")
    private static let module = sources.appendingPathComponent("GraphStore")
    private static let unsafeFolder = module.appendingPathComponent("Unsafe")

    /// The spellings of the techniques: raw pointers and buffers, unretained references,
    /// manual memory, raw and unaligned loads and stores, memory functions, and the uses the
    /// compiler checks in debug builds only.
    private static let techniques = [
        "Unsafe", "Unmanaged", "takeUnretainedValue", "unsafeBitCast", "withUnsafe", "load(fromByteOffset", "load(as:",
        "loadUnaligned", "storeBytes", "copyMemory", "assumingMemoryBound", "bindMemory", "malloc(", "realloc(", "free(",
        ".allocate(", "deallocate(", "memcmp", "memcpy", "memmove", "memset", "unowned(unsafe)", "@exclusivity(unchecked)",
        "unsafeUninitializedCapacity", "unsafelyUnwrapped", "unsafeDowncast",
    ]

    /// Byte views, the documented exception: bytes lent for one call. Allowed in the files the
    /// inventory lists, and nowhere else.
    private static let byteViews = ["UnsafeRawBufferPointer", "withUnsafeMutableBytes", "withUnsafeBytes"]

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
        for (file, number, line) in lines {
            let rest = Self.byteViews.reduce(String(line)) { $0.replacingOccurrences(of: $1, with: "") }
            if Self.techniques.contains(where: { rest.contains($0) }) {
                offenders.append("\(file):\(number): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(offenders.isEmpty, "move these behind a type of Sources/GraphStore/Unsafe:\n\(offenders.joined(separator: "\n"))")
    }

    /// Every file that lends bytes through a byte view is listed in the inventory, and every
    /// file listed there still does (the list stays exact).
    @Test func everyByteViewIsInAFileTheInventoryLists() throws {
        let inventory = try Self.inventory()
        var using: Set<String> = []
        for (file, _, line) in try Self.codeLinesOutsideUnsafeFolder() where Self.byteViews.contains(where: { line.contains($0) }) {
            using.insert(file)
        }
        #expect(using.count >= 10)
        let listed = Set(try inventory.matches(of: Regex(#"`([A-Za-z]+/[A-Za-z0-9_.+]+\.swift)`"#)).map { String($0.output[1].substring ?? "") })
        let unlisted = using.subtracting(listed).sorted()
        let stale = listed.subtracting(using).sorted()
        #expect(unlisted.isEmpty, "list these among the byte views of Unsafe/UnsafeTechniques.swift: \(unlisted)")
        #expect(stale.isEmpty, "no byte view left here: remove from Unsafe/UnsafeTechniques.swift: \(stale)")
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
        #expect(files.count >= 5)
        let unnamed = files.filter { $0 != "UnsafeTechniques.swift" && !inventory.contains($0) }.sorted()
        #expect(unnamed.isEmpty, "describe these in Unsafe/UnsafeTechniques.swift: \(unnamed)")
    }
}
