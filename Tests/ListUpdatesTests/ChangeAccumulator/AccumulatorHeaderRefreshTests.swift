import FetchedResultsTesting
import Foundation
import ListUpdates
import Testing
import TestSupport

private func path(_ section: Int, _ row: Int) -> IndexPath { IndexPath(row: row, section: section) }

/// Header refreshes (`ListChanges.reconfiguredSections`) carried across coalescing: reported
/// once, at the section's position after every composed batch, never for a section deleted,
/// inserted or reloaded since the last flush, and never in a reload.
@Suite("ChangeAccumulator header refreshes")
struct AccumulatorHeaderRefreshTests {
    /// Composes `batches` and returns what the next flush would compose.
    func composed(_ batches: ListChanges...) -> ListChanges {
        let accumulator = ChangeAccumulator()
        for batch in batches { accumulator.add(batch) }
        return accumulator.pendingChanges
    }

    @Test func aHeaderRefreshIsDeliveredInTheLastStage() {
        let target = RecordingTarget(rowCounts: [2, 1])
        let accumulator = ChangeAccumulator(target: target)
        accumulator.add(ListChanges(reconfiguredSections: [1]))
        let report = accumulator.flush()
        #expect(report.outcome == .animated)
        #expect(target.batches == [[ListChanges(reconfiguredSections: [1])]])
    }

    @Test func aHeaderRefreshFollowsItsSectionThroughLaterBatches() {
        // Inserts before it shift it.
        #expect(composed(ListChanges(reconfiguredSections: [1]), ListChanges(insertedSections: [0])).reconfiguredSections == [2])
        // Deletes before it shift it back.
        #expect(composed(ListChanges(reconfiguredSections: [2]), ListChanges(deletedSections: [0])).reconfiguredSections == [1])
        // A move takes it along.
        let moved = composed(ListChanges(reconfiguredSections: [0]), ListChanges(movedSections: [.init(from: 0, to: 3)]))
        #expect(moved.reconfiguredSections == [3])
        #expect(moved.movedSections == [.init(from: 0, to: 3)])
        // Earlier batches place it first: section 1 after an insert at 0 was section 0.
        #expect(composed(ListChanges(insertedSections: [0], reconfiguredSections: [1])).reconfiguredSections == [1])
        // Reported where the section is after every batch: original section 0 is section 1.
        #expect(
            composed(ListChanges(insertedSections: [0]), ListChanges(reconfiguredSections: [1])).reconfiguredSections == [1]
        )
    }

    @Test func aHeaderRefreshedTwiceIsReportedOnce() {
        let twice = composed(
            ListChanges(reconfiguredSections: [1, 2]), ListChanges(deletedSections: [0]), ListChanges(reconfiguredSections: [0, 1]))
        #expect(twice.reconfiguredSections == [0, 1])
        #expect(twice == ListChanges(deletedSections: [0], reconfiguredSections: [0, 1]))
    }

    @Test func aDeletedSectionTakesItsHeaderRefreshAlong() {
        #expect(composed(ListChanges(reconfiguredSections: [1]), ListChanges(deletedSections: [1])) == ListChanges(deletedSections: [1]))
    }

    @Test func aSectionNewOrReloadedSinceTheLastFlushHasNoHeaderRefresh() {
        // Inserted, then refreshed.
        #expect(
            composed(ListChanges(insertedSections: [1]), ListChanges(reconfiguredSections: [1]))
                == ListChanges(insertedSections: [1]))
        // Refreshed, then reloaded; reloaded, then refreshed.
        #expect(
            composed(ListChanges(reconfiguredSections: [1]), ListChanges(reloadedSections: [1]))
                == ListChanges(reloadedSections: [1]))
        #expect(
            composed(ListChanges(reloadedSections: [1]), ListChanges(reconfiguredSections: [1]))
                == ListChanges(reloadedSections: [1]))
        // Listed with its own insert, against the field's contract: still nothing.
        #expect(composed(ListChanges(insertedSections: [0], reconfiguredSections: [0])) == ListChanges(insertedSections: [0]))
    }

    @Test func rowChangesAndHeaderRefreshesOfOneSectionComposeTogether() {
        let changes = composed(
            ListChanges(insertedRows: [path(0, 0)], reconfiguredSections: [0]),
            ListChanges(reconfiguredRows: [path(0, 3)], reconfiguredSections: [0]))
        #expect(changes == ListChanges(insertedRows: [path(0, 0)], reconfiguredRows: [path(0, 2)], reconfiguredSections: [0]))
    }

    @Test func controllerEventsReportHeaderRefreshesAtPositionsAfterTheBatch() {
        let accumulator = ChangeAccumulator()
        accumulator.willChangeContent()
        accumulator.didChangeSection(at: 2, for: .reconfigure)
        accumulator.didChangeSection(at: 0, for: .insert)
        accumulator.didChangeSection(at: 0, for: .reconfigure)  // the inserted one: ignored
        accumulator.didChangeContent()
        #expect(accumulator.pendingChanges == ListChanges(insertedSections: [0], reconfiguredSections: [2]))
        // Outside a bracket, an event is a batch of its own.
        accumulator.didChangeSection(at: 0, for: .delete)
        accumulator.didChangeSection(at: 3, for: .reconfigure)
        #expect(accumulator.pendingChanges == ListChanges(reconfiguredSections: [1, 3]))
    }

    @Test func aReloadReportsNoHeaderRefresh() {
        let target = RecordingTarget(rowCounts: [1, 1, 1])
        let accumulator = ChangeAccumulator(target: target, policy: .default(maximumChangeCount: 1, maximumShare: .infinity))
        // Header refreshes do not count toward the limit; the two rows do.
        accumulator.add(ListChanges(reconfiguredRows: [path(0, 0), path(1, 0)], reconfiguredSections: [0, 1]))
        let tooMany = accumulator.flush()
        #expect(tooMany.outcome == .reloaded && tooMany.update == .reload)
        #expect(target.reloads == 1 && target.batches.isEmpty)
        // A hidden target is owed a reload, which covers every header.
        target.isVisible = false
        accumulator.add(ListChanges(reconfiguredSections: [2]))
        #expect(accumulator.flush().outcome == .deferredUntilVisible)
        accumulator.add(ListChanges(reconfiguredSections: [1]))
        #expect(accumulator.pendingChanges.isEmpty)
        target.isVisible = true
        #expect(accumulator.flush().update == .reload)
        #expect(target.reloads == 2 && target.batches.isEmpty)
    }

    @Test func aHeaderRefreshBeyondTheDisplayedSectionsIsAReload() {
        let target = RecordingTarget(rowCounts: [1])
        let accumulator = ChangeAccumulator(target: target)
        accumulator.add(ListChanges(reconfiguredSections: [1]))
        let report = accumulator.flush()
        #expect(report.reason == .wouldBreakRule(.sectionOutOfBounds(.reconfigure, section: 1, sectionCount: 1)))
    }

    // MARK: Randomized

    typealias Simulator = ListSimulator<Int, Int, Int>

    /// The data a simulator's data source reads.
    final class Data {
        var sections: [ReferenceSection] = []

        var simulatorSections: [Simulator.Section] {
            sections.map { section in
                Simulator.Section(id: section.id, rows: section.rows.map { Simulator.Row(id: $0.id, content: $0.version) })
            }
        }
    }

    /// Random batches of section and row changes, each refreshing random headers, whole or as
    /// controller events, composed and flushed at random points into a strict simulator that is
    /// sometimes hidden, under a policy that sometimes reloads. A model that follows each
    /// section's identity says which headers the composition must refresh: those refreshed
    /// since the last flush, still present, neither inserted nor reloaded since (nor moved by
    /// events, which report a move as a delete and an insert). Each must be reported exactly
    /// once at its final position, and nothing else; the delivered stages refresh each one
    /// that they do not recreate, in their last stage; a reload refreshes none.
    @Test(arguments: testSeeds(count: 60))
    func headerRefreshesSurviveCoalescingExactly(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        var batches = RandomBatches(rescuePercent: 20)
        batches.sectionDeletePercent = 25
        batches.sectionReloadPercent = 10
        let data = Data()
        data.sections = batches.state(sections: Int.random(in: 1...5, using: &rng), maxRows: 6, using: &rng)
        let simulator = Simulator(strict: true) { data.simulatorSections }
        let policy = DefaultReloadPolicy(
            maximumChangeCount: [8, 30, .max].randomElement(using: &rng)!, maximumShare: .infinity)
        // Events are read exactly: section events do not depend on the reading, and a move to an
        // equal index path that a batch needs is then still a move.
        let accumulator = ChangeAccumulator(target: simulator, policy: policy, eventInterpretation: .exact)

        // The model, since the last flush.
        var shownIDs = Set(data.sections.map(\.id))  // sections on display at the last flush
        var refreshedIDs = Set<Int>()
        var recreatedIDs = Set<Int>()  // reloaded, or moved by events
        var history: [String] = []

        for step in 0..<100 {
            let before = data.sections
            let made = batches.step(from: before, rowChanges: 4, using: &rng)
            let next = made.next
            var changes = made.changes
            data.sections = next
            let beforeIDs = Set(before.map(\.id))
            let kept = next.indices.filter { beforeIDs.contains(next[$0].id) }
            for _ in 0..<Int.random(in: 0...3, using: &rng) where !kept.isEmpty {
                changes.reconfiguredSections.append(kept.randomElement(using: &rng)!)
            }
            if Int.random(in: 0..<100, using: &rng) < 10, let new = changes.insertedSections.first {
                changes.reconfiguredSections.append(new)  // against the contract: must be ignored
            }
            let reloadedIDs = changes.reloadedSections.map { before[$0].id }
            recreatedIDs.formUnion(reloadedIDs)
            refreshedIDs.formUnion(changes.reconfiguredSections.map { next[$0].id }.filter(beforeIDs.contains))
            refreshedIDs.subtract(reloadedIDs)

            if Bool.random(using: &rng) {
                var events = CoreDataEvents(changes: changes, before: before, after: next)
                events.events += changes.reconfiguredSections.map { .section($0, .reconfigure) }
                events.deliver(to: accumulator, exact: true, using: &rng)
                recreatedIDs.formUnion(changes.movedSections.map { before[$0.from].id })
                history.append("events \(changes)")
            } else {
                accumulator.add(changes)
                history.append("add \(changes)")
            }

            guard step == 99 || Int.random(in: 0..<100, using: &rng) < 25 else { continue }
            let context = "seed \(seed), step \(step), history:\n\(history.joined(separator: "\n"))"
            let expectedIDs = refreshedIDs.intersection(shownIDs).intersection(data.sections.map(\.id))
                .subtracting(recreatedIDs)
            let expected = data.sections.indices.filter { expectedIDs.contains(data.sections[$0].id) }
            if accumulator.pendingReload == nil {
                #expect(accumulator.pendingChanges.reconfiguredSections == expected, "\(context)")
            }
            let pending = accumulator.pendingChanges
            simulator.isVisible = Int.random(in: 0..<100, using: &rng) < 85
            simulator.resetHistory()
            let report = accumulator.flush()
            #expect(simulator.failures.isEmpty, "\(context): \(simulator.failures.map(\.description))")
            check(report, simulator, expectedIDs: expectedIDs, data: data, context: "\(context)\npending \(pending)\n\(report)")
            if report.outcome != .deferredUntilVisible {
                shownIDs = Set(data.sections.map(\.id))
                refreshedIDs = []
                recreatedIDs = []
                history = []
            }
        }
    }

    /// Checks what one flush delivered against the model's expected header refreshes.
    private func check(
        _ report: FlushReport, _ simulator: Simulator, expectedIDs: Set<Int>, data: Data, context: String
    ) {
        var refreshed: [(position: Int, id: String)] = []
        var recreated = Set<String>()
        for operation in simulator.operations {
            switch operation {
            case let .reconfigureSection(section, id):
                refreshed.append((section, id))
            case let .insertSection(_, id, _), let .reloadSection(_, _, id, _):
                recreated.insert(id)
            case .beginBatch:
                // Every header refresh is in the last stage: none precedes a stage.
                #expect(refreshed.isEmpty, "\(context): a header refresh before the last stage")
            default:
                break
            }
        }
        switch report.outcome {
        case .animated:
            #expect(simulator.sections == data.simulatorSections, "\(context)")
            let ids = refreshed.map(\.id)
            #expect(Set(ids).count == ids.count, "\(context): a header refreshed twice: \(ids)")
            let wanted = Set(expectedIDs.map { String($0) }).subtracting(recreated)
            #expect(Set(ids) == wanted, "\(context): refreshed \(ids), expected \(wanted.sorted())")
            for (position, id) in refreshed {
                #expect(String(data.sections[position].id) == id, "\(context): header \(id) refreshed at \(position)")
            }
        case .reloaded, .deferredUntilVisible, .nothing, .postponed:
            #expect(refreshed.isEmpty, "\(context): \(report.outcome) refreshed headers \(refreshed)")
            if report.outcome == .nothing { #expect(expectedIDs.isEmpty, "\(context)") }
        }
    }
}
