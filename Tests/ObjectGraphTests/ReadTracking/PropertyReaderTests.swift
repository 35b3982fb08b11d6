import ObjectGraph
import Testing

/// An entity with a computed property and a plain stored one, which readers refuse.
final class Labelled: GraphObject {
    @Attribute var text = "x"
    var plain = 1
    var shouted: String { text.uppercased() + text }
}

@Suite("PropertyReader")
struct PropertyReaderTests {
    @Test func readsAttributesAndRelationshipsByOffset() throws {
        let (graph, home, _, milk, eggs, _) = try groceryGraph()
        let name = try #require(PropertyReader(\Item.name))
        let quantity = try #require(PropertyReader(\Item.quantity))
        let location = try #require(PropertyReader(\Item.location))
        let items = try #require(PropertyReader(\Location.items))
        #expect(name.property == Item.entity.index(of: "name") && name.name == "name")
        #expect(location.property == Item.entity.index(of: "location"))
        milk.quantity = 3  // pending values are read too
        #expect(name(milk) == "Milk" && quantity(milk) == 3 && quantity(eggs) == 0)
        #expect(location(milk) === home && items(home) == [milk, eggs])
        // Reads through a reader are not tracked.
        let (_, reads) = graph.trackReads { _ = name(milk) }
        #expect(reads.isEmpty)
    }

    @Test func refusesKeyPathsThatAreNotOneProperty() {
        #expect(PropertyReader(\Labelled.shouted) == nil)
        #expect(PropertyReader(\Labelled.plain) == nil)
        #expect(PropertyReader(\Labelled.text) != nil)
        #expect(PropertyReader(\Item.location?.name) == nil)
    }
}
