import Foundation

extension ListSimulator {
    /// One displayed row: its identifier and the content its cell was rendered with.
    public struct Row: Equatable, CustomStringConvertible {
        /// The row's identifier.
        public var id: RowID
        /// The content the cell shows.
        public var content: Content

        /// Creates a row.
        ///
        /// - Parameters:
        ///   - id: The row's identifier.
        ///   - content: The content its cell shows.
        /// - Complexity: O(1).
        public init(id: RowID, content: Content) {
            self.id = id
            self.content = content
        }

        /// `id: content`.
        public var description: String { "\(id): \(content)" }
    }

    /// One displayed section: its identifier and its rows in order.
    public struct Section: Equatable, CustomStringConvertible {
        /// The section's identifier.
        public var id: SectionID
        /// The section's rows, in display order.
        public var rows: [Row]

        /// Creates a section.
        ///
        /// - Parameters:
        ///   - id: The section's identifier.
        ///   - rows: Its rows, in display order.
        /// - Complexity: O(1).
        public init(id: SectionID, rows: [Row]) {
            self.id = id
            self.rows = rows
        }

        /// `id [row, row, …]`.
        public var description: String { "\(id) [\(rows.map(\.description).joined(separator: ", "))]" }
    }
}

extension ListSimulator.Row: Sendable where RowID: Sendable, Content: Sendable {}
extension ListSimulator.Section: Sendable where SectionID: Sendable, RowID: Sendable, Content: Sendable {}

extension ListSimulator.Row where Content == RowID {
    /// Creates a row whose content is its identifier, for tests that track identity only.
    ///
    /// - Parameter id: The row's identifier and content.
    /// - Complexity: O(1).
    public init(_ id: RowID) {
        self.init(id: id, content: id)
    }
}

extension ListSimulator.Section where Content == RowID {
    /// Creates a section of rows whose content is their identifier.
    ///
    /// - Parameters:
    ///   - id: The section's identifier.
    ///   - rowIDs: The rows' identifiers, in display order.
    /// - Complexity: O(n) for n rows.
    public init(id: SectionID, rowIDs: [RowID]) {
        self.init(id: id, rows: rowIDs.map { .init(id: $0, content: $0) })
    }
}

extension ListSimulator where Content == RowID {
    /// Sections from an ordered literal of section identifiers and their row identifiers, each
    /// row's content being its identifier: `Table.sections(["fruit": [1, 2], "veg": [3]])`.
    ///
    /// - Parameter literal: Section identifiers with their rows, in display order.
    /// - Returns: The sections.
    /// - Complexity: O(n) for n rows.
    public static func sections(_ literal: KeyValuePairs<SectionID, [RowID]>) -> [Section] {
        literal.map { Section(id: $0.key, rowIDs: $0.value) }
    }

    /// Sections from section identifiers paired with their row identifiers, each row's
    /// content being its identifier: the runtime form of the literal one, for sections built
    /// from data, as in
    /// `Table.sections(groups.map { ($0.name, $0.items.map(\.id)) })`.
    ///
    /// - Parameter pairs: Section identifiers with their rows, in display order.
    /// - Returns: The sections.
    /// - Complexity: O(n) for n rows.
    public static func sections(_ pairs: some Sequence<(SectionID, [RowID])>) -> [Section] {
        pairs.map { Section(id: $0.0, rowIDs: $0.1) }
    }
}
