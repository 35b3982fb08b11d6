import ObjectGraph
import Testing

@Suite("Sendable batches")
struct GraphBatchTests {
    @Test func aBatchBuiltElsewhereAppliesInOneCommit() async throws {
        let (graph, home, shop, milk, eggs, _) = try groceryGraph()
        var deliveries: [GraphChanges] = []
        let token = graph.addObserver { deliveries.append($0) }
        let homeID = home.objectID, shopID = shop.objectID, milkID = milk.objectID, eggsID = eggs.objectID
        // Built on another isolation domain, from values only.
        let batch = await Task.detached { () -> GraphBatch in
            var batch = GraphBatch()
            let dairy = batch.upsert(Tag.self, values: ["label": "dairy"])
            let cheese = batch.insert(Item.self, values: ["name": "Cheese", "quantity": 2, "note": "aged"], relationships: ["location": [.existing(homeID)], "tags": [dairy]])
            batch.update(milkID, values: ["listed": true], relationships: ["location": [.existing(shopID)], "tags": [dairy]])
            batch.delete(eggsID)
            _ = cheese
            return batch
        }.value
        #expect(batch.count == 4)
        let changes = try #require(try graph.apply(batch, author: "sync"))
        #expect(deliveries == [changes])
        #expect(changes.author == "sync")
        #expect(changes.inserted.count == 2)
        #expect(changes.deleted == [eggsID])
        #expect(changes.updated[milkID]?.names == ["listed", "location", "tags"])
        let cheese = try #require(graph.objects(of: Item.self).first { $0.name == "Cheese" })
        let dairy = try #require(graph.objects(of: Tag.self).first)
        #expect(cheese.quantity == 2 && cheese.note == "aged" && cheese.location === home)
        #expect(home.items == [cheese] && shop.items.contains(milk) && milk.listed)
        #expect(dairy.label == "dairy" && dairy.items == [cheese, milk])
        #expect(!graph.hasChanges)
        withExtendedLifetime(token) {}
    }

    @Test("A nil of the attribute's type clears an optional attribute; nil through the subscript removes the key")
    func nilValuesClearOptionalAttributes() throws {
        let (graph, _, _, milk, eggs, _) = try groceryGraph()
        milk.note = "semi-skimmed"
        eggs.note = "free range"
        try graph.commit()
        var values: GraphBatch.Values = ["note": "kept"]
        values["note"] = nil as String?
        #expect(values.isEmpty)
        values["note"] = String?.none as any Sendable
        var batch = GraphBatch()
        batch.update(milk.objectID, values: ["note": nil as String?])
        batch.update(eggs.objectID, values: values)
        try graph.apply(batch)
        #expect(milk.note == nil)
        #expect(eggs.note == nil)
    }

    @Test func upsertsMatchTheUniqueAttribute() throws {
        let graph = ObjectGraph()
        var first = GraphBatch()
        first.upsert(Tag.self, values: ["label": "fruit"])
        first.upsert(Tag.self, values: ["label": "dairy"])
        first.upsert(Tag.self, values: ["label": "fruit"])  // the same object again
        let inserted = try #require(try graph.apply(first))
        #expect(inserted.inserted.count == 2 && graph.count(of: Tag.self) == 2)

        var second = GraphBatch()
        let fruit = second.upsert(Tag.self, values: ["label": "fruit"])
        second.insert(Item.self, values: ["name": "Apple"], relationships: ["tags": [fruit]])
        let changes = try #require(try graph.apply(second))
        #expect(changes.inserted.count == 1 && graph.count(of: Tag.self) == 2)
        let fruitTag = try #require(graph.objects(of: Tag.self).first { $0.label == "fruit" })
        #expect(fruitTag.items.map(\.name) == ["Apple"])
        #expect(changes.updated[fruitTag.objectID]?.names == ["items"])
    }

    @Test func aBatchOverPendingChangesThrowsAndKeepsThem() throws {
        let (graph, _, _, milk, _, _) = try groceryGraph()
        milk.name = "Oat milk"
        var batch = GraphBatch()
        batch.insert(Item.self, values: ["name": "Saffron"])
        #expect(throws: CommitError.self) { try graph.apply(batch) }
        do {
            try graph.apply(batch)
        } catch {
            guard case .pendingChanges = error else {
                Issue.record("expected .pendingChanges, got \(error)")
                return
            }
            #expect(error.localizedDescription.contains("pending changes"))
        }
        #expect(graph.hasChanges && milk.name == "Oat milk")
        #expect(!graph.objects(of: Item.self).contains { $0.name == "Saffron" })
        try graph.commit()
        #expect(try graph.apply(batch)?.inserted.count == 1)
    }

    /// An import's many inserts of one shape (kept as rows, not a dictionary each) give the
    /// same objects as the object API, across runs of several thousand, other shapes in
    /// between, and references to existing objects and to ones the batch inserted.
    @Test func manyInsertsOfOneShapeApplyAsTheirValuesSay() throws {
        let (graph, home, shop, _, _, _) = try groceryGraph()
        var batch = GraphBatch()
        let late = GraphBatch.Reference.existing(shop.objectID)
        var laterLocations: [GraphBatch.Reference] = []
        var references: [GraphBatch.Reference] = []
        let count = 9_000
        for index in 0..<count {
            if index % 3_001 == 7 {
                // Another shape between the rows: a location, and an item with two relations.
                laterLocations.append(batch.insert(Location.self, values: ["name": "L\(index)"]))
                references.append(
                    batch.insert(
                        Item.self, values: ["name": "odd \(index)"],
                        relationships: ["location": [.existing(home.objectID)], "tags": []]))
                continue
            }
            let location = laterLocations.last ?? late
            references.append(
                batch.insert(
                    Item.self, values: ["name": "Item \(index)", "quantity": index, "note": index % 2 == 0 ? nil as String? : "n"],
                    relationships: ["location": [location]]))
        }
        #expect(batch.count == count + laterLocations.count)
        try graph.apply(batch)
        let items = graph.objects(of: Item.self).filter { $0.name.hasPrefix("Item ") }
        #expect(items.count == count - laterLocations.count)
        for item in items {
            let index = Int(item.name.dropFirst(5))!
            #expect(item.quantity == index && item.note == (index % 2 == 0 ? nil : "n"), "\(item.name)")
            let expected = index < 7 ? "Shop" : "L\(3_001 * ((index - 7) / 3_001) + 7)"
            #expect(item.location?.name == expected, "\(item.name)")
        }
        #expect(graph.objects(of: Item.self).filter { $0.name.hasPrefix("odd ") }.allSatisfy { $0.location === home })
        #expect(!graph.hasChanges)
    }

    /// A value of the wrong type in the middle of many inserts of one shape fails the whole
    /// batch with the attribute's name, and the graph is left as it was.
    @Test func aWrongValueAmongManyInsertsFailsTheBatch() throws {
        let (graph, _, _, _, _, _) = try groceryGraph()
        let before = graph.count(of: Item.self)
        var batch = GraphBatch()
        for index in 0..<5_000 {
            let quantity: any Sendable = index == 4_500 ? "many" : index
            batch.insert(Item.self, values: ["name": "Item \(index)", "quantity": quantity])
        }
        do {
            try graph.apply(batch)
            Issue.record("applied a batch with a wrong value")
        } catch {
            guard case .typeMismatch("Item", "quantity") = error else {
                Issue.record("\(error)")
                return
            }
        }
        #expect(graph.count(of: Item.self) == before && !graph.hasChanges)
    }

    @Test func aFailingBatchLeavesTheGraphUnchanged() throws {
        let (graph, home, _, milk, eggs, _) = try groceryGraph()
        let other = ObjectGraph()
        let stranger = other.insert(Item())

        var cases: [(GraphBatch, (CommitError) -> Bool)] = []
        var unknownProperty = GraphBatch()
        unknownProperty.update(milk.objectID, values: ["quantity": 3, "colour": "white"])
        cases.append((unknownProperty, { if case .unknownProperty("Item", "colour") = $0 { true } else { false } }))
        var wrongType = GraphBatch()
        wrongType.insert(Item.self, values: ["quantity": "three"])
        cases.append((wrongType, { if case .typeMismatch("Item", "quantity") = $0 { true } else { false } }))
        var unknownObject = GraphBatch()
        unknownObject.update(milk.objectID, values: ["quantity": 3])
        unknownObject.delete(stranger.objectID)
        cases.append((unknownObject, { if case .unknownObject = $0 { true } else { false } }))
        var noUnique = GraphBatch()
        noUnique.upsert(Item.self, values: ["name": "Milk"])
        cases.append((noUnique, { if case .missingUniqueValue("Item") = $0 { true } else { false } }))
        var missingValue = GraphBatch()
        missingValue.upsert(Tag.self, values: [:])
        cases.append((missingValue, { if case .missingUniqueValue("Tag") = $0 { true } else { false } }))
        var wrongDestination = GraphBatch()
        wrongDestination.update(milk.objectID, relationships: ["location": [.existing(eggs.objectID)]])
        cases.append((wrongDestination, { if case .typeMismatch("Item", "location") = $0 { true } else { false } }))
        var attributeAsRelationship = GraphBatch()
        attributeAsRelationship.update(milk.objectID, relationships: ["name": []])
        cases.append((attributeAsRelationship, { if case .unknownProperty("Item", "name") = $0 { true } else { false } }))
        var invalid = GraphBatch()
        invalid.insert(Stock.self, values: ["count": -4])
        cases.append((invalid, { if case .validationFailed = $0 { true } else { false } }))

        for (batch, matches) in cases {
            do {
                try graph.apply(batch)
                Issue.record("applied a batch that should fail")
            } catch {
                #expect(matches(error), "\(error)")
            }
            #expect(!graph.hasChanges)
            #expect(milk.quantity == 0 && milk.location === home && !eggs.isDeleted)
            #expect(graph.count(of: Item.self) == 3 && graph.count(of: Stock.self) == 0)
        }
    }
}
