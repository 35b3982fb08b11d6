import ObjectGraph
import Testing

@Suite("Read tracking")
struct ReadTrackingTests {
    @Test func recordsExactlyTheReadsIncludingThroughRelationships() throws {
        let (graph, home, _, milk, eggs, _) = try groceryGraph()
        let (value, reads) = graph.trackReads { () -> String in
            let name = milk.name
            let place = milk.location?.name ?? ""
            _ = milk.name
            return name + "@" + place
        }
        #expect(value == "Milk@Home")
        let item = Item.entity, location = Location.entity
        #expect(
            Set(reads)
                == [
                    PropertyRead(objectID: milk.objectID, property: item.index(of: "name")!),
                    PropertyRead(objectID: milk.objectID, property: item.index(of: "location")!),
                    PropertyRead(objectID: home.objectID, property: location.index(of: "name")!),
                ]
        )
        #expect(reads.count == 3)
        #expect(reads.contains(home.objectID, "name"))
        #expect(!reads.contains(eggs.objectID, "name"))
        #expect(!reads.contains(milk.objectID, "quantity"))
    }

    @Test func keyValueReadsAreTrackedAndScopesNest() throws {
        let (graph, _, _, milk, eggs, _) = try groceryGraph()
        let (_, outer) = graph.trackReads {
            _ = milk.value(forKey: "quantity")
            let (_, inner) = graph.trackReads { _ = eggs.listed }
            #expect(inner.count == 1 && inner.contains(eggs.objectID, "listed"))
        }
        #expect(outer.count == 2)
        #expect(outer.contains(milk.objectID, "quantity") && outer.contains(eggs.objectID, "listed"))
        let (_, none) = graph.trackReads { graph.withoutObservation { _ = milk.name } }
        #expect(none.isEmpty)
    }

    @Test func theFastPathReadsTheSameValues() throws {
        let (graph, _, _, milk, _, _) = try groceryGraph()
        let name = graph.withoutObservation { milk.name }
        #expect(name == "Milk")
    }
}
