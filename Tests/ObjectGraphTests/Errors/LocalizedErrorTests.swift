import Foundation
import ObjectGraph
import Testing

/// Errors speak through `localizedDescription`, which UI code and loggers show, and say there
/// what their `description` says.
@Suite("ObjectGraph errors: localizedDescription")
struct ObjectGraphLocalizedErrorTests {
    @Test func localizedDescriptionIsTheDescription() {
        let errors: [any Error & CustomStringConvertible] = [
            CommitError.commitInProgress,
            CommitError.cancelled(CancellationError()),
            CommitError.unknownProperty(entity: "Item", name: "colour"),
            ObjectGraphError.unknownKey(entity: "Item", key: "colour"),
            UndoError.nothingToUndo,
            UndoError.commitFailed(.missingUniqueValue(entity: "Item")),
        ]
        for error in errors {
            #expect(error.localizedDescription == error.description)
        }
    }
}
