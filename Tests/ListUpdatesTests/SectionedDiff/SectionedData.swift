import FetchedResultsTesting
import Foundation
import ListUpdates
import TestSupport

/// A row of the test lists: an identifier and a content version.
struct TestRow: Identifiable, Equatable, Sendable, CustomStringConvertible {
    var id: Int
    var content: Int

    var description: String { content == 0 ? "\(id)" : "\(id)'\(content)" }
}

/// A section of the test lists.
struct TestSection: Identifiable, Equatable, Sendable, CustomStringConvertible {
    var id: Int
    var rows: [TestRow]

    var description: String { "S\(id)\(rows)" }
}

/// The simulator the diff and staging tests apply their stages to, in strict mode: section and
/// row identifiers and content versions are integers.
typealias TestSimulator = ListSimulator<Int, Int, Int>

extension [TestSection] {
    /// The sections as the simulator holds them.
    var simulated: [TestSimulator.Section] {
        map { section in
            TestSimulator.Section(id: section.id, rows: section.rows.map { .init(id: $0.id, content: $0.content) })
        }
    }
}

/// Random pairs of sectioned lists, old and new, that differ by every kind of change a diff
/// must express.
struct SectionedDataGenerator {
    var rng: SeededGenerator
    private var nextID = 0

    init(seed: UInt64) {
        rng = SeededGenerator(seed: seed)
    }

    private mutating func freshID() -> Int {
        nextID += 1
        return nextID
    }

    private mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &rng) < probability
    }

    /// A random list: up to `maxSections` sections of up to `maxRows` rows, empty ones included.
    mutating func list(maxSections: Int = 6, maxRows: Int = 8) -> [TestSection] {
        (0..<Int.random(in: 0...maxSections, using: &rng)).map { _ in
            TestSection(
                id: freshID(),
                rows: (0..<Int.random(in: 0...maxRows, using: &rng)).map { _ in TestRow(id: freshID(), content: 0) }
            )
        }
    }

    /// A random new list derived from `old`: section and row inserts, deletes and moves (within
    /// and across sections, out of deleted sections, into inserted ones) and content updates.
    mutating func change(_ old: [TestSection]) -> [TestSection] {
        var homeless: [TestRow] = []
        var sections: [TestSection] = []
        for var section in old {
            section.rows = section.rows.compactMap { row in
                if chance(0.15) { return nil }
                var row = row
                if chance(0.2) { row.content += 1 }
                return row
            }
            if chance(0.2) {
                homeless += section.rows.filter { _ in chance(0.3) }
            } else {
                sections.append(section)
            }
        }
        for _ in 0..<Int.random(in: 0...2, using: &rng) {
            let section = TestSection(
                id: freshID(),
                rows: (0..<Int.random(in: 0...4, using: &rng)).map { _ in TestRow(id: freshID(), content: 0) }
            )
            sections.insert(section, at: Int.random(in: 0...sections.count, using: &rng))
        }
        for _ in 0..<Int.random(in: 0...2, using: &rng) where sections.count > 1 {
            let section = sections.remove(at: Int.random(in: sections.indices, using: &rng))
            sections.insert(section, at: Int.random(in: 0...sections.count, using: &rng))
        }
        guard !sections.isEmpty else { return sections }
        for _ in 0..<Int.random(in: 0...4, using: &rng) {
            let from = Int.random(in: sections.indices, using: &rng)
            guard !sections[from].rows.isEmpty else { continue }
            let row = sections[from].rows.remove(at: Int.random(in: sections[from].rows.indices, using: &rng))
            homeless.append(row)
        }
        for _ in 0..<Int.random(in: 0...4, using: &rng) {
            homeless.append(TestRow(id: freshID(), content: 0))
        }
        for row in homeless.shuffled(using: &rng) {
            let to = Int.random(in: sections.indices, using: &rng)
            sections[to].rows.insert(row, at: Int.random(in: 0...sections[to].rows.count, using: &rng))
        }
        return sections
    }
}
