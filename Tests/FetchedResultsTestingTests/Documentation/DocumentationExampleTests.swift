import FetchedResultsTesting
import Foundation
import Testing

// The example of the article "Testing view models with ListSimulator", kept here so that it
// compiles and passes. Keep the two in step.

/// A shopping list in two sections; an item put in the basket moves there and shows a tick.
final class ShoppingListModel {
    typealias Table = ListSimulator<String, String, String>

    private(set) var toBuy: [String]
    private(set) var inBasket: [String] = []

    init(items: [String]) {
        toBuy = items
    }

    /// What the table shows: each row's content is its label.
    var sections: [Table.Section] {
        [
            .init(id: "To buy", rows: toBuy.map { .init(id: $0, content: $0) }),
            .init(id: "In basket", rows: inBasket.map { .init(id: $0, content: "\($0) ✓") }),
        ]
    }

    /// Puts an item in the basket and returns the batches that update the table.
    func putInBasket(_ item: String) -> [ListChanges] {
        guard let row = toBuy.firstIndex(of: item) else { return [] }
        toBuy.remove(at: row)
        inBasket.append(item)
        let destination = IndexPath(row: inBasket.count - 1, section: 1)
        return [
            ListChanges(movedRows: [.init(from: IndexPath(row: row, section: 0), to: destination)]),
            // The moved cell keeps its old label: refresh it at its new position.
            ListChanges(reconfiguredRows: [destination]),
        ]
    }
}

@Suite("Documentation example")
struct DocumentationExampleTests {
    @Test func puttingAnItemInTheBasketMovesAndRelabelsItsRow() throws {
        let model = ShoppingListModel(items: ["Apples", "Bread", "Milk"])
        let table = ListSimulator { model.sections }

        try table.apply(stages: model.putInBasket("Bread"), newState: model.sections)

        #expect(table.rowIDs == [["Apples", "Milk"], ["Bread"]])
        #expect(table[IndexPath(row: 0, section: 1)].content == "Bread ✓")
    }

    @Test func theMoveAloneLeavesAStaleCell() {
        let model = ShoppingListModel(items: ["Apples", "Bread"])
        let old = model.sections
        let stages = model.putInBasket("Apples")
        let error = ListSimulator.check(applying: [stages[0]], from: old, to: model.sections)
        #expect(error?.rule == 16)
    }

    @Test func expectationHelper() {
        let model = ShoppingListModel(items: ["Apples", "Bread"])
        let old = model.sections
        expectApplying(stages: model.putInBasket("Apples"), from: old, yields: model.sections)
    }
}

@Suite("Documentation example: error messages")
struct DocumentationErrorMessageTests {
    // The article's "Catch stale cells" block, unwrapped: the broken rule's message (the
    // simulator's error adds the batch after it).
    @Test func staleCellMessageIsTheArticles() throws {
        let model = ShoppingListModel(items: ["Apples", "Bread"])
        let old = model.sections
        let stages = model.putInBasket("Bread")
        let error = try #require(ListSimulator.check(applying: [stages[0]], from: old, to: model.sections))
        let batchError = try #require(error.batchError)
        #expect(
            "\(batchError)"
                == "Unsafe update (strict rule 16): row moved 0.1→1.0 changed content but is never refreshed: "
                + "the moved cell still shows Bread, the data source has Bread ✓. Delete and insert it, or "
                + "reconfigure it at 1.0 in a later stage")
    }
}
