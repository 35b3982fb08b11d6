@testable import FetchedResults
import Testing
import TestSupport

/// The dependency index against a model: per evaluated serial, the set of (object, property)
/// pairs of other objects its last evaluation read.
private struct DependencyModel {
    var reads: [Int: Set<DependencyKey>] = [:]

    func dependents(of key: DependencyKey) -> Set<Int> {
        Set(reads.filter { $0.value.contains(key) }.keys)
    }
}

/// Serials of `Item` and keys of `Location`s in one graph, for driving a bare index.
private struct DependencyFixture {
    let graph = ObjectGraph()
    let keys: [DependencyKey]

    init(locations: Int) {
        let graph = graph
        keys = (0..<locations).flatMap { serial in
            (0..<2).map { property in
                DependencyKey(object: graph.objectID(of: Location.entity, entitySerial: serial), property: PropertyIndex(property))
            }
        }
    }

    func item(_ serial: Int) -> ObjectID {
        graph.objectID(of: Item.entity, entitySerial: serial)
    }

    /// The reads of an evaluation of `item` that reads `keys` of other objects, with a read of
    /// its own property and repeats, in a random order.
    func reads(of item: ObjectID, _ keys: [DependencyKey], using rng: inout SeededGenerator) -> [PropertyRead] {
        var reads = keys.map { PropertyRead(objectID: $0.object, property: $0.property) }
        reads.append(PropertyRead(objectID: item, property: PropertyIndex(1)))
        if let repeated = reads.randomElement(using: &rng) { reads.append(repeated) }
        reads.shuffle(using: &rng)
        return reads
    }
}

/// Expects the index to answer every question as the model does.
private func expectAgrees(
    _ index: DependencyIndex, _ model: DependencyModel, _ fixture: DependencyFixture, serials: Range<Int>, _ comment: Comment
) {
    index._checkInvariants()
    for key in fixture.keys {
        var listed: [Int] = []
        index.forEachDependent(of: key.object, key.property) { listed.append($0) }
        let expected = model.dependents(of: key)
        #expect(listed.count == Set(listed).count, "a dependent listed twice, \(comment)")
        #expect(Set(listed) == expected, "dependents of \(key), \(comment)")
        #expect(index.dependentCount(of: key.object, key.property) == expected.count, "count of \(key), \(comment)")
    }
    for serial in serials {
        #expect(Set(index.crossReads(ofSerial: serial)) == model.reads[serial] ?? [], "reads of serial \(serial), \(comment)")
    }
    #expect(index.hasCrossReads == model.reads.values.contains { !$0.isEmpty }, comment)
}

/// An index driven by serials and keys, with the model it must agree with.
private struct DependencyRun {
    let fixture: DependencyFixture
    var index = DependencyIndex(entity: Item.entity)
    var model = DependencyModel()
    var rng: SeededGenerator

    init(locations: Int, seed: UInt64) {
        fixture = DependencyFixture(locations: locations)
        rng = SeededGenerator(seed: seed)
    }

    /// Records an evaluation of `serial` that read `keys` of other objects, in both.
    mutating func record(_ serial: Int, reading keys: [DependencyKey]) {
        let id = fixture.item(serial)
        index.record(id, reads: fixture.reads(of: id, keys, using: &rng))
        model.reads[serial] = Set(keys)
    }

    /// Forgets `serial`, in both.
    mutating func remove(_ serial: Int) {
        index.remove(fixture.item(serial))
        model.reads[serial] = nil
    }

    /// Expects the index to answer every question about `serials` as the model does.
    func expectAgreement(serials: Range<Int>, _ comment: Comment) {
        expectAgrees(index, model, fixture, serials: serials, comment)
    }
}

@Suite("DependencyIndex")
struct DependencyIndexTests {
    /// Random evaluations, re-evaluations with other keys, removals, and evaluations of
    /// removed serials again (a member that leaves an ordered relationship and comes back),
    /// over few keys so removals leave many stale entries, compact lists and free handles.
    @Test(arguments: testSeeds(count: 12))
    func recordsAndRemovalsMatchAModel(seed: UInt64) {
        var run = DependencyRun(locations: 3, seed: seed)
        let serials = 0..<48
        for step in 0..<600 {
            let serial = Int.random(in: serials, using: &run.rng)
            switch Int.random(in: 0..<10, using: &run.rng) {
            case 0..<4:
                // Mostly one key, the common case; sometimes none or several.
                let count = [0, 1, 1, 1, 2, 3].randomElement(using: &run.rng)!
                run.record(serial, reading: Array(run.fixture.keys.shuffled(using: &run.rng).prefix(count)))
            case 4:
                // Evaluated again, reading what it read before.
                run.record(serial, reading: Array(run.model.reads[serial] ?? []))
            default:
                run.remove(serial)
            }
            run.expectAgreement(serials: serials, "step \(step)")
        }
        #expect(run.index.ownReads == [PropertyIndex(1)])
    }

    /// One key read by many objects that are removed one by one (each removal O(1), the
    /// list compacted whenever stale entries outnumber live ones), then evaluated again.
    @Test
    func removingMostDependentsOfOneKeyCompactsItsList() {
        var run = DependencyRun(locations: 2, seed: 7)
        let serials = 0..<200
        let (shared, other) = (run.fixture.keys[0], run.fixture.keys[2])
        for serial in serials { run.record(serial, reading: [serial % 10 == 0 ? other : shared]) }
        run.index.shrinkToFit()
        run.expectAgreement(serials: serials, "after the fetch")
        for serial in serials.shuffled(using: &run.rng) where serial % 10 != 0 && serial % 7 != 0 {
            run.remove(serial)
            run.index._checkInvariants()
        }
        run.expectAgreement(serials: serials, "after the removals")
        // Every remaining dependent of `shared` goes: its handle is freed with its stale entries.
        for serial in serials where serial % 7 == 0 && serial % 10 != 0 { run.remove(serial) }
        run.expectAgreement(serials: serials, "after emptying the key")
        #expect(run.index.dependentCount(of: shared.object, shared.property) == 0)
        // Removed serials evaluated again, half of them reading the key they read before.
        for serial in serials where serial % 10 != 0 && serial % 3 == 0 {
            run.record(serial, reading: [serial % 2 == 0 ? shared : other])
        }
        run.expectAgreement(serials: serials, "after evaluating removed serials again")
    }

    /// A commit reads every pending object's entry first, then records the evaluations one
    /// by one. An object brought back (an undone delete) still holds its stale entry when
    /// its entry is read; recording another object before it can free or compact the list
    /// that held the stale entry. Recording the returning object with the entry read before
    /// must neither trap nor list it twice. (Before the fix: "removed serial 1 missing from
    /// the dependents of …" or the assertion that the entry changed since it was read.)
    @Test(arguments: [false, true])
    func aRemovedEntryReadBeforeAnotherRecordDroppedItStillRecords(compacts: Bool) {
        var run = DependencyRun(locations: 1, seed: 3)
        let key = run.fixture.keys[0]
        // Freed: serials 0 and 1 read the key, 1 is removed, 0 stops reading it.
        // Compacted: serials 0 to 3 read it, 1 and 2 are removed, 3 stops reading it.
        let serials = compacts ? 0..<4 : 0..<2
        for serial in serials { run.record(serial, reading: [key]) }
        run.remove(1)
        if compacts { run.remove(2) }
        let leaving = compacts ? 3 : 0
        let entries = [leaving, 1].map { run.index.entry(of: run.fixture.item($0)) }
        run.index.record(run.fixture.item(leaving), reads: [PropertyRead](), entry: entries[0])
        run.model.reads[leaving] = nil
        run.index.record(run.fixture.item(1), reads: [PropertyRead(objectID: key.object, property: key.property)], entry: entries[1])
        run.model.reads[1] = [key]
        run.expectAgreement(serials: 0..<4, "compacts: \(compacts)")
    }

    /// A removed object evaluated again while its stale entry is still listed: reading the
    /// same key lists it once; reading another key drops the stale entry.
    @Test
    func aRemovedSerialEvaluatedAgainIsListedOnce() {
        var run = DependencyRun(locations: 2, seed: 11)
        let serials = 0..<6
        let (first, second) = (run.fixture.keys[0], run.fixture.keys[2])
        for serial in serials { run.record(serial, reading: [first]) }
        let cases: [(serial: Int, keys: [DependencyKey], comment: Comment)] = [
            (1, [first], "same key again"),
            (2, [second, first], "several keys after a removal"),
            (3, [second], "another key after a removal"),
            (4, [], "no key after a removal"),
        ]
        for (serial, keys, comment) in cases {
            run.remove(serial)
            run.record(serial, reading: keys)
            run.expectAgreement(serials: serials, comment)
        }
    }

    /// An object's column entry names its state: no key, the handle of its one key, several
    /// keys, or, once removed, the handle whose dependents still list it.
    @Test
    func entriesNameTheStateOfTheirObject() throws {
        var run = DependencyRun(locations: 2, seed: 13)
        let (first, second) = (run.fixture.keys[0], run.fixture.keys[2])
        let item = run.fixture.item(0)
        #expect(run.index.entry(of: item) == .noKey)
        #expect(run.index.key(ofEntry: .noKey) == nil && run.index.key(ofEntry: .severalKeys) == nil)
        run.record(0, reading: [first])
        let one = run.index.entry(of: item)
        let handle = try #require(one.handle)
        #expect(one.removedHandle == nil && one == .one(handle))
        #expect(run.index.key(ofEntry: one) == first && run.index.onlyKey(of: item) == first)
        // A second reader keeps the key's handle alive once the first is removed.
        run.record(1, reading: [first])
        run.remove(0)
        let removed = run.index.entry(of: item)
        #expect(removed == .removed(from: handle) && removed.removedHandle == handle && removed.handle == nil)
        #expect(run.index.key(ofEntry: removed) == nil && run.index.onlyKey(of: item) == nil)
        run.record(0, reading: [first, second])
        let several = run.index.entry(of: item)
        #expect(several == .severalKeys && several.handle == nil && several.removedHandle == nil)
        run.expectAgreement(serials: 0..<2, "after reading several keys")
        run.record(0, reading: [])
        #expect(run.index.entry(of: item) == .noKey)
        run.expectAgreement(serials: 0..<2, "after reading none")
    }
}
