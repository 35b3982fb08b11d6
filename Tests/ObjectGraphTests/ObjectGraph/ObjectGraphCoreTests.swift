import ObjectGraph
import Testing

@Suite("ObjectGraph core")
struct ObjectGraphCoreTests {
    @Test func entityDescriptionComesFromReflection() {
        let entity = Item.entity
        #expect(entity.name == "Item")
        #expect(entity.properties.map(\.name) == ["name", "quantity", "listed", "note", "location", "tags"])
        #expect(entity.relationships.map(\.name) == ["location", "tags"])
        #expect(entity.properties[4].relationship?.kind == .toOne)
        #expect(entity.properties[4].relationship?.destinationName == "Location")
        #expect(entity.index(of: "quantity") == PropertyIndex(1))
        #expect(Stock.entity.name == "StockEntry")
        #expect(Stock.entity.properties.map(\.name) == ["count", "values"])
        #expect(Tag.entity.uniqueAttribute?.name == "label")
        #expect(Folder.entity.properties[1].relationship?.deleteRule == .cascade)
        #expect(Folder.entity.properties[2].relationship?.kind == .orderedToMany)
    }

    @Test func insertAssignsIDsAndCommitPublishesInserts() throws {
        let graph = ObjectGraph()
        let item = graph.insert(Item())
        item.name = "Milk"
        #expect(graph.hasChanges)
        #expect(item.isInserted)
        #expect(graph.count(of: Item.self) == 1)
        let changes = try #require(try graph.commit(author: "ui"))
        #expect(changes.inserted == [item.objectID])
        #expect(changes.updated.isEmpty && changes.deleted.isEmpty)
        #expect(changes.author == "ui")
        #expect(!graph.hasChanges)
        #expect(!item.isInserted)
        #expect(graph.object(with: item.objectID) === item)
        #expect(try graph.commit() == nil)
    }

    @Test func inversesAreMaintainedOnBothSides() throws {
        let (graph, home, shop, milk, eggs, bread) = try groceryGraph()
        #expect(home.items == [milk, eggs])
        #expect(shop.items == [bread])
        milk.location = shop
        #expect(home.items == [eggs])
        #expect(shop.items == [bread, milk])
        home.items.insert(bread)
        #expect(bread.location === home)
        #expect(shop.items == [milk])
        shop.items = []
        #expect(milk.location == nil)
        let changes = try #require(try graph.commit())
        #expect(changes.updated[milk.objectID]?.names == ["location"])
        #expect(changes.updated[home.objectID]?.names == ["items"])
        #expect(changes.updated[shop.objectID]?.names == ["items"])
        #expect(changes.updated[bread.objectID]?.contains("location") == true)
    }

    @Test func manyToManyAndOneToOne() throws {
        let graph = ObjectGraph()
        let fruit = graph.insert(Tag())
        let dairy = graph.insert(Tag())
        let milk = graph.insert(Item())
        milk.tags = [fruit, dairy]
        #expect(fruit.items == [milk] && dairy.items == [milk])
        dairy.items = []
        #expect(milk.tags == [fruit])

        let ann = graph.insert(Person())
        let bob = graph.insert(Person())
        let passport = graph.insert(Passport())
        ann.passport = passport
        #expect(passport.holder === ann)
        bob.passport = passport
        #expect(ann.passport == nil)
        #expect(passport.holder === bob)
        passport.holder = ann
        #expect(bob.passport == nil && ann.passport === passport)
        try graph.commit()
    }

    @Test func equalWritesRecordNothing() throws {
        let (graph, _, _, milk, _, _) = try groceryGraph()
        milk.name = "Milk"
        milk.quantity = 0
        #expect(!graph.hasChanges)
        milk.name = "Oat milk"
        milk.name = "Milk"
        #expect(try graph.commit() == nil)
    }

    @Test func updatesNameTheChangedAttributes() throws {
        let (graph, _, _, milk, eggs, _) = try groceryGraph()
        milk.quantity = 2
        milk.listed = true
        eggs.note = "free range"
        let changes = try #require(try graph.commit())
        #expect(changes.updated.count == 2)
        let milkChanges = try #require(changes.updated[milk.objectID])
        #expect(milkChanges.names == ["quantity", "listed"])
        #expect(milkChanges.contains(Item.entity.index(of: "quantity")!))
        #expect(!milkChanges.contains(Item.entity.index(of: "name")!))
        #expect(changes.updated[eggs.objectID]?.names == ["note"])
    }

    @Test func rollbackRestoresValuesRelationshipsInsertsAndDeletes() throws {
        let (graph, home, shop, milk, eggs, bread) = try groceryGraph()
        milk.name = "Oat milk"
        milk.location = shop
        graph.delete(eggs)
        let cheese = graph.insert(Item())
        cheese.location = home
        #expect(graph.count(of: Item.self) == 3)
        graph.rollback()
        #expect(!graph.hasChanges)
        #expect(milk.name == "Milk")
        #expect(milk.location === home && eggs.location === home && bread.location === shop)
        #expect(home.items == [milk, eggs] && shop.items == [bread])
        #expect(!eggs.isDeleted && graph.object(with: eggs.objectID) === eggs)
        #expect(cheese.graph == nil && cheese.location == nil)
        #expect(graph.count(of: Item.self) == 3)
        #expect(Set(graph.objects(of: Item.self)) == [milk, eggs, bread])
    }

    @Test func orderedRelationshipsReportMoves() throws {
        let graph = ObjectGraph()
        let playlist = graph.insert(Playlist())
        let songs = (0..<5).map { number in
            let song = graph.insert(Song())
            song.title = "\(number)"
            return song
        }
        playlist.songs = songs
        #expect(songs.allSatisfy { $0.playlist === playlist })
        try graph.commit()
        playlist.songs = [songs[4], songs[0], songs[1], songs[2], songs[3]]
        let changes = try #require(try graph.commit())
        #expect(changes.moves.count == 1)
        let move = try #require(changes.moves.first)
        #expect(move.owner == playlist.objectID && move.relationship == "songs")
        #expect(move.object == songs[4].objectID && move.from == 4 && move.to == 0)
        #expect(changes.updated[playlist.objectID]?.names == ["songs"])

        songs[2].playlist = nil
        #expect(playlist.songs.map(\.title) == ["4", "0", "1", "3"])
        let removal = try #require(try graph.commit())
        #expect(removal.moves.isEmpty)
    }

    @Test func deleteRulesNullifyCascadeAndDeny() throws {
        let graph = ObjectGraph()
        let folder = graph.insert(Folder())
        let files = (0..<3).map { _ in graph.insert(File()) }
        folder.files = Set(files)
        let home = graph.insert(Location())
        let milk = graph.insert(Item())
        milk.location = home
        try graph.commit()

        graph.delete(home)
        #expect(milk.location == nil)
        graph.delete(folder)
        #expect(files.allSatisfy { $0.isDeleted })
        #expect(graph.count(of: File.self) == 0)
        let changes = try #require(try graph.commit())
        #expect(changes.deleted == Set([home.objectID, folder.objectID] + files.map(\.objectID)))
        #expect(changes.updated[milk.objectID]?.names == ["location"])
    }

    @Test func denyRuleThrowsAndKeepsEverythingPending() throws {
        let graph = ObjectGraph()
        let folder = graph.insert(Folder())
        let note = graph.insert(Note())
        note.folder = folder
        try graph.commit()
        graph.delete(folder)
        note.text = "still here"
        #expect(throws: CommitError.self) { try graph.commit() }
        do {
            try graph.commit()
        } catch {
            guard case .deleteDenied(let id, let relationship) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(id == folder.objectID && relationship == "notes")
        }
        #expect(graph.hasChanges && folder.isDeleted && note.text == "still here")
        note.folder = nil
        let changes = try #require(try graph.commit())
        #expect(changes.deleted == [folder.objectID])
    }

    @Test func objectsOfAndLookups() throws {
        let (graph, home, _, milk, eggs, bread) = try groceryGraph()
        #expect(graph.objects(of: Item.self) == [milk, eggs, bread])
        #expect(graph.count(of: Location.self) == 2)
        #expect(graph.object(with: milk.objectID, as: Item.self) === milk)
        #expect(graph.object(with: milk.objectID, as: Location.self) == nil)
        #expect(try graph.existingObject(with: home.objectID) === home)
        graph.delete(eggs)
        #expect(graph.objects(of: Item.self) == [milk, bread])
        #expect(throws: ObjectGraphError.objectNotFound(eggs.objectID)) { try graph.existingObject(with: eggs.objectID) }
        try graph.commit()
        #expect(throws: ObjectGraphError.objectNotFound(eggs.objectID)) { try graph.existingObject(with: eggs.objectID) }
        let other = ObjectGraph()
        let stranger = other.insert(Item())
        #expect(graph.object(with: stranger.objectID) == nil)
        #expect(throws: ObjectGraphError.self) { try graph.existingObject(with: stranger.objectID) }
        #expect(graph.objects(of: Stock.self).isEmpty && graph.count(of: Stock.self) == 0)
    }

    @Test func keyValueAccess() throws {
        let (graph, home, _, milk, _, _) = try groceryGraph()
        #expect(milk.value(forKey: "name") as? String == "Milk")
        #expect(milk.value(forKey: "location") as? Location === home)
        #expect((home.value(forKey: "items") as? Set<Item>)?.contains(milk) == true)
        #expect(milk.value(forKey: "nope") == nil)
        #expect(throws: ObjectGraphError.unknownKey(entity: "Item", key: "nope")) { try milk.value(forKeyChecked: "nope") }
        try milk.setValue(3, forKey: "quantity")
        try milk.setValue(nil, forKey: "location")
        #expect(milk.quantity == 3 && milk.location == nil && !home.items.contains(milk))
        #expect(throws: ObjectGraphError.self) { try milk.setValue("three", forKey: "quantity") }
        let changes = try #require(try graph.commit())
        #expect(changes.updated[milk.objectID]?.names == ["quantity", "location"])
    }
}
