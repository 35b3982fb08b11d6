import Foundation
import FetchedResultsKit
import GroceryDudeCore
import Testing

@Suite("Grocery reload policy")
struct GroceryReloadPolicyTests {
    private func context(changes: Int, rows: Int, visible: Bool = true) -> ReloadContext {
        let inserted = (0..<changes).map { IndexPath(row: $0, section: 0) }
        let batch = ListChanges(insertedRows: inserted)
        return ReloadContext(
            isVisible: visible, changes: batch, stages: [batch], displayedRowCounts: [rows], ruleViolation: nil)
    }

    @Test func smallBatchesAnimateEvenInTinyLists() {
        #expect(DefaultReloadPolicy.grocery.decision(for: context(changes: 1, rows: 1)) == .animate)
        #expect(DefaultReloadPolicy.grocery.decision(for: context(changes: 7, rows: 2)) == .animate)
    }

    @Test func largeSharesAndLargeBatchesReload() {
        #expect(DefaultReloadPolicy.grocery.decision(for: context(changes: 8, rows: 10))
            == .reload(.tooLargeShare(count: 8, displayedRows: 10, limit: 0.5)))
        #expect(DefaultReloadPolicy.grocery.decision(for: context(changes: 501, rows: 5000))
            == .reload(.tooManyChanges(count: 501, limit: 500)))
        #expect(DefaultReloadPolicy.grocery.decision(for: context(changes: 30, rows: 100)) == .animate)
    }

    @Test func hiddenListsReload() {
        #expect(DefaultReloadPolicy.grocery.decision(for: context(changes: 1, rows: 40, visible: false)) == .reload(.notVisible))
    }
}
