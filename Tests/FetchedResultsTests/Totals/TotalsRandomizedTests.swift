import FetchedResults
import FetchedResultsTesting
import Foundation
import ListUpdates
import Testing
import TestSupport

/// A shop: its name is the section key; deleting it deletes its purchases.
final class TotalsShop: GraphObject {
    @Attribute var name = ""
    @Attribute var budget = 0.0
    @Relationship(inverse: \TotalsPurchase.shop, deleteRule: .cascade) var purchases: Set<TotalsPurchase>
}

/// The fetched entity of the totals tests: a number of every kind a total adds up.
final class TotalsPurchase: GraphObject {
    @Attribute var name = ""
    @Attribute var quantity = 0
    @Attribute var price = 0.0
    @Attribute var cost = Decimal(0)
    @Attribute var listed = false
    @Attribute var added = Date(timeIntervalSinceReferenceDate: 0)
    @Relationship var shop: TotalsShop?
}

/// A hand-ordered list of purchases.
final class TotalsList: GraphObject {
    @Relationship var purchases: [TotalsPurchase]
}

/// Every kind of total, over own attributes and across the relationship.
struct PurchaseTotals {
    let count = Total<TotalsPurchase, Int>.count()
    let listed = Total.count(where: FetchPredicate<TotalsPurchase> { $0.listed })
    let richShop = Total.count(where: FetchPredicate<TotalsPurchase> { ($0.shop?.budget ?? 0) > 50 })
    let quantity = Total.sum(\TotalsPurchase.quantity)
    let price = Total.sum(\TotalsPurchase.price)
    let cost = Total.sum(\TotalsPurchase.cost)
    let averagePrice = Total.average(\TotalsPurchase.price)
    let averageQuantity = Total<TotalsPurchase, Double?>.average(\TotalsPurchase.quantity)
    let averageCost = Total.average(\TotalsPurchase.cost)
    let firstAdded = Total.minimum(\TotalsPurchase.added)
    let lastName = Total.maximum(\TotalsPurchase.name, comparison: .localizedStandard)
    let smallestQuantity = Total.minimum(\TotalsPurchase.quantity)
    let biggestBudget = Total.maximum(\TotalsPurchase.shop?.budget)
    // The closure forms, including an optional read across the relationship.
    let closureQuantity = Total.sum { (purchase: TotalsPurchase) in purchase.quantity }
    let closureLastAdded = Total.maximum { (purchase: TotalsPurchase) in purchase.added }
    let closureSmallestBudget = Total.minimum { (purchase: TotalsPurchase) in purchase.shop?.budget }
    let closureFirstName = Total.minimum(comparison: .caseInsensitive) { (purchase: TotalsPurchase) in purchase.name }
    let closureAveragePrice = Total.average { (purchase: TotalsPurchase) in purchase.price }

    var all: [AnyTotal<TotalsPurchase>] {
        [AnyTotal(count), AnyTotal(listed), AnyTotal(richShop), AnyTotal(quantity), AnyTotal(price), AnyTotal(cost),
         AnyTotal(averagePrice), AnyTotal(averageQuantity), AnyTotal(averageCost), AnyTotal(firstAdded), AnyTotal(lastName),
         AnyTotal(smallestQuantity), AnyTotal(biggestBudget), AnyTotal(closureQuantity), AnyTotal(closureLastAdded),
         AnyTotal(closureSmallestBudget), AnyTotal(closureFirstName), AnyTotal(closureAveragePrice)]
    }

    /// Every total's value, as text that compares floating-point values bit for bit.
    func values(_ read: (AnyTotalReader) -> String) -> [String] {
        [read(.init(count)), read(.init(listed)), read(.init(richShop)), read(.init(quantity)), read(.init(price)),
         read(.init(cost)), read(.init(averagePrice)), read(.init(averageQuantity)), read(.init(averageCost)),
         read(.init(firstAdded)), read(.init(lastName)), read(.init(smallestQuantity)), read(.init(biggestBudget)),
         read(.init(closureQuantity)), read(.init(closureLastAdded)), read(.init(closureSmallestBudget)),
         read(.init(closureFirstName)), read(.init(closureAveragePrice))]
    }
}

/// Reads one total from a controller or a section, as text.
struct AnyTotalReader {
    let fromController: (any SectionedResults<TotalsPurchase>) -> String
    let fromSection: (ResultsSection<TotalsPurchase>) -> String
    init<Value>(_ total: Total<TotalsPurchase, Value>) {
        fromController = { describe($0.total(total)) }
        fromSection = { describe($0.total(total)) }
    }
}

private func describe(_ value: Any) -> String {
    switch value {
    case let number as Double: return "\(number) (\(number.bitPattern))"
    case let number as Double?: return number.map { "\($0) (\($0.bitPattern))" } ?? "nil"
    default: return "\(value)"
    }
}

private let names = ["apple", "Apple 10", "apple 9", "bread", "éclair", "fig", ""]
private let shopNames = ["Market", "Bakery", "Corner", "Depot"]
/// Prices of very different sizes, so that a sum kept by adding and subtracting in
/// floating point would drift.
private let prices = [0.1, 0.2, 1e16, -1e16, 3.25, 1e-3, 7, -0.5, 123456.789, 1e300, Double.leastNonzeroMagnitude]

/// Random edits of purchases and shops.
private struct PurchaseEdits {
    var rng: SeededGenerator

    mutating func insertPurchase(_ graph: ObjectGraph) {
        let purchase = graph.insert(TotalsPurchase())
        randomize(purchase)
        purchase.shop = graph.objects(of: TotalsShop.self).filter { !$0.isDeleted }.randomElement(using: &rng)
    }

    mutating func randomize(_ purchase: TotalsPurchase) {
        purchase.name = names.randomElement(using: &rng)!
        purchase.quantity = Int.random(in: -3...Int(Int32.max), using: &rng) % 1000
        purchase.price = prices.randomElement(using: &rng)!
        purchase.cost = Decimal(Int.random(in: -500...5000, using: &rng)) / 100
        purchase.listed = Bool.random(using: &rng)
        purchase.added = Date(timeIntervalSinceReferenceDate: Double(Int.random(in: 0..<1000, using: &rng)))
    }

    mutating func edit(_ graph: ObjectGraph) {
        let purchases = graph.objects(of: TotalsPurchase.self).filter { !$0.isDeleted }
        let shops = graph.objects(of: TotalsShop.self).filter { !$0.isDeleted }
        switch Int.random(in: 0..<14, using: &rng) {
        case 0, 1: insertPurchase(graph)
        case 2: if let purchase = purchases.randomElement(using: &rng) { graph.delete(purchase) }
        case 3: purchases.randomElement(using: &rng)?.price = prices.randomElement(using: &rng)!
        case 4: purchases.randomElement(using: &rng)?.quantity = Int.random(in: -5...50, using: &rng)
        case 5: purchases.randomElement(using: &rng)?.cost = Decimal(Int.random(in: 0...999, using: &rng)) / 10
        case 6: purchases.randomElement(using: &rng)?.listed.toggle()
        case 7: if let purchase = purchases.randomElement(using: &rng) { randomize(purchase) }
        case 8: purchases.randomElement(using: &rng)?.shop = shops.randomElement(using: &rng)
        case 9: shops.randomElement(using: &rng)?.name = shopNames.randomElement(using: &rng)!
        case 10: shops.randomElement(using: &rng)?.budget = Double(Int.random(in: 0...100, using: &rng))
        case 11: if shops.count > 1, let shop = shops.randomElement(using: &rng) { graph.delete(shop) }
        case 12: if shops.count < 5 { graph.insert(TotalsShop()).name = shopNames.randomElement(using: &rng)! }
        default: purchases.randomElement(using: &rng)?.name = names.randomElement(using: &rng)!
        }
    }
}

/// What a list view shows of a controller: sections by identity, rows with their content.
private func rendered(_ controller: some SectionedResults<TotalsPurchase>) -> [ListSimulator<SortValue, ObjectID, String>.Section] {
    controller.sections.map { section in
        .init(id: section.identifier, rows: section.objects.map { .init(id: $0.objectID, content: "\($0.name)|\($0.quantity)|\($0.price)|\($0.cost)|\($0.listed)|\($0.added)") })
    }
}

/// Records the whole-batch value of every change a controller delivers.
private final class TotalsBatchRecorder: ResultsControllerDelegate {
    typealias Object = TotalsPurchase
    var batches: [ListChanges] = []

    func controller(_ controller: any SectionedResults<TotalsPurchase>, didChangeContentWith changes: ListChanges) {
        batches.append(changes)
    }
}

@Suite("Totals follow random commits, undo and redo")
struct TotalsRandomizedTests {
    enum Shape: String, CaseIterable, CustomTestStringConvertible {
        case sectioned, unsectioned, sectionedWindow, unsectionedWindow
        var testDescription: String { rawValue }
    }

    /// After every commit, undo and redo, each total of a controller (per section and for
    /// every row) and of a search over it equals the same total of a fresh fetch and search,
    /// and the exact ones equal a computation from the rows shown.
    @Test(arguments: Shape.allCases, testSeeds(count: 3))
    func everyTotalEqualsAFreshComputation(shape: Shape, seed: UInt64) throws {
        var edits = PurchaseEdits(rng: SeededGenerator(seed: seed))
        let graph = ObjectGraph()
        for (position, name) in shopNames.prefix(3).enumerated() {
            let shop = graph.insert(TotalsShop())
            shop.name = name
            shop.budget = Double(position * 40)
        }
        for _ in 0..<30 { edits.insertPurchase(graph) }
        try graph.commit()
        let undo = GraphUndoManager()
        graph.undoManager = undo
        let totals = PurchaseTotals()
        var request = FetchRequest(TotalsPurchase.self, sortedBy: [SortKey(\.name), SortKey(\.quantity)])
        if shape == .sectioned || shape == .sectionedWindow { request.sectionKey = SectionKey(\.shop?.name) }
        if shape == .sectionedWindow || shape == .unsectionedWindow {
            request.fetchLimit = 9
            request.fetchOffset = 2
        }
        request.totals = totals.all
        let base = ResultsController(graph: graph, request: request)
        base.performFetch()
        let search = SearchController(base: base, searching: \.name)
        search.searchText = ["a", "e", "ap"].randomElement(using: &edits.rng)!
        let recorder = TotalsBatchRecorder()
        base.delegate = recorder

        func check(_ context: String) {
            let comment = "seed \(seed), \(shape), \(context)"
            let fresh = ResultsController(graph: graph, request: request)
            fresh.performFetch()
            let freshSearch = SearchController(base: fresh, searching: \.name)
            freshSearch.searchText = search.searchText
            for (name, kept, again) in [("controller", base as any SectionedResults<TotalsPurchase>, fresh as any SectionedResults<TotalsPurchase>),
                                        ("search", search, freshSearch)] {
                #expect(totals.values { $0.fromController(kept) } == totals.values { $0.fromController(again) }, "\(comment): \(name), every row")
                let keptSections = Dictionary(uniqueKeysWithValues: kept.sections.map { ($0.identifier, $0) })
                #expect(keptSections.count == again.sections.count, "\(comment): \(name) sections")
                for section in again.sections {
                    guard let mine = keptSections[section.identifier] else { continue }
                    #expect(totals.values { $0.fromSection(mine) } == totals.values { $0.fromSection(section) },
                            "\(comment): \(name), section \(section.name)")
                    expectExact(section, comment: "\(comment): \(name), section \(section.name)")
                }
            }
        }
        /// The totals a plain computation over a section's rows gives: counts, integer and
        /// decimal sums, minimum and maximum exactly; the floating-point sum within the bound.
        func expectExact(_ section: ResultsSection<TotalsPurchase>, comment: String) {
            let rows = section.objects
            #expect(section.total(totals.count) == rows.count, "\(comment)")
            #expect(section.total(totals.listed) == rows.filter(\.listed).count, "\(comment)")
            #expect(section.total(totals.quantity) == rows.reduce(0) { $0 + $1.quantity }, "\(comment)")
            #expect(section.total(totals.cost) == rows.reduce(Decimal(0)) { $0 + $1.cost }, "\(comment)")
            #expect(section.total(totals.firstAdded) == rows.map(\.added).min(), "\(comment)")
            #expect(section.total(totals.smallestQuantity) == rows.map(\.quantity).min(), "\(comment)")
            #expect(section.total(totals.biggestBudget) == rows.compactMap { $0.shop?.budget }.max(), "\(comment)")
            #expect(section.total(totals.closureQuantity) == section.total(totals.quantity), "\(comment)")
            #expect(section.total(totals.closureLastAdded) == rows.map(\.added).max(), "\(comment)")
            #expect(section.total(totals.closureSmallestBudget) == rows.compactMap { $0.shop?.budget }.min(), "\(comment)")
            let fold = StringComparison.caseInsensitive.fold
            #expect(section.total(totals.closureFirstName).map(fold) == rows.map { fold($0.name) }.min(), "\(comment)")
            let magnitude = rows.reduce(0.0) { $0 + abs($1.price) }
            let naive = rows.reduce(0.0) { $0 + $1.price }
            let kept = section.total(totals.price)
            if magnitude.isFinite {
                #expect(abs(kept - naive) <= magnitude * Double(rows.count + 1) * Double.ulpOfOne, "\(comment): \(kept) vs \(naive)")
            }
        }

        /// Every section's totals, by section identity.
        func sectionTotals() -> [SortValue: [String]] {
            Dictionary(uniqueKeysWithValues: base.sections.map { section in (section.identifier, totals.values { $0.fromSection(section) }) })
        }
        /// Runs a change of the base controller's results: its batch (at most one) replays on
        /// a strict simulator, and names every section whose totals changed among those it
        /// keeps, at its position after the change.
        func step(_ context: String, _ body: () throws -> Void) rethrows {
            let before = (rendered(base), sectionTotals())
            recorder.batches = []
            try body()
            let after = (rendered(base), sectionTotals())
            let comment = "seed \(seed), \(shape), \(context)"
            #expect(recorder.batches.count <= 1, "\(comment): one change, one batch")
            let changed = base.sections.enumerated().compactMap { position, section -> Int? in
                guard let old = before.1[section.identifier], old != after.1[section.identifier] else { return nil }
                return position
            }
            guard let batch = recorder.batches.first else {
                #expect(before.0 == after.0 && changed.isEmpty, "\(comment): the results or totals changed without a batch")
                return
            }
            expectReproduces(batch, from: before.0, to: after.0, "\(comment): \(batch)")
            #expect(Set(changed).isSubset(of: batch.reconfiguredSections), "\(comment): totals of \(changed) changed, \(batch.reconfiguredSections) reported")
            check(context)
        }

        check("after the fetch")
        for number in 0..<60 {
            switch Int.random(in: 0..<10, using: &edits.rng) {
            case 0 where undo.canUndo:
                try step("step \(number), undo") { try undo.undo() }
            case 1 where undo.canRedo:
                try step("step \(number), redo") { try undo.redo() }
            case 2:
                search.searchText = ["", "a", "ap", "e", "fig"].randomElement(using: &edits.rng)!
                check("step \(number), search text \"\(search.searchText)\"")
            default:
                for _ in 0..<Int.random(in: 1...3, using: &edits.rng) { edits.edit(graph) }
                try step("step \(number), commit") { try graph.commit() }
            }
        }
    }

    /// The same for a hand-ordered list, sectioned by shop, with members added, removed and
    /// reordered.
    @Test(arguments: testSeeds(count: 3))
    func anOrderedListsTotalsEqualAFreshComputation(seed: UInt64) throws {
        var edits = PurchaseEdits(rng: SeededGenerator(seed: seed))
        let graph = ObjectGraph()
        for name in shopNames.prefix(3) { graph.insert(TotalsShop()).name = name }
        for _ in 0..<20 { edits.insertPurchase(graph) }
        let list = graph.insert(TotalsList())
        list.purchases = graph.objects(of: TotalsPurchase.self).shuffled(using: &edits.rng)
        try graph.commit()
        let undo = GraphUndoManager()
        graph.undoManager = undo
        let totals = PurchaseTotals()
        func controller() -> OrderedResultsController<TotalsList, TotalsPurchase> {
            let controller = OrderedResultsController(
                graph: graph, owner: list, relationship: \.purchases, predicate: FetchPredicate { $0.quantity != 0 },
                sectionKey: SectionKey(\.shop?.name), totals: totals.all)
            controller.performFetch()
            return controller
        }
        let kept = controller()
        for step in 0..<60 {
            switch Int.random(in: 0..<10, using: &edits.rng) {
            case 0 where undo.canUndo, 1 where undo.canRedo:
                // A step that writes the list fails while the list holds a purchase deleted
                // since (it has no inverse): the app drops what the step left pending.
                do {
                    if undo.canUndo && (!undo.canRedo || Bool.random(using: &edits.rng)) { try undo.undo() } else { try undo.redo() }
                } catch {
                    graph.rollback()
                }
            case 2:
                list.purchases = list.purchases.filter { !$0.isDeleted }.shuffled(using: &edits.rng)
                try graph.commit()
            case 3:
                // The list has no inverse: it keeps the purchases deleted since (the view
                // hides them) until a commit that writes it takes them out.
                list.purchases.removeAll { $0.isDeleted }
                let outside = graph.objects(of: TotalsPurchase.self).filter { member in !list.purchases.contains { $0 === member } }
                if let purchase = outside.randomElement(using: &edits.rng) {
                    list.purchases.insert(purchase, at: Int.random(in: 0...list.purchases.count, using: &edits.rng))
                } else if !list.purchases.isEmpty {
                    list.purchases.remove(at: Int.random(in: 0..<list.purchases.count, using: &edits.rng))
                }
                try graph.commit()
            default:
                for _ in 0..<Int.random(in: 1...3, using: &edits.rng) { edits.edit(graph) }
                try graph.commit()
            }
            let fresh = controller()
            let comment = "seed \(seed), step \(step)"
            #expect(totals.values { $0.fromController(kept) } == totals.values { $0.fromController(fresh) }, "\(comment): every row")
            #expect(kept.sections.map(\.identifier) == fresh.sections.map(\.identifier), "\(comment): sections")
            for (mine, again) in zip(kept.sections, fresh.sections) {
                #expect(totals.values { $0.fromSection(mine) } == totals.values { $0.fromSection(again) }, "\(comment): section \(again.name)")
            }
        }
    }
}

@Suite("Totals: focused cases")
struct TotalsFocusedTests {
    /// A write that no cell shows changes a total read across a relationship: the base and a
    /// search over it (following the base's rows while its text is empty, then its own)
    /// deliver the change, and their totals follow. (A search that followed its base's rows
    /// once missed it: nothing of its rows changed.)
    @Test func aSearchFollowsATotalThatACommitChangesAcrossARelationship() throws {
        let graph = ObjectGraph()
        let shop = graph.insert(TotalsShop())
        shop.name = "Market"
        shop.budget = 10
        for name in ["apple", "fig", "apple 9"] {
            let purchase = graph.insert(TotalsPurchase())
            purchase.name = name
            purchase.shop = shop
        }
        try graph.commit()
        let rich = Total.count(where: FetchPredicate<TotalsPurchase> { ($0.shop?.budget ?? 0) > 50 })
        var request = FetchRequest(TotalsPurchase.self, sortedBy: [SortKey(\.name)])
        request.totals = [AnyTotal(rich)]
        request.displayedKeys = [\TotalsPurchase.name]
        let base = ResultsController(graph: graph, request: request)
        base.performFetch()
        let search = SearchController(base: base, searching: \.name)
        let recorder = TotalsBatchRecorder()
        search.delegate = recorder
        for (text, shown) in [("", 3), ("a", 2), ("ap", 2), ("", 3)] {
            search.searchText = text
            recorder.batches = []
            shop.budget = shop.budget > 50 ? 10 : 90
            try graph.commit()
            let expected = shop.budget > 50 ? shown : 0
            #expect(base.total(rich) == (shop.budget > 50 ? 3 : 0), "text \"\(text)\"")
            #expect(search.total(rich) == expected, "text \"\(text)\"")
            #expect(recorder.batches.map(\.reconfiguredSections) == [[0]], "text \"\(text)\"")
            #expect(recorder.batches.first?.count == 0, "text \"\(text)\": no row changed")
        }
    }

    /// The row at a section's minimum leaves, again and again (deleted, or its value raised),
    /// while rows come with smaller and equal values: each time the minimum is the next row's,
    /// in the section and for every row, with ties going to the object inserted first.
    @Test func aMinimumFollowsWhenItsRowLeavesAgainAndAgain() throws {
        let graph = ObjectGraph()
        let undo = GraphUndoManager(levelsOfUndo: 100)
        var shops: [TotalsShop] = []
        for name in ["East", "West"] {
            let shop = graph.insert(TotalsShop())
            shop.name = name
            shops.append(shop)
        }
        var purchases: [TotalsPurchase] = []
        for index in 0..<40 {
            let purchase = graph.insert(TotalsPurchase())
            purchase.name = "p\(index)"
            purchase.quantity = (index * 7) % 13
            purchase.shop = shops[index % 2]
            purchases.append(purchase)
        }
        try graph.commit()
        graph.undoManager = undo
        let smallest = Total.minimum { (purchase: TotalsPurchase) in purchase.quantity }
        let largest = Total.maximum(\TotalsPurchase.quantity)
        var request = FetchRequest(TotalsPurchase.self, sortedBy: [SortKey(\.name)], sectionKey: SectionKey(\.shop?.name))
        request.totals = [AnyTotal(smallest), AnyTotal(largest)]
        let controller = ResultsController(graph: graph, request: request)
        controller.performFetch()
        func expectCurrent(_ context: String) {
            for section in controller.sections {
                let values = section.objects.map(\.quantity)
                #expect(section.total(smallest) == values.min(), "\(context), \(section.name)")
                #expect(section.total(largest) == values.max(), "\(context), \(section.name)")
            }
            let values = controller.fetchedObjects.map(\.quantity)
            #expect(controller.total(smallest) == values.min(), "\(context)")
            #expect(controller.total(largest) == values.max(), "\(context)")
        }
        expectCurrent("fetched")
        for step in 0..<30 {
            let rows = controller.fetchedObjects
            let lowest = rows.min { $0.quantity < $1.quantity }!
            if step % 3 == 0 {
                graph.delete(lowest)
            } else {
                lowest.quantity += 20
            }
            if step % 4 == 0 {
                let purchase = graph.insert(TotalsPurchase())
                purchase.name = "n\(step)"
                purchase.quantity = step % 5
                purchase.shop = shops[step % 2]
            }
            try graph.commit()
            expectCurrent("step \(step)")
        }
        // Undo brings deleted rows back, with their values; the minimum takes them again.
        while undo.canUndo {
            try undo.undo()
            expectCurrent("undo")
        }
    }

    /// A base fetched again keeps the table of inputs a search over it reads: the search's
    /// totals still follow the base's commits.
    @Test func aSearchFollowsTotalsAfterItsBaseIsFetchedAgain() throws {
        let graph = ObjectGraph()
        for (index, name) in ["apple", "apricot", "fig", "grape"].enumerated() {
            let purchase = graph.insert(TotalsPurchase())
            purchase.name = name
            purchase.quantity = index + 1
        }
        try graph.commit()
        let pieces = Total.sum { (purchase: TotalsPurchase) in purchase.quantity }
        var request = FetchRequest(TotalsPurchase.self, sortedBy: [SortKey(\.name)])
        request.totals = [AnyTotal(pieces)]
        let base = ResultsController(graph: graph, request: request)
        base.performFetch()
        let search = SearchController(base: base, searching: \.name)
        search.searchText = "ap"
        #expect(search.total(pieces) == 7)  // apple, apricot and grape
        base.performFetch()
        let apple = base.fetchedObjects.first { $0.name == "apple" }!
        apple.quantity = 10
        try graph.commit()
        #expect(base.total(pieces) == 19)
        #expect(search.total(pieces) == 16)
    }
}
