import ObjectGraph
import TestSupport
import Testing

/// Random batches applied to one graph and, operation by operation, through the object API
/// to an identical one: both graphs must end equal, with equal changes published. Covers
/// the fast paths of an import (values of a new object stored in one step, a new object
/// related to one object) beside the checked ones (updates, upserts of existing objects,
/// to-many and ordered relationships, deletions).
@Suite("Batches against the object API")
struct GraphBatchEquivalenceTests {
    /// One graph's committed start: locations, items, tags, playlists (the same IDs in
    /// every graph built from it).
    private static func startGraph() throws -> ObjectGraph {
        let graph = ObjectGraph()
        let locations = (0..<3).map { index in
            let location = graph.insert(Location())
            location.name = "L\(index)"
            return location
        }
        let tags = (0..<3).map { index in
            let tag = graph.insert(Tag())
            tag.label = "t\(index)"
            return tag
        }
        for index in 0..<6 {
            let item = graph.insert(Item())
            item.name = "I\(index)"
            item.quantity = index
            item.location = locations[index % 3]
            item.tags = [tags[index % 3]]
        }
        let playlist = graph.insert(Playlist())
        playlist.title = "P"
        try graph.commit()
        return graph
    }

    /// The object of `graph` that has the ID's entity and serial (IDs differ between graphs;
    /// their descriptions do not).
    private static func object(_ id: ObjectID, in graph: ObjectGraph) -> GraphObject {
        let objects: [GraphObject] =
            switch id.entityName {
            case "Location": graph.objects(of: Location.self)
            case "Item": graph.objects(of: Item.self)
            case "Playlist": graph.objects(of: Playlist.self)
            default: graph.objects(of: Tag.self)
            }
        return objects.first { "\($0.objectID)" == "\(id)" }!
    }

    /// What the object API does for one operation of the batch, in two steps as the batch
    /// applies them: values, then relationships (deletions come after every step).
    private struct Step {
        var values: (ObjectGraph, inout [GraphObject]) -> Void
        var relationships: (ObjectGraph, [GraphObject]) -> Void
    }

    /// A random batch over `graph` (the start graph) and the same changes as steps.
    private static func randomBatch(
        over graph: ObjectGraph, using generator: inout SeededGenerator
    ) -> (GraphBatch, [Step], deletions: [ObjectID]) {
        var batch = GraphBatch()
        var steps: [Step] = []
        var made: [GraphBatch.Reference] = []
        var madeKinds: [ObjectIdentifier] = []
        let locationIDs = graph.objects(of: Location.self).map(\.objectID)
        let itemIDs = graph.objects(of: Item.self).map(\.objectID)
        let playlistIDs = graph.objects(of: Playlist.self).map(\.objectID)
        let names = ["", "Milk", "Eggs", "a name longer than fifteen bytes"]

        /// A location: an existing one, or one the batch made (slot), as a reference and as
        /// a way to find the object in the other graph.
        func location() -> (GraphBatch.Reference, (ObjectGraph, [GraphObject]) -> GraphObject)? {
            let madeSlots = madeKinds.indices.filter { madeKinds[$0] == ObjectIdentifier(Location.self) }
            if !madeSlots.isEmpty, Bool.random(using: &generator) {
                let slot = madeSlots.randomElement(using: &generator)!
                return (made[slot], { _, objects in objects[slot] })
            }
            let id = locationIDs.randomElement(using: &generator)!
            return (.existing(id), { graph, _ in Self.object(id, in: graph) })
        }
        func itemValues() -> (GraphBatch.Values, (Item) -> Void) {
            var values: GraphBatch.Values = [:]
            var writes: [(Item) -> Void] = []
            if Bool.random(using: &generator) {
                let name = names.randomElement(using: &generator)!
                values["name"] = name
                writes.append { $0.name = name }
            }
            if Bool.random(using: &generator) {
                let quantity = Int.random(in: -2...2, using: &generator)
                values["quantity"] = quantity
                writes.append { $0.quantity = quantity }
            }
            if Bool.random(using: &generator) {
                let listed = Bool.random(using: &generator)
                values["listed"] = listed
                writes.append { $0.listed = listed }
            }
            if Bool.random(using: &generator) {
                let note: String? = Bool.random(using: &generator) ? nil : "note"
                values.updateValue(note, forKey: "note")  // a nil value kept, not the key removed
                writes.append { $0.note = note }
            }
            return (values, { item in for write in writes { write(item) } })
        }

        for _ in 0..<Int.random(in: 1...30, using: &generator) {
            switch Int.random(in: 0..<8, using: &generator) {
            case 0, 1, 2:
                // A new item, with a location or none, sometimes tags.
                let (values, write) = itemValues()
                var relationships: GraphBatch.Relationships = [:]
                var relate: [(Item, ObjectGraph, [GraphObject]) -> Void] = []
                if Int.random(in: 0..<4, using: &generator) != 0, let (reference, find) = location() {
                    relationships["location"] = [reference]
                    relate.append { item, graph, objects in item.location = (find(graph, objects) as! Location) }
                } else if Bool.random(using: &generator) {
                    relationships["location"] = []
                }
                if Int.random(in: 0..<4, using: &generator) == 0 {
                    let label = "t\(Int.random(in: 0..<3, using: &generator))"
                    relationships["tags"] = [.existing(graph.objects(of: Tag.self).first { $0.label == label }!.objectID)]
                    relate.append { item, graph, _ in item.tags = [graph.objects(of: Tag.self).first { $0.label == label }!] }
                }
                let slot = made.count
                made.append(batch.insert(Item.self, values: values, relationships: relationships))
                madeKinds.append(ObjectIdentifier(Item.self))
                steps.append(
                    Step(
                        values: { graph, objects in
                            let item = graph.insert(Item())
                            write(item)
                            objects.append(item)
                        },
                        relationships: { graph, objects in
                            for body in relate { body(objects[slot] as! Item, graph, objects) }
                        }))
            case 3:
                // A new location.
                let name = names.randomElement(using: &generator)!
                made.append(batch.insert(Location.self, values: ["name": name]))
                madeKinds.append(ObjectIdentifier(Location.self))
                steps.append(
                    Step(
                        values: { graph, objects in
                            let location = graph.insert(Location())
                            location.name = name
                            objects.append(location)
                        }, relationships: { _, _ in }))
            case 4:
                // A new song in the playlist (an ordered inverse).
                let title = names.randomElement(using: &generator)!
                let playlistID = playlistIDs[0]
                let slot = made.count
                made.append(batch.insert(Song.self, values: ["title": title], relationships: ["playlist": [.existing(playlistID)]]))
                madeKinds.append(ObjectIdentifier(Song.self))
                steps.append(
                    Step(
                        values: { graph, objects in
                            let song = graph.insert(Song())
                            song.title = title
                            objects.append(song)
                        },
                        relationships: { graph, objects in
                            (objects[slot] as! Song).playlist = (Self.object(playlistID, in: graph) as! Playlist)
                        }))
            case 5:
                // An upsert of a tag, existing or new.
                let label = "t\(Int.random(in: 0..<5, using: &generator))"
                made.append(batch.upsert(Tag.self, values: ["label": label]))
                madeKinds.append(ObjectIdentifier(Tag.self))
                steps.append(
                    Step(
                        values: { graph, objects in
                            if let tag = graph.objects(of: Tag.self).first(where: { $0.label == label && !$0.isDeleted }) {
                                objects.append(tag)
                            } else {
                                let tag = graph.insert(Tag())
                                tag.label = label
                                objects.append(tag)
                            }
                        }, relationships: { _, _ in }))
            case 6:
                // An update of an existing item.
                let id = itemIDs.randomElement(using: &generator)!
                let (values, write) = itemValues()
                var relationships: GraphBatch.Relationships = [:]
                var relate: ((ObjectGraph, [GraphObject]) -> Void)?
                if Bool.random(using: &generator), let (reference, find) = location() {
                    relationships["location"] = [reference]
                    relate = { graph, objects in (Self.object(id, in: graph) as! Item).location = (find(graph, objects) as! Location) }
                }
                batch.update(id, values: values, relationships: relationships)
                steps.append(
                    Step(
                        values: { graph, _ in write(Self.object(id, in: graph) as! Item) },
                        relationships: { graph, objects in relate?(graph, objects) }))
            default:
                // Values of the wrong type for a new object are tried by another test; here,
                // an insert with no values at all.
                let slot = made.count
                made.append(batch.insert(Item.self))
                madeKinds.append(ObjectIdentifier(Item.self))
                steps.append(
                    Step(
                        values: { graph, objects in objects.append(graph.insert(Item())) },
                        relationships: { _, _ in _ = slot }))
            }
        }
        var deletions: [ObjectID] = []
        if Bool.random(using: &generator) {
            let id = itemIDs.randomElement(using: &generator)!
            batch.delete(id)
            deletions.append(id)
        }
        return (batch, steps, deletions)
    }

    /// Every object of the graph with its values and related objects, comparable across
    /// graphs (objects named by ID).
    private static func contents(of graph: ObjectGraph) -> [String] {
        var lines: [String] = []
        for location in graph.objects(of: Location.self) {
            lines.append("\(location.objectID) \(location.name) \(location.items.map(\.objectID).sorted())")
        }
        for item in graph.objects(of: Item.self) {
            lines.append(
                "\(item.objectID) \(item.name) \(item.quantity) \(item.listed) \(item.note ?? "nil") "
                    + "\(item.location.map { "\($0.objectID)" } ?? "nil") \(item.tags.map(\.objectID).sorted())")
        }
        for tag in graph.objects(of: Tag.self) {
            lines.append("\(tag.objectID) \(tag.label) \(tag.items.map(\.objectID).sorted())")
        }
        for playlist in graph.objects(of: Playlist.self) {
            lines.append("\(playlist.objectID) \(playlist.title) \(playlist.songs.map(\.objectID))")
        }
        for song in graph.objects(of: Song.self) {
            lines.append("\(song.objectID) \(song.title) \(song.playlist.map { "\($0.objectID)" } ?? "nil")")
        }
        return lines
    }

    @Test(arguments: testSeeds(count: 40))
    func aBatchMakesTheGraphTheObjectAPIMakes(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let batched = try Self.startGraph()
        let direct = try Self.startGraph()
        let (batch, steps, deletions) = Self.randomBatch(over: batched, using: &generator)

        let batchChanges = try batched.apply(batch)

        var objects: [GraphObject] = []
        for step in steps { step.values(direct, &objects) }
        for step in steps { step.relationships(direct, objects) }
        for id in deletions { direct.delete(Self.object(id, in: direct)) }
        let directChanges = try direct.commit()

        #expect(Self.contents(of: batched) == Self.contents(of: direct), "seed \(seed)")
        func names(_ ids: some Sequence<ObjectID>) -> [String] { ids.sorted().map { "\($0)" } }
        #expect(names(batchChanges?.inserted ?? []) == names(directChanges?.inserted ?? []), "seed \(seed)")
        #expect(names(batchChanges?.deleted ?? []) == names(directChanges?.deleted ?? []), "seed \(seed)")
        let batchUpdates = (batchChanges?.updated ?? [:]).map { ("\($0.key)", $0.value.names) }.sorted { $0.0 < $1.0 }
        let directUpdates = (directChanges?.updated ?? [:]).map { ("\($0.key)", $0.value.names) }.sorted { $0.0 < $1.0 }
        #expect(batchUpdates.map(\.0) == directUpdates.map(\.0), "seed \(seed)")
        #expect(batchUpdates.map(\.1) == directUpdates.map(\.1), "seed \(seed)")
    }

    @Test func aNewObjectsValueOfTheWrongTypeNamesTheFirstPropertyByName() throws {
        // However the values dictionary orders them, the error names the first property that
        // does not fit in name order, and nothing is inserted.
        let graph = try Self.startGraph()
        for _ in 0..<8 {
            var batch = GraphBatch()
            batch.insert(Item.self, values: ["quantity": "three", "name": 3, "listed": true, "note": "n"])
            do {
                try graph.apply(batch)
                Issue.record("applied a batch with values of the wrong type")
            } catch {
                guard case .typeMismatch("Item", "name") = error else {
                    Issue.record("expected a type mismatch of Item.name, got \(error)")
                    return
                }
            }
            var unknown = GraphBatch()
            unknown.insert(Item.self, values: ["quantity": 1, "colour": "red", "zone": 4])
            do {
                try graph.apply(unknown)
                Issue.record("applied a batch with an unknown property")
            } catch {
                guard case .unknownProperty("Item", "colour") = error else {
                    Issue.record("expected an unknown property Item.colour, got \(error)")
                    return
                }
            }
            #expect(!graph.hasChanges && graph.count(of: Item.self) == 6)
        }
    }

    @Test func aNewObjectRelatedToAnObjectOfTheWrongClassThrows() throws {
        let graph = try Self.startGraph()
        let item = try #require(graph.objects(of: Item.self).first)
        var batch = GraphBatch()
        batch.insert(Item.self, values: ["name": "x"], relationships: ["location": [.existing(item.objectID)]])
        var unknown = GraphBatch()
        unknown.insert(Item.self, relationships: ["shelf": [.existing(item.objectID)]])
        for (batch, expected) in [(batch, "typeMismatch location"), (unknown, "unknownProperty shelf")] {
            do {
                try graph.apply(batch)
                Issue.record("applied a batch that should fail: \(expected)")
            } catch {
                switch error {
                case .typeMismatch("Item", "location"): #expect(expected == "typeMismatch location")
                case .unknownProperty("Item", "shelf"): #expect(expected == "unknownProperty shelf")
                default: Issue.record("expected \(expected), got \(error)")
                }
            }
        }
        #expect(!graph.hasChanges && graph.count(of: Item.self) == 6)
    }
}
