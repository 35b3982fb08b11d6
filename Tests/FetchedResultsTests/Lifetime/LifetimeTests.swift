import FetchedResults
import Foundation
import Testing

/// Schemas, searches, controllers and graphs are freed once their users let go of them: no
/// reference cycles. Each check builds the objects in a function of its own and keeps only
/// weak references.
@Suite struct LifetimeTests {
    /// A graph with a few items in two locations, committed.
    static func makeGraph() throws -> ObjectGraph {
        let graph = ObjectGraph()
        let fridge = graph.insert(Location())
        fridge.name = "Fridge"
        let pantry = graph.insert(Location())
        pantry.name = "Pantry"
        for (index, name) in ["Milk", "Crème", "bread", "Jam"].enumerated() {
            let item = graph.insert(Item())
            item.name = name
            item.location = index.isMultiple(of: 2) ? fridge : pantry
        }
        _ = try graph.commit()
        return graph
    }

    @Test func schemaIsFreedWithItsEntitiesAndFoldedText() throws {
        weak var schema: GraphPredicateSchema?
        weak var item: PredicateEntity<GraphObject>?
        weak var location: PredicateEntity<GraphObject>?
        try {
            let graph = try Self.makeGraph()
            let made = GraphPredicateSchema(Item.self, Location.self)
            let observation = made.maintainFoldedText(in: graph)
            let bound = try FormatPredicate.bind(
                "name CONTAINS[cd] 'e' OR location.name BEGINSWITH[c] 'f' OR ANY location.items.name ==[cd] 'creme'",
                to: made.entity(for: Item.self))
            #expect(graph.objects(of: Item.self).filter(bound.evaluate).count == 4)
            #expect(made.foldedTextCount > 0)
            schema = made
            item = made.entities[Item.entity.name]
            location = made.entities[Location.entity.name]
            observation.cancel()
        }()
        #expect(schema == nil, "GraphPredicateSchema leaked")
        #expect(item == nil, "the schema's Item entity leaked")
        #expect(location == nil, "the schema's Location entity leaked")
    }

    /// An entity kept on its own still reaches the related entities after its schema is gone.
    @Test func entityOutlivesItsSchema() throws {
        let graph = try Self.makeGraph()
        weak var schema: GraphPredicateSchema?
        let entity: PredicateEntity<Item> = {
            let made = GraphPredicateSchema(Item.self, Location.self)
            schema = made
            return made.entity(for: Item.self)
        }()
        #expect(schema == nil)
        let bound = try FormatPredicate.bind("location.name == 'Fridge' AND ANY location.items.name == 'Milk'", to: entity)
        #expect(graph.objects(of: Item.self).filter(bound.evaluate).map(\.name).sorted() == ["Milk", "bread"])
    }

    @Test func searchControllerWithItsOwnSchemaIsFreed() throws {
        weak var search: SearchController<Item>?
        weak var base: ResultsController<Item>?
        weak var graph: ObjectGraph?
        try {
            let madeGraph = try Self.makeGraph()
            let madeBase = ResultsController(graph: madeGraph, request: FetchRequest(Item.self, sortedBy: [SortKey(\.name)]))
            madeBase.performFetch()
            let made = try SearchController(
                base: madeBase, format: "name CONTAINS[cd] $text OR location.name BEGINSWITH[c] $text",
                schema: GraphPredicateSchema(Item.self, Location.self))
            // Every new text binds the format again, through the schema's entities.
            for text in ["f", "fr", "cr", "p", ""] {
                made.searchText = text
            }
            made.searchText = "CRE"
            #expect(made.fetchedObjects.map(\.name) == ["Crème"])
            search = made
            base = madeBase
            graph = madeGraph
        }()
        #expect(search == nil, "SearchController leaked")
        #expect(base == nil, "ResultsController leaked")
        #expect(graph == nil, "ObjectGraph leaked")
    }

    @Test func controllerAndGraphAreFreed() throws {
        weak var controller: ResultsController<Item>?
        weak var graph: ObjectGraph?
        weak var object: Item?
        try {
            let madeGraph = try Self.makeGraph()
            let schema = GraphPredicateSchema(Item.self, Location.self)
            let made = ResultsController(graph: madeGraph, request: try FetchRequest(
                Item.self, format: "location.name == %@", "Fridge", schema: schema, sortedBy: [SortKey(\.name)]))
            made.performFetch()
            #expect(made.fetchedObjects.count == 2)
            madeGraph.objects(of: Item.self)[0].name = "Renamed"
            _ = try madeGraph.commit()
            controller = made
            graph = madeGraph
            object = made.fetchedObjects.first
        }()
        #expect(controller == nil, "ResultsController leaked")
        #expect(graph == nil, "ObjectGraph leaked")
        #expect(object == nil, "a graph object leaked")
    }
}
