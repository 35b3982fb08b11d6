import FetchedResults
import FetchedResultsTesting
import Foundation
import ListUpdates
import Testing
import TestSupport

/// An aisle: its name is the section key, and it keeps its products in the order the user
/// gave them (ordered to-many).
final class UndoAisle: GraphObject {
    @Attribute var name = ""
    @Relationship var products: [UndoProduct]
}

/// A crate: deleting it deletes its products (cascade).
final class UndoCrate: GraphObject {
    @Attribute var label = ""
    @Relationship(inverse: \UndoProduct.crate, deleteRule: .cascade) var products: Set<UndoProduct>
}

/// A badge many products wear (many-to-many); a product with a badge is shown at price 0.
final class UndoBadge: GraphObject {
    @Attribute var label = ""
    @Relationship var products: Set<UndoProduct>
}

/// The fetched entity of the randomized undo test.
final class UndoProduct: GraphObject {
    @Attribute var name = ""
    @Attribute var price = 0
    @Relationship(inverse: \UndoAisle.products) var aisle: UndoAisle?
    @Relationship var crate: UndoCrate?
    @Relationship(inverse: \UndoBadge.products) var badges: Set<UndoBadge>

    /// What a cell shows: every own property (relationships by identity or count).
    var rendering: String {
        "\(name)|\(price)|\(aisle.map { "\($0.objectID)" } ?? "-")|\(crate.map { "\($0.objectID)" } ?? "-")|\(badges.count)"
    }
}

private typealias ProductSection = ListSimulator<String, ObjectID, String>.Section

/// The rows of a controller as a list view shows them.
private func renderedProducts(_ controller: some SectionedResults<UndoProduct>) -> [ProductSection] {
    controller.sections.map { section in
        .init(id: section.name, rows: section.objects.map { .init(id: $0.objectID, content: $0.rendering) })
    }
}

/// Records the whole-batch value of every change a controller delivers.
private final class BatchRecorder: ResultsControllerDelegate {
    typealias Object = UndoProduct
    var batches: [ListChanges] = []

    func controller(_ controller: any SectionedResults<UndoProduct>, didChangeContentWith changes: ListChanges) {
        batches.append(changes)
    }
}

/// Everything the graph holds, object by object with IDs and ordered members in order:
/// equal dumps mean equal graphs.
private func dumpProducts(_ graph: ObjectGraph) -> [String] {
    func ids(_ objects: some Sequence<GraphObject>, ordered: Bool = false) -> String {
        let names = objects.map { "\($0.objectID)" }
        return (ordered ? names : names.sorted()).joined(separator: ",")
    }
    var lines: [String] = []
    lines += graph.objects(of: UndoAisle.self).map { "\($0.objectID) \($0.name) [\(ids($0.products.map { $0 as GraphObject }, ordered: true))]" }
    lines += graph.objects(of: UndoCrate.self).map { "\($0.objectID) \($0.label) [\(ids($0.products.map { $0 as GraphObject }))]" }
    lines += graph.objects(of: UndoBadge.self).map { "\($0.objectID) \($0.label) [\(ids($0.products.map { $0 as GraphObject }))]" }
    lines += graph.objects(of: UndoProduct.self).map { "\($0.objectID) \($0.rendering) [\(ids($0.badges.map { $0 as GraphObject }))]" }
    return lines
}

private let productNames = ["apple", "bread", "pear", "kiwi", "banana", "fig", "plum"]
private let aisleNames = ["Fridge", "Pantry", "Shed", "Cellar", "Closed"]

/// Random work on the product graph: every relationship shape, moves into and out of
/// sections, groups that edit, then delete, then insert.
private struct ProductEdits {
    var rng: SeededGenerator

    func live<Object: GraphObject>(_ type: Object.Type, in graph: ObjectGraph) -> [Object] {
        graph.objects(of: type).filter { !$0.isDeleted }
    }

    @discardableResult
    mutating func insertProduct(_ graph: ObjectGraph) -> UndoProduct {
        let product = graph.insert(UndoProduct())
        product.name = productNames.randomElement(using: &rng)!
        product.price = Int.random(in: 0..<3, using: &rng)
        let aisles = live(UndoAisle.self, in: graph)
        if let aisle = aisles.randomElement(using: &rng), Int.random(in: 0..<4, using: &rng) > 0 {
            if Bool.random(using: &rng) {
                product.aisle = aisle
            } else {
                aisle.products.insert(product, at: Int.random(in: 0...aisle.products.count, using: &rng))
            }
        }
        if Bool.random(using: &rng) { product.crate = live(UndoCrate.self, in: graph).randomElement(using: &rng) }
        if let badge = live(UndoBadge.self, in: graph).randomElement(using: &rng), Bool.random(using: &rng) { product.badges.insert(badge) }
        return product
    }

    /// Moves a product into another aisle, out of its aisle, or within its aisle, by one of
    /// the three shapes a relationship write takes.
    mutating func moveProduct(_ product: UndoProduct, _ graph: ObjectGraph) {
        let aisles = live(UndoAisle.self, in: graph)
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: product.aisle = aisles.randomElement(using: &rng)
        case 1:
            guard let aisle = aisles.randomElement(using: &rng) else { return }
            var members = aisle.products.filter { $0 !== product }
            members.insert(product, at: Int.random(in: 0...members.count, using: &rng))
            aisle.products = members
        case 2:
            if let aisle = product.aisle, let position = aisle.products.firstIndex(where: { $0 === product }) {
                aisle.products.remove(at: position)
            }
        default:
            if let aisle = product.aisle { aisle.products = aisle.products.shuffled(using: &rng) }
        }
    }

    mutating func edit(_ graph: ObjectGraph) {
        let products = live(UndoProduct.self, in: graph)
        let aisles = live(UndoAisle.self, in: graph)
        let badges = live(UndoBadge.self, in: graph)
        switch Int.random(in: 0..<16, using: &rng) {
        case 0, 1: insertProduct(graph)
        case 2: if let product = products.randomElement(using: &rng) { graph.delete(product) }
        case 3: products.randomElement(using: &rng)?.name = productNames.randomElement(using: &rng)!
        case 4: products.randomElement(using: &rng)?.price = Int.random(in: 0..<3, using: &rng)
        case 5, 6: if let product = products.randomElement(using: &rng) { moveProduct(product, graph) }
        case 7: aisles.randomElement(using: &rng)?.name = aisleNames.randomElement(using: &rng)!
        case 8:
            if let product = products.randomElement(using: &rng), let badge = badges.randomElement(using: &rng) {
                if Bool.random(using: &rng) {
                    if product.badges.contains(badge) { product.badges.remove(badge) } else { product.badges.insert(badge) }
                } else {
                    if badge.products.contains(product) { badge.products.remove(product) } else { badge.products.insert(product) }
                }
            }
        case 9: if let badge = badges.randomElement(using: &rng) { graph.delete(badge) }
        case 10: products.randomElement(using: &rng)?.crate = live(UndoCrate.self, in: graph).randomElement(using: &rng)
        case 11: if let crate = live(UndoCrate.self, in: graph).randomElement(using: &rng) { graph.delete(crate) }
        case 12: if aisles.count < 6 { graph.insert(UndoAisle()).name = aisleNames.randomElement(using: &rng)! }
        case 13: if let aisle = aisles.randomElement(using: &rng), aisles.count > 2 { graph.delete(aisle) }
        case 14: graph.insert(UndoCrate()).label = "crate \(Int.random(in: 0..<99, using: &rng))"
        default: graph.insert(UndoBadge()).label = "badge \(Int.random(in: 0..<99, using: &rng))"
        }
    }
}

@Suite("Controllers and searches follow random undo and redo")
struct ResultsControllerUndoRandomizedTests {
    /// Random commits and groups (edits, then deletes, then inserts; inserts deleted again;
    /// moves into and out of sections by to-one, to-many and ordered to-many writes;
    /// cascades), undone and redone at random, then undone to the start and redone to the
    /// end. After every commit, undo and redo the sectioned controller and the search over
    /// it equal a fresh fetch and a fresh search, and each batch they delivered replays on a
    /// strict simulator; undoing everything gives back the starting graph, redoing
    /// everything the end.
    @Test(arguments: testSeeds(count: 10))
    func everyUndoAndRedoMatchesAFreshFetchAndReplays(seed: UInt64) throws {
        var edits = ProductEdits(rng: SeededGenerator(seed: seed))
        let graph = ObjectGraph()
        for name in aisleNames.prefix(4) { graph.insert(UndoAisle()).name = name }
        for label in ["red", "blue"] { graph.insert(UndoBadge()).label = label }
        for label in ["crate 1", "crate 2"] { graph.insert(UndoCrate()).label = label }
        for _ in 0..<10 { edits.insertProduct(graph) }
        try graph.commit()
        let undo = GraphUndoManager()
        graph.undoManager = undo
        let request = FetchRequest(
            UndoProduct.self,
            predicate: FetchPredicate { $0.aisle?.name != "Closed" && ($0.price > 0 || !$0.badges.isEmpty) },
            sortedBy: [SortKey(\.name), SortKey(\.price)],
            sectionKey: SectionKey(\.aisle?.name))
        let text = ["a", "an", "e", "p"].randomElement(using: &edits.rng)!
        let base = ResultsController(graph: graph, request: request)
        base.performFetch()
        let search = SearchController(base: base, searching: \.name)
        search.searchText = text
        let (baseRecorder, searchRecorder) = (BatchRecorder(), BatchRecorder())
        base.delegate = baseRecorder
        search.delegate = searchRecorder
        let start = dumpProducts(graph)

        func step(_ context: String, _ body: () throws -> Void) rethrows {
            let before = (renderedProducts(base), renderedProducts(search))
            baseRecorder.batches = []
            searchRecorder.batches = []
            try body()
            let after = (renderedProducts(base), renderedProducts(search))
            let freshBase = ResultsController(graph: graph, request: request)
            freshBase.performFetch()
            let freshSearch = SearchController(base: freshBase, searching: \.name)
            freshSearch.searchText = text
            let comment = "seed \(seed), \(context)"
            #expect(after.0 == renderedProducts(freshBase), "\(comment): the controller")
            #expect(after.1 == renderedProducts(freshSearch), "\(comment): the search for \"\(text)\"")
            for (name, recorder, old, new) in [("controller", baseRecorder, before.0, after.0), ("search", searchRecorder, before.1, after.1)] {
                #expect(recorder.batches.count <= 1, "\(comment): one commit, one batch from the \(name)")
                if let batch = recorder.batches.first {
                    expectReproduces(batch, from: old, to: new, "\(comment), \(name): \(batch)")
                } else {
                    #expect(old == new, "\(comment): the \(name)'s results changed without a batch")
                }
            }
        }
        func commit(_ context: String) throws {
            try step(context) { try graph.commit() }
        }
        /// One group: products edited (and moved, and their aisle renamed), then deleted
        /// (a crate's cascade now and then), then new ones inserted; or one inserted and
        /// deleted again.
        func group(_ context: String) throws {
            undo.beginUndoGrouping()
            defer { undo.endUndoGrouping() }
            if Int.random(in: 0..<5, using: &edits.rng) == 0 {
                let product = edits.insertProduct(graph)
                try commit("\(context): insert")
                graph.delete(product)
                try commit("\(context): delete it again")
                return
            }
            let products = Array(edits.live(UndoProduct.self, in: graph).shuffled(using: &edits.rng).prefix(Int.random(in: 1...3, using: &edits.rng)))
            for product in products {
                product.price = Int.random(in: 0..<3, using: &edits.rng)
                if Bool.random(using: &edits.rng) { product.name = productNames.randomElement(using: &edits.rng)! }
                if Bool.random(using: &edits.rng) { product.aisle?.name = aisleNames.randomElement(using: &edits.rng)! }
                edits.moveProduct(product, graph)
                if let badge = edits.live(UndoBadge.self, in: graph).randomElement(using: &edits.rng) { badge.products.insert(product) }
            }
            try commit("\(context): edit")
            // Some of the edited products go, and now and then one that shares an aisle with
            // an edited product that stays: undoing brings it back while the other leaves.
            var doomed = products.filter { _ in Int.random(in: 0..<3, using: &edits.rng) > 0 }
            if let stays = products.first(where: { product in !doomed.contains { $0 === product } }), let aisle = stays.aisle,
               let neighbour = aisle.products.first(where: { $0 !== stays }) {
                doomed.append(neighbour)
            }
            let aisles = doomed.compactMap(\.aisle)
            for product in doomed where !product.isDeleted {
                if Int.random(in: 0..<3, using: &edits.rng) == 0, let crate = product.crate, !crate.isDeleted {
                    graph.delete(crate)
                } else {
                    graph.delete(product)
                }
            }
            try commit("\(context): delete")
            // New products where the deleted ones were.
            for aisle in aisles where !aisle.isDeleted && Bool.random(using: &edits.rng) { edits.insertProduct(graph).aisle = aisle }
            for _ in 0..<Int.random(in: 0...1, using: &edits.rng) { edits.insertProduct(graph) }
            if Bool.random(using: &edits.rng) { edits.edit(graph) }
            try commit("\(context): insert")
        }

        /// One commit of the issue's shape: a product leaves an aisle, a new one enters it and
        /// another moves in from elsewhere (or from no aisle).
        func swapIntoAisle(_ context: String) throws {
            let aisles = edits.live(UndoAisle.self, in: graph)
            guard let aisle = aisles.filter({ !$0.products.isEmpty }).randomElement(using: &edits.rng) else { return }
            graph.delete(aisle.products.randomElement(using: &edits.rng)!)
            edits.insertProduct(graph).aisle = aisle
            if let mover = edits.live(UndoProduct.self, in: graph).filter({ $0.aisle !== aisle }).randomElement(using: &edits.rng) {
                mover.aisle = aisle
            }
            try commit(context)
        }

        for index in 0..<40 {
            switch Int.random(in: 0..<10, using: &edits.rng) {
            case 0..<3 where undo.canUndo: try step("undo at \(index)") { try undo.undo() }
            case 3 where undo.canRedo: try step("redo at \(index)") { try undo.redo() }
            case 4..<7: try group("group \(index)")
            case 7: try swapIntoAisle("swap into an aisle at \(index)")
            default:
                for _ in 0..<Int.random(in: 1...4, using: &edits.rng) { edits.edit(graph) }
                try commit("commit \(index)")
            }
        }
        while undo.canRedo { try step("redo to the end") { try undo.redo() } }
        let end = dumpProducts(graph)
        var undone = 0
        while undo.canUndo {
            try step("undo \(undone) to the start") { try undo.undo() }
            undone += 1
        }
        #expect(dumpProducts(graph) == start, "seed \(seed): undoing everything gives back the start")
        while undo.canRedo { try step("redo to the end again") { try undo.redo() } }
        #expect(dumpProducts(graph) == end, "seed \(seed): redoing everything gives back the end")
    }
}
