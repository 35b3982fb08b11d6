/// How far an import with ``ObjectGraph/apply(_:author:progress:)`` has got.
///
/// An import has up to two long phases, each counted in its own units:
///
/// - ``Phase-swift.enum/applying``: the batch's operations are applied to the graph (each
///   operation counts twice: once for its values, once for its relationships);
/// - ``Phase-swift.enum/writing``: a durable store writes the commit's record (two units per
///   object it inserts, its ID then its values, and one per object it updates or deletes).
///   A graph without a store has no such phase.
///
/// Checking the commit and publishing it come between and after them and are not counted.
public struct ImportProgress: Sendable, Equatable, CustomStringConvertible {
    /// A long phase of an import.
    public enum Phase: Sendable, Equatable {
        /// The batch is being applied to the graph.
        case applying
        /// The graph's durable store is writing the commit's record.
        case writing
    }

    /// The phase this report is about.
    public let phase: Phase
    /// How many units of the phase are done, from 0 to ``totalUnitCount``.
    public let completedUnitCount: Int
    /// How many units the phase has.
    public let totalUnitCount: Int

    /// Creates a report.
    ///
    /// - Parameters:
    ///   - phase: The phase.
    ///   - completedUnitCount: The units done.
    ///   - totalUnitCount: The phase's units.
    /// - Complexity: O(1).
    public init(phase: Phase, completedUnitCount: Int, totalUnitCount: Int) {
        self.phase = phase
        self.completedUnitCount = completedUnitCount
        self.totalUnitCount = totalUnitCount
    }

    /// The share of the phase that is done, from 0 to 1 (1 for a phase without units).
    public var fractionCompleted: Double {
        totalUnitCount > 0 ? Double(completedUnitCount) / Double(totalUnitCount) : 1
    }

    /// The phase and its counts, as in `applying 4096/2000000`.
    public var description: String {
        "\(phase == .applying ? "applying" : "writing") \(completedUnitCount)/\(totalUnitCount)"
    }
}

/// Calls an import's progress handler at the start and end of each phase and every
/// ``interval`` units in between, so that a million-unit phase makes a few hundred calls.
internal struct _ImportProgressReporter {
    /// The units between two reports.
    static let interval = 4_096

    let handler: (ImportProgress) throws -> Void
    private var phase = ImportProgress.Phase.applying
    private var total = 0
    /// The completed count at which the next report is due.
    private var nextReport = 0

    init(handler: @escaping (ImportProgress) throws -> Void) {
        self.handler = handler
    }

    /// Starts a phase and reports it at 0.
    ///
    /// - Throws: What the handler throws.
    mutating func start(_ phase: ImportProgress.Phase, total: Int) throws {
        self.phase = phase
        self.total = total
        nextReport = 0
        try advance(to: 0)
    }

    /// Reports `completed` units of the current phase when a report is due.
    ///
    /// - Throws: What the handler throws.
    mutating func advance(to completed: Int) throws {
        guard completed >= nextReport || completed == total else { return }
        nextReport = completed + Self.interval
        try handler(ImportProgress(phase: phase, completedUnitCount: completed, totalUnitCount: total))
    }
}

/// The error a progress handler threw while the store wrote an import's record, carried
/// through the store back to ``ObjectGraph/apply(_:author:progress:)``.
internal struct _ImportCancellation: Error {
    let error: any Error
}
