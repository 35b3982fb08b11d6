import Foundation

/// Why a diff could not be computed: an identifier occurs twice on one side.
///
/// A diff matches sections by their identifiers and rows by theirs, so each identifier must
/// be unique on each side: section identifiers among the sections, row identifiers among all
/// the rows of all sections (a row moves between sections by keeping its identifier).
public enum ListDiffError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which of the two states being compared holds the duplicate.
    public enum Side: String, Sendable, Hashable {
        /// The state before the change (the `from` argument).
        case old
        /// The state after the change (the `to` argument).
        case new
    }

    /// Two sections on one side share an identifier.
    ///
    /// - Parameters:
    ///   - identifier: The identifier, as `String(describing:)` renders it.
    ///   - side: The side that holds both sections.
    ///   - first: The position of the first section with the identifier.
    ///   - second: The position of the second one.
    case duplicateSectionIdentifier(identifier: String, side: Side, first: Int, second: Int)

    /// Two rows on one side share an identifier, in the same section or in different ones.
    ///
    /// - Parameters:
    ///   - identifier: The identifier, as `String(describing:)` renders it.
    ///   - side: The side that holds both rows.
    ///   - first: The index path of the first row with the identifier.
    ///   - second: The index path of the second one.
    case duplicateRowIdentifier(identifier: String, side: Side, first: IndexPath, second: IndexPath)

    /// A sentence naming the identifier, the side and both positions, such as
    /// `duplicate row identifier 42 in the new rows, at 0.3 and 2.0`.
    public var description: String {
        switch self {
        case let .duplicateSectionIdentifier(identifier, side, first, second):
            "duplicate section identifier \(identifier) in the \(side.rawValue) sections, at sections \(first) and \(second)"
        case let .duplicateRowIdentifier(identifier, side, first, second):
            "duplicate row identifier \(identifier) in the \(side.rawValue) rows, at \(first.listDescription) and \(second.listDescription)"
        }
    }
}
