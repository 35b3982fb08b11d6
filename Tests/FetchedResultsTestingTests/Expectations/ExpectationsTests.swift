import FetchedResultsTesting
import Foundation
import Testing

@Suite("Expectations")
struct ExpectationsTests {
    @Test func passingExpectationsRecordNothing() {
        let old = state(("A", [1, 2]))
        #expect(expectApplying(ListChanges(insertedRows: [ip(0, 2)]), from: old, yields: state(("A", [1, 2, 3]))))
        #expect(expectApplying(
            stages: [ListChanges(movedRows: [move(ip(0, 0), ip(0, 1))]), ListChanges(reconfiguredRows: [ip(0, 1)])],
            from: old, yields: state(("A", [2, 1]), changed: [1])
        ))
        #expect(expectApplying(ListUpdate.reload, from: old, yields: state(("B", [7]))))
        let rejection = expectRejecting(ListChanges(deletedRows: [ip(0, 2)]), from: old, to: state(("A", [1])), rule: 5)
        #expect(rejection == .rowOutOfBounds(.delete, indexPath: ip(0, 2), sectionCount: 1, rowCount: 2))
    }

    @Test func failingExpectationRecordsAReadableIssue() {
        withKnownIssue {
            expectApplying(
                ListChanges(deletedRows: [ip(0, 0)], insertedRows: [ip(0, 2)]),
                from: state(("A", [1, 2, 3])), yields: state(("A", [2, 4, 3])),
                "diff of the shopping list"
            )
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("diff of the shopping list")
                && text.contains("does not produce the new state")
                && text.contains("- row 0.1 is 3, expected 4")
                && text.contains("Operations applied:\nbatch 1/1:\n  delete row 0.0 (1)\n  insert row 0.2 (the batch inserts 4 here; the new state has 3 at 0.2)")
                && text.contains("Old state: A [1: r1, 2: r2, 3: r3]")
        }
        withKnownIssue {
            expectApplying(
                ListUpdate.animate([ListChanges(insertedRows: [ip(0, 5)])]),
                from: state(("A", [1])), yields: state(("A", [1, 2]))
            )
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("Invalid update (rule 5): attempt to insert row 5 into section 0")
        }
        withKnownIssue {
            expectRejecting(ListChanges(deletedRows: [ip(0, 0)]), from: state(("A", [1])), to: state(("A", [])), rule: 5)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("was accepted")
        }
    }

    @Test func reportIsAPureFunction() {
        let old = state(("A", [1, 2]))
        #expect(Table.failureReport(applying: [ListChanges(deletedRows: [ip(0, 1)])], from: old, to: state(("A", [1]))) == nil)
        let report = Table.failureReport(applying: [ListChanges(deletedRows: [ip(0, 1)])], from: old, to: state(("A", [2])))
        #expect(report?.contains("- row 0.0 is 1, expected 2") == true)
        let big = state(("A", Array(0..<50)))
        let quiet = Table.failureReport(applying: [ListChanges()], from: big, to: state(("A", Array(1..<51))))
        #expect(quiet?.contains("Old state") == false)
    }
}
