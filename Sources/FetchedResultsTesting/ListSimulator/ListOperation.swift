import Foundation

/// One operation a ``ListSimulator`` applied, for readable logs and test failures.
///
/// Identifiers and contents are kept as their `String(describing:)` text, so the log reads
/// the same whatever the simulator's types are.
public enum ListOperation: Sendable, Hashable, CustomStringConvertible {
    /// The whole list was reloaded.
    case reloadData(sectionCount: Int, rowCount: Int)
    /// A batch (stage `stage` of `stageCount`, counted from 1) begins.
    case beginBatch(stage: Int, stageCount: Int)
    /// A section was deleted at its position before the batch.
    case deleteSection(Int, id: String)
    /// A section was inserted at its position after the batch.
    case insertSection(Int, id: String, rowCount: Int)
    /// A section moved from its position before the batch to its position after it.
    case moveSection(ListChanges.SectionMove, id: String)
    /// A section was recreated: its before- and after-positions.
    case reloadSection(from: Int, to: Int, id: String, rowCount: Int)
    /// A row was deleted at its index path before the batch.
    case deleteRow(IndexPath, id: String)
    /// A row was inserted at its index path after the batch: `id` is the row the new state
    /// has there (the view reads its cell from the data source), and `implied`, when it
    /// differs, the row the batch implies it inserts there — one that is neither kept nor
    /// moved into the section. A difference means the insert is at the wrong position: the
    /// new state's row there was already on display.
    case insertRow(IndexPath, id: String, implied: String?)
    /// A row moved from its index path before the batch to its index path after it.
    case moveRow(ListChanges.RowMove, id: String)
    /// A row's cell was recreated: before- and after-positions.
    case reloadRow(from: IndexPath, to: IndexPath, id: String)
    /// A row's cell was refreshed in place: before- and after-positions.
    case reconfigureRow(from: IndexPath, to: IndexPath, id: String)
    /// A section's header (or footer) was refreshed in place, at its position after the batch
    /// (`ListChanges.reconfiguredSections`); its rows were left as they were.
    case reconfigureSection(Int, id: String)

    /// One indented log line such as `  move row 0.2→1.0 (7)`.
    public var description: String {
        switch self {
        case let .reloadData(sections, rows): "reloadData: \(sections) sections, \(rows) rows"
        case let .beginBatch(stage, count): "batch \(stage)/\(count):"
        case let .deleteSection(section, id): "  delete section \(section) (\(id))"
        case let .insertSection(section, id, rows): "  insert section \(section) (\(id), \(rows) rows)"
        case let .moveSection(move, id): "  move section \(move) (\(id))"
        case let .reloadSection(from, to, id, rows): "  reload section \(from)→\(to) (\(id), \(rows) rows)"
        case let .deleteRow(path, id): "  delete row \(path.listDescription) (\(id))"
        case let .insertRow(path, id, nil): "  insert row \(path.listDescription) (\(id))"
        case let .insertRow(path, id, implied?):
            "  insert row \(path.listDescription) (the batch inserts \(implied) here; the new state has \(id) at \(path.listDescription))"
        case let .moveRow(move, id): "  move row \(move) (\(id))"
        case let .reloadRow(from, to, id): "  reload row \(from.listDescription)→\(to.listDescription) (\(id))"
        case let .reconfigureRow(from, to, id): "  reconfigure row \(from.listDescription)→\(to.listDescription) (\(id))"
        case let .reconfigureSection(section, id): "  reconfigure section header \(section) (\(id))"
        }
    }
}
