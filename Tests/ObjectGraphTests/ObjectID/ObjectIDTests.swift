import ObjectGraph
import Testing

@Suite("ObjectID")
struct ObjectIDTests {
    @Test func uriRoundTripsAndRejectsForeignOrMalformedStrings() throws {
        let (graph, home, _, milk, _, _) = try groceryGraph()
        let uri = milk.objectID.uriRepresentation
        #expect(uri.hasPrefix("x-objectgraph://\(graph.identifier.uuidString)/Item/p"))
        #expect(graph.objectID(forURIRepresentation: uri) == milk.objectID)
        #expect(graph.objectID(forURIRepresentation: home.objectID.uriRepresentation) == home.objectID)
        let other = ObjectGraph()
        #expect(other.objectID(forURIRepresentation: uri) == nil)
        for bad in [
            "", "x-objectgraph://", "http://x/Item/p0", uri + "/extra",
            uri.replacingOccurrences(of: "/Item/", with: "/Nope/"),
            uri.replacingOccurrences(of: "/p", with: "/q"),
            "x-objectgraph://\(graph.identifier.uuidString)/Item/p99999", "x-objectgraph://\(graph.identifier.uuidString)/Item/p-1",
            "x-objectgraph://\(graph.identifier.uuidString)/Item/p+1",
        ] {
            #expect(graph.objectID(forURIRepresentation: bad) == nil, "\(bad)")
        }
    }

    @Test func idsAreStableHashableAndOrdered() throws {
        let (graph, _, _, milk, eggs, _) = try groceryGraph()
        let id = milk.objectID
        milk.name = "Changed"
        try graph.commit()
        #expect(milk.objectID == id)
        #expect(id.hashValue == milk.objectID.hashValue)
        #expect(id < eggs.objectID)
        #expect(id != eggs.objectID)
        #expect(id.entityName == "Item")
        #expect(id.description.hasPrefix("Item/p"))
        let other = ObjectGraph()
        let stranger = other.insert(Item())
        #expect(stranger.objectID != id)
    }
}
