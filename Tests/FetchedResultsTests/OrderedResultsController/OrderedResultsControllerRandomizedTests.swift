import FetchedResults
import FetchedResultsTesting
import Foundation
import ListUpdates
import Testing
import TestSupport

/// One controller configuration of the randomized test, chosen by the seed.
private struct Configuration: CustomStringConvertible {
    /// Sectioned by a writable aisle key (drags may cross sections).
    var sectioned: Bool
    /// Only listed entries are shown.
    var filtered: Bool
    /// The owner is a pinboard, whose relationship has no inverse (the controller walks it).
    var withoutInverse: Bool

    init(_ seed: UInt64) {
        var rng = SeededGenerator(seed: seed ^ 0x0DE2ED)
        sectioned = Int.random(in: 0..<3, using: &rng) > 0
        filtered = Bool.random(using: &rng)
        withoutInverse = Int.random(in: 0..<4, using: &rng) == 0
    }

    var description: String {
        "sectioned \(sectioned), filtered \(filtered), \(withoutInverse ? "no inverse" : "inverse")"
    }
}

private let names = ["milk", "eggs", "bread", "tea", "rice", "salt", "soap", "jam"]
private let aisles = ["A", "B", "C", "D"]

/// The view's own rendering of a drag: the row leaves its section (which stays, maybe
/// empty) and is inserted at the destination.
private func dragged(_ sections: [EntrySection], from source: IndexPath, to destination: IndexPath) -> [EntrySection] {
    var sections = sections
    let row = sections[source.section].rows.remove(at: source.row)
    sections[destination.section].rows.insert(row, at: destination.row)
    return sections
}

@Suite("OrderedResultsController randomized")
struct OrderedResultsControllerRandomizedTests {
    @Test(arguments: testSeeds(count: 24))
    func userDragsAndOtherAuthorsKeepTheViewInStep(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let configuration = Configuration(seed)
        let graph = ObjectGraph()
        let list = graph.insert(ShoppingList())
        let otherList = graph.insert(ShoppingList())
        let board = graph.insert(Pinboard())
        func newEntry() -> Entry {
            let entry = graph.insert(Entry())
            entry.name = names.randomElement(using: &rng)!
            entry.aisle = aisles.randomElement(using: &rng)!
            entry.listed = Int.random(in: 0..<4, using: &rng) > 0
            return entry
        }
        func members() -> [Entry] { configuration.withoutInverse ? board.pinned : list.entries }
        func setMembers(_ entries: [Entry]) {
            if configuration.withoutInverse { board.pinned = entries } else { list.entries = entries }
        }
        setMembers((0..<12).map { _ in newEntry() })
        otherList.entries = (0..<4).map { _ in newEntry() }
        _ = try graph.commit()

        let controller: any SectionedResults<Entry>
        let ordered: (moveRow: (IndexPath, IndexPath) throws -> Void, deleteRow: (IndexPath) throws -> Void,
                      removeRow: (IndexPath) throws -> Void)
        let predicate: FetchPredicate<Entry>? = configuration.filtered ? .equal(\.listed, true) : nil
        let sectionKey = configuration.sectioned ? SectionKey(writable: \Entry.aisle) : nil
        if configuration.withoutInverse {
            let boardController = OrderedResultsController(
                graph: graph, owner: board, relationship: \.pinned, predicate: predicate, sectionKey: sectionKey)
            boardController.performFetch()
            controller = boardController
            ordered = ({ try boardController.moveRow(from: $0, to: $1) }, { try boardController.deleteRow(at: $0) },
                       { try boardController.removeRow(at: $0) })
        } else {
            let listController = OrderedResultsController(
                graph: graph, owner: list, relationship: \.entries, predicate: predicate, sectionKey: sectionKey)
            listController.performFetch()
            controller = listController
            ordered = ({ try listController.moveRow(from: $0, to: $1) }, { try listController.deleteRow(at: $0) },
                       { try listController.removeRow(at: $0) })
        }
        let (simulator, accumulator, delegate) = makeSimulatedView(of: controller)
        defer { withExtendedLifetime(delegate) {} }
        func reference() -> [EntrySection] {
            referenceEntries(members(), where: { !configuration.filtered || $0.listed }, sectioned: configuration.sectioned)
        }
        func flushAndCompare(_ context: @autoclosure () -> String) {
            accumulator.flush()
            #expect(simulator.failures.isEmpty, "\(context()), \(configuration): \(simulator.failures)")
            #expect(simulator.sections == renderedEntries(controller), "\(context()), \(configuration)")
        }

        /// A write by another part of the app, left pending; one that keeps every member
        /// (pending during a user's edit, which must find its row) when `keepingMembers`.
        func otherAuthorWrite(keepingMembers: Bool = false) {
            var current = members()
            let choice = keepingMembers ? [0, 1, 2, 3, 6, 7, 8].randomElement(using: &rng)! : Int.random(in: 0..<11, using: &rng)
            switch choice {
            case 0, 1:
                guard current.count > 1 else { return }
                let moved = current.remove(at: Int.random(in: 0..<current.count, using: &rng))
                current.insert(moved, at: Int.random(in: 0...current.count, using: &rng))
                setMembers(current)
            case 2:
                guard current.count > 1 else { return }
                current.swapAt(Int.random(in: 0..<current.count, using: &rng), Int.random(in: 0..<current.count, using: &rng))
                setMembers(current)
            case 3:
                current.insert(newEntry(), at: Int.random(in: 0...current.count, using: &rng))
                setMembers(current)
            case 4:
                guard !current.isEmpty else { return }
                current.remove(at: Int.random(in: 0..<current.count, using: &rng))
                setMembers(current)
            case 5:
                guard let victim = current.randomElement(using: &rng) else { return }
                setMembers(current.filter { $0 !== victim })
                graph.delete(victim)
            case 6: current.randomElement(using: &rng)?.name = names.randomElement(using: &rng)!
            case 7: current.randomElement(using: &rng)?.aisle = aisles.randomElement(using: &rng)!
            case 8: current.randomElement(using: &rng)?.listed.toggle()
            case 9:
                if configuration.withoutInverse {
                    setMembers(current.reversed())
                } else if let incoming = otherList.entries.randomElement(using: &rng) {
                    // Re-parenting through the inverse appends to this list.
                    incoming.list = list
                }
            default:
                if !configuration.withoutInverse, let leaving = current.randomElement(using: &rng) {
                    leaving.list = otherList
                } else {
                    setMembers(current.shuffled(using: &rng))
                }
            }
        }

        for step in 0..<150 {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<5:
                for _ in 0..<Int.random(in: 1...3, using: &rng) { otherAuthorWrite() }
                _ = try graph.commit(author: "other")
                #expect(renderedEntries(controller) == reference(), "step \(step), \(configuration)")
                if Bool.random(using: &rng) { flushAndCompare("step \(step)") }
            case 5..<8:
                // The app flushes before it hands a drag over: the view and the controller agree.
                flushAndCompare("step \(step), before a drag")
                let counts = simulator.sections.map(\.rows.count)
                guard let sourceSection = counts.indices.filter({ counts[$0] > 0 }).randomElement(using: &rng) else { continue }
                let source = IndexPath(row: Int.random(in: 0..<counts[sourceSection], using: &rng), section: sourceSection)
                let targetSection = configuration.sectioned ? Int.random(in: 0..<counts.count, using: &rng) : sourceSection
                let room = counts[targetSection] - (targetSection == sourceSection ? 1 : 0)
                let destination = IndexPath(row: Int.random(in: 0...room, using: &rng), section: targetSection)
                guard source != destination else { continue }
                let draggedID = simulator[source].id
                let withOtherWrite = Int.random(in: 0..<3, using: &rng) == 0
                if withOtherWrite { otherAuthorWrite(keepingMembers: true) }
                try simulator.apply(ListChanges(movedRows: [.init(from: source, to: destination)]),
                                    newState: dragged(simulator.sections, from: source, to: destination))
                delegate.objectChanges = []
                try ordered.moveRow(source, destination)
                #expect(renderedEntries(controller) == reference(), "step \(step), drag \(source) → \(destination), \(configuration)")
                let echoed = delegate.objectChanges.joined().contains { change in
                    if case .move(let id, _, _, _) = change { return id == draggedID }
                    return false
                }
                // Another author's write committed with the drag may move the row on (a new
                // aisle, a reorder); alone, the drag is never delivered back.
                #expect(withOtherWrite || !echoed, "step \(step): the drag was delivered back to the view")
                if Bool.random(using: &rng) { flushAndCompare("step \(step), after a drag") }
            default:
                flushAndCompare("step \(step), before a delete")
                let counts = simulator.sections.map(\.rows.count)
                guard let section = counts.indices.filter({ counts[$0] > 0 }).randomElement(using: &rng) else { continue }
                let target = IndexPath(row: Int.random(in: 0..<counts[section], using: &rng), section: section)
                if Int.random(in: 0..<3, using: &rng) == 0 { otherAuthorWrite(keepingMembers: true) }
                var shown = simulator.sections
                shown[section].rows.remove(at: target.row)
                try simulator.apply(ListChanges(deletedRows: [target]), newState: shown)
                if Bool.random(using: &rng) { try ordered.deleteRow(target) } else { try ordered.removeRow(target) }
                #expect(renderedEntries(controller) == reference(), "step \(step), delete \(target), \(configuration)")
                if Bool.random(using: &rng) { flushAndCompare("step \(step), after a delete") }
            }
        }
        flushAndCompare("end")
    }
}
