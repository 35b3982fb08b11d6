import Foundation
import Testing
import TestSupport

/// The ObjectGraph module keeps its unchecked memory techniques in `Sources/ObjectGraph/Unsafe`,
/// behind documented types, so that a reader finds all of them, and their invariants, in
/// one place.
@Suite("Unsafe code in one place")
struct UnsafeConfinementTests {
    /// The package's `Sources` folder, found from this file's path.
    private static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")
    private static let module = sources.appendingPathComponent("ObjectGraph")
    private static let unsafeFolder = module.appendingPathComponent("Unsafe")

    /// The spellings of the techniques: raw pointers and buffers, unretained references,
    /// manual memory, raw loads and stores, and cache-hint addresses.
    private static let techniques = [
        "Unsafe", "Unmanaged", "unsafeBitCast", "withUnsafe", "load(fromByteOffset", "load(as:",
        "storeBytes", "malloc", "realloc", "free(", ".allocate(", "objectAddress", "prefetch",
    ]

    /// The code lines (not comments) of every Swift file of the module outside `Unsafe/`.
    private static func codeLinesOutsideUnsafeFolder() throws -> [(file: String, number: Int, line: Substring)] {
        let files = try #require(FileManager.default.enumerator(at: module, includingPropertiesForKeys: nil))
        var lines: [(String, Int, Substring)] = []
        for case let url as URL in files where url.pathExtension == "swift" {
            guard !url.standardizedFileURL.path.hasPrefix(unsafeFolder.standardizedFileURL.path + "/") else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                lines.append((url.lastPathComponent, number + 1, line))
            }
        }
        return lines
    }

    @Test func noUncheckedMemoryTechniqueOutsideTheUnsafeFolder() throws {
        let lines = try Self.codeLinesOutsideUnsafeFolder()
        #expect(lines.count > 2000)
        var offenders: [String] = []
        for (file, number, line) in lines {
            // The one documented exception: the public relationship shapes hand objects over
            // as `Unmanaged` (see `Unsafe/UnsafeTechniques.swift`).
            if file == "RelationshipValue.swift" && !line.contains("Unsafe") && !line.contains("retain()") { continue }
            if Self.techniques.contains(where: { line.contains($0) }) { offenders.append("\(file):\(number): \(line.trimmingCharacters(in: .whitespaces))") }
        }
        #expect(offenders.isEmpty, "move these behind a type of Sources/ObjectGraph/Unsafe:\n\(offenders.joined(separator: "\n"))")
    }

    /// Uses the compiler checks in debug builds only: each is counted in the inventory, file
    /// by file, with what makes it sound (a new use fails until it is listed there).
    @Test func everyUseCheckedOnlyInDebugBuildsIsCountedInTheInventory() throws {
        let inventory = try String(contentsOf: Self.unsafeFolder.appendingPathComponent("UnsafeTechniques.swift"), encoding: .utf8)
        let uses = try debugCheckedUses(in: Self.codeLinesOutsideUnsafeFolder(), missingFrom: inventory)
        #expect(uses.used >= 5)
        #expect(uses.missing.isEmpty, "count these in Unsafe/UnsafeTechniques.swift, with their invariants: \(uses.missing)")
    }

    @Test func everyExclusivityExemptionIsInTheInventory() throws {
        let inventory = try String(contentsOf: Self.unsafeFolder.appendingPathComponent("UnsafeTechniques.swift"), encoding: .utf8)
        let lines = try Self.codeLinesOutsideUnsafeFolder()
        var exempted: [String] = []
        for (position, entry) in lines.enumerated() where entry.line.contains("@exclusivity(unchecked)") {
            // The field's name follows `var` on this line or the next one.
            let declaration = entry.line.contains(" var ") ? entry.line : lines[position + 1].line
            let afterVar = try #require(declaration.range(of: " var ")).upperBound
            let name = declaration[afterVar...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            exempted.append(String(name))
            #expect(inventory.contains("`\(name)`"), "\(entry.file):\(entry.number): list `\(name)` in Unsafe/UnsafeTechniques.swift")
        }
        #expect(exempted.count >= 20)
    }

    @Test func theCacheLineSizeIsANamedConstant() throws {
        let header = try String(
            contentsOf: Self.sources.appendingPathComponent("MemoryHints/include/MemoryHints.h"), encoding: .utf8)
        #expect(header.contains("#define FRK_CACHE_LINE_SIZE 64"))
        #expect(header.contains("frk_prefetch_lines"))
    }
}
