@testable import ObjectGraph
import Testing
import TestSupport

/// The plain reference model: what the graph must hold, kept with dictionaries only.
private struct Reference: Equatable {
    var locations: [ObjectID: String] = [:]
    var items: [ObjectID: ItemState] = [:]
    var tags: [ObjectID: String] = [:]
    var playlists: [ObjectID: [ObjectID]] = [:]  // ordered songs
    var songs: [ObjectID: String] = [:]
    var people: [ObjectID: ObjectID?] = [:]  // person → passport (one-to-one)
    var passports: Set<ObjectID> = []

    struct ItemState: Equatable {
        var name: String
        var quantity: Int
        var location: ObjectID?
        var tags: Set<ObjectID>
    }

    var allIDs: Set<ObjectID> {
        Set(locations.keys).union(items.keys).union(tags.keys).union(playlists.keys).union(songs.keys)
            .union(people.keys).union(passports)
    }

    func items(at location: ObjectID) -> Set<ObjectID> { Set(items.filter { $0.value.location == location }.keys) }
    func items(tagged tag: ObjectID) -> Set<ObjectID> { Set(items.filter { $0.value.tags.contains(tag) }.keys) }
    func holder(of passport: ObjectID) -> ObjectID? { people.first { $0.value == passport }?.key }
    func playlist(of song: ObjectID) -> ObjectID? { playlists.first { $0.value.contains(song) }?.key }

    /// The names of the properties of `id` that differ between two states (both hold `id`).
    func changedProperties(of id: ObjectID, since old: Reference) -> Set<String> {
        var names: Set<String> = []
        if let now = locations[id], let before = old.locations[id] {
            if now != before { names.insert("name") }
            if items(at: id) != old.items(at: id) { names.insert("items") }
        } else if let now = items[id], let before = old.items[id] {
            if now.name != before.name { names.insert("name") }
            if now.quantity != before.quantity { names.insert("quantity") }
            if now.location != before.location { names.insert("location") }
            if now.tags != before.tags { names.insert("tags") }
        } else if let now = tags[id], let before = old.tags[id] {
            if now != before { names.insert("label") }
            if items(tagged: id) != old.items(tagged: id) { names.insert("items") }
        } else if let now = playlists[id], let before = old.playlists[id] {
            if now != before { names.insert("songs") }
        } else if let now = people[id], let before = old.people[id] {
            if now != before { names.insert("passport") }
        } else if passports.contains(id), old.passports.contains(id) {
            if holder(of: id) != old.holder(of: id) { names.insert("holder") }
        } else if let now = songs[id], let before = old.songs[id] {
            if now != before { names.insert("title") }
            if playlist(of: id) != old.playlist(of: id) { names.insert("playlist") }
        }
        return names
    }
}

/// The changes an observer received.
private final class DeliveryLog {
    var deliveries: [GraphChanges] = []
}

/// Drives random transactions against a graph and the reference side by side.
private struct ModelRun {
    var rng: SeededGenerator
    let graph = ObjectGraph()
    var committed = Reference()
    var pending = Reference()
    var objects: [ObjectID: GraphObject] = [:]
    let log = DeliveryLog()
    let observation: GraphObservation

    init(seed: UInt64) {
        rng = SeededGenerator(seed: seed)
        let log = self.log
        observation = graph.addObserver { log.deliveries.append($0) }
    }

    mutating func random<T>(_ ids: some Collection<T>) -> T? {
        ids.isEmpty ? nil : ids[ids.index(ids.startIndex, offsetBy: Int.random(in: 0..<ids.count, using: &rng))]
    }

    mutating func word() -> String { ["a", "b", "c", "d"][Int.random(in: 0..<4, using: &rng)] }

    func object<T: GraphObject>(_ id: ObjectID, as type: T.Type) -> T {
        guard let object = objects[id] as? T else { preconditionFailure("no \(T.self) \(id)") }
        return object
    }

    func sortedKeys<V>(_ dictionary: [ObjectID: V]) -> [ObjectID] { dictionary.keys.sorted() }

    /// One random operation, applied to both.
    mutating func step() throws {
        let roll = Int.random(in: 0..<100, using: &rng)
        switch roll {
        case 0..<8:
            let location = graph.insert(Location())
            location.name = word()
            objects[location.objectID] = location
            pending.locations[location.objectID] = location.name
        case 8..<20:
            let item = Item()
            item.name = word()
            item.quantity = Int.random(in: 0..<3, using: &rng)
            let location = random(sortedKeys(pending.locations))
            if let location, Bool.random(using: &rng) {
                // Related before insertion: applied on insertion.
                item.location = object(location, as: Location.self)
            }
            graph.insert(item)
            objects[item.objectID] = item
            pending.items[item.objectID] = .init(name: item.name, quantity: item.quantity, location: item.location?.objectID, tags: [])
        case 20..<24:
            let tag = graph.insert(Tag())
            tag.label = word()
            objects[tag.objectID] = tag
            pending.tags[tag.objectID] = tag.label
        case 24..<27:
            let playlist = graph.insert(Playlist())
            objects[playlist.objectID] = playlist
            pending.playlists[playlist.objectID] = []
        case 27..<33:
            let song = graph.insert(Song())
            song.title = word()
            objects[song.objectID] = song
            pending.songs[song.objectID] = song.title
        case 33..<43:
            guard let id = random(sortedKeys(pending.items)) else { return }
            let item = object(id, as: Item.self)
            if Bool.random(using: &rng) {
                item.name = word()
                pending.items[id]?.name = item.name
            } else {
                item.quantity = Int.random(in: 0..<3, using: &rng)
                pending.items[id]?.quantity = item.quantity
            }
        case 43..<53:
            guard let id = random(sortedKeys(pending.items)) else { return }
            let target = Bool.random(using: &rng) ? random(sortedKeys(pending.locations)) : nil
            let item = object(id, as: Item.self)
            switch (Int.random(in: 0..<3, using: &rng), target) {
            case (0, let target?):
                object(target, as: Location.self).items.insert(item)
            case (1, _):
                if let old = item.location {
                    old.items.remove(item)
                } else {
                    item.location = target.map { object($0, as: Location.self) }
                }
            default:
                item.location = target.map { object($0, as: Location.self) }
            }
            pending.items[id]?.location = item.location?.objectID
        case 53..<60:
            guard let id = random(sortedKeys(pending.items)) else { return }
            let item = object(id, as: Item.self)
            var chosen: Set<ObjectID> = []
            for tag in sortedKeys(pending.tags) where Int.random(in: 0..<3, using: &rng) == 0 { chosen.insert(tag) }
            if Bool.random(using: &rng) {
                item.tags = Set(chosen.map { object($0, as: Tag.self) })
            } else if let tag = random(sortedKeys(pending.tags)) {
                let object = object(tag, as: Tag.self)
                if object.items.contains(item) { object.items.remove(item) } else { object.items.insert(item) }
                chosen = pending.items[id]!.tags.symmetricDifference([tag])
            } else {
                return
            }
            pending.items[id]?.tags = chosen
        case 60..<70:
            guard let id = random(sortedKeys(pending.playlists)) else { return }
            let playlist = object(id, as: Playlist.self)
            var songs = pending.playlists[id]!
            switch Int.random(in: 0..<3, using: &rng) {
            case 0:
                songs.shuffle(using: &rng)
                if songs.count > 2, Bool.random(using: &rng) { songs.removeFirst() }
                playlist.songs = songs.map { object($0, as: Song.self) }
            case 1:
                guard let song = random(sortedKeys(pending.songs)) else { return }
                object(song, as: Song.self).playlist = playlist
                if songs.contains(song) { return }  // already there: nothing moves
                for (other, list) in pending.playlists where list.contains(song) {
                    pending.playlists[other]?.removeAll { $0 == song }
                }
                songs = pending.playlists[id]!
                if !songs.contains(song) { songs.append(song) }
            default:
                guard let song = random(songs) else { return }
                object(song, as: Song.self).playlist = nil
                songs.removeAll { $0 == song }
            }
            pending.playlists[id] = songs
        case 70..<74:
            if Bool.random(using: &rng) {
                let person = graph.insert(Person())
                objects[person.objectID] = person
                pending.people[person.objectID] = .some(nil)
            } else {
                let passport = graph.insert(Passport())
                objects[passport.objectID] = passport
                pending.passports.insert(passport.objectID)
            }
        case 74..<78:
            guard let person = random(sortedKeys(pending.people)) else { return }
            let passport = Int.random(in: 0..<4, using: &rng) == 0 ? nil : random(pending.passports.sorted())
            if Bool.random(using: &rng), let passport {
                object(passport, as: Passport.self).holder = object(person, as: Person.self)
            } else {
                object(person, as: Person.self).passport = passport.map { object($0, as: Passport.self) }
            }
            for (other, held) in pending.people where held == passport && passport != nil { pending.people[other] = .some(nil) }
            pending.people[person] = .some(passport)
        case 78..<84:
            guard let id = random(pending.allIDs.sorted()) else { return }
            graph.delete(objects[id]!)
            pending.locations[id] = nil
            pending.tags[id] = nil
            pending.songs[id] = nil
            pending.playlists[id] = nil
            pending.items[id] = nil
            pending.people[id] = nil
            pending.passports.remove(id)
            for (person, passport) in pending.people where passport == id { pending.people[person] = .some(nil) }
            for (item, state) in pending.items {
                if state.location == id { pending.items[item]?.location = nil }
                if state.tags.contains(id) { pending.items[item]?.tags.remove(id) }
            }
            for (playlist, songs) in pending.playlists where songs.contains(id) {
                pending.playlists[playlist]?.removeAll { $0 == id }
            }
        case 84..<94:
            try commitAndCheck()
        default:
            graph.rollback()
            for id in pending.allIDs.subtracting(committed.allIDs) { objects[id] = nil }
            pending = committed
            #expect(!graph.hasChanges)
        }
    }

    /// Commits and checks the published changes against the two reference states.
    mutating func commitAndCheck() throws {
        let changes = try graph.commit(author: "model")
        let inserted = pending.allIDs.subtracting(committed.allIDs)
        let deleted = committed.allIDs.subtracting(pending.allIDs)
        var updated: [ObjectID: Set<String>] = [:]
        for id in pending.allIDs.intersection(committed.allIDs) {
            let names = pending.changedProperties(of: id, since: committed)
            if !names.isEmpty { updated[id] = names }
        }
        if inserted.isEmpty && deleted.isEmpty && updated.isEmpty {
            #expect(changes == nil)
        } else {
            let changes = try #require(changes)
            #expect(log.deliveries.last == changes)
            #expect(changes.inserted == inserted)
            #expect(changes.deleted == deleted)
            #expect(changes.updated.mapValues(\.names) == updated)
            checkMoves(changes)
        }
        committed = pending
        #expect(!graph.hasChanges)
    }

    /// Every move names an object at `from` before and at `to` after, and the moves are a
    /// minimal set: the survivors that did not move kept their relative order.
    func checkMoves(_ changes: GraphChanges) {
        for (playlist, now) in pending.playlists {
            guard let before = committed.playlists[playlist] else { continue }
            let moves = changes.moves.filter { $0.owner == playlist }
            for move in moves {
                #expect(move.relationship == "songs")
                #expect(before[move.from] == move.object && now[move.to] == move.object)
            }
            let survivors = now.filter(before.contains)
            let moved = Set(moves.map(\.object))
            let kept = survivors.filter { !moved.contains($0) }.map { before.firstIndex(of: $0)! }
            #expect(kept == kept.sorted())
            #expect(moves.count == survivors.count - longestIncreasingRun(survivors.map { before.firstIndex(of: $0)! }))
        }
    }

    /// The length of a longest increasing subsequence (quadratic; the lists are short).
    func longestIncreasingRun(_ values: [Int]) -> Int {
        var best = Array(repeating: 1, count: values.count)
        for i in values.indices {
            for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
        }
        return best.max() ?? 0
    }

    /// The graph holds exactly the reference's pending state, both sides of every relationship.
    func checkState() {
        var itemsAt: [ObjectID: Set<ObjectID>] = [:]
        var itemsTagged: [ObjectID: Set<ObjectID>] = [:]
        for (id, state) in pending.items {
            if let location = state.location { itemsAt[location, default: []].insert(id) }
            for tag in state.tags { itemsTagged[tag, default: []].insert(id) }
        }
        var playlistOf: [ObjectID: ObjectID] = [:]
        for (playlist, songs) in pending.playlists { for song in songs { playlistOf[song] = playlist } }
        graph._checkAllInvariants()
        #expect(Set(graph.objects(of: Location.self).map(\.objectID)) == Set(pending.locations.keys))
        #expect(Set(graph.objects(of: Item.self).map(\.objectID)) == Set(pending.items.keys))
        #expect(Set(graph.objects(of: Tag.self).map(\.objectID)) == Set(pending.tags.keys))
        #expect(Set(graph.objects(of: Playlist.self).map(\.objectID)) == Set(pending.playlists.keys))
        #expect(Set(graph.objects(of: Song.self).map(\.objectID)) == Set(pending.songs.keys))
        for (id, name) in pending.locations {
            let location = object(id, as: Location.self)
            #expect(location.name == name)
            #expect(Set(location.items.map(\.objectID)) == itemsAt[id, default: []])
        }
        for (id, state) in pending.items {
            let item = object(id, as: Item.self)
            #expect(item.name == state.name && item.quantity == state.quantity)
            #expect(item.location?.objectID == state.location)
            #expect(Set(item.tags.map(\.objectID)) == state.tags)
        }
        for (id, label) in pending.tags {
            let tag = object(id, as: Tag.self)
            #expect(tag.label == label)
            #expect(Set(tag.items.map(\.objectID)) == itemsTagged[id, default: []])
        }
        for (id, songs) in pending.playlists {
            #expect(object(id, as: Playlist.self).songs.map(\.objectID) == songs)
        }
        var holders: [ObjectID: ObjectID] = [:]
        for (person, passport) in pending.people {
            if let passport { holders[passport] = person }
            #expect(object(person, as: Person.self).passport?.objectID == passport)
        }
        for passport in pending.passports {
            #expect(object(passport, as: Passport.self).holder?.objectID == holders[passport])
        }
        #expect(Set(graph.objects(of: Person.self).map(\.objectID)) == Set(pending.people.keys))
        #expect(Set(graph.objects(of: Passport.self).map(\.objectID)) == pending.passports)
        for (id, title) in pending.songs {
            let song = object(id, as: Song.self)
            #expect(song.title == title)
            #expect(song.playlist?.objectID == playlistOf[id])
        }
    }
}

@Suite("Randomized model test")
struct RandomizedModelTests {
    /// 32 seeds × 400 random operations (inserts, writes, relates from either side, reorders,
    /// deletes), about 40 commits and 25 rollbacks per seed; the state is checked after every
    /// operation and the published changes after every commit.
    @Test(arguments: testSeeds(count: 32))
    func randomTransactionsMatchTheReferenceModel(seed: UInt64) throws {
        var run = ModelRun(seed: seed)
        for _ in 0..<400 {
            try run.step()
            run.checkState()
        }
        try run.commitAndCheck()
        run.checkState()
    }
}
