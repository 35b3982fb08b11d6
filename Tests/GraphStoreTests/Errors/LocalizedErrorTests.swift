import Foundation
import GraphStore
import Testing

/// Errors speak through `localizedDescription`, which UI code and loggers show, and say there
/// what their `description` says.
@Suite("GraphStore errors: localizedDescription")
struct GraphStoreLocalizedErrorTests {
    @Test func localizedDescriptionIsTheDescription() {
        let fileError = StoreFileError(.sync, path: "/data/list/journal", code: 5)
        let errors: [any Error & CustomStringConvertible] = [
            GraphStoreError.locked(directory: "/data/list"),
            GraphStoreError.io(fileError),
            fileError,
            RecordFileError.badHeader(path: "/data/list/journal", reason: "too short"),
        ]
        for error in errors {
            #expect(error.localizedDescription == error.description)
        }
    }
}
