import FetchedResultsTesting
import Foundation
import ListUpdates
import Testing
import TestSupport

/// Random sequences of batches and Core-Data-style event streams (with their quirks), random
/// flush points, visibility flips and reload requests, delivered to a strict `ListSimulator`:
/// after every flush the simulator accepted what it got and, when visible, shows exactly the
/// data; the number of reloads and animations is exactly what the policy dictates.
@Suite("ChangeAccumulator simulation")
struct AccumulatorSimulationTests {
    typealias Simulator = ListSimulator<Int, Int, Int>

    /// The data the simulator's data source reads.
    final class Data {
        var sections: [ReferenceSection] = []

        var simulatorSections: [Simulator.Section] {
            sections.map { section in
                Simulator.Section(id: section.id, rows: section.rows.map { Simulator.Row(id: $0.id, content: $0.version) })
            }
        }
    }

    /// Batches made by the sectioned diff between random states, composed and flushed at random
    /// points into an always-visible simulator that never reloads (no limits).
    @Test(arguments: testSeeds(count: 20))
    func diffBatchesComposeExactly(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        var batches = RandomBatches()
        let data = Data()
        data.sections = batches.state(sections: Int.random(in: 1...5, using: &rng), maxRows: 15, using: &rng)
        let simulator = Simulator(strict: true) { data.simulatorSections }
        let accumulator = ChangeAccumulator(target: simulator, policy: .default(maximumChangeCount: .max, maximumShare: .infinity))
        var flushes = 0
        for step in 0..<60 {
            let before = data.sections
            data.sections = batches.step(from: before, rowChanges: 8, using: &rng).next
            accumulator.add(try ListChanges.difference(
                from: before, to: data.sections, sectionID: \.id, rows: \.rows, rowID: \.id, rowContentEqual: { $0 == $1 }))
            if step == 59 || Int.random(in: 0..<100, using: &rng) < 25 {
                let report = accumulator.flush()
                flushes += 1
                #expect(report.outcome != .reloaded, "\(report)")
                #expect(simulator.failures.isEmpty, "\(simulator.failures.map(\.description))")
                #expect(simulator.sections == data.simulatorSections)
            }
        }
        #expect(simulator.reloadCount == 0)
        #expect(simulator.animatedUpdateCount <= flushes)
    }

    /// Many batches per flush over few, short sections that are deleted and reloaded often,
    /// their rows escaping to other sections (updated or not) and coming back: whole batches
    /// and event streams, read the Core Data way or exactly. After every flush the strict
    /// simulator, which renders contents, must show exactly the data — a changed row that ends
    /// where it was at the last flush must still be refreshed.
    @Test(arguments: testSeeds(count: 150))
    func sectionChurnLeavesNoStaleRow(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        var batches = RandomBatches()
        batches.rescuePercent = 70
        batches.sectionDeletePercent = 30
        batches.sectionReloadPercent = 30
        let data = Data()
        data.sections = batches.state(sections: Int.random(in: 2...3, using: &rng), maxRows: 4, using: &rng)
        let simulator = Simulator(strict: true) { data.simulatorSections }
        let interpretation: ChangeAccumulator.EventInterpretation = Bool.random(using: &rng) ? .exact : .coreData
        let accumulator = ChangeAccumulator(
            target: simulator, policy: .default(maximumChangeCount: .max, maximumShare: .infinity),
            eventInterpretation: interpretation)
        for step in 0..<150 {
            let before = data.sections
            let (next, changes) = batches.step(from: before, rowChanges: 3, using: &rng)
            data.sections = next
            if Bool.random(using: &rng) || !CoreDataEvents.canExpress(changes, before, next, exact: interpretation == .exact) {
                accumulator.add(changes)
            } else {
                var events = CoreDataEvents(changes: changes, before: before, after: next)
                events.deliver(to: accumulator, exact: interpretation == .exact, using: &rng)
            }
            guard step == 149 || Int.random(in: 0..<100, using: &rng) < 20 else { continue }
            let report = accumulator.flush()
            #expect(report.outcome == .animated || report.outcome == .nothing, "seed \(seed), \(interpretation), step \(step): \(report)")
            #expect(simulator.failures.isEmpty, "seed \(seed), \(interpretation), step \(step): \(simulator.failures.map(\.description))")
            #expect(simulator.sections == data.simulatorSections, "seed \(seed), \(interpretation), step \(step): \(report)")
            if !simulator.failures.isEmpty || simulator.sections != data.simulatorSections { return }
        }
    }

    @Test(arguments: testSeeds(count: 40))
    func randomStreamsKeepTheSimulatorInStep(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        var batches = RandomBatches()
        batches.rescuePercent = 30
        let data = Data()
        data.sections = batches.state(sections: Int.random(in: 1...5, using: &rng), maxRows: 12, using: &rng)
        let simulator = Simulator(strict: true) { data.simulatorSections }
        let policy = DefaultReloadPolicy(
            maximumChangeCount: Int.random(in: 4...80, using: &rng),
            maximumShare: [0.4, 1.0, 3.0, .infinity].randomElement(using: &rng)!)
        let accumulator = ChangeAccumulator(target: simulator, policy: policy)
        var owesReload = false  // what the test expects the accumulator to owe
        var expectedReloads = 0
        var expectedAnimations = 0

        for _ in 0..<120 {
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<40:
                let (next, changes) = batches.step(from: data.sections, using: &rng)
                data.sections = next
                accumulator.add(changes)
            case 40..<70:
                let before = data.sections
                let (next, changes) = batches.step(from: before, using: &rng)
                data.sections = next
                if CoreDataEvents.canExpress(changes, before, next, exact: false) {
                    var events = CoreDataEvents(changes: changes, before: before, after: next)
                    events.deliver(to: accumulator, using: &rng)
                } else {
                    accumulator.add(changes)
                }
            case 70..<75:
                accumulator.reloadAll()
                owesReload = true
            case 75..<78:
                simulator.isVisible = false
            case 78..<84:
                simulator.isVisible = true
            default:
                // Work out what the policy dictates, from the state now.
                let pending = accumulator.pendingChanges
                let visible = simulator.isVisible
                let rows = simulator.displayedRowCount
                var expectReload = false
                var expectAnimation = false
                if owesReload || accumulator.pendingReload != nil {
                    if visible { expectReload = true }
                } else if !pending.isEmpty {
                    if !visible {
                        owesReload = true
                    } else if pending.count > policy.maximumChangeCount
                        || (rows > 0 && Double(pending.count) > policy.maximumShare * Double(rows))
                    {
                        expectReload = true
                    } else {
                        expectAnimation = true
                    }
                }
                let report = accumulator.flush()
                if expectReload {
                    expectedReloads += 1
                    owesReload = false
                }
                if expectAnimation { expectedAnimations += 1 }
                #expect(simulator.failures.isEmpty, "\(simulator.failures.map(\.description))")
                if case .wouldBreakRule? = report.reason { Issue.record("a valid stream was judged unsafe: \(report)") }
                #expect(simulator.reloadCount == expectedReloads, "\(report)")
                #expect(simulator.animatedUpdateCount == expectedAnimations, "\(report)")
                if visible {
                    #expect(simulator.sections == data.simulatorSections, "\(report)")
                }
                if simulator.failures.isEmpty == false || simulator.sections != data.simulatorSections && visible { return }
            }
        }
    }
}

/// Turns a general batch into the events a Core Data controller delivers for it, quirks
/// included: section moves and reloads as deletes plus inserts, row inserts for every row of
/// an inserted section and deletes for every row of a deleted one, moves sometimes as an
/// update with a new position, or as a delete then an insert, a changed move as an update
/// plus a move in either order, an update sometimes as a move to the same position, and
/// objects inserted then deleted within the batch.
struct CoreDataEvents {
    enum Event {
        case section(Int, ChangeAccumulator.SectionChange)
        case object(Int, IndexPath?, ChangeAccumulator.ObjectChange, IndexPath?)
    }

    var events: [Event] = []
    var phantomID = -1

    init(changes: ListChanges, before: [ReferenceSection], after: [ReferenceSection]) {
        // Row-level events first: a controller reports each object once.
        var objectEvents: [Event] = []
        var reported = Set<Int>()
        let changedSources = Set(changes.reconfiguredRows + changes.reloadedRows)
        for path in changes.deletedRows {
            let id = before[path.section].rows[path.row].id
            reported.insert(id)
            objectEvents.append(.object(id, path, .delete, nil))
        }
        for path in changes.insertedRows {
            let id = after[path.section].rows[path.row].id
            reported.insert(id)
            objectEvents.append(.object(id, nil, .insert, path))
        }
        var moveSources = Set<IndexPath>()
        for move in changes.movedRows {
            moveSources.insert(move.from)
            let id = before[move.from.section].rows[move.from.row].id
            reported.insert(id)
            objectEvents.append(.object(id, move.from, .move, move.to))
            if changedSources.contains(move.from) { objectEvents.append(.object(id, move.from, .update, nil)) }
        }
        for path in changedSources where !moveSources.contains(path) {
            let id = before[path.section].rows[path.row].id
            reported.insert(id)
            objectEvents.append(.object(id, path, .update, nil))
        }
        // Section moves and reloads arrive as deletes plus inserts, with every other row of
        // those sections reported as deleted or inserted.
        let deletedSections = Set(changes.deletedSections + changes.reloadedSections + changes.movedSections.map(\.from))
        let insertedSections = Set(
            changes.insertedSections + changes.movedSections.map(\.to) + Self.reloadedAfter(changes, before, after))
        for section in deletedSections {
            events.append(.section(section, .delete))
            for (row, value) in before[section].rows.enumerated() where reported.insert(value.id).inserted {
                events.append(.object(value.id, IndexPath(row: row, section: section), .delete, nil))
            }
        }
        for section in insertedSections {
            events.append(.section(section, .insert))
            for (row, value) in after[section].rows.enumerated() where reported.insert(value.id).inserted {
                events.append(.object(value.id, nil, .insert, IndexPath(row: row, section: section)))
            }
        }
        events += objectEvents
    }

    /// Whether events can say what `changes` say. A row that moves to an index path equal to
    /// its old one (possible when it changes section) is an update when read the Core Data way,
    /// however it is reported; read exactly, a plain move event says it.
    static func canExpress(
        _ changes: ListChanges, _ before: [ReferenceSection], _ after: [ReferenceSection], exact: Bool
    ) -> Bool {
        exact || !changes.movedRows.contains { $0.from == $0.to && before[$0.from.section].id != after[$0.to.section].id }
    }

    /// The after-positions of sections reloaded in place.
    private static func reloadedAfter(_ changes: ListChanges, _ before: [ReferenceSection], _ after: [ReferenceSection]) -> [Int] {
        let ids = Set(changes.reloadedSections.map { before[$0].id })
        return after.indices.filter { ids.contains(after[$0].id) }
    }

    /// Shuffles the events (keeping each object's own events in order), rewrites some of them
    /// into their quirky equivalents, and delivers them in one bracket.
    ///
    /// - Parameter exact: Whether the accumulator reads the events exactly; a move to the same
    ///   position then means a move, so an update is never rewritten into one.
    mutating func deliver(to accumulator: ChangeAccumulator, exact: Bool = false, using rng: inout SeededGenerator) {
        var rewritten: [Event] = []
        for event in events {
            guard case .object(let id, let from, let change, let to) = event else {
                rewritten.append(event)
                continue
            }
            switch change {
            case .move where from != to && Bool.random(using: &rng):
                // (A move to an equal index path has no other form: as an update with a new
                // position or as a delete and an insert it reads as an update.)
                if Bool.random(using: &rng) {
                    rewritten.append(.object(id, from, .update, to))
                } else {
                    rewritten.append(.object(id, from, .delete, nil))
                    rewritten.append(.object(id, nil, .insert, to))
                }
            case .update where !exact && from != nil && to == nil && Int.random(in: 0..<100, using: &rng) < 30:
                rewritten.append(.object(id, from, .move, from))
            case .insert where Int.random(in: 0..<100, using: &rng) < 10:
                rewritten.append(event)
                rewritten.append(.object(phantomID, nil, .insert, to))
                rewritten.append(.object(phantomID, to, .delete, nil))
                phantomID -= 1
            default:
                rewritten.append(event)
            }
        }
        // Interleave: a stable shuffle by object, so that per-object order holds.
        var groups: [[Event]] = []
        var groupOf: [Int: Int] = [:]
        for event in rewritten {
            let key: Int
            switch event {
            case .section(let index, let change): key = Int.min + index * 2 + (change == .insert ? 1 : 0)
            case .object(let id, _, _, _): key = id
            }
            if let group = groupOf[key] {
                groups[group].append(event)
            } else {
                groupOf[key] = groups.count
                groups.append([event])
            }
        }
        groups.shuffle(using: &rng)
        accumulator.willChangeContent()
        for event in groups.joined() {
            switch event {
            case .section(let index, let change):
                accumulator.didChangeSection(at: index, for: change)
            case .object(let id, let from, let change, let to):
                accumulator.didChangeObject(id, at: from, for: change, newIndexPath: to)
            }
        }
        accumulator.didChangeContent()
    }
}
