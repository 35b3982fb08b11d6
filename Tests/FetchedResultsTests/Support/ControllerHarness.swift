import FetchedResults
import FetchedResultsTesting
import Foundation
import Testing

/// A delegate that records every callback, in order.
final class RecordingDelegate: ResultsControllerDelegate {
    typealias Object = Item

    enum Event: Equatable {
        case willChange
        case section(ResultsSectionChange)
        case object(ResultsObjectChange)
        case didChange
        case batch(ListChanges)
    }

    var events: [Event] = []
    /// Runs inside `controllerDidChangeContent`, to test writes made during delivery.
    var onDidChange: ((any SectionedResults<Item>) -> Void)?

    func controllerWillChangeContent(_ controller: any SectionedResults<Item>) { events.append(.willChange) }
    func controller(_ controller: any SectionedResults<Item>, didChange change: ResultsSectionChange) { events.append(.section(change)) }
    func controller(_ controller: any SectionedResults<Item>, didChange change: ResultsObjectChange) { events.append(.object(change)) }
    func controllerDidChangeContent(_ controller: any SectionedResults<Item>) {
        events.append(.didChange)
        onDidChange?(controller)
    }
    func controller(_ controller: any SectionedResults<Item>, didChangeContentWith changes: ListChanges) { events.append(.batch(changes)) }

    /// The batches delivered so far, each rebuilt from its one-by-one callbacks the way a
    /// UIKit adapter would (rows inside inserted or deleted sections dropped, rows moving out
    /// of a deleted or into an inserted section deleted and inserted), and the whole-batch
    /// value delivered after them.
    func batches() -> [(replayed: ListChanges, whole: ListChanges)] {
        var result: [(ListChanges, ListChanges)] = []
        var current = ListChanges()
        var sawWillChange = false
        for event in events {
            switch event {
            case .willChange:
                current = ListChanges()
                sawWillChange = true
            case .section(.delete(let at, _)): current.deletedSections.append(at)
            case .section(.insert(let at, _)): current.insertedSections.append(at)
            case .object(let change):
                let deleted = Set(current.deletedSections)
                let inserted = Set(current.insertedSections)
                switch change {
                case .delete(_, let at): if !deleted.contains(at[0]) { current.deletedRows.append(at) }
                case .insert(_, let at): if !inserted.contains(at[0]) { current.insertedRows.append(at) }
                case .move(_, let from, let to, let changed):
                    if deleted.contains(from[0]) || inserted.contains(to[0]) {
                        if !deleted.contains(from[0]) { current.deletedRows.append(from) }
                        if !inserted.contains(to[0]) { current.insertedRows.append(to) }
                    } else {
                        current.movedRows.append(.init(from: from, to: to))
                        if changed { current.reconfiguredRows.append(from) }
                    }
                case .update(_, let at, _): current.reloadedRows.append(at)
                }
            case .didChange:
                #expect(sawWillChange, "controllerDidChangeContent without controllerWillChangeContent")
                sawWillChange = false
            case .batch(let whole):
                result.append((current, whole))
            }
        }
        return result
    }
}

/// The rows of a controller as a list view shows them: section names and item renderings.
func rendered(_ controller: some SectionedResults<Item>) -> [ListSimulator<String, ObjectID, String>.Section] {
    controller.sections.map { section in
        .init(id: section.name, rows: section.objects.map { .init(id: $0.objectID, content: $0.rendering) })
    }
}

/// Fetches from scratch, the reference every controller state is compared with: filter,
/// sort by (section, sort keys, identity), cut the window, group.
func referenceFetch(
    _ graph: ObjectGraph, predicate: (Item) -> Bool, section: ((Item) -> String)?, sectionsAscending: Bool = true,
    sort: [(Item, Item) -> Bool?], offset: Int = 0, limit: Int? = nil
) -> [ListSimulator<String, ObjectID, String>.Section] {
    let items = graph.objects(of: Item.self).filter(predicate).sorted { a, b in
        if let section {
            let (sa, sb) = (section(a), section(b))
            if sa != sb { return (sa < sb) == sectionsAscending }
        }
        for less in sort {
            if let result = less(a, b) { return result }
        }
        return a.objectID < b.objectID
    }
    let low = min(offset, items.count)
    let high = limit.map { min(items.count, offset + $0) } ?? items.count
    return groupedIntoSections(items[low..<max(low, high)].map { item in
        (section: section?(item) ?? "", row: .init(id: item.objectID, content: item.rendering))
    })
}

/// Rows in their fetched order, grouped into sections: each run of rows with the same section
/// name is one section.
func groupedIntoSections(
    _ rows: [(section: String, row: ListSimulator<String, ObjectID, String>.Row)]
) -> [ListSimulator<String, ObjectID, String>.Section] {
    var result: [ListSimulator<String, ObjectID, String>.Section] = []
    for (name, row) in rows {
        if result.last?.id == name {
            result[result.count - 1].rows.append(row)
        } else {
            result.append(.init(id: name, rows: [row]))
        }
    }
    return result
}

/// A three-way comparison as an optional `<`: `nil` when the values tie.
func compare<T: Comparable>(_ a: T, _ b: T, ascending: Bool = true) -> Bool? {
    a == b ? nil : (a < b) == ascending
}

extension RecordingDelegate {
    /// Expects what the delegate heard since its events were last cleared to be one batch at
    /// most, and that batch, whole and as its one-by-one callbacks, to take `before` to
    /// `after` in a strict simulator; no batch when the results did not change.
    func expectAtMostOneBatch(
        from before: [ListSimulator<String, ObjectID, String>.Section],
        to after: [ListSimulator<String, ObjectID, String>.Section],
        _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let batches = batches()
        #expect(batches.count <= 1, "\(context): one change, one batch", sourceLocation: sourceLocation)
        if let batch = batches.first {
            expectReproduces(batch.whole, from: before, to: after, "\(context): \(batch.whole)", sourceLocation: sourceLocation)
            expectReproduces(
                batch.replayed, from: before, to: after, "\(context), delegate callbacks: \(batch.replayed)", sourceLocation: sourceLocation)
        } else {
            #expect(before == after, "\(context): the results changed without a batch", sourceLocation: sourceLocation)
        }
    }
}
