import Foundation
import Testing
import TestSupport

/// The FetchedResults module keeps its unchecked memory techniques in
/// `Sources/FetchedResults/Unsafe`, behind documented types, so that a reader finds all of
/// them, and their invariants, in one place (`Unsafe/UnsafeTechniques.swift` lists them).
@Suite("FetchedResults: unsafe code in one place")
struct FetchedResultsUnsafeConfinementTests {
    /// The package's `Sources` folder, found from this file's path.
    private static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")
    private static let module = sources.appendingPathComponent("FetchedResults")
    private static let unsafeFolder = module.appendingPathComponent("Unsafe")

    /// The spellings of the techniques: raw pointers and buffers, unretained references,
    /// manual memory, raw loads and stores, object addresses, MemoryHints' prefetches and
    /// the cache line's size, and MemoryHints itself (imported only where it is used). (A call of a typed hint such as `NodeBuffer.prefetch()` is not
    /// one: it takes no address.)
    private static let techniques = [
        "Unsafe", "Unmanaged", "unsafeBitCast", "withUnsafe", "load(fromByteOffset", "load(as:",
        "storeBytes", "assumingMemoryBound", "bindMemory", "malloc", "realloc", "free(", ".allocate(",
        "objectAddress", "frk_", "FRK_CACHE_LINE_SIZE", "unowned(unsafe)", "import MemoryHints",
    ]

    /// Files outside `Unsafe/` whose techniques are not moved yet. Each still uses one (the
    /// test fails when a file is cleaned up and stays listed), so the list can only shrink;
    /// it is empty now that every technique is behind a type of `Unsafe/`, and must stay so.
    static let notYetMoved: Set<String> = []

    /// The code lines (not comments) of every Swift file of the module outside `Unsafe/`,
    /// each with its path relative to the module's folder.
    private static func codeLinesOutsideUnsafeFolder() throws -> [(file: String, number: Int, line: Substring)] {
        let files = try #require(FileManager.default.enumerator(at: module, includingPropertiesForKeys: nil))
        let modulePath = module.standardizedFileURL.path + "/"
        var lines: [(String, Int, Substring)] = []
        for case let url as URL in files where url.pathExtension == "swift" {
            let path = url.standardizedFileURL.path
            guard !path.hasPrefix(unsafeFolder.standardizedFileURL.path + "/") else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                lines.append((String(path.dropFirst(modulePath.count)), number + 1, line))
            }
        }
        return lines
    }

    @Test func noUncheckedMemoryTechniqueOutsideTheUnsafeFolder() throws {
        let lines = try Self.codeLinesOutsideUnsafeFolder()
        #expect(lines.count > 2000)
        var offenders: [String] = []
        var stillUsing: Set<String> = []
        for (file, number, line) in lines where Self.techniques.contains(where: { line.contains($0) }) {
            if Self.notYetMoved.contains(file) {
                stillUsing.insert(file)
            } else {
                offenders.append("\(file):\(number): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(offenders.isEmpty, "move these behind a type of Sources/FetchedResults/Unsafe:\n\(offenders.joined(separator: "\n"))")
        let cleaned = Self.notYetMoved.subtracting(stillUsing).sorted()
        #expect(cleaned.isEmpty, "no technique left here: remove from `notYetMoved`: \(cleaned.joined(separator: ", "))")
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
        #expect(exempted.count >= 12)
    }

    /// Cache-hint steps come from MemoryHints' named line size (`FRK_CACHE_LINE_SIZE`,
    /// `frk_prefetch_lines`), not from a literal 64-byte line: no code line of a file that
    /// asks for cache lines spells 63 or 64 (files not moved yet excepted).
    @Test func prefetchStepsUseTheNamedCacheLineSize() throws {
        let files = try #require(FileManager.default.enumerator(at: Self.module, includingPropertiesForKeys: nil))
        let modulePath = Self.module.standardizedFileURL.path + "/"
        let literal = try Regex("(^|[^0-9A-Za-z_])6[34]([^0-9A-Za-z_]|$)")
        var literalSteps: [String] = []
        var prefetchingFiles = 0
        for case let url as URL in files where url.pathExtension == "swift" {
            let file = String(url.standardizedFileURL.path.dropFirst(modulePath.count))
            let text = try String(contentsOf: url, encoding: .utf8)
            guard !Self.notYetMoved.contains(file), text.contains("prefetch") else { continue }
            prefetchingFiles += 1
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") && line.contains(literal) {
                literalSteps.append("\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(prefetchingFiles >= 3)
        #expect(literalSteps.isEmpty, "use FRK_CACHE_LINE_SIZE or frk_prefetch_lines:\n\(literalSteps.joined(separator: "\n"))")
    }
}
