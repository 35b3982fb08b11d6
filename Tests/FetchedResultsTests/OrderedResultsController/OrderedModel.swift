import FetchedResults
import FetchedResultsTesting
import Foundation
import ListUpdates

/// A hand-ordered shopping list: its entries keep the order the user gave them.
final class ShoppingList: GraphObject {
    @Attribute var name = ""
    @Relationship var entries: [Entry]
}

/// A playlist-like owner of entries with no inverse: the controller walks its list.
final class Pinboard: GraphObject {
    @Relationship var pinned: [Entry]
}

/// One entry of a shopping list, in an aisle (the section key).
final class Entry: GraphObject {
    @Attribute var name = ""
    @Attribute var aisle = "A"
    @Attribute var listed = true
    @Relationship(inverse: \ShoppingList.entries) var list: ShoppingList?

    /// What a cell shows: the name, the aisle and whether it is listed.
    var rendering: String { "\(name)|\(aisle)|\(listed)" }
}

typealias EntrySection = ListSimulator<String, ObjectID, String>.Section

/// The rows of a controller as a list view shows them: sections by name, entry renderings.
func renderedEntries(_ controller: some SectionedResults<Entry>) -> [EntrySection] {
    controller.sections.map { section in
        .init(id: section.name, rows: section.objects.map { .init(id: $0.objectID, content: $0.rendering) })
    }
}

/// The reference: the relationship in order, filtered, grouped by aisle (sections sorted
/// by aisle, rows in relationship order inside each).
func referenceEntries(_ members: [Entry], where included: (Entry) -> Bool, sectioned: Bool) -> [EntrySection] {
    let shown = members.filter(included)
    guard sectioned else {
        return shown.isEmpty ? [] : [.init(id: "", rows: shown.map { .init(id: $0.objectID, content: $0.rendering) })]
    }
    return Dictionary(grouping: shown, by: \.aisle).sorted { $0.key < $1.key }.map { aisle, entries in
        // `Dictionary(grouping:)` keeps the order of the input inside each group.
        .init(id: aisle, rows: entries.map { .init(id: $0.objectID, content: $0.rendering) })
    }
}

/// Feeds a controller's changes to an accumulator and records every delivered change set.
final class AccumulatingDelegate: ResultsControllerDelegate {
    typealias Object = Entry
    let accumulator: ChangeAccumulator
    var objectChanges: [[ResultsObjectChange]] = []
    private var current: [ResultsObjectChange] = []

    init(accumulator: ChangeAccumulator) {
        self.accumulator = accumulator
    }

    func controllerWillChangeContent(_ controller: any SectionedResults<Entry>) { current = [] }
    func controller(_ controller: any SectionedResults<Entry>, didChange change: ResultsObjectChange) { current.append(change) }
    func controller(_ controller: any SectionedResults<Entry>, didChangeContentWith changes: ListChanges) {
        objectChanges.append(current)
        accumulator.add(changes)
    }
}

/// A simulated table view driven by an accumulator, reading the controller's rows.
func makeSimulatedView(of controller: some SectionedResults<Entry>) -> (ListSimulator<String, ObjectID, String>, ChangeAccumulator, AccumulatingDelegate) {
    let simulator = ListSimulator<String, ObjectID, String>(strict: true) { renderedEntries(controller) }
    simulator.reloadData()
    let accumulator = ChangeAccumulator(target: simulator, policy: DefaultReloadPolicy(maximumChangeCount: .max, maximumShare: 2))
    let delegate = AccumulatingDelegate(accumulator: accumulator)
    controller.delegate = delegate
    return (simulator, accumulator, delegate)
}
