import Foundation

extension RecordFileError: LocalizedError {
    /// The same text as ``description``, so that `localizedDescription` says what happened
    /// instead of Foundation's generic "The operation could not be completed".
    ///
    /// - Complexity: The cost of ``description``.
    public var errorDescription: String? { description }
}
