import FetchedResultsTesting
import Foundation
import ListUpdates
import Testing

/// A row whose content changed must be refreshed by the flush however it travelled: in a list
/// view a row that stays where it was is not fetched again, so a lost refresh leaves its old
/// content on screen. The simulator renders contents and compares them with the data.
@Suite("ChangeAccumulator refreshes")
struct AccumulatorRefreshTests {
    typealias Simulator = ListSimulator<String, String, Int>

    private func path(_ section: Int, _ row: Int) -> IndexPath { IndexPath(row: row, section: section) }

    /// `(section, [(row, content version)])` pairs as simulator sections.
    private func sections(_ literal: (String, [(String, Int)])...) -> [Simulator.Section] {
        literal.map { id, rows in Simulator.Section(id: id, rows: rows.map { Simulator.Row(id: $0.0, content: $0.1) }) }
    }

    /// A strict simulator showing S0 `[a, b]`, S1 `[c]`, an accumulator delivering to it, and
    /// the data it reads, after batch 1 (b moves 0.1→1.1) was added.
    private func afterMovingBOut(
        _ interpretation: ChangeAccumulator.EventInterpretation
    ) -> (Simulator, ChangeAccumulator, Box) {
        let data = Box(sections(("S0", [("a", 0), ("b", 0)]), ("S1", [("c", 0)])))
        let simulator = Simulator(strict: true) { data.sections }
        let accumulator = ChangeAccumulator(
            target: simulator, policy: .default(maximumChangeCount: .max, maximumShare: .infinity),
            eventInterpretation: interpretation)
        data.sections = sections(("S0", [("a", 0)]), ("S1", [("c", 0), ("b", 0)]))
        accumulator.willChangeContent()
        accumulator.didChangeObject("b", at: path(0, 1), for: .move, newIndexPath: path(1, 1))
        accumulator.didChangeContent()
        return (simulator, accumulator, data)
    }

    final class Box {
        var sections: [Simulator.Section]
        init(_ sections: [Simulator.Section]) { self.sections = sections }
    }

    /// The audit's case, through `ResultsController`-style exact events: S1 is deleted, c moves
    /// to 0.2, and b moves back to 0.1 and is updated. b is back where it was displayed, so
    /// only a reconfigure refreshes it.
    @Test func exactEventsRefreshARowReturningFromADeletedSection() {
        let (simulator, accumulator, data) = afterMovingBOut(.exact)
        data.sections = sections(("S0", [("a", 0), ("b", 1), ("c", 0)]))
        accumulator.willChangeContent()
        accumulator.didChangeSection(at: 1, for: .delete)
        accumulator.didChangeObject("c", at: path(1, 0), for: .move, newIndexPath: path(0, 2))
        accumulator.didChangeObject("b", at: path(1, 1), for: .update, newIndexPath: nil)
        accumulator.didChangeObject("b", at: path(1, 1), for: .move, newIndexPath: path(0, 1))
        accumulator.didChangeContent()
        #expect(accumulator.pendingChanges.reconfiguredRows == [path(0, 1)], "\(accumulator.pendingChanges)")
        let report = accumulator.flush()
        #expect(report.outcome == .animated, "\(report)")
        #expect(simulator.failures.isEmpty, "\(simulator.failures.map(\.description))")
        #expect(simulator.sections == data.sections, "\(report)")
    }

    /// The same with a whole `ListChanges` that names the return as a refreshed move out of
    /// the deleted section.
    @Test func wholeChangesRefreshARowReturningFromADeletedSection() {
        let (simulator, accumulator, data) = afterMovingBOut(.coreData)
        data.sections = sections(("S0", [("a", 0), ("b", 1), ("c", 0)]))
        accumulator.add(ListChanges(
            deletedSections: [1], movedRows: [.init(from: path(1, 0), to: path(0, 2)), .init(from: path(1, 1), to: path(0, 1))],
            reconfiguredRows: [path(1, 1)]))
        accumulator.flush()
        #expect(simulator.failures.isEmpty, "\(simulator.failures.map(\.description))")
        #expect(simulator.sections == data.sections)
    }

    /// A reloaded section instead of a deleted one, with a reload (not a reconfigure) of the
    /// returning row: it stays where it was displayed, so it is reloaded there.
    @Test func wholeChangesRefreshARowReturningFromAReloadedSection() {
        let (simulator, accumulator, data) = afterMovingBOut(.coreData)
        data.sections = sections(("S0", [("a", 0), ("b", 1)]), ("S1", [("d", 0)]))
        accumulator.add(ListChanges(
            reloadedSections: [1], movedRows: [.init(from: path(1, 1), to: path(0, 1))], reloadedRows: [path(1, 1)]))
        #expect(accumulator.pendingChanges == ListChanges(reloadedSections: [1], reloadedRows: [path(0, 1)]))
        accumulator.flush()
        #expect(simulator.failures.isEmpty, "\(simulator.failures.map(\.description))")
        #expect(simulator.sections == data.sections)
    }

    /// Without the section delete the flush already refreshed the row; it still does.
    @Test func exactEventsRefreshARowReturningFromASurvivingSection() {
        let (simulator, accumulator, data) = afterMovingBOut(.exact)
        data.sections = sections(("S0", [("a", 0), ("b", 1)]), ("S1", [("c", 0)]))
        accumulator.willChangeContent()
        accumulator.didChangeObject("b", at: path(1, 1), for: .update, newIndexPath: nil)
        accumulator.didChangeObject("b", at: path(1, 1), for: .move, newIndexPath: path(0, 1))
        accumulator.didChangeContent()
        #expect(accumulator.pendingChanges == ListChanges(reconfiguredRows: [path(0, 1)]))
        accumulator.flush()
        #expect(simulator.failures.isEmpty, "\(simulator.failures.map(\.description))")
        #expect(simulator.sections == data.sections)
    }
}

extension AccumulatorRefreshTests {
    /// An insert on top plus an update of the row below it: the flush never reconfigures a row
    /// whose position its stage changes; the refresh comes in a later stage at the new position.
    @Test func aRowPushedDownByAnInsertIsReconfiguredInALaterStage() {
        let data = Box(sections(("S0", [("a", 0), ("b", 0)])))
        let simulator = Simulator(strict: true) { data.sections }
        let accumulator = ChangeAccumulator(
            target: simulator, policy: .default(maximumChangeCount: .max, maximumShare: .infinity))
        data.sections = sections(("S0", [("n", 0), ("a", 0), ("b", 1)]))
        accumulator.add(ListChanges(insertedRows: [path(0, 0)], reconfiguredRows: [path(0, 1)]))
        let report = accumulator.flush()
        #expect(report.outcome == .animated, "\(report)")
        #expect(
            report.update == .animate([ListChanges(insertedRows: [path(0, 0)]), ListChanges(reconfiguredRows: [path(0, 2)])]),
            "\(report)")
        #expect(simulator.failures.isEmpty, "\(simulator.failures.map(\.description))")
        #expect(simulator.sections == data.sections)
    }
}
