/// Why a journal or snapshot file cannot be written or read.
public enum RecordFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A write or sync of the file failed earlier, so nothing more is written to it: data
    /// the system acknowledged may be lost, and a retried sync could report success for it.
    /// Close the store and open it again, which recovers from what is on disk.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - cause: The failure that stopped the writer.
    case poisoned(path: String, cause: StoreFileError)

    /// The file does not start with a valid header: too short, wrong magic number, an
    /// unsupported version, or a header checksum mismatch.
    case badHeader(path: String, reason: String)

    /// The file's header is valid but belongs to another store: another graph, another
    /// generation, or another kind of file.
    case foreignHeader(path: String, field: String, expected: String, found: String)

    /// The file is damaged before its end (not a torn tail).
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - offset: Where the damage starts.
    ///   - length: How many bytes were skipped.
    ///   - afterSequence: The sequence number of the last intact record before the damage.
    ///   - beforeSequence: The sequence number of the first intact record after it.
    ///   - reason: What was wrong.
    case damaged(path: String, offset: UInt64, length: UInt64, afterSequence: UInt64?, beforeSequence: UInt64?, reason: String)

    /// A one-sentence description naming the file and, for damage, the offset and the
    /// sequence numbers around it.
    public var description: String {
        switch self {
        case .poisoned(let path, let cause):
            return "the store stopped writing \(path) after a failure (\(cause)); reopen it"
        case .badHeader(let path, let reason):
            return "\(path) has a bad header: \(reason)"
        case .foreignHeader(let path, let field, let expected, let found):
            return "\(path) belongs to another store: its \(field) is \(found), expected \(expected)"
        case .damaged(let path, let offset, let length, let after, let before, let reason):
            let around = [after.map { "after record \($0)" }, before.map { "before record \($0)" }]
                .compactMap { $0 }.joined(separator: ", ")
            return "\(path) is damaged at offset \(offset) (\(length) bytes, \(reason))"
                + (around.isEmpty ? "" : ", \(around)")
        }
    }
}
