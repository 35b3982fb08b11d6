import Foundation

/// Why a ``GraphStore`` could not open, write or check a store.
public enum GraphStoreError: Error, CustomStringConvertible, Sendable {
    /// An attribute's type is not one the store can write; `type` names it.
    case unsupportedAttribute(entity: String, property: String, type: String)
    /// A relationship reaches a class that is not in the schema.
    case missingEntity(String, referencedBy: String)
    /// The files were written with a schema that cannot be mapped onto the current one; the
    /// store was left untouched.
    case incompatibleSchema(String)
    /// Another process (or another store in this one) has the directory open.
    case locked(directory: String)
    /// A file is damaged and the recovery mode is ``GraphStore/Recovery/refuse``: `file`,
    /// the byte `offset` and the sequence numbers around the damage say where.
    case damaged(file: String, offset: UInt64, afterSequence: UInt64?, reason: String)
    /// The store holds an entity (`property` `nil`) or a property that the schema opening it
    /// lacks, and the schema does not say to drop it: opening would erase saved data. Add
    /// the class or property back, map a rename (`renamedEntities`, `renamedProperties`), or
    /// name what to drop (`droppedEntities`, `droppedProperties` of
    /// ``StoreSchema/init(_:renamedEntities:renamedProperties:droppedEntities:droppedProperties:preservedOnDeletion:)``).
    /// Names are those saved in the store. Nothing was changed.
    case omittedFromSchema(entity: String, property: String?)
    /// A file is not part of this store (another graph, or an unknown format).
    case foreignFile(file: String, reason: String)
    /// A record could not be understood although its checksum was right.
    case corruptRecord(file: String, sequence: UInt64, reason: String)
    /// The store stopped writing after a failed write or sync; reopen it. Commits made
    /// since the failure were refused.
    case poisoned(cause: String)
    /// A file-system call failed.
    case io(StoreFileError)
    /// ``GraphStore/compact()`` or ``GraphStore/refresh()`` was called while the graph had
    /// uncommitted changes. A snapshot holds committed state only, and another process's
    /// commits are applied beside pending changes only by the next commit (which checks
    /// them for conflicts): commit or roll back first. Nothing was written or applied.
    case pendingChanges
    /// A commit would leave more than 268,435,456 (2^28) serials of `entity` unused by live
    /// objects: objects inserted and deleted (or rolled back) since the store was made. A
    /// store keeps a slot for each serial ever issued, and refuses, as damage, a file that
    /// claims more, so that a damaged file can never make it allocate gigabytes. The commit
    /// changed nothing and its changes are still pending.
    case tooManyUnusedSerials(entity: String, unused: Int)
    /// Another process committed a change to what this graph's pending changes also change
    /// (see ``StoreConflict``), in a store opened with ``GraphStore/Sharing/shared``. The
    /// commit was refused: its changes are still pending, and the other commits before the
    /// conflicting one were applied and published. Roll back (or undo the conflicting writes)
    /// and make the change again on the newest state.
    case conflict([StoreConflict])
    /// The graph can no longer follow the store's files: another process compacted the store
    /// twice since this store last read them, or rewrote it with another schema. Nothing
    /// committed is lost; close the store and open it again.
    case mustReopen(reason: String)
    /// ``GraphStore/history(after:)`` was asked for transactions after `token`, and some of
    /// them are no longer kept (``GraphStore/HistoryRetention``): the history now starts after
    /// `oldest`. Copy the store's current state again, then read on from
    /// ``GraphStore/historyToken``.
    case historyExpired(token: HistoryToken, oldest: HistoryToken)

    public var description: String {
        switch self {
        case .unsupportedAttribute(let entity, let property, let type):
            "\(entity).\(property) is a \(type), which a GraphStore cannot save; use a type the store knows (integers, floating point, Bool, String, Date, UUID, Data, URL, Decimal, optionals of these, RawRepresentable enums) or make it Codable"
        case .missingEntity(let name, let property):
            "\(property) relates to \(name), which is not in the store's schema"
        case .incompatibleSchema(let reason):
            "the store's files cannot be read with the current schema: \(reason); nothing was changed"
        case .omittedFromSchema(let entity, let property?):
            "the store holds values of \(entity).\(property), which the schema lacks; add it back, map its rename, or list it in droppedProperties to erase them; nothing was changed"
        case .omittedFromSchema(let entity, nil):
            "the store holds objects of \(entity), which the schema lacks; add the class back, map its rename, or list it in droppedEntities to erase them; nothing was changed"
        case .locked(let directory):
            "the store at \(directory) is already open (its lock file is held by this or another process)"
        case .damaged(let file, let offset, let sequence, let reason):
            "\(file) is damaged at byte \(offset)\(sequence.map { " (after record \($0))" } ?? ""): \(reason)"
        case .foreignFile(let file, let reason):
            "\(file) does not belong to this store: \(reason)"
        case .corruptRecord(let file, let sequence, let reason):
            "record \(sequence) of \(file) cannot be read: \(reason)"
        case .poisoned(let cause):
            "the store stopped writing after a failure and must be reopened: \(cause)"
        case .io(let error):
            "\(error)"
        case .pendingChanges:
            "the graph has uncommitted changes; commit or roll back before compacting or refreshing the store"
        case .tooManyUnusedSerials(let entity, let unused):
            "the commit would leave \(unused) serials of \(entity) unused by live objects; a store keeps at most \(StoreLimits.unusedSerials)"
        case .conflict(let conflicts):
            "another process committed changes that conflict with this graph's pending changes (\(conflicts.map(\.description).joined(separator: "; "))); the commit was refused and its changes are still pending"
        case .mustReopen(let reason):
            "the store must be closed and opened again: \(reason)"
        case .historyExpired(let token, let oldest):
            "the history after \(token) is no longer kept: it starts after record \(oldest.sequence); copy the store's state again and read on from its current token"
        }
    }
}
