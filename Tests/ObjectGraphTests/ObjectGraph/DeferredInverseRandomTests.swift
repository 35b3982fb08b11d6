@testable import ObjectGraph
import Testing
import TestSupport

/// A home whose items relate to it in bulk (a to-many filled by to-one writes).
final class RandomHome: GraphObject {
    @Attribute var name = ""
    @Relationship var items: Set<RandomItem>
}

/// An item; a commit refuses a negative quantity.
final class RandomItem: GraphObject {
    @Attribute var quantity = 0
    @Relationship(inverse: \RandomHome.items) var home: RandomHome?

    override func validateForCommit() throws {
        if quantity < 0 { throw InvalidQuantity() }
    }
}

/// Random bulk inserts, relations, deletes, commits (some failing validation), rollbacks and
/// reads against a reference model, so deferred inverse lists live across commits, failed
/// commits and rollbacks in every order; every object must be freed with the graph.
@Suite("Deferred inverses, randomized")
struct DeferredInverseRandomTests {
    /// The reference model: live objects by key, each item's home key and quantity.
    private struct State: Equatable {
        var homes: Set<Int> = []
        var items: [Int: Int?] = [:]
        var quantities: [Int: Int] = [:]
        var names: [Int: String] = [:]
    }

    /// The graph, its objects by key, and the model (committed and current).
    private struct Harness {
        let graph = ObjectGraph()
        var homes: [Int: RandomHome] = [:]
        var items: [Int: RandomItem] = [:]
        var committed = State()
        var current = State()
        /// Keys inserted in the pending transaction, in insertion order.
        var inserted: [Int] = []
        var nextKey = 0
        var weak: [Weak] = []

        mutating func newHome() -> Int {
            let home = graph.insert(RandomHome())
            defer { nextKey += 1 }
            homes[nextKey] = home
            current.homes.insert(nextKey)
            current.names[nextKey] = ""
            inserted.append(nextKey)
            weak.append(Weak(home))
            return nextKey
        }

        mutating func newItem(home key: Int?) {
            let item = graph.insert(RandomItem())
            item.home = key.map { homes[$0]! }
            items[nextKey] = item
            current.items[nextKey] = .some(key)
            current.quantities[nextKey] = 0
            inserted.append(nextKey)
            weak.append(Weak(item))
            nextKey += 1
        }

        func objectID(_ key: Int) -> ObjectID {
            homes[key]?.objectID ?? items[key]!.objectID
        }

        /// The checks that do not flush: to-one reads, flags, counts.
        func checkCheaply() {
            graph.withoutObservation { checkCheaplyUnobserved() }
        }

        private func checkCheaplyUnobserved() {
            let pending = Set(inserted)
            for (key, home) in current.items {
                let item = items[key]!
                #expect(item.home.map(ObjectIdentifier.init) == home.map { ObjectIdentifier(homes[$0]!) })
                #expect(item.quantity == current.quantities[key] && item.isInserted == pending.contains(key))
                #expect(!item.isDeleted && item.graph === graph)
            }
            for key in current.homes {
                #expect(homes[key]!.isInserted == pending.contains(key) && !homes[key]!.isDeleted)
                #expect(homes[key]!.name == current.names[key])
            }
            #expect(graph.count(of: RandomItem.self) == current.items.count)
            #expect(graph.count(of: RandomHome.self) == current.homes.count)
        }

        /// Reads one home's items (flushing every list) and compares them with the model.
        func checkHome(_ key: Int) {
            let expected = Set(current.items.filter { $0.value == key }.map { ObjectIdentifier(items[$0.key]!) })
            let actual = graph.withoutObservation { Set(homes[key]!.items.map(ObjectIdentifier.init)) }
            #expect(actual == expected)
        }
    }

    @Test(arguments: testSeeds(count: 24))
    func randomBulkWorkMatchesTheModel(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        var h = Harness()
        for _ in 0..<70 {
            switch Int.random(in: 0..<20, using: &rng) {
            case 0..<6:
                // A bulk insert: new items related to a new home, one inserted in this
                // transaction, a committed one, or none.
                let pendingHomes = h.inserted.filter { h.current.homes.contains($0) }
                let target: Int?
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: target = h.newHome()
                case 1: target = pendingHomes.randomElement(using: &rng) ?? h.newHome()
                case 2: target = h.current.homes.randomElement(using: &rng)
                default: target = nil
                }
                for _ in 0..<Int.random(in: 1...6, using: &rng) { h.newItem(home: target) }
            case 6:
                _ = h.newHome()
            case 7..<9:
                guard let key = h.current.items.keys.randomElement(using: &rng) else { continue }
                let home = Bool.random(using: &rng) ? h.current.homes.randomElement(using: &rng) : nil
                h.graph.withoutObservation { h.items[key]!.home = home.map { h.homes[$0]! } }
                h.current.items[key] = .some(home)
            case 9:
                guard let key = h.current.items.keys.randomElement(using: &rng) else { continue }
                h.graph.delete(h.items[key]!)
                h.current.items[key] = nil
                h.current.quantities[key] = nil
            case 10:
                guard let key = h.current.homes.randomElement(using: &rng) else { continue }
                h.graph.delete(h.homes[key]!)
                h.current.homes.remove(key)
                h.current.names[key] = nil
                for (item, home) in h.current.items where home == key { h.current.items[item] = .some(nil) }
            case 11..<13:
                guard let key = h.current.items.keys.randomElement(using: &rng) else { continue }
                let quantity = Int.random(in: 0..<5, using: &rng)
                h.items[key]!.quantity = quantity
                h.current.quantities[key] = quantity
            case 13:
                // Prefer a home with deferred members (possibly committed since).
                let stale = h.current.homes.filter { h.homes[$0]!._flags & GraphObject._staleInverseFlag != 0 }
                guard let key = stale.randomElement(using: &rng) ?? h.current.homes.randomElement(using: &rng) else { continue }
                if Bool.random(using: &rng) {
                    h.checkHome(key)
                } else {
                    // A committed stale target gains a pending entry without a flush.
                    let name = "\(Int.random(in: 0..<3, using: &rng))"
                    h.homes[key]!.name = name
                    h.current.names[key] = name
                }
            case 14..<18:
                try commit(&h, failingFirst: Int.random(in: 0..<3, using: &rng) == 0, using: &rng)
            default:
                rollback(&h)
            }
            h.checkCheaply()
            h.graph._checkInvariants()
            if Int.random(in: 0..<8, using: &rng) == 0 { h.graph._checkAllInvariants() }
        }
        try commit(&h, failingFirst: false, using: &rng)
        for key in h.current.homes { h.checkHome(key) }
        h.graph._checkAllInvariants()
        let weak = h.weak
        h = Harness()
        #expect(weak.allSatisfy { $0.object == nil })
    }

    /// Commits, first failing once on a negative quantity when asked (the pending changes must
    /// survive that exactly), and compares the published changes with the model.
    private func commit(_ h: inout Harness, failingFirst: Bool, using rng: inout SeededGenerator) throws {
        if failingFirst, let key = h.current.items.keys.randomElement(using: &rng) {
            let item = h.items[key]!
            let quantity = item.quantity
            item.quantity = -1
            #expect(throws: CommitError.self) { try h.graph.commit() }
            #expect(h.graph.hasChanges)
            item.quantity = quantity
            h.checkCheaply()
        }
        let live = h.inserted.filter { h.current.homes.contains($0) || h.current.items[$0] != nil }
        let deleted = Set(h.committed.homes.subtracting(h.current.homes)).union(
            h.committed.items.keys.filter { h.current.items[$0] == nil })
        let expectedDeleted = Set(deleted.map(h.objectID))
        let changes = try h.graph.commit()
        #expect((changes?.insertedIDs ?? []) == live.map(h.objectID))
        #expect((changes?.deleted ?? []) == expectedDeleted)
        #expect(!h.graph.hasChanges)
        for key in h.inserted where !live.contains(key) {
            #expect((h.homes[key] ?? h.items[key]!).isDeleted)
        }
        for key in h.inserted + deleted where !live.contains(key) {
            h.homes[key] = nil
            h.items[key] = nil
        }
        h.inserted = []
        h.committed = h.current
    }

    private func rollback(_ h: inout Harness) {
        h.graph.rollback()
        #expect(!h.graph.hasChanges)
        for key in h.inserted {
            let object = h.homes[key] ?? h.items[key]!
            #expect(object.graph == nil && !object.isInserted && !object.isDeleted)
            h.homes[key] = nil
            h.items[key] = nil
        }
        h.inserted = []
        h.current = h.committed
    }
}
