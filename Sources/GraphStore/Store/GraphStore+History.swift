import Foundation
import ObjectGraph

/// A point in a store's history: the transactions up to and including one. Save it (it is
/// `Codable`) and ask ``GraphStore/history(after:)`` for what came after it, across relaunches.
public struct HistoryToken: Codable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The store's graph (`ObjectGraph.identifier`): a token of another store is refused.
    public var storeIdentifier: UUID
    /// The sequence number of the last record the token includes.
    public var sequence: UInt64

    /// Makes a token.
    ///
    /// - Parameters:
    ///   - storeIdentifier: The store's graph identifier.
    ///   - sequence: The last record included.
    /// - Complexity: O(1).
    public init(storeIdentifier: UUID, sequence: UInt64) {
        self.storeIdentifier = storeIdentifier
        self.sequence = sequence
    }

    /// Orders tokens of one store by position.
    ///
    /// - Complexity: O(1).
    public static func < (lhs: HistoryToken, rhs: HistoryToken) -> Bool {
        lhs.sequence < rhs.sequence
    }

    /// The store and the record.
    public var description: String { "\(storeIdentifier)@\(sequence)" }
}

/// A deleted object in a transaction: its ID and the values of the attributes the schema keeps
/// of deleted objects (``StoreSchema`` `preservedOnDeletion`).
///
/// `@unchecked Sendable`, and what guards each field: `objectID` is a `Sendable` value;
/// `values` is a `let` dictionary, never mutated after `init`, whose values are fresh copies the
/// decoder made of attribute values (the value types a store writes), shared with no one.
public struct Tombstone: @unchecked Sendable, CustomStringConvertible {
    /// The deleted object.
    public var objectID: ObjectID
    /// The kept values, by attribute name: an attribute the schema does not keep is absent.
    public let values: [String: Any]

    /// A kept value, as the attribute's type.
    ///
    /// - Parameters:
    ///   - attribute: The attribute's name.
    ///   - type: Its type.
    /// - Returns: The value, or `nil` when it was not kept or is of another type.
    /// - Complexity: O(1).
    public func value<Value>(of attribute: String, as type: Value.Type = Value.self) -> Value? {
        values[attribute] as? Value
    }

    /// The ID and the kept attributes' names.
    public var description: String {
        values.isEmpty ? "\(objectID)" : "\(objectID) (\(values.keys.sorted().joined(separator: ", ")))"
    }
}

/// One committed transaction of a store, as its history keeps it.
public struct HistoryTransaction: Sendable, CustomStringConvertible {
    /// The point after this transaction: pass it to ``GraphStore/history(after:)`` to read on.
    public var token: HistoryToken
    /// The author given to `commit(author:)`, if any.
    public var author: String?
    /// The action name given to `commit(author:actionName:)`, if any.
    public var actionName: String?
    /// When the commit was written; `nil` for a record written before stores kept the time.
    public var timestamp: Date?
    /// The objects inserted, in this store's graph's IDs.
    public var inserted: [ObjectID]
    /// The objects updated, with the names of the properties that changed.
    public var updated: [ObjectID: Set<String>]
    /// The objects deleted, each with the values its schema keeps.
    public var deleted: [Tombstone]

    /// The token and the counts.
    public var description: String {
        "HistoryTransaction(\(token), inserted: \(inserted.count), updated: \(updated.count), deleted: \(deleted.count)\(author.map { ", author: \($0)" } ?? ""))"
    }
}

extension GraphStore {
    /// How long a store keeps its history: the journals its compactions replace are kept in
    /// `history/`, so ``GraphStore/history(after:)`` can read the transactions they hold (and
    /// a store shared by processes can follow compactions without reloading).
    public enum HistoryRetention: Sendable, Equatable {
        /// Keep nothing beyond the current journal: the history starts at the last compaction.
        case none
        /// Keep the journals of the last `n` compactions.
        case compactions(Int)
        /// Keep the journals replaced less than `age` ago.
        case age(Duration)
    }

    /// The point this store's graph has reached: every transaction it includes. A consumer
    /// that has just copied everything starts from here.
    ///
    /// - Complexity: O(1).
    public var historyToken: HistoryToken {
        HistoryToken(storeIdentifier: graph.identifier, sequence: (journal?.nextSequence ?? 1) - 1)
    }

    /// The transactions committed after `token`, oldest first, from every process: what a
    /// sync engine, an exporter or a replica reads to follow the store.
    ///
    /// The history covers the current journal and the journals kept by
    /// ``Options/historyRetention``. It names objects by this graph's IDs; an inserted or
    /// updated object may have been changed or deleted by a later transaction, so read its
    /// current values from the graph (after ``refresh()``, in a shared store).
    ///
    /// - Parameter token: Where the last read stopped (``HistoryTransaction/token``), or `nil`
    ///   for everything the store still keeps.
    /// - Returns: The transactions after `token`.
    /// - Throws: ``GraphStoreError/historyExpired(token:oldest:)`` when transactions after
    ///   `token` are no longer kept (never a silent gap), ``GraphStoreError/foreignFile(file:reason:)``
    ///   for a token of another store, or a failure to read the files.
    /// - Complexity: O(*b*) for the *b* bytes of the journals read.
    public func history(after token: HistoryToken?) throws(GraphStoreError) -> [HistoryTransaction] {
        if let token, token.storeIdentifier != graph.identifier {
            throw .foreignFile(file: directory, reason: "the history token belongs to the store \(token.storeIdentifier)")
        }
        var paths = keptJournals().map { historyPath + "/" + $0.name }
        paths.append(journalPath)
        var transactions: [HistoryTransaction] = []
        var oldest: UInt64?
        for path in paths {
            guard let bytes = try? fileSystem.readFile(path) else { continue }
            let scan: RecordScan
            do {
                scan = try RecordScan(bytes: bytes, path: path, kind: .journal, graphID: graph.identifier, mode: .stopAtDamage)
            } catch {
                throw Self.mapped(error)
            }
            guard let first = scan.records.first else { continue }
            // The first record of a journal (its schema) comes right after the snapshot's last.
            if oldest == nil { oldest = first.sequence - 1 }
            let file = try GraphRecordDecoder.schema(of: first.payload, current: schema, path: path, sequence: first.sequence)
            var decoder = GraphRecordDecoder(graph: graph, file: file, path: path)
            for record in scan.records.dropFirst() where record.sequence > (token?.sequence ?? 0)
                && record.payload.first == GraphRecordType.commit.rawValue {
                guard let recorded = decoder.transaction(of: record.payload, sequence: record.sequence) else {
                    throw .corruptRecord(file: path, sequence: record.sequence, reason: "a commit record of the history cannot be read")
                }
                transactions.append(transaction(recorded, file: file, sequence: record.sequence))
            }
        }
        if let token, let oldest, token.sequence < oldest {
            throw .historyExpired(token: token, oldest: HistoryToken(storeIdentifier: graph.identifier, sequence: oldest))
        }
        return transactions
    }

    /// A record's transaction in this graph's IDs and current names.
    private func transaction(_ recorded: RecordedTransaction, file: FileSchema, sequence: UInt64) -> HistoryTransaction {
        func id(_ code: Int, _ serial: Int) -> ObjectID? {
            file.entities[code].current.map { graph.objectID(of: $0.description, entitySerial: serial) }
        }
        var updated: [ObjectID: Set<String>] = [:]
        for (code, serial, positions) in recorded.updated {
            guard let id = id(code, serial), let entity = file.entities[code].current else { continue }
            let names = positions.compactMap { file.entities[code].properties[$0].current.map { entity.description[$0].name } }
            updated[id, default: []].formUnion(names)
        }
        var kept: [ObjectID: [String: Any]] = [:]
        for (code, serial, values) in recorded.tombstones {
            guard let id = id(code, serial) else { continue }
            kept[id] = Dictionary(values, uniquingKeysWith: { _, last in last })
        }
        return HistoryTransaction(
            token: HistoryToken(storeIdentifier: graph.identifier, sequence: sequence),
            author: recorded.author, actionName: recorded.actionName, timestamp: recorded.time,
            inserted: recorded.inserted.compactMap { id($0.code, $0.serial) },
            updated: updated,
            deleted: recorded.deleted.compactMap { key in id(key.code, key.serial).map { Tombstone(objectID: $0, values: kept[$0] ?? [:]) } })
    }

    // MARK: Kept journals

    /// Where a store keeps the journals its compactions replaced.
    var historyPath: String { directory + "/history" }

    /// The kept journals, oldest first: their generation, when they were replaced (seconds
    /// since 1970) and their file name in `history/`.
    func keptJournals() -> [(generation: UInt64, retired: Int, name: String)] {
        guard let names = try? fileSystem.listDirectory(historyPath) else { return [] }
        return names.compactMap { name -> (UInt64, Int, String)? in
            let parts = name.split(separator: "-")
            guard parts.count == 3, parts[0] == "journal", let generation = UInt64(parts[1]), let retired = Int(parts[2]) else { return nil }
            return (generation, retired, name)
        }.sorted { $0.0 < $1.0 }
    }

    /// The name a journal of `generation` is kept under, replaced now.
    func keptJournalPath(retiring generation: UInt64) -> String {
        historyPath + "/journal-\(generation)-\(Int(Date().timeIntervalSince1970))"
    }

    /// The kept journal of a generation, if any.
    func keptJournalPath(_ generation: UInt64) -> String? {
        keptJournals().first { $0.generation == generation }.map { historyPath + "/" + $0.name }
    }

    /// Removes the kept journals the retention no longer keeps, once generation `current`
    /// is in place.
    func pruneKeptJournals(current: UInt64) {
        let now = Int(Date().timeIntervalSince1970)
        for kept in keptJournals() {
            let expired: Bool
            switch options.historyRetention {
            case .none: expired = true
            case .compactions(let count): expired = kept.generation + UInt64(max(count, 0)) < current
            case .age(let age): expired = kept.retired + Int(age.components.seconds) < now
            }
            if expired { try? fileSystem.remove(historyPath + "/" + kept.name) }
        }
    }
}
