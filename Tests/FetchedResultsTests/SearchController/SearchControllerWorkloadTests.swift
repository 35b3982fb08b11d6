import FetchedResults
import FetchedResultsTesting
import Foundation
import Testing
import TestSupport

/// Every way a search selects rows, each with the narrowing rule of its predicate.
private enum MatcherKind: Int, CaseIterable, CustomStringConvertible {
    case foldedText, foldedTextCaseOnly, contains, beginsWith, extendsOnly, formatContains, formatBeginsWith, equalNever

    var description: String {
        switch self {
        case .foldedText: "searching \\.name [cd]"
        case .foldedTextCaseOnly: "searching \\.name [c]"
        case .contains: ".contains, narrowing .contains()"
        case .beginsWith: ".beginsWith, narrowing .beginsWith()"
        case .extendsOnly: ".beginsWith [c], narrowing .whenTextExtends"
        case .formatContains: "CONTAINS[cd] $text, narrowing .contains(options:)"
        case .formatBeginsWith: "BEGINSWITH[c] $text, narrowing .beginsWith(options:)"
        case .equalNever: "==[c], narrowing .never"
        }
    }

    static var schema: GraphPredicateSchema { GraphPredicateSchema(Item.self, Location.self) }

    func makeSearch(base: ResultsController<Item>, text: String) throws -> SearchController<Item> {
        switch self {
        case .foldedText: SearchController(base: base, searching: \.name, searchText: text)
        case .foldedTextCaseOnly: SearchController(base: base, searching: \.name, options: [.caseInsensitive], searchText: text)
        case .contains: SearchController(base: base, searchText: text, narrowing: .contains()) { .contains(\.name, $0) }
        case .beginsWith: SearchController(base: base, searchText: text, narrowing: .beginsWith()) { .beginsWith(\.name, $0) }
        case .extendsOnly:
            SearchController(base: base, searchText: text, narrowing: .whenTextExtends) { .beginsWith(\.name, $0, .caseInsensitive) }
        case .formatContains:
            try SearchController(
                base: base, format: "name CONTAINS[cd] $text", schema: Self.schema, searchText: text,
                narrowing: .contains(options: [.caseInsensitive, .diacriticInsensitive]))
        case .formatBeginsWith:
            try SearchController(
                base: base, format: "name BEGINSWITH[c] $text", schema: Self.schema, searchText: text,
                narrowing: .beginsWith(options: [.caseInsensitive]))
        case .equalNever:
            SearchController(base: base, searchText: text) { text in FetchPredicate { $0.name.lowercased() == text.lowercased() } }
        }
    }

    /// Whether a fresh search for `text` shows `item` (the base predicate aside), decided
    /// without the search controller.
    func matches(_ item: Item, _ text: String) throws -> Bool {
        switch self {
        case .foldedText, .foldedTextCaseOnly:
            let options: TextComparisonOptions = self == .foldedText ? [.caseInsensitive, .diacriticInsensitive] : [.caseInsensitive]
            let needle = FoldedText(text, options: options)
            return needle.isEmpty || FoldedText(item.name, options: options).contains(needle)
        case .contains: return FetchPredicate<Item>.contains(\.name, text).evaluate(item)
        case .beginsWith: return FetchPredicate<Item>.beginsWith(\.name, text).evaluate(item)
        case .extendsOnly: return FetchPredicate<Item>.beginsWith(\.name, text, .caseInsensitive).evaluate(item)
        case .formatContains:
            return try FetchPredicate<Item>(format: "name CONTAINS[cd] %@", .string(text), schema: Self.schema).evaluate(item)
        case .formatBeginsWith:
            return try FetchPredicate<Item>(format: "name BEGINSWITH[c] %@", .string(text), schema: Self.schema).evaluate(item)
        case .equalNever: return item.name.lowercased() == text.lowercased()
        }
    }
}

/// A base request chosen by the seed: sections by an optional location name (nil and empty
/// names both occur), either direction for sections and both sort keys, a base predicate
/// that may reject every row, and now and then a window.
private struct WorkloadBase: CustomStringConvertible {
    var sectioned: Bool
    var sectionsAscending: Bool
    var nameAscending: Bool
    var quantityAscending: Bool
    var filtered: Bool
    var window: (offset: Int, limit: Int?)

    init(_ rng: inout SeededGenerator) {
        sectioned = Int.random(in: 0..<4, using: &rng) > 0
        sectionsAscending = Bool.random(using: &rng)
        nameAscending = Bool.random(using: &rng)
        quantityAscending = Bool.random(using: &rng)
        filtered = Int.random(in: 0..<3, using: &rng) == 0
        window = [(0, nil), (0, nil), (0, nil), (0, nil), (0, 2), (1, nil)].randomElement(using: &rng)!
    }

    var description: String {
        "sectioned \(sectioned) \(sectionsAscending ? "asc" : "desc"), name \(nameAscending ? "asc" : "desc"), "
            + "quantity \(quantityAscending ? "asc" : "desc"), filtered \(filtered), window \(window)"
    }

    func request() -> FetchRequest<Item> {
        FetchRequest(
            Item.self, predicate: filtered ? .greaterOrEqual(\.quantity, 1) : nil,
            sortedBy: [SortKey(\.name, ascending: nameAscending), SortKey(\.quantity, ascending: quantityAscending)],
            sectionKey: sectioned ? SectionKey(\.location?.name, ascending: sectionsAscending) : nil,
            fetchLimit: window.limit, fetchOffset: window.offset)
    }

    /// A from-scratch fetch: nil sections apart from empty names, nil first when ascending.
    func reference(_ graph: ObjectGraph, _ isIncluded: (Item) throws -> Bool) rethrows -> [ListSimulator<String, ObjectID, String>.Section] {
        let items = try graph.objects(of: Item.self).filter { try (!filtered || $0.quantity >= 1) && isIncluded($0) }.sorted { a, b in
            if sectioned {
                let (sa, sb) = (a.location?.name, b.location?.name)
                if sa != sb {
                    guard let sa else { return sectionsAscending }
                    guard let sb else { return !sectionsAscending }
                    return (sa < sb) == sectionsAscending
                }
            }
            if let less = compare(a.name, b.name, ascending: nameAscending) { return less }
            if let less = compare(a.quantity, b.quantity, ascending: quantityAscending) { return less }
            return a.objectID < b.objectID
        }
        let low = min(window.offset, items.count)
        let high = window.limit.map { min(items.count, window.offset + $0) } ?? items.count
        return groupedIntoSections(items[low..<max(low, high)].map { item in
            (section: sectioned ? sectionID(item) : "", row: .init(id: item.objectID, content: item.rendering))
        })
    }
}

/// A section's identity for the comparison: its location's name, `nil` apart from `""`.
private func sectionID(_ item: Item) -> String {
    item.location.map { "=\($0.name)" } ?? "nil"
}

/// The rows of a controller with sections named as ``sectionID(_:)`` names them.
/// With `contents: false` every row shows the same content, for states captured while
/// uncommitted writes are pending.
private func renderedByKey(
    _ controller: some SectionedResults<Item>, sectioned: Bool, contents: Bool = true
) -> [ListSimulator<String, ObjectID, String>.Section] {
    controller.sections.map { section in
        .init(id: sectioned ? section.objects.first.map(sectionID) ?? "?" : "",
              rows: section.objects.map { .init(id: $0.objectID, content: contents ? $0.rendering : "") })
    }
}

private let workloadNames = ["Coffee", "Éclair", "cake", "Ham", "Jam", "jam", "ÉCLAT", "cafe\u{301}", "Café", "hamper", ""]
private let workloadKeys: [Character] = ["c", "é", "É", "a", "j", "h", "m", "e", "l", "f"]
private let workloadPlaces: [String] = ["", "Fridge", "Pantry", "attic"]

/// A small graph of items (0 to 5 at first) and locations, with random commits that also
/// insert and delete locations, objects of another entity than the searched one.
private struct Workload {
    let graph = ObjectGraph()
    var locations: [Location] = []

    mutating func populate(_ rng: inout SeededGenerator) throws {
        // Sometimes another entity is inserted and deleted before any item exists.
        if Bool.random(using: &rng) {
            let location = graph.insert(Location())
            _ = try graph.commit()
            graph.delete(location)
            _ = try graph.commit()
        }
        for _ in 0..<Int.random(in: 0...2, using: &rng) { addLocation(&rng) }
        for _ in 0..<Int.random(in: 0...5, using: &rng) { addItem(&rng) }
        _ = try graph.commit()
    }

    mutating func addLocation(_ rng: inout SeededGenerator) {
        let location = graph.insert(Location())
        location.name = workloadPlaces.randomElement(using: &rng)!
        locations.append(location)
    }

    func addItem(_ rng: inout SeededGenerator) {
        let item = graph.insert(Item())
        item.name = workloadNames.randomElement(using: &rng)!
        item.quantity = Int.random(in: 0..<3, using: &rng)
        item.location = locations.isEmpty || Int.random(in: 0..<3, using: &rng) == 0 ? nil : locations.randomElement(using: &rng)
    }

    /// One to three random changes, not committed.
    mutating func change(_ rng: inout SeededGenerator) {
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            let items = graph.objects(of: Item.self)
            switch Int.random(in: 0..<9, using: &rng) {
            case 0, 1: addItem(&rng)
            case 2: if let item = items.randomElement(using: &rng) { graph.delete(item) }
            case 3: items.randomElement(using: &rng)?.name = workloadNames.randomElement(using: &rng)!
            case 4: items.randomElement(using: &rng)?.quantity = Int.random(in: 0..<3, using: &rng)
            case 5: items.randomElement(using: &rng)?.location = Bool.random(using: &rng) ? nil : locations.randomElement(using: &rng)
            case 6: locations.randomElement(using: &rng)?.name = workloadPlaces.randomElement(using: &rng)!
            case 7: addLocation(&rng)
            default:
                if !locations.isEmpty {
                    graph.delete(locations.remove(at: Int.random(in: 0..<locations.count, using: &rng)))
                }
            }
        }
    }
}

/// One keystroke, edit or commit of a randomized search session.
private enum Step: String {
    case type, delete, replace, clear, commit
}

private func randomStep(_ text: inout String, _ rng: inout SeededGenerator) -> Step {
    switch Int.random(in: 0..<12, using: &rng) {
    case 0...4:
        text.append(workloadKeys.randomElement(using: &rng)!)
        return .type
    case 5, 6:
        if !text.isEmpty { text.removeLast() }
        return .delete
    case 7:
        text = String((0..<Int.random(in: 1...3, using: &rng)).map { _ in workloadKeys.randomElement(using: &rng)! })
        return .replace
    case 8:
        text = ""
        return .clear
    default:
        return .commit
    }
}

@Suite("SearchController workloads")
struct SearchControllerWorkloadTests {
    /// Small sectioned bases (nil and empty section names, either direction, 0 to 5 rows at
    /// first), another entity inserted and deleted around them, every kind of matcher: after
    /// every keystroke and commit the search equals a fresh search, and each batch replays.
    @Test(arguments: testSeeds(count: 16))
    func everyMatcherOnSmallSectionedBasesMatchesAFreshSearch(seed: UInt64) throws {
        for kind in MatcherKind.allCases {
            var rng = SeededGenerator(seed: seed &+ UInt64(kind.rawValue) &* 0x9E37)
            var workload = Workload()
            try workload.populate(&rng)
            let configuration = WorkloadBase(&rng)
            let base = ResultsController(graph: workload.graph, request: configuration.request())
            base.performFetch()
            var text = Bool.random(using: &rng) ? "" : String(workloadKeys.randomElement(using: &rng)!)
            let search = try kind.makeSearch(base: base, text: text)
            let delegate = RecordingDelegate()
            search.delegate = delegate
            let sectioned = configuration.sectioned
            for step in 0..<40 {
                let before = renderedByKey(search, sectioned: sectioned)
                delegate.events = []
                let what = randomStep(&text, &rng)
                if what == .commit {
                    workload.change(&rng)
                    _ = try workload.graph.commit()
                } else {
                    search.searchText = text
                }
                let after = renderedByKey(search, sectioned: sectioned)
                let context = "seed \(seed), step \(step) (\(what), text \"\(text)\"), \(kind), \(configuration)"
                #expect(after == (try configuration.reference(workload.graph) { try kind.matches($0, text) }), "\(context)")
                #expect(renderedByKey(base, sectioned: sectioned) == configuration.reference(workload.graph) { _ in true }, "\(context): base")
                let batches = delegate.batches()
                #expect(batches.count <= 1, "\(context): one change, one batch")
                if let batch = batches.first {
                    expectReproduces(batch.whole, from: before, to: after, "\(context): \(batch.whole)")
                    expectReproduces(batch.replayed, from: before, to: after, "\(context), delegate callbacks: \(batch.replayed)")
                } else {
                    #expect(before == after, "\(context): the results changed without a batch")
                }
            }
        }
    }

    /// A delegate of the base controller writes to the graph while a commit is delivered
    /// (and sometimes commits it there); the search attached to the base stays equal to a
    /// fresh search, and every batch it delivers replays.
    @Test(arguments: testSeeds(count: 10))
    func delegateWritesDuringDeliveryKeepTheSearchExact(seed: UInt64) throws {
        for kind in [MatcherKind.foldedText, .beginsWith, .formatContains] {
            var rng = SeededGenerator(seed: seed ^ 0xDE1E)
            var workload = Workload()
            try workload.populate(&rng)
            let configuration = WorkloadBase(&rng)
            let base = ResultsController(graph: workload.graph, request: configuration.request())
            base.performFetch()
            var text = ""
            let search = try kind.makeSearch(base: base, text: text)
            let baseDelegate = RecordingDelegate()
            base.delegate = baseDelegate
            let delegate = RecordingDelegate()
            search.delegate = delegate
            let sectioned = configuration.sectioned
            var writer = SeededGenerator(seed: seed ^ 0x3717E)
            var writes = 0
            var commitsInside = false
            baseDelegate.onDidChange = { _ in
                guard writes > 0 else { return }
                writes -= 1
                workload.change(&writer)
                if commitsInside { _ = try? workload.graph.commit() }
            }
            // The search's rows at each delivery (several commits may be delivered in one
            // step), by identity only: writes made during delivery may be pending.
            var delivered: [[ListSimulator<String, ObjectID, String>.Section]] = []
            delegate.onDidChange = { controller in delivered.append(renderedByKey(controller, sectioned: sectioned, contents: false)) }
            for step in 0..<30 {
                let before = renderedByKey(search, sectioned: sectioned, contents: false)
                delegate.events = []
                delivered = []
                let what = randomStep(&text, &rng)
                if what == .commit {
                    writes = Int.random(in: 0...2, using: &rng)
                    commitsInside = Bool.random(using: &rng)
                    workload.change(&rng)
                    _ = try workload.graph.commit()
                    while workload.graph.hasChanges { _ = try workload.graph.commit() }
                } else {
                    search.searchText = text
                }
                writes = 0
                let context = "seed \(seed), step \(step) (\(what), text \"\(text)\"), \(kind), \(configuration)"
                #expect(renderedByKey(search, sectioned: sectioned) == (try configuration.reference(workload.graph) { try kind.matches($0, text) }), "\(context)")
                let batches = delegate.batches()
                #expect(what == .commit || batches.count <= 1, "\(context): one text change, one batch")
                #expect(batches.count == delivered.count, "\(context): a state per batch")
                var state = before
                for (index, batch) in batches.enumerated() where index < delivered.count {
                    expectApplying(stages: batch.whole.staged(), from: state, yields: delivered[index], "\(context): batch \(index) \(batch.whole)")
                    expectApplying(stages: batch.replayed.staged(), from: state, yields: delivered[index], "\(context): callbacks of batch \(index)")
                    state = delivered[index]
                }
                #expect(state == renderedByKey(search, sectioned: sectioned, contents: false), "\(context): the batches reach the results")
            }
        }
    }
}
