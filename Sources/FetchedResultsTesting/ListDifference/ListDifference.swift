import Foundation

/// The element-level difference between a displayed list and an expected one.
///
/// Identifiers and contents are kept as their `String(describing:)` text.
public struct ListDifference: Sendable, Hashable, CustomStringConvertible {
    /// One difference.
    public enum Element: Sendable, Hashable, CustomStringConvertible {
        /// The number of sections differs.
        case sectionCount(actual: Int, expected: Int)
        /// The section at this position has another identifier.
        case sectionID(section: Int, actual: String, expected: String)
        /// The expected list has a section at this position that the displayed one lacks.
        case missingSection(Int, expected: String)
        /// The displayed list has a section at this position that the expected one lacks.
        case extraSection(Int, actual: String)
        /// The number of rows of a section differs.
        case rowCount(section: Int, actual: Int, expected: Int)
        /// The row at this index path has another identifier.
        case rowID(IndexPath, actual: String, expected: String)
        /// The expected list has a row at this index path that the displayed one lacks.
        case missingRow(IndexPath, expected: String)
        /// The displayed list has a row at this index path that the expected one lacks.
        case extraRow(IndexPath, actual: String)
        /// The row at this index path has the right identifier but shows other content.
        case content(IndexPath, id: String, actual: String, expected: String)

        /// One line such as `row 0.2 is 7, expected 9`.
        public var description: String {
            switch self {
            case let .sectionCount(actual, expected): "\(actual) sections, expected \(expected)"
            case let .sectionID(section, actual, expected): "section \(section) is \(actual), expected \(expected)"
            case let .missingSection(section, expected): "section \(section) (\(expected)) is missing"
            case let .extraSection(section, actual): "section \(section) (\(actual)) is not expected"
            case let .rowCount(section, actual, expected): "section \(section) has \(actual) rows, expected \(expected)"
            case let .rowID(path, actual, expected): "row \(path.listDescription) is \(actual), expected \(expected)"
            case let .missingRow(path, expected): "row \(path.listDescription) (\(expected)) is missing"
            case let .extraRow(path, actual): "row \(path.listDescription) (\(actual)) is not expected"
            case let .content(path, id, actual, expected):
                "row \(path.listDescription) (\(id)) shows \(actual), expected \(expected)"
            }
        }
    }

    /// The differences, sections first, then rows in index-path order.
    public var elements: [Element]

    /// Creates a difference from its elements.
    ///
    /// - Parameter elements: The differences.
    /// - Complexity: O(1).
    public init(elements: [Element]) {
        self.elements = elements
    }

    /// Whether the two lists are equal.
    public var isEmpty: Bool { elements.isEmpty }

    /// How many elements ``description`` lists before summarizing the rest.
    public static let describedElementLimit = 20

    /// One line per difference, at most ``describedElementLimit`` of them.
    public var description: String {
        if elements.isEmpty { return "no difference" }
        var lines = elements.prefix(Self.describedElementLimit).map { "- \($0)" }
        if elements.count > Self.describedElementLimit {
            lines.append("- … and \(elements.count - Self.describedElementLimit) more")
        }
        return lines.joined(separator: "\n")
    }
}
