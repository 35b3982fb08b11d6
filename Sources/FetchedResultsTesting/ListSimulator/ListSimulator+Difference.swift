import Foundation

extension ListSimulator {
    /// The element-level difference between two states.
    ///
    /// Sections and rows are compared position by position: identifiers first, then, where
    /// identifiers agree and `comparingContent` is set, contents.
    ///
    /// - Parameters:
    ///   - actual: The state on display.
    ///   - expected: The state it should be.
    ///   - comparingContent: Whether contents are compared too.
    /// - Returns: The differences; empty when the states are equal.
    /// - Complexity: O(n) for n rows.
    public static func difference(
        between actual: [Section],
        and expected: [Section],
        comparingContent: Bool = true
    ) -> ListDifference {
        var elements: [ListDifference.Element] = []
        func text(_ value: some Any) -> String { String(describing: value) }
        if actual.count != expected.count {
            elements.append(.sectionCount(actual: actual.count, expected: expected.count))
        }
        for section in 0..<max(actual.count, expected.count) {
            guard section < actual.count else {
                elements.append(.missingSection(section, expected: text(expected[section].id)))
                continue
            }
            guard section < expected.count else {
                elements.append(.extraSection(section, actual: text(actual[section].id)))
                continue
            }
            let have = actual[section]
            let want = expected[section]
            if have.id != want.id {
                elements.append(.sectionID(section: section, actual: text(have.id), expected: text(want.id)))
            }
            if have.rows.count != want.rows.count {
                elements.append(.rowCount(section: section, actual: have.rows.count, expected: want.rows.count))
            }
            for row in 0..<max(have.rows.count, want.rows.count) {
                let path = IndexPath(row: row, section: section)
                guard row < have.rows.count else {
                    elements.append(.missingRow(path, expected: text(want.rows[row].id)))
                    continue
                }
                guard row < want.rows.count else {
                    elements.append(.extraRow(path, actual: text(have.rows[row].id)))
                    continue
                }
                let a = have.rows[row]
                let b = want.rows[row]
                if a.id != b.id {
                    elements.append(.rowID(path, actual: text(a.id), expected: text(b.id)))
                } else if comparingContent, a.content != b.content {
                    elements.append(.content(path, id: text(a.id), actual: text(a.content), expected: text(b.content)))
                }
            }
        }
        return ListDifference(elements: elements)
    }
}
