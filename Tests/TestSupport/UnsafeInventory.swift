import Foundation

/// The uses of spellings the compiler checks in debug builds only (`unsafeDowncast`,
/// `unsafelyUnwrapped`, `unsafeUninitializedCapacity`) in a module's code lines, counted file
/// by file, and those its unsafe inventory does not list with their count
/// (`` `file`: spelling ×N ``, the inventory's comment lines read as one text).
///
/// - Parameters:
///   - lines: The module's code lines outside its `Unsafe/` folder, each with its file.
///   - inventory: The text of the module's `Unsafe/UnsafeTechniques.swift`.
/// - Returns: How many (file, spelling) pairs are used, and the entries missing from the
///   inventory, sorted.
public func debugCheckedUses(
    in lines: [(file: String, number: Int, line: Substring)], missingFrom inventory: String
) throws -> (used: Int, missing: [String]) {
    var uses: [String: Int] = [:]
    for (file, _, line) in lines {
        for spelling in ["unsafeDowncast", "unsafelyUnwrapped", "unsafeUninitializedCapacity"] {
            let count = String(line).components(separatedBy: spelling).count - 1
            if count > 0 { uses["`\(file)`: \(spelling)", default: 0] += count }
        }
    }
    let listed = inventory.replacing(try Regex("\\n//\\s+"), with: " ")
    var missing: [String] = []
    for (use, count) in uses.sorted(by: { $0.key < $1.key }) {
        let entry = try Regex(NSRegularExpression.escapedPattern(for: "\(use) ×\(count)") + "[^0-9]")
        if !listed.contains(entry) { missing.append("\(use) ×\(count)") }
    }
    return (uses.count, missing)
}
