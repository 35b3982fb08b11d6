import Foundation
@testable import GraphStore
import ObjectGraph
import Testing
import TestSupport

/// A replica of a source store, kept by reading the source's history: the intended use of
/// ``GraphStore/history(after:)`` by a sync engine or an exporter.
private final class Replica {
    let store: GraphStore
    var token: HistoryToken?
    /// Replica object by the source object's URI, and back.
    var bySource: [String: GraphObject] = [:]
    var source: [ObjectIdentifier: String] = [:]

    init(_ store: GraphStore) {
        self.store = store
    }

    /// Reads the source's history after the last token and applies it: deletions, then the
    /// current values of every inserted or updated object that still exists.
    func sync(from origin: GraphStore) throws {
        let transactions = try origin.history(after: token)
        let graph = store.graph
        var touched: [String] = []
        for transaction in transactions {
            for tombstone in transaction.deleted {
                let key = tombstone.objectID.uriRepresentation
                if let object = bySource.removeValue(forKey: key) {
                    source[ObjectIdentifier(object)] = nil
                    graph.delete(object)
                }
            }
            touched += transaction.inserted.map(\.uriRepresentation)
            touched += transaction.updated.keys.map(\.uriRepresentation)
            token = transaction.token
        }
        // Objects first, then values (a relationship may reach an object inserted later).
        var live: [(GraphObject, GraphObject)] = []
        for key in touched {
            guard let id = origin.graph.objectID(forURIRepresentation: key), let original = origin.graph.object(with: id) else { continue }
            let copy = bySource[key] ?? {
                let made: GraphObject = type(of: original).init()
                graph.insert(made)
                bySource[key] = made
                source[ObjectIdentifier(made)] = key
                return made
            }()
            live.append((original, copy))
        }
        for (original, copy) in live { try copyValues(from: original, to: copy) }
        try graph.commit()
    }

    private func mapped(_ object: GraphObject?) -> GraphObject? {
        object.flatMap { bySource[$0.objectID.uriRepresentation] }
    }

    private func copyValues(from original: GraphObject, to copy: GraphObject) throws {
        switch (original, copy) {
        case let (original as Shelf, copy as Shelf):
            copy.name = original.name
        case let (original as Product, copy as Product):
            copy.name = original.name
            copy.count = original.count
            copy.shelf = mapped(original.shelf) as? Shelf
            copy.tags = Set(original.tags.compactMap { mapped($0) as? Tag })
        case let (original as Tag, copy as Tag):
            copy.label = original.label
        case let (original as Playlist, copy as Playlist):
            copy.title = original.title
            copy.songs = original.songs.compactMap { mapped($0) as? Song }
        case let (original as Song, copy as Song):
            copy.title = original.title
        default:
            Issue.record("no copy for \(original.objectID)")
        }
    }

    /// The replicated fields of a graph, each object named by `key`.
    static func canonical(_ graph: ObjectGraph, key: (GraphObject) -> String?) -> [String] {
        func name(_ object: GraphObject?) -> String { object.flatMap(key) ?? "-" }
        var lines: [String] = []
        for shelf in graph.objects(of: Shelf.self) { lines.append("\(name(shelf)) shelf \(shelf.name)") }
        for p in graph.objects(of: Product.self) {
            lines.append("\(name(p)) product \(p.name) \(p.count) \(name(p.shelf)) \(p.tags.map(name).sorted())")
        }
        for tag in graph.objects(of: Tag.self) { lines.append("\(name(tag)) tag \(tag.label)") }
        for list in graph.objects(of: Playlist.self) { lines.append("\(name(list)) list \(list.title) \(list.songs.map(name))") }
        for song in graph.objects(of: Song.self) { lines.append("\(name(song)) song \(song.title)") }
        return lines.sorted()
    }

    func matches(_ origin: GraphStore) -> Bool {
        Self.canonical(origin.graph) { $0.objectID.uriRepresentation } == Self.canonical(store.graph) { self.source[ObjectIdentifier($0)] }
    }
}

@Suite("GraphStore: the history of commits")
struct GraphStoreHistoryTests {
    @Test func transactionsNameAuthorActionTimeAndChanges() throws {
        let directory = TemporaryDirectory()
        let store = try GraphStore.open(at: directory.url, schema: storeSchema)
        let start = store.historyToken
        let before = Date()
        let shelf = store.graph.insert(Shelf())
        let milk = store.graph.insert(Product())
        milk.shelf = shelf
        try store.graph.commit(author: "importer", actionName: "Add Milk")
        milk.name = "Milk"
        milk.count = 2
        try store.graph.commit()
        store.graph.delete(milk)
        try store.graph.commit(author: "cleaner")
        let history = try store.history(after: start)
        #expect(history.count == 3)
        #expect(history.map(\.author) == ["importer", nil, "cleaner"])
        #expect(history[0].actionName == "Add Milk")
        #expect(Set(history[0].inserted) == [shelf.objectID, milk.objectID])
        #expect(history[1].updated[milk.objectID] == ["name", "count"])
        #expect(history[2].deleted.map(\.objectID) == [milk.objectID])
        #expect(history[2].updated[shelf.objectID] == ["products"])
        for transaction in history {
            let time = try #require(transaction.timestamp)
            #expect(time >= before.addingTimeInterval(-1) && time <= Date().addingTimeInterval(1))
        }
        #expect(history.map(\.token) == history.map(\.token).sorted())
        #expect(history.last?.token == store.historyToken)
        #expect(try store.history(after: store.historyToken).isEmpty)
        store.close()
    }

    @Test func aTokenSurvivesEncodingAndARelaunch() throws {
        let directory = TemporaryDirectory()
        var saved = Data()
        do {
            let store = try GraphStore.open(at: directory.url, schema: storeSchema)
            store.graph.insert(Shelf()).name = "A"
            try store.graph.commit()
            saved = try JSONEncoder().encode(store.historyToken)
            store.graph.insert(Shelf()).name = "B"
            try store.graph.commit(author: "later")
            store.close()
        }
        let store = try GraphStore.open(at: directory.url, schema: storeSchema)
        let token = try JSONDecoder().decode(HistoryToken.self, from: saved)
        let history = try store.history(after: token)
        #expect(history.map(\.author) == ["later"])
        store.close()
    }

    @Test func aTombstoneKeepsWhatTheSchemaPreserves() throws {
        let schema = try StoreSchema(
            [Shelf.self, Product.self, Tag.self, Playlist.self, Song.self], preservedOnDeletion: ["Product": ["name", "count"]])
        let directory = TemporaryDirectory()
        let store = try GraphStore.open(at: directory.url, schema: schema)
        let milk = store.graph.insert(Product())
        milk.name = "Milk"
        milk.count = 3
        let shelf = store.graph.insert(Shelf())
        try store.graph.commit()
        let token = store.historyToken
        store.graph.delete(milk)
        store.graph.delete(shelf)
        try store.graph.commit()
        let deleted = try #require(try store.history(after: token).first?.deleted)
        let tombstone = try #require(deleted.first { $0.objectID == milk.objectID })
        #expect(tombstone.value(of: "name", as: String.self) == "Milk")
        #expect(tombstone.value(of: "count", as: Int.self) == 3)
        #expect(tombstone.value(of: "price", as: Double.self) == nil)
        #expect(deleted.first { $0.objectID == shelf.objectID }?.values.isEmpty == true)
        store.close()
        #expect(throws: GraphStoreError.self) {
            try StoreSchema([Shelf.self, Product.self, Tag.self, Playlist.self, Song.self], preservedOnDeletion: ["Product": ["shelf"]])
        }
    }

    @Test func historyOlderThanTheRetentionIsAnErrorNotAGap() throws {
        let directory = TemporaryDirectory()
        let options = GraphStore.Options(compactionFactor: nil, historyRetention: .compactions(1))
        let store = try GraphStore.open(at: directory.url, schema: storeSchema, options: options)
        let start = store.historyToken
        store.graph.insert(Shelf()).name = "1"
        try store.graph.commit()
        try store.compact()
        store.graph.insert(Shelf()).name = "2"
        try store.graph.commit()
        // One compaction back: still kept.
        #expect(try store.history(after: start).count == 2)
        try store.compact()
        let error = #expect(throws: GraphStoreError.self) { try store.history(after: start) }
        guard case .historyExpired(let token, let oldest)? = error else {
            Issue.record("expected historyExpired, got \(String(describing: error))")
            return
        }
        #expect(token == start && oldest > start)
        #expect(try store.history(after: oldest).count == 1)
        store.close()
    }

    @Test func theHistoryOfASharedStoreHoldsEveryProcessesCommits() throws {
        let directory = TemporaryDirectory()
        let options = GraphStore.Options(sharing: .shared)
        let a = try GraphStore.open(at: directory.url, schema: storeSchema, options: options)
        let b = try GraphStore.open(at: directory.url, schema: storeSchema, options: options)
        let start = a.historyToken
        a.graph.insert(Shelf()).name = "from a"
        try a.graph.commit(author: "a")
        b.graph.insert(Shelf()).name = "from b"
        try b.graph.commit(author: "b")
        // a has not refreshed: its history still reads b's commit from the journal.
        #expect(try a.history(after: start).map(\.author) == ["a", "b"])
        a.close()
        b.close()
    }

    /// A replica follows a source only through its history, across random commits, deletes,
    /// compactions and relaunches of the source, and equals it after every sync.
    @Test(arguments: testSeeds(count: 4))
    func aReplicaKeptFromTheHistoryEqualsItsSource(seed: UInt64) throws {
        let sourceDirectory = TemporaryDirectory()
        let replicaDirectory = TemporaryDirectory()
        let options = GraphStore.Options(compactionFactor: 2, minimumCompactionBytes: 8 << 10, historyRetention: .compactions(16))
        var origin = try GraphStore.open(at: sourceDirectory.url, schema: storeSchema, options: options)
        let replica = Replica(try GraphStore.open(at: replicaDirectory.url, schema: storeSchema))
        var workload = StoreWorkload(seed: seed)
        var rng = SeededGenerator(seed: seed)
        for step in 0..<150 {
            for _ in 0..<Int.random(in: 1...4, using: &rng) { workload.edit(origin.graph) }
            do {
                try origin.graph.commit()
            } catch {
                origin.graph.rollback()
            }
            switch Int.random(in: 0..<10, using: &rng) {
            case 0: try origin.compact()
            case 1:
                origin.close()
                origin = try GraphStore.open(at: sourceDirectory.url, schema: storeSchema, options: options)
            default: break
            }
            if Int.random(in: 0..<3, using: &rng) == 0 || step == 149 {
                try replica.sync(from: origin)
                #expect(replica.matches(origin), "seed \(seed), step \(step): the replica differs from its source")
            }
        }
        origin.close()
        replica.store.close()
    }
}
