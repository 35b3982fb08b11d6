@testable import FetchedResults
import Foundation
import Testing
import TestSupport

/// `MATCHES`: invalid patterns never trap, and runaway backtracking is cut off by a step
/// budget rather than a clock.
@Suite struct FormatPredicateRegexTests {
    static func item(_ name: String) -> TestItem {
        TestItem(name: name, note: nil, quantity: 1, price: 1, listed: true, added: TestData.epoch, location: nil, tags: [])
    }

    /// A constant pattern that does not compile is a binding error at the pattern's offset.
    @Test(arguments: [("name MATCHES '('", 13), ("name MATCHES[c] '[a-'", 16), ("ANY tags.label MATCHES '*'", 23)])
    func invalidConstantPatternThrowsWithOffset(format: String, offset: Int) throws {
        let schema = TestSchema()
        do {
            _ = try FormatPredicate.bind(format, to: schema.item)
            Issue.record("\(format) bound")
        } catch {
            #expect(error.kind == .invalidRegularExpression, "\(error)")
            #expect(error.offset == offset, "\(error)")
        }
    }

    /// A pattern that arrives through a variable (a search field's text) and does not compile
    /// binds and matches nothing, so typing `(` never traps.
    @Test(arguments: ["(", "[", "a{2,1}", "*", "\\", "(?<", ")"])
    func invalidVariablePatternMatchesNothing(pattern: String) throws {
        let schema = TestSchema()
        let predicate = try FormatPredicate("name MATCHES $text OR ANY tags.label MATCHES[c] $text")
        let bound = try predicate.bind(to: schema.item, variables: ["text": .string(pattern)])
        for name in ["", pattern, "a", "(("] {
            #expect(!bound.evaluate(Self.item(name)), "\(pattern.debugDescription) on \(name.debugDescription)")
        }
        let valid = try predicate.bind(to: schema.item, variables: ["text": "a+"])
        #expect(valid.evaluate(Self.item("aaa")))
    }

    /// A search controller whose format uses `MATCHES $text` shows no rows for an invalid
    /// pattern, and matches again once the pattern is valid.
    @Test func searchControllerWithInvalidPatternShowsNoRows() throws {
        let graph = ObjectGraph()
        for name in ["apple", "(paren", "banana"] {
            graph.insert(Item()).name = name
        }
        _ = try graph.commit()
        let base = ResultsController(graph: graph, request: FetchRequest(Item.self, sortedBy: [SortKey(\.name)]))
        base.performFetch()
        let search = try SearchController(
            base: base, format: "name MATCHES[c] $text", schema: GraphPredicateSchema(Item.self, Location.self), searchText: ".*")
        #expect(search.fetchedObjects.count == 3)
        search.searchText = "("
        #expect(search.fetchedObjects.isEmpty)
        search.searchText = "\\(.*"
        #expect(search.fetchedObjects.map(\.name) == ["(paren"])
    }

    /// Catastrophic backtracking gives up after the step budget and counts as no match; a
    /// match within the budget is found. (No clock: the budget counts engine steps.)
    @Test func catastrophicBacktrackingIsCutOffByTheStepBudget() throws {
        let regex = try PredicateRegex(pattern: "(a+)+b", caseInsensitive: false)
        let runaway = String(repeating: "a", count: 64)
        #expect(regex.wholeMatch(runaway) == nil, "the budget must stop the search")
        #expect(regex.wholeMatch("aaab") == true)
        #expect(regex.wholeMatch("aaac") == false)
        // Work proportional to the text stays well inside the budget.
        let long = String(repeating: "ab", count: 50_000)
        #expect(try PredicateRegex(pattern: "(ab)*", caseInsensitive: false).wholeMatch(long) == true)
        #expect(try PredicateRegex(pattern: "[ab]*c", caseInsensitive: false).wholeMatch(long) == false)

        let schema = TestSchema()
        let bound = try FormatPredicate.bind("name MATCHES '(a+)+b'", to: schema.item)
        #expect(!bound.evaluate(Self.item(runaway)))
        #expect(bound.evaluate(Self.item("aab")))
    }
}
