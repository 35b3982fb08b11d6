import FetchedResults
import Foundation
import ListUpdates
import Testing

/// Errors speak through `localizedDescription`, which UI code and loggers show, and say there
/// what their `description` says.
@Suite("FetchedResults errors: localizedDescription")
struct FetchedResultsLocalizedErrorTests {
    @Test func localizedDescriptionIsTheDescription() {
        let errors: [any Error & CustomStringConvertible] = [
            PredicateSyntaxError(.syntax, format: "name ==", offset: 7, token: "", expected: "a value"),
            FetchError.unsupportedSortDescriptor("price"),
            OrderedResultsError.sectionKeyNotWritable(sectionKey: "aisle"),
            OrderedResultsError.noRow(at: IndexPath(row: 4, section: 0), counts: [3]),
        ]
        for error in errors {
            #expect(error.localizedDescription == error.description)
        }
    }

    @Test func aMalformedFormatSaysWhereInLocalizedDescription() throws {
        let error = try #require(throws: PredicateSyntaxError.self) {
            try FormatPredicate("name == ")
        }
        let message = (error as any Error).localizedDescription
        #expect(message == error.description)
        #expect(!message.contains("could not be completed"))
    }
}
